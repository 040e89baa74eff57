// The page's texts, one language at a time (crates/web/src/page/texts.rs):
// the module carries none, a learner's page fetches the texts of the
// language it is drawn in before its first drawing and no other, the
// language switch fetches the other's once, and texts that cannot be had
// (missing, or written for another build) show as a gap (⋯) and
// say so once, while the playground goes on working. Against the real
// `leasefence serve`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serving } from "./harness.mjs";

const site = serving();

/**
 * A page at `path` whose requests for a language's texts are recorded
 * (`page.asked`: `[lang, how]`, how being `fetch` or `xhr`, the
 * synchronous kind) and answered by `answer(route, lang)`, else served.
 */
async function open(path, answer = (route) => route.continue(), context = {}) {
  const browser = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, ...context });
  const page = await browser.newPage();
  page.asked = [];
  page.errors = [];
  page.on("console", (message) => message.type() === "error" && page.errors.push(message.text()));
  page.on("pageerror", (error) => page.errors.push(error.message));
  await page.route(/\/pkg\/leasefence\.[a-z]+\.json$/, (route) => {
    const lang = route.request().url().match(/leasefence\.([a-z]+)\.json$/)[1];
    page.asked.push([lang, route.request().resourceType()]);
    return answer(route, lang);
  });
  await page.goto(site.base + path);
  await page.waitForSelector(".lf [data-event]");
  return page;
}

test("a page fetches its language's texts alone, in the background, before its first drawing", async () => {
  for (const [lang, button] of [["ko", "English"], ["en", "한국어"]]) {
    const page = await open(`/#v=1&chapter=canonical&lang=${lang}`);
    // The language switch names the other language in its own words.
    assert.equal((await page.locator(".lf [data-action=lang]").textContent()).trim(), button,
      `the ${lang} page's language switch: expected its text, current (⋯ shows when the texts are missing)`);
    assert.deepEqual(page.asked, [[lang, "fetch"]],
      `the ${lang} page's requests for texts: expected its own language's once, by fetch (not a synchronous request)`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test("a host page's embeds in two languages each get their own texts before they draw, whatever the early guess", async () => {
  const browser = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
  const page = await browser.newPage();
  const asked = [];
  await page.route(/\/pkg\/leasefence\.[a-z]+\.json$/, (route) => {
    asked.push([route.request().url().match(/leasefence\.([a-z]+)\.json$/)[1], route.request().resourceType()]);
    return route.continue();
  });
  // The bootstrap's guess (the first embed's language) is English; the
  // second embed is Korean.
  await page.route("**/host.html", (route) => route.fulfill({
    contentType: "text/html",
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course</title></head>
<body><div data-leasefence data-scenario="canonical"></div><div data-leasefence data-scenario="canonical" lang="ko"></div>
<script type="module" src="pkg/embed.js"></script></body></html>`,
  }));
  await page.goto(`${site.base}/host.html`);
  await page.waitForFunction(() => [...document.querySelectorAll("[data-leasefence]")].every((element) => element.shadowRoot?.querySelector("[data-event]")));
  const texts = await page.evaluate(() => [...document.querySelectorAll("[data-leasefence]")].map((element) => element.shadowRoot.querySelector("[data-action=lang]").textContent.trim()));
  assert.deepEqual(texts, ["한국어", "English"], "each embed's language switch, in its own language's words");
  assert.deepEqual(asked.sort(), [["en", "fetch"], ["ko", "fetch"]], "requests for texts: each language once, by fetch");
  await browser.close();
});

test("the language switch fetches the other language's texts once and then shows the page in it", async () => {
  const page = await open("/#v=1&chapter=canonical&lang=ko");
  await page.locator(".lf [data-action=lang]").click();
  await page.waitForFunction(() => document.querySelector(".lf")?.getAttribute("lang") === "en");
  assert.equal((await page.locator(".lf [data-action=lang]").textContent()).trim(), "한국어");
  assert.match(await page.locator(".lf").innerText(), /Step 0 of 3/);
  // And back, with nothing fetched again.
  await page.locator(".lf [data-action=lang]").click();
  await page.waitForFunction(() => document.querySelector(".lf")?.getAttribute("lang") === "ko");
  assert.deepEqual(page.asked, [["ko", "fetch"], ["en", "fetch"]],
    "requests for texts: expected each language's once, by fetch");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("texts that cannot be had, or were written for another build, show as a gap, said once, and the playground works", async () => {
  const answers = {
    missing: (route) => route.fulfill({ status: 404, body: "" }),
    stale: (route) => route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ fingerprint: 1, texts: [] }) }),
  };
  for (const [name, answer] of Object.entries(answers)) {
    const page = await open("/#v=1&chapter=canonical&lang=ko&predict=0", answer);
    assert.equal((await page.locator(".lf [data-action=lang]").textContent()).trim(), "⋯",
      `${name}: expected a gap (⋯) where the switch's text would be`);
    await page.locator(".lf [data-action=step]").click();
    await page.waitForSelector(".lf [data-event='0'][aria-current]");
    const said = page.errors.filter((error) => error.includes("leasefence"));
    assert.ok(said.length >= 1 && said.length <= 3, `${name}: expected the failure said once or so in the console; current ${JSON.stringify(page.errors)}`);
    await page.context().close();
  }
});
