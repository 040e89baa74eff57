// The module in two parts (scripts/split-module.mjs):
// every chapter drawn from its written timeline, in both languages, and
// the first chapter's first predictions and steps need only the first
// part; a playground that needs more before its first drawing (a chapter
// whose panels open with it, the lab, an author's lesson) is drawn once the
// rest is in, never stopping for it; the rest is asked for once the
// playgrounds are drawn; and a call into the rest made before it arrived
// still works, loading it at once. Against the real `leasefence serve`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { ROOT, serving } from "./harness.mjs";

const site = serving();
const FOLDERS = readdirSync(`${ROOT}chapters`);
/** Whether the chapter in `folder` opens a panel as it loads (its chapter.json's `opens`): those replay as they open. */
const opensPanels = (folder) => existsSync(`${ROOT}chapters/${folder}/chapter.json`)
  && (JSON.parse(readFileSync(`${ROOT}chapters/${folder}/chapter.json`, "utf8")).opens ?? []).length > 0;
const id = (folder) => folder.replace(/^\d+-/, "");
const AT_ONCE = FOLDERS.filter((folder) => !opensPanels(folder)).map(id);
const WITH_PANELS = FOLDERS.filter(opensPanels).map(id);

/**
 * A page whose requests for the rest are answered by `answer(route)`;
 * `page.asked` lists them (`fetch`: in the background, `xhr`: a
 * placeholder that could not wait) and `page.problems` the page's errors.
 */
async function open(path, answer, width = 1280) {
  const context = await site.browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.asked = [];
  page.problems = [];
  page.on("console", (message) => {
    // The rest's own failed request is expected where it is blocked.
    if (message.type() === "error" && !message.location().url.includes("leasefence_rest.wasm")) page.problems.push(message.text());
  });
  // When the first playground appeared, by the page's own clock.
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.querySelector(".lf [data-event]") || document.querySelector("[data-leasefence]")?.shadowRoot?.querySelector("[data-event]")) {
        window.drawnAt = performance.now();
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  page.on("pageerror", (error) => page.problems.push(error.message));
  await page.route("**/pkg/leasefence_rest.wasm", (route) => {
    page.asked.push(route.request().resourceType());
    return answer(route);
  });
  await page.goto(site.base + path);
  return page;
}

/** What the page says when the rest was blocked on purpose. */
const blocked = (text) => text.includes("second part did not load in the background");

/**
 * Once the rest was asked for (after the drawing) and two animation frames
 * later: what the first drawing left for later (the lanes' resize, a
 * panel's scroll) has run too.
 */
async function settled(page) {
  for (let waited = 0; !page.asked.includes("fetch"); waited += 20) {
    assert.ok(waited < 10_000, "expected the rest asked for in the background once the page was drawn");
    await page.waitForTimeout(20);
  }
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

test("every chapter that opens no panel is drawn from the first part alone, in both languages, at 360 and 1280 px, and so are the embeds", async () => {
  assert.ok(AT_ONCE.length >= 8, `expected most chapters drawn at once; current ${AT_ONCE}`);
  const pages = [];
  for (const lang of ["en", "ko"]) {
    for (const chapter of AT_ONCE) {
      for (const width of [360, 1280]) pages.push([`/#v=1&chapter=${chapter}&lang=${lang}`, width]);
    }
  }
  pages.push(["/embed-example.html", 1280]);
  for (const [path, width] of pages) {
    const what = `${path} at ${width} px`;
    // The rest never comes: a first drawing that called into it would
    // fail to load it and not draw.
    const page = await open(path, (route) => route.abort(), width);
    await page.waitForSelector(".lf [data-event]", { timeout: 20_000 }).catch(() => {
      assert.fail(`${what}: expected the chapter drawn from the first part alone; it was not `
        + `(${JSON.stringify(page.problems)}). Run \`make first-part\` after a change to what a first drawing calls.`);
    });
    await settled(page);
    const unexpected = page.problems.filter((text) => !blocked(text));
    assert.deepEqual(unexpected, [], `${what}: expected no error, got ${JSON.stringify(unexpected)}; run \`make first-part\` if the rest was needed`);
    assert.deepEqual(page.asked.filter((type) => type !== "fetch"), [], `${what}: only the background load asks for the rest`);
    await page.context().close();
  }
});

test("a chapter whose panels open with it, a lab link and a shared timeline are drawn once the rest is in, without stopping for it", async () => {
  assert.ok(WITH_PANELS.length > 0, "expected chapters that open panels");
  // A timeline someone shared: replayed, not read from a chapter's file.
  const shared = Buffer.from(JSON.stringify(JSON.parse(readFileSync(`${ROOT}chapters/${FOLDERS[0]}/scenario.json`, "utf8")))).toString("base64url");
  const pages = [
    ...WITH_PANELS.map((chapter) => `/#v=1&chapter=${chapter}&lang=ko`),
    "/#v=1&lab=finish&lang=en",
    `/#v=1&scenario=${shared}&lang=en`,
  ];
  for (const path of pages) {
    const page = await open(path, (route) => route.continue());
    await page.waitForSelector(".lf [data-event]", { timeout: 20_000 });
    const [drawnAt, restAt] = await page.evaluate(() => [window.drawnAt, performance.getEntriesByName("leasefence:rest")[0]?.startTime]);
    assert.ok(restAt !== undefined && restAt <= drawnAt, `${path}: expected the rest in (${restAt} ms) before the drawing (${drawnAt} ms)`);
    assert.deepEqual(page.asked, ["fetch"], `${path}: the rest asked for once, in the background`);
    assert.deepEqual(page.problems, [], `${path}: no error`);
    await page.context().close();
  }
});

test("the first chapter's predictions and steps need only the first part", async () => {
  const page = await open("/#v=1&chapter=canonical&lang=en", (route) => route.abort());
  await page.waitForSelector(".lf [data-event]");
  await page.check(".lf [data-action=predict]");
  for (const answer of ["accept", "reject", "reject"]) {
    await page.locator(".lf [data-action=step]").click();
    await page.locator(`.lf-prompt [data-arg=${answer}]`).click();
  }
  await page.getByRole("button", { name: "token" }).click();
  assert.match(await page.textContent(".lf-narration"), /B reclaims it/, "every answer given: the story");
  await page.locator(".lf [data-action=back]").click();
  await page.locator(".lf [data-action=reset]").click();
  assert.deepEqual(page.problems.filter((text) => !blocked(text)), []);
  assert.deepEqual(page.asked, ["fetch"], "the rest was asked for once, in the background");
  await page.context().close();
});

test("the rest is asked for once the playground is drawn, and then used", async () => {
  const page = await open("/#v=1&chapter=canonical&lang=en", (route) => route.continue());
  await page.waitForSelector(".lf [data-event]");
  await page.waitForFunction(() => performance.getEntriesByName(new URL("pkg/leasefence_rest.wasm", location.href).href).length === 1);
  const [drawnAt, restAt] = await page.evaluate(() => [
    window.drawnAt,
    performance.getEntriesByName(new URL("pkg/leasefence_rest.wasm", location.href).href)[0].startTime,
  ]);
  assert.ok(restAt > drawnAt, `expected the rest asked for after the chapter was drawn (${restAt} > ${drawnAt} ms)`);
  // The lab grades with code of the rest, in once the page marks it.
  await page.waitForFunction(() => performance.getEntriesByName("leasefence:rest").length === 1);
  await page.click(".lf-lab summary");
  await page.waitForSelector(".lf-lab[open] textarea");
  await page.click(".lf-lab [data-action=lab-grade]");
  await page.waitForSelector(".lf-lab-answer [data-passed]");
  assert.deepEqual(page.asked.filter((type) => type !== "fetch"), [], "no call had to wait for the rest");
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test("a call into the rest before it arrived loads it at once, and the page goes on", async () => {
  // The background load never finishes; a placeholder's own request does.
  const page = await open("/#v=1&chapter=canonical&lang=en", (route) =>
    route.request().resourceType() === "fetch" ? new Promise(() => {}) : route.continue());
  await page.waitForSelector(".lf [data-event]");
  await page.click(".lf-lab summary");
  await page.waitForSelector(".lf-lab[open] textarea");
  await page.click(".lf-lab [data-action=lab-grade]");
  await page.waitForSelector(".lf-lab-answer [data-passed]");
  assert.match(await page.textContent(".lf-lab-answer"), /Not yet:/, "graded: the id-only finish fails");
  assert.ok(page.asked.includes("xhr"), `the placeholder loaded the rest itself: ${JSON.stringify(page.asked)}`);
  assert.deepEqual(page.problems, []);
  // Stepping after it still works: the table now holds the rest's functions.
  await page.locator(".lf [data-action=step]").click();
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test("a playground that waits for the rest is still drawn when the background load fails or stalls", async () => {
  // The background load fails at once, or never ends (then the playground
  // is mounted once the bootstrap's patience is spent); either way the
  // placeholder's own request loads the rest.
  for (const [how, background] of [["fails", (route) => route.abort()], ["stalls", () => new Promise(() => {})]]) {
    const page = await open("/#v=1&chapter=write-lock&lang=en", (route) =>
      route.request().resourceType() === "fetch" ? background(route) : route.continue());
    await page.waitForSelector(".lf [data-event]", { timeout: 40_000 });
    assert.ok(page.asked.includes("xhr"), `${how}: the placeholder loaded the rest itself: ${JSON.stringify(page.asked)}`);
    assert.deepEqual(page.problems.filter((text) => !blocked(text)), [], `${how}: no error but the background load's`);
    await page.context().close();
  }
});

test("an element taken out of the document while it waits for the rest is never mounted", async () => {
  const context = await site.browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
  let release;
  const gate = new Promise((done) => { release = done; });
  await page.route("**/pkg/leasefence_rest.wasm", async (route) => { await gate; await route.continue(); });
  await page.route("**/waiting.html", (route) => route.fulfill({
    contentType: "text/html",
    body: `<!doctype html><html lang="en"><body>
<div data-leasefence data-scenario="canonical"></div>
<div id="lab" data-leasefence data-lab="finish">the lab, once it loads</div>
<script type="module" src="pkg/embed.js"></script></body></html>`,
  }));
  await page.goto(`${site.base}/waiting.html`);
  await page.waitForSelector(".lf [data-event]");
  assert.equal(await page.evaluate(() => document.getElementById("lab").shadowRoot), null, "the waiting element still shows its own content");
  await page.evaluate(() => {
    window.lab = document.getElementById("lab");
    window.lab.remove();
  });
  release();
  await page.waitForFunction(() => performance.getEntriesByName("leasefence:rest").length === 1);
  await page.evaluate(() => import("./pkg/embed.js").then(({ mounted }) => mounted));
  assert.equal(await page.evaluate(() => window.lab.leasefence), undefined, "not mounted once out of the document");
  assert.deepEqual(problems, []);
  await context.close();
});
