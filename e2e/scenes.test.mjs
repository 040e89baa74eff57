// A lesson, one idea per screen (crates/course/src/playground/scenes): an
// embed walks its chapter scene by scene, each in the one view that shows
// it, every other view one key away; the full page, the workbench, shows
// every panel at once. Against the real `leasefence serve`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serving } from "./harness.mjs";

const site = serving();

/** A host page with one embed of `chapter`, watching (no questions). */
async function lesson(chapter, lang = "en", width = 1280) {
  const context = await site.browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.errors = [];
  page.on("console", (message) => message.type() === "error" && page.errors.push(message.text()));
  page.on("pageerror", (error) => page.errors.push(error.message));
  await page.route("**/host.html", (route) => route.fulfill({
    contentType: "text/html",
    body: `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Course</title></head>
<body><div data-leasefence data-scenario="${chapter}" data-predict="off"></div><script type="module" src="pkg/embed.js"></script></body></html>`,
  }));
  await page.goto(`${site.base}/host.html`);
  await page.waitForFunction(() => document.querySelector("[data-leasefence]")?.shadowRoot?.querySelector("[data-event]"));
  return page;
}

/** The views on screen (each visible part's `data-pane`) and the switcher's pressed button. */
function screen(page) {
  return page.evaluate(() => {
    const lf = document.querySelector("[data-leasefence]").shadowRoot.querySelector(".lf");
    const shown = [...lf.querySelectorAll("[data-pane]")]
      .filter((part) => part.checkVisibility())
      .map((part) => part.dataset.pane);
    const pressed = lf.querySelector(".lf-panes [aria-pressed=true]")?.dataset.arg ?? null;
    return { shown: [...new Set(shown)], pressed };
  });
}

/** Presses `key` with the keyboard inside the embed. */
async function press(page, key) {
  await page.locator("[data-leasefence] .lf").focus();
  await page.keyboard.press(key);
}

test("a lesson walks its chapter one view at a time: the start's events, a claim's lanes, the point's own, a finish's row", async () => {
  const page = await lesson("canonical");
  const walked = [await screen(page)];
  for (let n = 0; n < 5; n++) {
    await press(page, "ArrowRight");
    walked.push(await screen(page));
  }
  // The start, A's claim, what a claim hands its worker, B's reclaim, no
  // heartbeat (seen on the lanes), A's late finish.
  const expected = ["events", "lanes", "point", "lanes", "lanes", "row"];
  assert.deepEqual(walked.map((seen) => seen.pressed), expected, "the switcher's pressed view at each scene");
  for (const [n, seen] of walked.entries()) {
    const own = expected[n] === "point" ? [] : [expected[n]];
    assert.deepEqual(seen.shown, own, `scene ${n}: expected only its view on screen, current ${JSON.stringify(seen.shown)}`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("every other view is one key away, and the pick lasts until the scene changes", async () => {
  const page = await lesson("canonical", "ko");
  await press(page, "ArrowRight");
  assert.deepEqual(await screen(page), { shown: ["lanes"], pressed: "lanes" });
  // 1 the lanes, 2 the row, 3 the SQL, 4 the timeline.
  await press(page, "3");
  assert.deepEqual(await screen(page), { shown: ["sql"], pressed: "sql" });
  await page.locator("[data-leasefence] .lf-panes [data-arg=row]").click();
  assert.deepEqual(await screen(page), { shown: ["row"], pressed: "row" });
  await press(page, "ArrowRight");
  assert.equal((await screen(page)).pressed, "point", "the next scene in its own view");
  await press(page, "ArrowLeft");
  assert.deepEqual(await screen(page), { shown: ["lanes"], pressed: "lanes" }, "back: the scene's own view again");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a lesson's controls move and count scenes, not events, and say its keys", async () => {
  const page = await lesson("canonical", "ko");
  const controls = () => page.evaluate(() => {
    const lf = document.querySelector("[data-leasefence]").shadowRoot.querySelector(".lf");
    const name = (action) => lf.querySelector(`.lf-controls [data-action=${action}]`).getAttribute("aria-label");
    return {
      next: name("step"),
      previous: name("back"),
      position: lf.querySelector(".lf-controls .lf-position").textContent,
      keys: lf.querySelector(".lf-controls .lf-keys").checkVisibility() ? lf.querySelector(".lf-controls .lf-keys").textContent : null,
    };
  });
  const first = await controls();
  assert.deepEqual([first.next, first.previous], ["다음 장면", "이전 장면"]);
  assert.match(first.position, /^장면 1\/\d+$/, `the position counts scenes: ${first.position}`);
  assert.match(first.keys ?? "", /← → 장면 이동/, `the lesson's keys are said at 1280 px: ${first.keys}`);
  await press(page, "ArrowRight");
  assert.match((await controls()).position, /^장면 2\//, "one scene a move");
  const words = JSON.stringify(await controls());
  assert.doesNotMatch(words, /단계/, `no event step named beside the scenes: ${words}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the full page is the workbench: every panel at once and no switcher", async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${site.base}/#v=1&chapter=canonical&lang=en&predict=0&step=2`);
  await page.waitForSelector(".lf [data-event]");
  assert.equal(await page.$eval(".lf", (lf) => lf.hasAttribute("data-scene")), false);
  assert.equal(await page.$eval(".lf .lf-panes", (panes) => panes.hidden), true);
  const shown = await page.$$eval(".lf [data-pane]", (parts) => [...new Set(parts.filter((part) => part.checkVisibility()).map((part) => part.dataset.pane))].sort());
  for (const pane of ["events", "lanes", "row", "sql"]) {
    assert.ok(shown.includes(pane), `expected the ${pane} view on screen with the others; current ${JSON.stringify(shown)}`);
  }
  // Its controls step events.
  assert.equal(await page.$eval(".lf .lf-controls [data-action=step]", (el) => el.getAttribute("aria-label")), "Step forward");
  assert.match(await page.$eval(".lf .lf-controls .lf-position", (el) => el.textContent), /^Step 2 of \d+$/);
  await context.close();
});
