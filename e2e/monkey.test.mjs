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
import { CHAPTERS, drag, monkey } from "./random-input.mjs";

const site = serving();
const ACTIONS = Number(process.env.MONKEY_ACTIONS ?? 2000);

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
      // (It waits for the other language's texts, fetched then.)
      const before = await page.evaluate(() => {
        const lf = document.querySelector(".lf");
        const before = lf.getAttribute("lang");
        lf.querySelector("[data-action=lang]").click();
        return before;
      });
      const answered = await page.waitForFunction((before) => document.querySelector(".lf").getAttribute("lang") !== before, before, { timeout: 30_000 })
        .then(() => true, () => false);
      assert.ok(answered, `seed ${seed}: the playground still answers (its language switched from ${before})`);
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
