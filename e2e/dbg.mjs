import { start } from "./harness.mjs";
const THROTTLE = { latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 0.75e6 / 8 };
const dirs = process.argv.slice(2);
const servers = [];
for (const d of dirs) servers.push(await start({ dir: d }));
const runs = Number(process.env.RUNS ?? 3);
const times = dirs.map(() => []);
for (let r = 0; r < runs; r++) for (let i = 0; i < dirs.length; i++) {
  const s = servers[i];
  const context = await s.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    new MutationObserver((_, o) => { if (document.querySelector(".lf [data-event]")) { o.disconnect(); requestAnimationFrame(() => setTimeout(() => { window.__ready = performance.now(); })); } })
      .observe(document, { childList: true, subtree: true });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", { offline: false, ...THROTTLE });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.goto(`${s.base}/#v=1&chapter=canonical&lang=en`, { waitUntil: "commit" });
  await page.waitForFunction(() => window.__ready !== undefined, null, { timeout: 60000, polling: 50 });
  times[i].push(Math.round(await page.evaluate(() => window.__ready)));
  await context.close();
}
for (const s of servers) await s.stop();
const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
dirs.forEach((d, i) => console.log(d, median(times[i]), times[i].join(", ")));
