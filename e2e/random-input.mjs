// Random input for the playground's tests: a seeded run of clicks, keys,
// slider moves, picker changes and timeline edits inside the page, and
// real mouse drags of the sliders from outside it.

/** Every chapter's id, in the course's order: where the random runs go. */
export const CHAPTERS = [
  "canonical", "polling-cannot-steal", "restart-same-name", "fencing-off-vs-on", "expiry-boundary",
  "write-lock", "every-ordering", "late-delivery", "deadline-caps-lease", "deadline-expired",
  "quarantine",
];

/**
 * Run in the page: `count` random actions on the playground's root, from
 * `seed`; `hangul: false` types no Korean into the text boxes (so Korean
 * on an English screen is the page's, not the learner's). Returns the
 * last actions taken, for a failure's message.
 */
export async function monkey({ count, seed, hangul = true }) {
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
      const insert = pick(["", "}", "{", "\"", "9999999999999999999", "-1", ",", "\u0000", "\"at\": 5,", hangul ? "한글" : "x"]);
      area.value = text.slice(0, at) + insert + text.slice(at + Math.floor(random() * 4));
      log.push(`edit ${area.getAttribute("data-action") ?? area.className} at ${at} ${JSON.stringify(insert)}`);
      area.dispatchEvent(new Event("input", { bubbles: true }));
    }
    if (n % 25 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return log.slice(-15);
}

/** Real mouse drags across each enabled slider, in the page's own panel. */
export async function drag(page) {
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
