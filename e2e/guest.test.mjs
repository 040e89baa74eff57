// The playground as a guest on a course page: the author's own
// scenario in every form of embed, a broken one said in the learner's
// language, iframes that talk to their host without taking its focus, and
// a host's in-page links leaving the playground alone. Run by `make e2e`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { base64url, serving } from "./harness.mjs";

const site = serving();

// Two workers, one late: the author's own lesson.
const LESSON = {
  jobs: [{ id: "tea-1", qty: 1, deadline: 9000 }],
  events: [
    { at: 0, worker: "Mina", do: "claim", lease_ms: 500 },
    { at: 500, worker: "Joon", do: "claim", lease_ms: 500 },
    { at: 700, worker: "Mina", do: "finish" },
  ],
};
const TEXT = JSON.stringify(LESSON);

/** A host page with `body`, served at /host.html (and the lesson's file). */
async function host(body, { lang = "en", scheme = "light" } = {}) {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: scheme });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.errors = errors;
  page.warnings = [];
  page.on("console", (message) => message.type() === "warning" && page.warnings.push(message.text()));
  await page.route("**/lesson.json", (route) => route.fulfill({ contentType: "application/json", body: TEXT }));
  await page.route("**/host.html", (route) => route.fulfill({
    contentType: "text/html",
    body: `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Course</title></head>
<body><main><h1>A course page</h1>${body}<script type="module" src="leasefence.js"></script></main></body></html>`,
  }));
  // Not "load": that would also wait for every iframe to load and compile.
  await page.goto(`${site.base}/host.html`, { waitUntil: "domcontentloaded" });
  return page;
}

/**
 * How many events the playground of the element at `selector` lists, in
 * its shadow root (an embed's) or in itself. Run in the page.
 */
function eventsOf(selector) {
  const element = document.querySelector(selector);
  return (element?.shadowRoot ?? element)?.querySelectorAll("[data-event]").length ?? 0;
}

const lessonPlayground = (page, selector) => page.waitForFunction(`(${eventsOf})(${JSON.stringify(selector)}) === 3`);

test("an author's own scenario shows through inline JSON, data-scenario-json and data-src, with its title and narration", async () => {
  const page = await host(`
    <div id="inline" data-leasefence data-predict="off" data-title="Tea for one" data-narration-en="Mina is late with the tea.">
      <script type="application/json">${TEXT}</script></div>
    <div id="attribute" data-leasefence data-predict="off" data-title="Tea, again" data-narration-ko="미나가 늦었습니다." data-scenario-json='${TEXT}' lang="ko"></div>
    <div id="file" data-leasefence data-predict="off" data-src="lesson.json" data-title="Tea from a file"></div>`);
  for (const [selector, title, narration] of [
    ["#inline", "Tea for one", /Mina is late with the tea\./],
    ["#attribute", "Tea, again", /미나가 늦었습니다\./],
    ["#file", "Tea from a file", /Mina's finish at 700 ms is refused/],
  ]) {
    await lessonPlayground(page, selector);
    assert.equal(await page.$eval(`${selector} select[data-action=chapter]`, (el) => el.value), "lesson");
    assert.equal(await page.$eval(`${selector} select[data-action=chapter] option[value=lesson]`, (el) => el.textContent), title);
    assert.match(await page.textContent(`${selector} .lf-narration`), narration, selector);
  }
  await page.locator("#file [data-action=end]").click();
  const results = await page.$$eval("#file [data-event]", (rows) => rows.map((row) => row.getAttribute("data-result")));
  assert.deepEqual(results, ["claimed", "claimed", "rejected"], "the lesson is replayed by the same core");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a lesson document carries its own title and narration, in an embed and in a compact iframe whose link carries it", async () => {
  const titled = JSON.stringify({
    title: { ko: "늦게 돌아온 미나", en: "Mina is late" },
    narration: { ko: "미나의 완료 요청은 임대가 만료된 뒤에 도착합니다.", en: "The finish from Mina arrives after her lease ends." },
    ...LESSON,
  });
  const page = await host(`
    <div id="own" data-leasefence data-predict="off" data-show="chapters" data-scenario-json='${titled}'></div>
    <iframe id="frame" src="index.html?compact#v=1&scenario=${base64url(titled)}&lang=ko&predict=0" style="width:100%;height:900px"></iframe>`);
  await lessonPlayground(page, "#own");
  assert.equal(await page.$eval("#own select[data-action=chapter] option[value=lesson]", (el) => el.textContent), "Mina is late");
  assert.match(await page.textContent("#own .lf-narration"), /The finish from Mina arrives after her lease ends\./);
  const frame = page.frameLocator("#frame");
  await frame.locator("[data-event]").nth(2).waitFor();
  // An iframe's ?compact hides the picker and heads it with what it shows.
  assert.equal(await frame.locator(".lf-shown").textContent(), "늦게 돌아온 미나");
  assert.equal(await frame.locator(".lf-shown").isVisible(), true, "the title is on screen");
  assert.equal(await frame.locator(".lf-chapter").isVisible(), false, "the picker is not");
  assert.match(await frame.locator(".lf-narration").textContent(), /미나의 완료 요청은 임대가 만료된 뒤에 도착합니다\./);
  assert.equal(await page.locator("#own .lf-shown").isVisible(), false, "an embed with the picker titles it in its picker only");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a broken scenario or an unknown chapter is said in the embed, in the learner's language", async () => {
  const page = await host(`
    <div id="broken" data-leasefence lang="ko" data-scenario-json='{"jobs": [], "events": [{"at": 0, "worker": "A", "do": "claim"}]}'></div>
    <div id="missing" data-leasefence data-src="nowhere.json"></div>
    <div id="typo" data-leasefence data-scenario="canonicall"></div>`);
  await page.waitForFunction(`["#typo", "#missing", "#broken"].every((selector) => (${eventsOf})(selector) > 0)`);
  assert.match(await page.textContent("#broken .lf-notice"), /이 강의의 시나리오를 보여 줄 수 없어서.*events\[0\]\.lease_ms/);
  assert.match(await page.textContent("#missing .lf-notice"), /could not be shown \(nowhere\.json: HTTP 404\)/);
  assert.match(await page.textContent("#typo .lf-notice"), /There is no chapter “canonicall”/);
  assert.equal(await page.$eval("#typo .lf-notice", (el) => el.getAttribute("role")), "alert");
  // The author hears it in the console, in English, naming the key.
  assert.ok(page.warnings.some((text) => /^leasefence: the lesson could not be shown: scenario: events\[0\]\.lease_ms: /.test(text)),
    `the console: ${page.warnings.join(" | ")}`);
  await page.context().close();
});

test("iframes send their steps, verdicts and height to the host, take its commands, and leave its focus alone", async () => {
  const page = await host(`
    <input id="search" autofocus>
    <iframe id="one" src="index.html?compact#v=1&chapter=canonical&lang=en&predict=0" style="width:100%;height:300px"></iframe>
    <iframe id="two" src="index.html?compact#v=1&scenario=${base64url(TEXT)}&lang=ko" style="width:100%;height:300px"></iframe>
    <script>
      window.heard = [];
      addEventListener("message", (event) => {
        if (event.data?.source !== "leasefence") return;
        const frame = [...document.querySelectorAll("iframe")].find((f) => f.contentWindow === event.source);
        heard.push({ frame: frame?.id, type: event.data.type, detail: event.data.detail });
      });
    </script>`);
  await page.waitForFunction(() => heard.filter((m) => m.type === "height").length >= 2);
  assert.equal(await page.evaluate(() => document.activeElement?.id), "search", "the host's autofocus keeps the focus");
  const heights = await page.evaluate(() => heard.filter((m) => m.type === "height").map((m) => m.detail.height));
  assert.ok(heights.every((h) => h > 300), `content heights: ${heights}`);
  // A compact iframe is a lesson, walked in scenes: A's claim, what a
  // claim hands its worker, B's reclaim, no heartbeat, then A's finish.
  await page.evaluate(() => {
    const one = document.getElementById("one").contentWindow;
    for (let i = 0; i < 5; i++) one.postMessage({ source: "leasefence-host", command: "step" }, "*");
  });
  await page.waitForFunction(() => heard.some((m) => m.frame === "one" && m.type === "verdict"));
  const verdict = await page.evaluate(() => heard.find((m) => m.frame === "one" && m.type === "verdict").detail);
  assert.equal(verdict.accepted, false);
  assert.equal(verdict.reason, "token_mismatch");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "search", "still the host's");
  const compact = page.frameLocator("#one");
  assert.equal(await compact.locator("[data-action=copy-link]").isVisible(), false, "compact: no Copy link");
  assert.equal(await compact.locator(".lf-editor").isVisible(), false, "compact: no editor");
  await page.context().close();
});

test("a host page's in-page link leaves the playground where it was", async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${site.base}/#v=1&chapter=quarantine&lang=en`);
  await page.waitForSelector(".lf [data-event]");
  await page.evaluate(() => { location.hash = "#section-2"; });
  await page.waitForTimeout(200);
  assert.equal(await page.$eval(".lf select[data-action=chapter]", (el) => el.value), "quarantine");
  await context.close();
});

test("a host that swaps its content in place gets its new embeds mounted and its old ones unmounted", async () => {
  const page = await host(`<div id="first" data-leasefence data-scenario="canonical"></div>`);
  await page.waitForSelector("#first [data-event]");
  // As MkDocs Material's instant navigation does: the page's content is
  // replaced without a reload. The lesson sits in a <template>, which no
  // host runs or re-creates.
  await page.evaluate((text) => {
    window.first = document.querySelector("#first");
    window.first.remove();
    const next = document.createElement("section");
    next.innerHTML = `<div id="second" data-leasefence data-predict="off" data-title="Tea"><template data-lesson>${text}</template></div>`;
    document.querySelector("main").append(next);
  }, TEXT);
  await lessonPlayground(page, "#second");
  assert.equal(await page.$eval("#second select[data-action=chapter] option[value=lesson]", (el) => el.textContent), "Tea");
  assert.deepEqual(await page.evaluate(() => [window.first.leasefence, window.first.childElementCount]), [undefined, 0],
    "the removed embed is unmounted and emptied");
  // Moved, not removed: it stays mounted.
  await page.evaluate(() => document.querySelector("main").prepend(document.querySelector("#second")));
  await page.waitForTimeout(50);
  assert.equal(await page.$$eval("#second [data-event]", (rows) => rows.length), 3, "a moved embed keeps working");
  assert.deepEqual(page.errors, []);
});

test("the widget follows the host's own theme switch live: Material's palette, a .dark class, data-theme, a class the author names", async () => {
  const page = await host(`<div id="one" data-leasefence data-scenario="canonical"></div>`, { scheme: "light" });
  await page.waitForSelector("#one [data-event]");
  const scheme = () => page.$eval("#one .lf", (el) => getComputedStyle(el).colorScheme);
  assert.equal(await scheme(), "light dark", "by prefers-color-scheme alone");
  await page.evaluate(() => document.body.setAttribute("data-md-color-scheme", "slate"));
  assert.equal(await scheme(), "dark", "Material's dark palette");
  await page.evaluate(() => document.body.setAttribute("data-md-color-scheme", "default"));
  assert.equal(await scheme(), "light", "Material's light palette");
  await page.evaluate(() => { document.body.removeAttribute("data-md-color-scheme"); document.documentElement.classList.add("dark"); });
  assert.equal(await scheme(), "dark", "a .dark class on html");
  await page.evaluate(() => document.documentElement.setAttribute("data-theme", "light"));
  assert.equal(await scheme(), "light", "data-theme wins");
  // Nearest wins: data-theme on the element, under a dark page.
  await page.evaluate(() => document.querySelector("#one").setAttribute("data-theme", "dark"));
  assert.equal(await scheme(), "dark", "data-theme on the element, nearer than html's");
  // Any other switch: the one rule the README gives, for a class the
  // author names (here `night` on html).
  await page.evaluate(() => {
    document.querySelector("#one").removeAttribute("data-theme");
    document.documentElement.removeAttribute("data-theme");
    document.documentElement.classList.remove("dark");
  });
  await page.addStyleTag({ content: ".night { --lf-color-scheme: dark; }" });
  assert.equal(await scheme(), "light dark", "the author's rule waits for its class");
  await page.evaluate(() => document.documentElement.classList.add("night"));
  assert.equal(await scheme(), "dark", "the author's own class, through one CSS rule");
  await page.evaluate(() => document.documentElement.classList.remove("night"));
  assert.equal(await scheme(), "light dark", "and back, live");
  assert.deepEqual(page.errors, []);
});

test("an iframe's height follows its content both ways; it says when it is ready and answers a height request", async () => {
  const page = await host(`
    <iframe id="tall" src="index.html?compact#v=1&chapter=canonical&lang=en&predict=0" style="width:100%;height:3000px"></iframe>
    <script>
      window.heard = [];
      addEventListener("message", (event) => {
        if (event.data?.source === "leasefence") heard.push({ type: event.data.type, detail: event.data.detail });
      });
    </script>`);
  await page.waitForFunction(() => heard.some((m) => m.type === "ready"));
  const ready = await page.evaluate(() => heard.find((m) => m.type === "ready").detail.height);
  // Given 3,000 px, the playground says its own height, not the frame's.
  assert.ok(ready > 300 && ready < 3000, `the content's height, not the frame's: ${ready}`);
  await page.evaluate(() => {
    heard.length = 0;
    document.getElementById("tall").contentWindow.postMessage({ source: "leasefence-host", command: "height" }, "*");
  });
  await page.waitForFunction(() => heard.some((m) => m.type === "height"));
  const asked = await page.evaluate(() => heard.find((m) => m.type === "height").detail.height);
  assert.ok(asked > 300 && asked < 3000, `a height request is answered with the content's height: ${asked}`);
  // The content grows, then shrinks back: both are told.
  const frame = page.frameLocator("#tall");
  await page.evaluate(() => { heard.length = 0; });
  await frame.locator("main").evaluate((main) => {
    const more = main.appendChild(document.createElement("div"));
    more.id = "more";
    more.style.height = "500px";
  });
  await page.waitForFunction((before) => heard.some((m) => m.type === "height" && m.detail.height > before + 100), asked);
  await frame.locator("#more").evaluate((more) => more.remove());
  await page.waitForFunction((before) => heard.at(-1)?.type === "height" && heard.at(-1).detail.height <= before, asked);
  assert.deepEqual(page.errors, []);
});

test("styles are isolated both ways: the host's CSS does not restyle an embed, the embed's does not reach the host, and --lf-* colours set on an ancestor still theme it", async () => {
  const look = (page) => page.evaluate(() => {
    const inside = document.querySelector("#one").shadowRoot;
    const style = (element) => getComputedStyle(element);
    const [root, button, details, heading] = [".lf", "button", "details:not([hidden])", "h3"].map((selector) => inside.querySelector(selector));
    return {
      root: [style(root).letterSpacing, style(root).fontSize, style(root).textTransform, style(root).color],
      button: [style(button).backgroundColor, style(button).fontSize, style(button).minHeight],
      details: [style(details).borderTopWidth, style(details).display],
      heading: [style(heading).textTransform, style(heading).color],
      primary: style(inside.querySelector("[data-action=play]")).backgroundColor,
      // The host's own elements, named like the playground's classes.
      hostPanel: style(document.querySelector("#host-panel")).backgroundColor,
      hostButton: style(document.querySelector("#host-button")).minHeight,
    };
  });
  const body = `<div id="host-panel" class="lf-panel lf">a host's own box <button id="host-button">host</button></div>
    <div class="course"><div id="one" data-leasefence data-scenario="canonical" data-show="tools"><p id="fallback">Fallback text</p></div></div>`;
  const plain = await host(body);
  await plain.waitForSelector("#one [data-event]");
  const before = await look(plain);
  await plain.context().close();
  // A course site's CSS that would restyle anything it reaches (MkDocs
  // Material's .md-typeset restyles details, summary and headings).
  const hostile = await host(body);
  await hostile.addStyleTag({ content: `
    * { letter-spacing: 10px; text-transform: uppercase; color: rgb(1, 2, 3); font-size: 40px; }
    button { background: rgb(255, 0, 0) !important; min-height: 90px; }
    details, .md-typeset details { display: flow-root; border: 5px solid rgb(0, 255, 0); }
    h3 { color: rgb(0, 0, 255) !important; }
    .course { --lf-accent: rgb(123, 44, 191); }` });
  await hostile.waitForSelector("#one [data-event]");
  const after = await look(hostile);
  assert.deepEqual(
    { root: after.root, button: after.button, details: after.details, heading: after.heading },
    { root: before.root, button: before.button, details: before.details, heading: before.heading },
    "the host's rules do not reach the playground");
  assert.equal(after.primary, "rgb(123, 44, 191)", "--lf-accent set on an ancestor themes it");
  assert.notEqual(before.primary, after.primary, "and it was another colour without it");
  assert.equal(before.hostPanel, "rgba(0, 0, 0, 0)", "the playground's .lf-panel rule does not style the host's box");
  assert.notEqual(before.hostButton, "34px", "nor a button in it (.lf button)");
  assert.equal(await hostile.locator("#one").evaluate((el) => el.shadowRoot !== null), true, "drawn in a shadow root");
  assert.equal(await hostile.locator("#fallback").isVisible(), false, "the fallback is hidden once mounted");
  assert.deepEqual(hostile.errors, []);
  await hostile.context().close();
});

test("an element added while the module loads is mounted once, one taken out meanwhile not at all, and the import's promise resolves", async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  await page.route("**/pkg/leasefence_first.wasm", async (route) => { await gate; await route.continue(); });
  await page.route("**/host.html", (route) => route.fulfill({
    contentType: "text/html",
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course</title></head>
<body><main><div id="first" data-leasefence data-scenario="canonical"></div>
<script type="module" src="leasefence.js"></script></main></body></html>`,
  }));
  await page.goto(`${site.base}/host.html`, { waitUntil: "domcontentloaded" });
  // While the wasm is held back, the first call waits for it; the
  // observer sees both new elements and waits too.
  await page.evaluate(() => {
    for (const id of ["late", "gone"]) {
      const element = document.createElement("div");
      element.id = id;
      element.dataset.leasefence = "";
      element.dataset.scenario = "canonical";
      document.querySelector("main").append(element);
    }
  });
  await page.waitForTimeout(100);
  await page.evaluate(async () => {
    window.gone = document.querySelector("#gone");
    window.gone.remove();
    // A host's own call too, as a single-page host makes after a swap.
    window.again = (await import("./leasefence.js")).mountAll();
  });
  release();
  await page.waitForFunction(`["#first", "#late"].every((selector) => (${eventsOf})(selector) === 3)`);
  const settled = await page.evaluate(async () => {
    const { mounted } = await import("./leasefence.js");
    const within = (promise) => Promise.race([promise.then((list) => list.length),
      new Promise((done) => setTimeout(() => done("never resolved"), 10_000))]);
    return [await within(mounted), await within(window.again)];
  });
  assert.ok(settled.every((count) => typeof count === "number"), `every mountAll call resolved: ${settled}`);
  await page.waitForTimeout(300);
  assert.deepEqual(await page.evaluate(() => ({
    late: document.querySelector("#late").shadowRoot.querySelectorAll(".lf").length,
    gone: window.gone.leasefence ?? null,
  })), { late: 1, gone: null }, "one playground in #late; #gone, removed while it waited, none");
  assert.deepEqual(errors, []);
  await context.close();
});
