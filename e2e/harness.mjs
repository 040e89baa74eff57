// What the page's end-to-end tests and benchmarks share: the real
// `leasefence serve` on a free port, Debian's Chromium driven by
// playwright-core, and pages that collect console errors.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { after, before } from "node:test";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { chromium } from "playwright-core";

export const ROOT = new URL("../", import.meta.url).pathname;
const TARGET = process.env.CARGO_TARGET_DIR ?? `${ROOT}target`;
/** The `leasefence` command line the tests run. */
export const BINARY = resolve(process.env.LEASEFENCE_BIN ?? `${TARGET}/debug/leasefence`);
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
/** Where the tests' screenshots go (made by `start`). */
export const SHOTS = `${TARGET}/screenshots`;

/**
 * Starts the server on `dir` (the playground's www/ unless told) and the
 * browser: `{ base, browser, stop() }`.
 */
export async function start({ dir = `${ROOT}www` } = {}) {
  mkdirSync(SHOTS, { recursive: true });
  const server = spawn(BINARY, ["serve", "--listen", "127.0.0.1:0", "--dir", dir], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const first = await createInterface({ input: server.stdout })[Symbol.asyncIterator]().next();
  const base = JSON.parse(first.value).listening;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    // As root Chromium needs --no-sandbox; the rest keep it off this
    // machine's closed network.
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      // LF_NETLOG=FILE writes Chromium's network log (what a request
      // waited on): how a stalled module fetch was traced to the server.
      ...(process.env.LF_NETLOG ? [`--log-net-log=${process.env.LF_NETLOG}`, "--net-log-capture-mode=IncludeSensitive"] : []),
    ],
  });
  const stop = async () => {
    await browser.close();
    server.kill();
  };
  return { base, browser, stop };
}

// A step button at its end carries `aria-disabled="true"`, and
// playwright's `click()` waits for such a button to be enabled: a test
// that clicks one there hangs until its timeout instead of failing at
// once. Read the attribute instead (e2e/statements.test.mjs).

/** The scenario JSON as a link's `scenario=` value. */
/**
 * Run in a page (`page.waitForFunction(everyPlaygroundDrawn, n)`): whether
 * there are `count` playground elements (any number, if not given) and
 * each has drawn its events, in its shadow root (an embed's) or in itself
 * (the full page's).
 */
export function everyPlaygroundDrawn(count) {
  const all = [...document.querySelectorAll("[data-leasefence]")];
  return all.length > 0 && (count === undefined || all.length === count)
    && all.every((element) => (element.shadowRoot ?? element).querySelector("[data-event]"));
}

/**
 * Run in a page: each playground's root (`.lf`), in its element's shadow
 * root or the element itself.
 */
export function playgroundRoots() {
  return [...document.querySelectorAll("[data-leasefence]")]
    .map((element) => (element.shadowRoot ?? element).querySelector(".lf") ?? element)
    .filter(Boolean);
}

export const base64url = (text) => Buffer.from(text, "utf8").toString("base64url");

/**
 * The server and browser one test file shares: started before its first
 * test, stopped after its last. `site.base` and `site.browser` are set once
 * it has started.
 */
export function serving() {
  const site = {};
  before(async () => Object.assign(site, await start()));
  after(async () => site.stop?.());
  return site;
}

/**
 * A new page of `site` at `path` (the browser context made with `options`),
 * once `ready` shows. Console errors and uncaught exceptions are kept in
 * `page.problems`, which `done` requires empty.
 */
export async function watched(site, path, options, ready = ".lf [data-event]") {
  const context = await site.browser.newContext(options);
  const page = await context.newPage();
  const problems = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  await page.goto(site.base + path);
  await page.waitForSelector(ready);
  page.problems = problems;
  return page;
}

/** Fails on any problem `watched` kept, then closes the page's context. */
export async function done(page) {
  assert.deepEqual(page.problems, [], "no console errors or exceptions");
  await page.context().close();
}

/**
 * The fenced code blocks of a Markdown file of the repository, in order:
 * `{ lang, code, line }` (the line of the opening fence).
 */
export function codeBlocks(file) {
  const text = readFileSync(`${ROOT}${file}`, "utf8");
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({
    lang: match[1],
    code: match[2],
    line: text.slice(0, match.index).split("\n").length,
  }));
}

/** The one code block of a Markdown file whose code starts with `start`. */
export function codeBlock(file, start) {
  const found = codeBlocks(file).filter((block) => block.code.startsWith(start));
  assert.equal(found.length, 1, `${file}: one code block starting with ${JSON.stringify(start)}`);
  return found[0].code;
}

/**
 * `tsc --noEmit --strict` on the TypeScript file `file` (imports resolved
 * as a bundler resolves them, from `cwd`): "" when it compiles, else the
 * compiler's output.
 */
export function typecheck(file, cwd = undefined) {
  try {
    execFileSync(`${ROOT}e2e/node_modules/.bin/tsc`, ["--noEmit", "--strict", "--target", "es2022", "--module", "es2022",
      "--moduleResolution", "bundler", "--lib", "es2022,esnext.disposable,dom", file], { encoding: "utf8", cwd });
    return "";
  } catch (error) {
    return `${error.stdout}${error.stderr}`;
  }
}
