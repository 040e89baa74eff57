import { start } from "./harness.mjs";
const { base, browser, stop } = await start();
const page = await browser.newPage();
for (const hash of ["#chapter=write-lock&lang=en&predict=0", "#v=1&chapter=write-lock&lang=en&predict=0"]) {
  await page.goto(`${base}/${hash}`);
  await page.waitForSelector(".lf [data-event]");
  console.log(hash, "->", await page.evaluate(() => [document.querySelector(".lf-notice")?.textContent ?? "(none)", location.hash]));
  await page.selectOption(".lf-statements select[data-action=race]", "send");
  console.log(" after race:", await page.evaluate(() => [document.querySelector(".lf-notice")?.textContent ?? "(none)", location.hash]));
}
await stop();
