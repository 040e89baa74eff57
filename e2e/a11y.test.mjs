// Accessibility: axe-core finds no serious or critical
// violation on the full page and on a course page with three embeds, in
// the light and the dark theme (axe checks WCAG AA contrast too). Against
// the real `leasefence serve`, in Debian's Chromium. Run by `make e2e`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { SHOTS, everyPlaygroundDrawn, playgroundRoots, serving } from "./harness.mjs";
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

// A course page as an author would write it: three playgrounds, one tag.
const THREE_EMBEDS = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Three embeds</title></head>
<body><main><h1>Leases, three ways</h1>
<script type="module" src="leasefence.js"></script>
<div data-leasefence data-scenario="canonical" lang="en"></div>
<div data-leasefence data-scenario="late-delivery" lang="ko" data-compact></div>
<div data-leasefence data-scenario="fencing-off-vs-on" lang="en"></div>
</main></body></html>`;

const site = serving();

/** Serious and critical violations on `path` in `scheme`, as readable lines
 * (after `act(page)`, when given: a learner's clicks). */
async function violations(path, scheme, width, act) {
  const context = await site.browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
  const page = await context.newPage();
  await page.route("**/three-embeds.html", (route) => route.fulfill({ contentType: "text/html", body: THREE_EMBEDS }));
  await page.goto(site.base + path);
  await page.waitForFunction(everyPlaygroundDrawn);
  // At each timeline's end, so verdicts, refusal chips and the receiver
  // are on screen and checked too; an open statement panel at its end
  // too (its verdicts, both lanes). Embeds draw in shadow roots.
  await page.evaluate(`(${playgroundRoots})().forEach((root) => {
    root.dispatchEvent(new KeyboardEvent("keydown", { key: "End", bubbles: true }));
    root.querySelectorAll(".lf-statements[open] [data-arg=end]").forEach((button) => button.click());
  })`);
  if (act) await act(page);
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => {
    const { violations } = await window.axe.run(document, { resultTypes: ["violations"] });
    return violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}) x${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
  });
  await page.screenshot({ path: `${SHOTS}/a11y-${path.replace(/\W/g, "") || "index"}-${scheme}-${width}.png`, fullPage: true });
  await context.close();
  return found;
}

for (const scheme of ["light", "dark"]) {
  test(`the full page has no serious or critical axe violation (${scheme})`, async () => {
    for (const width of [360, 1280]) assert.deepEqual(await violations("/", scheme, width), [], `${width} px`);
    const compared = "/#v=1&chapter=fencing-off-vs-on&lang=ko";
    assert.deepEqual(await violations(compared, scheme, 1280), [], "the comparison open, in Korean");
    const statements = "/#v=1&chapter=write-lock&lang=ko";
    assert.deepEqual(await violations(statements, scheme, 1280), [], "the statement panel open, in Korean");
    // restart-same-name's end shows a course point in the step card.
    const point = "/#v=1&chapter=restart-same-name&lang=ko";
    assert.deepEqual(await violations(point, scheme, 360), [], "a course point, in Korean");
    // The lab open, its start graded: the counterexample and both tables.
    const graded = async (page) => {
      await page.click(".lf-lab [data-action=lab-grade]");
      await page.waitForSelector(".lf-lab-answer [data-passed]");
    };
    for (const width of [360, 1280]) {
      assert.deepEqual(await violations("/#v=1&lab=finish&lang=ko", scheme, width, graded), [], `the lab, graded, ${width} px`);
    }
  });
  test(`a page with three embeds has no serious or critical axe violation (${scheme})`, async () => {
    assert.deepEqual(await violations("/three-embeds.html", scheme, 1280), []);
  });
}
