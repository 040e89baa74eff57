// A course author's real host: a MkDocs Material site,
// built here by MkDocs itself (e2e/mkdocs-requirements.txt, installed by
// scripts/setup.sh) with instant navigation on and the palette toggle,
// the package's embed as its one script. Material swaps a page's content
// in place on a click and never runs the page's scripts again: the embeds
// must mount themselves when their elements arrive, and follow the
// palette Material sets on <body>. Run by `make e2e`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, SHOTS, start } from "./harness.mjs";

const MKDOCS = `${ROOT}e2e/.mkdocs/bin/mkdocs`;

// Two workers, one late: the author's own lesson, kept in a <template>
// (Material re-creates a page's scripts, and a JSON script lost its type).
const LESSON = {
  jobs: [{ id: "tea-1", qty: 1, deadline: 9000 }],
  events: [
    { at: 0, worker: "Mina", do: "claim", lease_ms: 500 },
    { at: 500, worker: "Joon", do: "claim", lease_ms: 500 },
    { at: 700, worker: "Mina", do: "finish" },
  ],
};

// Instant navigation needs the site's address (Material reads its sitemap).
const config = (url) => `site_name: Lease course
site_url: ${url}
theme:
  name: material
  font: false
  features: [navigation.instant]
  palette:
    - scheme: default
      toggle: { icon: material/brightness-7, name: Dark mode }
    - scheme: slate
      toggle: { icon: material/brightness-4, name: Light mode }
extra_javascript:
  - path: leasefence/embed.js
    type: module
nav: [index.md, lesson.md]
`;

const PAGES = {
  "index.md": "# Home\n\nRead the [lesson](lesson.md).\n",
  "lesson.md": `# Lesson

<div data-leasefence data-scenario="canonical" lang="ko"></div>

<div data-leasefence lang="en" data-predict="off" id="own"><template data-lesson>${JSON.stringify(LESSON)}</template></div>

<div data-leasefence data-scenario="canonical" lang="en" data-show="chapters sandbox" id="asked"></div>
`,
};

/** MkDocs builds `dir`'s site for the address `url`; returns its folder. */
function build(dir, url) {
  writeFileSync(join(dir, "mkdocs.yml"), config(url));
  execFileSync(MKDOCS, ["build", "--quiet", "--site-dir", join(dir, "site")], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  return join(dir, "site");
}

const site = {};
before(async () => {
  const dir = mkdtempSync(join(tmpdir(), "lf-mkdocs-"));
  mkdirSync(join(dir, "docs"));
  for (const [name, text] of Object.entries(PAGES)) writeFileSync(join(dir, "docs", name), text);
  cpSync(`${ROOT}www/pkg`, join(dir, "docs", "leasefence"), { recursive: true });
  // The server needs the folder before its port is known; the site is
  // built again for that port, and served as files are asked for.
  Object.assign(site, await start({ dir: build(dir, "http://127.0.0.1/") }));
  build(dir, `${site.base}/`);
});
after(async () => site.stop?.());

/** Each embed's actors in its event list, by the element's id or index. */
const actors = (page) => page.$$eval("[data-leasefence]", (hosts) =>
  hosts.map((host) => [...(host.shadowRoot ?? host).querySelectorAll("[data-event] .lf-who")].map((who) => who.textContent)));

test("instant navigation: embeds on a page reached by a click mount, again after going back and forth", async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
  await page.goto(`${site.base}/`);
  // A mark that a full load would wipe: the clicks below stay on one document.
  await page.evaluate(() => { window.lfStayed = true; });
  for (const round of [1, 2]) {
    await page.getByRole("link", { name: "lesson", exact: true }).first().click();
    await page.waitForSelector("#own [data-event]");
    await page.waitForSelector("[data-scenario=canonical] [data-event]");
    assert.equal(await page.evaluate(() => window.lfStayed), true, `round ${round}: Material swapped the page in place`);
    const [canonical, own] = await actors(page);
    assert.equal(canonical.length, 3, `round ${round}: the chapter's three events`);
    assert.ok(own.some((who) => who.startsWith("Mina")), `round ${round}: the lesson from its <template>: ${own}`);
    await page.getByRole("link", { name: "Home" }).first().click();
    await page.waitForFunction(() => !document.querySelector("[data-leasefence]"));
  }
  // The browser's own back and forward, which Material also swaps in place.
  await page.getByRole("link", { name: "lesson", exact: true }).first().click();
  await page.waitForSelector("#own [data-event]");
  await page.goBack();
  await page.waitForFunction(() => !document.querySelector("[data-leasefence]"));
  await page.goForward();
  await page.waitForSelector("#own [data-event]");
  assert.equal(await page.evaluate(() => window.lfStayed), true, "back and forward stayed on one document");
  assert.deepEqual(problems, [], "no error on the way");
  await context.close();
});

test("Material's palette toggle turns the embeds dark and back", async () => {
  const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "light" });
  const page = await context.newPage();
  await page.goto(`${site.base}/lesson/`);
  await page.waitForSelector("#own [data-event]");
  // Read once the colours have settled (Material fades its palette).
  const background = async () => {
    await page.waitForTimeout(400);
    return page.$eval("#own", (host) => getComputedStyle((host.shadowRoot ?? host).querySelector(".lf")).backgroundColor);
  };
  const light = await background();
  // Material's .md-typeset turns every details into an admonition (a
  // border and a shadow) and restyles summaries and headings; the embed's
  // own are left as the playground styles them.
  const panels = await page.$eval("#own", (host) => [...host.shadowRoot.querySelectorAll("details")]
    .map((details) => getComputedStyle(details).boxShadow));
  assert.ok(panels.length > 0 && panels.every((shadow) => shadow === "none"), `Material's details style stays out: ${panels}`);
  await page.getByRole("button", { name: "Dark mode" }).or(page.locator("label[title='Dark mode']")).first().click();
  assert.equal(await page.getAttribute("body", "data-md-color-scheme"), "slate");
  const dark = await background();
  assert.notEqual(dark, light, `the embed follows Material's slate scheme (${light} -> ${dark})`);
  await page.screenshot({ path: `${SHOTS}/mkdocs-slate-1280.png`, fullPage: true });
  await page.getByRole("button", { name: "Light mode" }).or(page.locator("label[title='Light mode']")).first().click();
  assert.equal(await background(), light, "and back");
  await context.close();
});

test("an embed is a lesson: its chapter alone, on about one screen at 1280×800, one column at 360 px; data-show adds what it names", async () => {
  for (const width of [1280, 360]) {
    const context = await site.browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${site.base}/lesson/`);
    for (const embed of ["[data-scenario=canonical]:not(#asked)", "#own", "#asked"]) {
      await page.waitForSelector(`${embed} [data-event]`);
    }
    // A lesson shows one view at a time: the workers' buttons are on the
    // lanes, one press of the view switcher away.
    await page.locator("#asked .lf-panes [data-arg=lanes]").click();
    const embeds = await page.$$eval("[data-leasefence]", (hosts) => hosts.map((host) => {
      const root = host.shadowRoot ?? host;
      const seen = (selector) => [...root.querySelectorAll(selector)].some((element) => element.checkVisibility());
      // Panels beside one another: a pair whose rows on screen overlap.
      const boxes = [...root.querySelectorAll(".lf-panel")].filter((panel) => panel.checkVisibility())
        .map((panel) => panel.getBoundingClientRect());
      const beside = boxes.flatMap((one, i) => boxes.slice(i + 1)
        .filter((other) => one.top < other.bottom - 1 && other.top < one.bottom - 1)).length;
      return {
        id: host.id || host.dataset.scenario,
        height: Math.round(host.getBoundingClientRect().height),
        beside,
        parts: {
          picker: seen(".lf-chapter select"),
          twists: seen(".lf-twists button"),
          editor: seen(".lf-editor"),
          tools: [".lf-boundary", ".lf-compare", ".lf-statements", ".lf-invariants"].some(seen),
          lab: seen(".lf-lab"),
        },
      };
    }));
    const none = { picker: false, twists: false, editor: false, tools: false, lab: false };
    const [chapter, own, asked] = embeds;
    assert.deepEqual(chapter.parts, none, `${width}: the chapter's embed shows the chapter alone`);
    assert.deepEqual(own.parts, none, `${width}: the author's lesson alone, no chapter picker`);
    assert.deepEqual(asked.parts, { ...none, picker: true, twists: true, editor: true }, `${width}: data-show="chapters sandbox"`);
    if (width === 1280) {
      // "About one screen": the lesson's lanes, steps and rows, without
      // scrolling inside it, on a laptop's 800 px.
      for (const lesson of [chapter, own]) {
        assert.ok(lesson.height <= 800, `${lesson.id}: ${lesson.height} px at 1280 px (expected at most 800)`);
      }
    } else {
      for (const lesson of embeds) assert.equal(lesson.beside, 0, `${lesson.id}: no panel beside another at 360 px: read top to bottom`);
    }
    await page.screenshot({ path: `${SHOTS}/mkdocs-lessons-${width}.png`, fullPage: true });
    await context.close();
  }
});
