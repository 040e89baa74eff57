// The invariants panel and every ordering, end to
// end in Chromium: the naive column turns red at the step that breaks an
// invariant, counting finds no bad fenced ordering, and a click opens the
// shortest failing ordering as a timeline. Screenshots of the chapter in
// both languages at 360 and 1280 px land in target/screenshots/invariants-*.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { SHOTS, base64url, done, everyPlaygroundDrawn, serving, watched } from "./harness.mjs";
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

const site = serving();

/** A page that records console errors and uncaught exceptions (`done` fails on them). */
const open = (path, { width = 1280, height = 900, scheme = "light" } = {}) =>
  watched(site, path, { viewport: { width, height }, colorScheme: scheme });


/** The invariants table: per row, [name, fenced, naive] as {holds, text}. */
const invariants = (page) =>
  page.$$eval(".lf-invariants .lf-invariants-rows tr", (rows) =>
    rows.slice(1).map((row) =>
      [...row.querySelectorAll("td")].map((cell) => ({
        holds: cell.getAttribute("data-holds") === "true",
        text: cell.textContent,
      }))));

/** Clicks the count button; returns how long until the counts were drawn. */
async function count(page, label) {
  const started = Date.now();
  await page.getByRole("button", { name: label }).click();
  await page.waitForSelector(".lf-invariants .lf-counts");
  return Date.now() - started;
}

describe("invariants and every ordering", () => {
  test("the naive column turns red at the step where the stale finish lands, the fenced one never", async () => {
    const page = await open("/#chapter=fencing-off-vs-on&lang=en&predict=0");
    assert.equal(await page.$eval(".lf-invariants", (el) => el.open), true, "the chapter opens the panel");
    await page.focus(".lf");
    for (let step = 1; step <= 8; step++) {
      await page.keyboard.press("ArrowRight");
      const rows = await invariants(page);
      assert.equal(rows.length, 4);
      assert.ok(rows.every(([fenced]) => fenced.holds && fenced.text === "✓ holds"), `step ${step}: fenced green`);
      const stale = rows[1][1];
      assert.equal(stale.holds, step < 3, `step ${step}: the accepted-finish invariant on the naive side`);
      if (step >= 3) assert.match(stale.text, /^✗ broken at step 3: A's finish of snack-1/);
    }
    await done(page);
  });

  test("counting the chapter's orderings shows no bad fenced ordering; a click opens the shortest failing one", async () => {
    const page = await open("/#chapter=every-ordering&lang=en&predict=0");
    assert.match(await page.textContent(".lf-invariants"), /140 orderings/);
    const ms = await count(page, "Count every ordering");
    const table = await page.$$eval(".lf-invariants .lf-counts tr", (rows) =>
      rows.slice(1, 6).map((row) => [...row.querySelectorAll("td")].map((cell) => cell.textContent)));
    assert.deepEqual(table.map((cells) => cells[0]), Array(5).fill("✓ 0"), "with the fence: every count 0");
    assert.match(table[0][1], /^✗ [1-9]/, "without the fence (id only): bad orderings");
    assert.match(await page.textContent(".lf-invariants"), /none of the 140 orderings breaks an invariant/);
    console.log(`# counted 140 orderings in ${ms} ms (click to drawn)`);
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/invariants-counted-${width}-en.png`, fullPage: true });
      await page.locator(".lf-invariants").screenshot({ path: `${SHOTS}/invariants-panel-${width}-en.png` });
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.locator("[data-action=open-shortest][data-arg=id_only]").click();
    assert.equal(await page.$eval(".lf select[data-action=chapter]", (el) => el.value), "sandbox");
    const events = await page.$$eval(".lf [data-event]", (rows) => rows.length);
    assert.equal(events, 5, "the shortest failing ordering has 5 events");
    assert.match(await page.evaluate(() => location.hash), /scenario=/, "its address carries it");
    assert.equal(await page.evaluate(() => document.activeElement?.matches(".lf")), true, "the keyboard is on the playground");
    await page.keyboard.press("End");
    const rows = await invariants(page);
    assert.ok(rows.every(([fenced]) => fenced.holds), "fenced green at its end");
    assert.equal(rows[1][1].holds, false);
    assert.match(rows[1][1].text, /^✗ broken at step 5: A's finish of snack-1/);
    await page.screenshot({ path: `${SHOTS}/invariants-shortest-1280-en.png`, fullPage: true });
    await done(page);
  });

  test("while predicting, the counts wait for the last answer and say why", async () => {
    const page = await open("/#chapter=every-ordering&lang=ko");
    const panel = await page.textContent(".lf-invariants");
    assert.match(panel, /140가지/, "the number of orderings tells no ending");
    assert.match(panel, /마지막 질문에 답한 뒤에/, "why the counts wait");
    assert.equal(await page.getByRole("button", { name: "모든 실행 순서 세기" }).count(), 0, "no count button");
    assert.equal(await page.locator(".lf-invariants .lf-counts").count(), 0, "no counts");
    await page.locator(".lf-invariants").screenshot({ path: `${SHOTS}/invariants-waiting-1280-ko.png` });
    await done(page);
  });

  test("in Korean, at 360 and 1280 px, the chapter counts and says it in Korean", async () => {
    for (const width of [360, 1280]) {
      const page = await open("/#chapter=every-ordering&lang=ko&predict=0", { width });
      await count(page, "모든 실행 순서 세기");
      const said = await page.textContent(".lf-invariants");
      assert.match(said, /실행 순서 140가지 가운데 불변 조건이 깨지는 것이 하나도 없습니다/);
      await page.focus(".lf");
      await page.keyboard.press("End");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px at ${width} px`);
      await page.screenshot({ path: `${SHOTS}/invariants-counted-${width}-ko.png`, fullPage: true });
      await page.locator(".lf-invariants").screenshot({ path: `${SHOTS}/invariants-panel-${width}-ko.png` });
      await done(page);
    }
  });

  test("the counted panel, red cells included, has no serious or critical axe violation (light and dark)", async () => {
    for (const scheme of ["light", "dark"]) {
      const page = await open("/#chapter=every-ordering&lang=ko&predict=0", { scheme });
      await count(page, "모든 실행 순서 세기");
      await page.locator("[data-action=open-shortest][data-arg=id_only]").click();
      await page.focus(".lf");
      await page.keyboard.press("End");
      await count(page, "모든 실행 순서 세기");
      await page.addScriptTag({ path: AXE });
      const found = await page.evaluate(async () => {
        const { violations } = await window.axe.run(".lf-invariants", { resultTypes: ["violations"] });
        return violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => `${v.id} (${v.impact}) x${v.nodes.length}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
      });
      assert.deepEqual(found, [], scheme);
      await page.locator(".lf-invariants").screenshot({ path: `${SHOTS}/invariants-panel-shortest-${scheme}-ko.png` });
      await done(page);
    }
  });

  test("in a compact Korean embed the chapter's panel is shown and counts; elsewhere a closed one is hidden", async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const body = `<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>embed</title></head><body>
<script type="module" src="leasefence.js"></script>
<div data-leasefence data-scenario="every-ordering" data-compact data-predict="off"></div>
<div data-leasefence data-scenario="canonical" data-compact></div></body></html>`;
    await page.route("**/embed-invariants.html", (route) => route.fulfill({ contentType: "text/html", body }));
    await page.goto(`${site.base}/embed-invariants.html`);
    await page.waitForFunction(everyPlaygroundDrawn);
    const [chapter, other] = await page.$$("[data-leasefence] .lf-invariants");
    // A lesson shows one view at a time: the chapter's panel is its last
    // scene's, and one press of the view switcher away from the first.
    assert.equal(await chapter.isVisible(), false, "every-ordering: not the first scene's view");
    await page.locator("[data-leasefence]").first().locator(".lf-panes [data-arg=orderings]").click();
    assert.equal(await chapter.isVisible(), true, "every-ordering: the panel is open and shown");
    assert.equal(await other.isVisible(), false, "canonical: the closed panel is hidden in a compact embed");
    await page.locator("[data-leasefence]").first().getByRole("button", { name: "모든 실행 순서 세기" }).click();
    await page.locator("[data-leasefence] .lf-invariants .lf-counts").first().waitFor();
    assert.match(await chapter.textContent(), /실행 순서 140가지 가운데 불변 조건이 깨지는 것이 하나도 없습니다/);
    await context.close();
  });

  test("the page's bound: 3 workers, 8 events (560 orderings) are counted; the time is printed", async () => {
    const worker = (name, at) => [
      { at, worker: name, do: "claim", lease_ms: 100 },
      { at: at + 50, worker: name, do: "send" },
      { at: at + 150, worker: name, do: "finish" },
    ];
    const events = [...worker("A", 0), ...worker("B", 200), ...worker("C", 400)].slice(0, 8);
    const scenario = { jobs: [{ id: "snack-1", qty: 1, deadline: 5000 }], events };
    const page = await open(`/#scenario=${base64url(JSON.stringify(scenario))}&lang=en`);
    await page.locator(".lf-invariants summary").click();
    // Opening draws the panel on the `toggle` event, which comes after the click.
    await page.waitForFunction(() => /560 orderings/.test(document.querySelector(".lf-invariants").textContent));
    const ms = await count(page, "Count every ordering");
    const fenced = await page.$$eval(".lf-invariants .lf-counts tr td:nth-child(2)", (cells) =>
      cells.slice(0, 5).map((cell) => cell.textContent));
    assert.deepEqual(fenced, Array(5).fill("✓ 0"));
    console.log(`# counted 560 orderings in ${ms} ms (click to drawn)`);
    await done(page);
  });
});
