import { start } from "./harness.mjs";
const { base, browser, stop } = await start();
const shots = [];
for (const lang of ["ko", "en"]) for (const width of [360, 1280]) for (const scheme of ["light", "dark"]) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // compare panel at the end of canonical with id_and_owner
  await page.goto(`${base}/#chapter=canonical&lang=${lang}&predict=0`);
  await page.waitForSelector(".lf [data-event]");
  await page.$$eval(".lf details.lf-compare", (all) => all.forEach((d) => { d.open = true; }));
  await page.waitForTimeout(200);
  await page.selectOption(".lf select[data-action=guard]", "id_and_owner").catch(() => {});
  await page.locator("[data-action=end]").click();
  await page.waitForTimeout(200);
  const compare = page.locator(".lf .lf-compare");
  await compare.scrollIntoViewIfNeeded();
  await compare.screenshot({ path: `/tmp/shots/compare-${lang}-${width}-${scheme}.png` });
  // a wrong prediction with its reason: predicting, B's claim at 1000 answered "finds nothing"
  await page.goto(`${base}/#chapter=canonical&lang=${lang}&predict=1`);
  await page.reload();
  await page.waitForSelector(".lf [data-event]");
  await page.evaluate(async () => {
    const lf = document.querySelector(".lf");
    const answer = (arg) => lf.querySelector(`[data-action=guess][data-arg=${arg}]`)?.click();
    lf.querySelector("[data-action=step]").click(); await new Promise((r) => setTimeout(r, 50));
    answer("accept"); await new Promise((r) => setTimeout(r, 50));
    lf.querySelector("[data-action=step]").click(); await new Promise((r) => setTimeout(r, 50));
    answer("reject"); await new Promise((r) => setTimeout(r, 50));
  });
  const strip = page.locator(".lf .lf-prompt, .lf [class*=prompt]").first();
  await page.screenshot({ path: `/tmp/shots/wrong-${lang}-${width}-${scheme}.png`, fullPage: false });
  shots.push(`${lang}-${width}-${scheme}: ${errors.length} errors`);
  await context.close();
}
console.log(shots.join("\n"));
await stop();
