// No input a learner can make traps the playground: for every chapter, in
// both languages, predicting, 2,000 random actions (clicks on anything
// clickable, the keys, slider moves, picker and checkbox changes, edits
// of the timeline's text) and real mouse drags of both sliders, with no
// uncaught exception, no console error, and a playground that still
// steps at the end. The actions are random but seeded per chapter: a
// failure names the seed and the last actions, and MONKEY_SEED=n replays
// one run.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { done, serving, watched } from "./harness.mjs";

const site = serving();
const CHAPTERS = [
  "canonical", "expiry-boundary", "deadline-caps-lease", "quarantine", "polling-cannot-steal",
  "restart-same-name", "late-delivery", "deadline-expired", "fencing-off-vs-on", "write-lock",
  "every-ordering",
];
const ACTIONS = Number(process.env.MONKEY_ACTIONS ?? 2000);

/**
 * Run in the page: `count` random actions on the playground's root, from
 * `seed`. Returns the last actions taken, for a failure's message.
 */
async function monkey({ count, seed }) {
  let state = seed >>> 0 || 1;
  const random = () => {
    // xorshift32: the same actions for the same seed.
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state / 4294967296;
  };
  const pick = (list) => list[Math.floor(random() * list.length)];
  const root = () => document.querySelector(".lf");
  const visible = (el) => el.offsetParent !== null || el.getClientRects().length > 0;
  const log = [];
  let grades = 0;
  for (let n = 0; n < count; n++) {
    const lf = root();
    if (!lf) { log.push("no root"); break; }
    const kind = random();
    if (kind < 0.45) {
      const clickable = [...lf.querySelectorAll("button, summary, [data-event], input[type=checkbox]")]
        .filter(visible)
        .filter((el) => el.getAttribute("data-action") !== "lab-grade" || grades < 2);
      const target = pick(clickable);
      if (!target) continue;
      if (target.getAttribute("data-action") === "lab-grade") grades++;
      log.push(`click ${target.tagName} ${target.getAttribute("data-action") ?? ""} ${target.getAttribute("data-arg") ?? ""} ${target.textContent.slice(0, 30)}`);
      target.click();
    } else if (kind < 0.7) {
      const key = pick(["ArrowRight", "ArrowRight", "ArrowLeft", "Home", "End", " ", "Enter", "Tab", "p", "Escape"]);
      const target = pick([lf, document.activeElement ?? lf]);
      log.push(`key ${JSON.stringify(key)} on ${target.tagName}`);
      target.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, composed: true }));
    } else if (kind < 0.88) {
      const ranges = [...lf.querySelectorAll("input[type=range]")].filter((el) => !el.disabled);
      const range = pick(ranges);
      if (!range) continue;
      const min = Number(range.min || 0), max = Number(range.max || 100);
      const value = Math.round(min + random() * (max - min));
      log.push(`slide ${range.getAttribute("data-action")} to ${value}`);
      range.value = String(value);
      range.dispatchEvent(new Event("input", { bubbles: true }));
      if (random() < 0.3) range.dispatchEvent(new Event("change", { bubbles: true }));
    } else if (kind < 0.95) {
      const select = pick([...lf.querySelectorAll("select")].filter((el) => !el.disabled));
      if (!select || select.options.length === 0) continue;
      select.selectedIndex = Math.floor(random() * select.options.length);
      log.push(`select ${select.getAttribute("data-action")} = ${select.value}`);
      select.dispatchEvent(new Event("change", { bubbles: true }));
    } else {
      const area = pick([...lf.querySelectorAll("textarea")]);
      if (!area) continue;
      const text = area.value;
      const at = Math.floor(random() * (text.length + 1));
      const insert = pick(["", "}", "{", "\"", "9999999999999999999", "-1", ",", "\u0000", "\"at\": 5,", "한글"]);
      area.value = text.slice(0, at) + insert + text.slice(at + Math.floor(random() * 4));
      log.push(`edit ${area.getAttribute("data-action") ?? area.className} at ${at} ${JSON.stringify(insert)}`);
      area.dispatchEvent(new Event("input", { bubbles: true }));
    }
    if (n % 25 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return log.slice(-15);
}

/** Real mouse drags across each enabled slider, in the page's own panel. */
async function drag(page) {
  for (const action of ["boundary", "lease"]) {
    const range = page.locator(`.lf input[type=range][data-action=${action}]`);
    if (!(await range.count()) || !(await range.isVisible()) || (await range.isDisabled())) continue;
    const box = await range.boundingBox();
    if (!box) continue;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.8, y);
    await page.mouse.down();
    for (let step = 0; step <= 10; step++) {
      await page.mouse.move(box.x + box.width * (0.8 - step * 0.07), y);
    }
    await page.mouse.up();
  }
}

describe("random input never traps the playground", () => {
  for (const [index, chapter] of CHAPTERS.entries()) {
    test(`${chapter}: ${ACTIONS} random actions and real drags, no error, still steps`, async () => {
      const lang = index % 2 === 0 ? "ko" : "en";
      const seed = Number(process.env.MONKEY_SEED ?? 7919 * (index + 1));
      const page = await watched(site, `/#chapter=${chapter}&lang=${lang}`, { viewport: { width: 1280, height: 900 } });
      // The panels open, so their controls are in reach; then real drags
      // of the sliders, once answered and once not.
      await page.$$eval(".lf details", (all) => all.forEach((details) => { details.open = true; }));
      await drag(page);
      const last = await page.evaluate(monkey, { count: ACTIONS, seed });
      await page.$$eval(".lf details", (all) => all.forEach((details) => { details.open = true; }));
      await drag(page);
      assert.deepEqual(page.problems, [], `seed ${seed}: errors after these actions:\n${last.join("\n")}`);
      // Still alive: the language switch redraws the playground.
      const switched = await page.evaluate(() => {
        const lf = document.querySelector(".lf");
        const before = lf.getAttribute("lang");
        lf.querySelector("[data-action=lang]").click();
        return [before, document.querySelector(".lf").getAttribute("lang")];
      });
      assert.notEqual(switched[1], switched[0], `seed ${seed}: the playground still answers`);
      assert.ok(await page.$(".lf [data-event]"), `seed ${seed}: the event list is still drawn`);
      await done(page);
    });
  }
});

describe("a drag on a predicted chapter", () => {
  test("every question answered, then a real drag of the finish slider across the lease's end: no error, the slider stays usable", async () => {
    const page = await watched(site, "/#chapter=canonical&lang=ko", { viewport: { width: 1280, height: 900 } });
    await page.evaluate(async () => {
      const lf = document.querySelector(".lf");
      for (let n = 0; n < 60; n++) {
        const answer = lf.querySelector("[data-action=guess], [data-action=field]");
        if (answer) answer.click();
        else lf.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    });
    await page.$$eval(".lf details", (all) => all.forEach((details) => { details.open = true; }));
    const range = page.locator(".lf input[type=range][data-action=boundary]");
    assert.equal(await range.isDisabled(), false, "answered: the slider moves");
    await drag(page);
    assert.deepEqual(page.problems, [], "no error from the drag");
    assert.equal(await range.isDisabled(), false, "after the drag the slider still moves");
    await drag(page);
    await done(page);
  });
});
