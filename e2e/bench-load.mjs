// Time to interactive on a slow connection and a slow CPU, side by side in
// one run: the playground (a chapter, until its
// timeline is drawn and painted) against a bare page that loads sql.js and
// runs one statement of the queue (the least a browser SQLite lesson
// does). Both served by the real `leasefence serve`, precompressed the
// same way, cache off, Chromium throttled as the issue measured: 150 ms
// latency, 1.6 Mbit/s down, 0.75 Mbit/s up, CPU 4x slower. Alternating,
// median of RUNS each. Also, for the record, a chapter whose panels open
// with it (write-lock), which waits for the module's second part before
// its first drawing. Measured, not asserted. Run by `make bench-load`;
// the figures go to BENCHMARKS.md by hand.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { ROOT, start } from "./harness.mjs";

const RUNS = Number(process.env.RUNS ?? 5);
const THROTTLE = { latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 0.75e6 / 8 };

// The bare page: sql.js 1.17's wasm build, one claim of the queue's kind.
const bare = mkdtempSync(join(tmpdir(), "leasefence-sqljs-"));
const dist = `${ROOT}e2e/node_modules/sql.js/dist`;
copyFileSync(`${dist}/sql-wasm.js`, join(bare, "sql-wasm.js"));
copyFileSync(`${dist}/sql-wasm.wasm`, join(bare, "sql-wasm.wasm"));
writeFileSync(join(bare, "index.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>sql.js</title></head>
<body><p>sql.js</p><script src="sql-wasm.js"></script><script>
initSqlJs({ locateFile: (file) => file }).then((SQL) => {
  const db = new SQL.Database();
  db.run("CREATE TABLE jobs (id TEXT PRIMARY KEY, state TEXT, owner TEXT, token INTEGER, lease_until INTEGER)");
  db.run("INSERT INTO jobs VALUES ('snack-1', 'pending', NULL, 0, NULL)");
  db.exec("UPDATE jobs SET state = 'leased', owner = 'A', token = token + 1, lease_until = 1000 WHERE id = 'snack-1' RETURNING token");
  window.__ready = performance.now();
});
</script></body></html>`);
execFileSync("node", [`${ROOT}scripts/compress.mjs`, bare], { stdio: "ignore" });

/**
 * Milliseconds from navigation to interactive on a throttled, cold page:
 * the first frame painted after `selector` appears (noted by an observer
 * the page starts with: a task after the next animation frame, so the
 * drawing's style, layout and paint are counted), or when the page notes
 * `window.__ready` itself.
 */
async function timeToInteractive(browser, url, selector) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  if (selector) {
    await page.addInitScript((wanted) => {
      new MutationObserver((_, observer) => {
        if (document.querySelector(wanted)) {
          observer.disconnect();
          requestAnimationFrame(() => setTimeout(() => { window.__ready = performance.now(); }));
        }
      }).observe(document, { childList: true, subtree: true });
    }, selector);
  }
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", { offline: false, ...THROTTLE });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForFunction(() => window.__ready !== undefined, null, { timeout: 120_000, polling: 50 });
  const ms = await page.evaluate(() => window.__ready);
  await context.close();
  return ms;
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

const page = await start();
const sqljs = await start({ dir: bare });
try {
  const times = { playground: [], sqljs: [], waiting: [] };
  for (let run = 0; run < RUNS; run++) {
    times.playground.push(await timeToInteractive(page.browser, `${page.base}/#v=1&chapter=canonical&lang=en`, ".lf [data-event]"));
    times.sqljs.push(await timeToInteractive(sqljs.browser, `${sqljs.base}/index.html`, null));
    times.waiting.push(await timeToInteractive(page.browser, `${page.base}/#v=1&chapter=write-lock&lang=en`, ".lf [data-event]"));
  }
  const [ours, theirs, waiting] = [median(times.playground), median(times.sqljs), median(times.waiting)];
  console.log(`## Time to interactive, throttled (150 ms, 1.6 Mbit/s, CPU 4x), median of ${RUNS}\n`);
  console.log("| page | ms | every run |");
  console.log("| --- | ---: | --- |");
  console.log(`| the playground (a chapter drawn and painted) | ${ours.toFixed(0)} | ${times.playground.map((t) => t.toFixed(0)).join(", ")} |`);
  console.log(`| sql.js 1.17 alone (one statement run) | ${theirs.toFixed(0)} | ${times.sqljs.map((t) => t.toFixed(0)).join(", ")} |`);
  console.log(`| a chapter that waits for the second part (write-lock) | ${waiting.toFixed(0)} | ${times.waiting.map((t) => t.toFixed(0)).join(", ")} |`);
  console.log(`\nplayground / sql.js: ${(ours / theirs).toFixed(2)} (the issue's target: at most 0.80)`);
} finally {
  await page.stop();
  await sqljs.stop();
  rmSync(bare, { recursive: true, force: true });
}
