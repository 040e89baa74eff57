// A panel redrawn in place says what a fresh drawing of the same state
// says: after each run of random actions (those of e2e/monkey.test.mjs),
// everything the learner can see (every visible element's own text, its
// attributes, an input's value) is read, then the playground is drawn
// afresh from the same session (the language switched there and back,
// which rebuilds every panel) and read again. A sentence an incremental
// drawing left stale, a control it left in an old state, or a panel or
// a draft the switch lost shows as a difference. The core's checker (crates/course/tests/screens.rs) proves
// the views true; this proves the page draws the view it was given.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { done, serving, watched } from "./harness.mjs";
import { CHAPTERS, monkey } from "./random-input.mjs";

const site = serving();
const ROUNDS = Number(process.env.REDRAW_ROUNDS ?? 20);
const ACTIONS = 25;

/**
 * Run in the page: one line per visible element of the playground, its
 * tag, attributes, value and own text, in document order. The live
 * region is left out: it announces the last change (a fresh drawing has
 * announced none), it is not a state of the screen.
 */
function screen() {
  const lf = document.querySelector(".lf");
  const lines = [];
  for (const element of lf.querySelectorAll("*")) {
    if (element.closest("[aria-live]") || !element.checkVisibility({ checkVisibilityCSS: true })) continue;
    // A text area's text is its default; its value, read below, shows.
    const own = element.tagName === "TEXTAREA" ? "" : [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.data).join("").trim();
    // `checked` and an input's `value` attribute are only defaults: the
    // properties, read below, are what shows.
    const attributes = [...element.attributes].filter((a) => a.name !== "checked" && !(a.name === "value" && element.tagName === "INPUT")).map((a) => `${a.name}=${JSON.stringify(a.value)}`).sort().join(" ");
    const value = ["INPUT", "SELECT", "TEXTAREA"].includes(element.tagName) ? ` value=${JSON.stringify(element.value)}` : "";
    const checked = element.type === "checkbox" ? ` checked=${element.checked}` : "";
    lines.push(`<${element.tagName.toLowerCase()} ${attributes}${value}${checked}> ${own}`);
  }
  return lines;
}

/**
 * Stops playing, then opens every panel and every fold inside one (a
 * panel drawn as it opens draws its folds closed), waiting for what
 * opening draws.
 */
async function openAll(page) {
  await page.evaluate(() => {
    const play = document.querySelector(".lf [data-action=play]");
    if (play?.getAttribute("aria-pressed") === "true") play.click();
  });
  for (let pass = 0; pass < 3; pass++) {
    const opened = await page.$$eval(".lf details:not([open])", (all) => all.map((details) => { details.open = true; }).length);
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    if (opened === 0) break;
  }
}

/**
 * Draws the playground afresh from its own session: the language switched
 * there and back, which rebuilds every panel. Returns the visible text
 * while it was in the other language.
 */
async function redrawAll(page) {
  // The switch waits for the other language's texts (fetched the first time).
  const switched = async () => {
    const before = await page.evaluate(() => {
      const lf = document.querySelector(".lf");
      const before = lf.getAttribute("lang");
      lf.querySelector("[data-action=lang]").click();
      return before;
    });
    await page.waitForFunction((before) => document.querySelector(".lf").getAttribute("lang") !== before, before);
  };
  await switched();
  const between = await page.evaluate(() => {
    const lf = document.querySelector(".lf");
    // The language button names the other language in that language.
    const text = [...lf.querySelectorAll("*")]
      .filter((element) => element.closest("[lang]") === lf && element.checkVisibility({ checkVisibilityCSS: true }))
      .flatMap((element) => [...element.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE))
      .map((node) => node.data).join("\n");
    return { lang: lf.getAttribute("lang"), text };
  });
  await switched();
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
  return between;
}

/** The first lines where two readings differ, with a few around them. */
function firstDifference(drawn, fresh) {
  const at = drawn.findIndex((line, n) => line !== fresh[n]);
  const from = Math.max(0, (at === -1 ? Math.min(drawn.length, fresh.length) : at) - 2);
  const show = (lines) => lines.slice(from, from + 6).map((line) => `  ${line}`).join("\n");
  return `redrawn in place:\n${show(drawn)}\ndrawn afresh:\n${show(fresh)}`;
}

describe("a panel redrawn in place shows what a fresh drawing shows", () => {
  for (const [index, chapter] of CHAPTERS.entries()) {
    test(`${chapter}: after each of ${ROUNDS} runs of ${ACTIONS} random actions`, async () => {
      const lang = index % 2 === 0 ? "ko" : "en";
      const page = await watched(site, `/#chapter=${chapter}&lang=${lang}`, { viewport: { width: 1280, height: 900 } });
      await openAll(page);
      for (let round = 0; round < ROUNDS; round++) {
        const seed = 104729 * (index + 1) + round;
        const last = await page.evaluate(monkey, { count: ACTIONS, seed, hangul: false });
        await openAll(page);
        const drawn = await page.evaluate(screen);
        const between = await redrawAll(page);
        // The switch keeps open every panel whose state the session keeps
        // (all were open); the boundary's and the editor's, and the folds
        // inside a panel, are drawn closed, so open them again.
        const closed = await page.$$eval(".lf details.lf-panel:not([open]):not(.lf-boundary, .lf-editor)", (all) => all.map((details) => details.className));
        assert.deepEqual(closed, [], `seed ${seed}: panels the language switch closed`);
        await openAll(page);
        const fresh = await page.evaluate(screen);
        // Nothing drawn in one language survives into the other: in
        // English, no Hangul at all (Korean sentences have SQL and
        // names in Latin letters, so the test cannot go the other way).
        const hangul = between.text.match(/.{0,30}[\uac00-\ud7a3].{0,30}/u);
        if (between.lang === "en") assert.equal(hangul, null, `seed ${seed}: Korean left on the English screen`);
        assert.ok(drawn.length > 50, `seed ${seed}: the playground is drawn (${drawn.length} elements)`);
        if (drawn.join("\n") !== fresh.join("\n")) {
          assert.fail(`seed ${seed}, round ${round}: after these actions\n${last.join("\n")}\n${firstDifference(drawn, fresh)}`);
        }
      }
      await done(page);
    });
  }
});
