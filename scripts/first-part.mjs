// Writes crates/web/first-part.txt: the functions of the page's module that
// the playgrounds drawn at once call (every chapter drawn from its written
// timeline, in both languages, at 360 and 1280 px, and the embeds' page)
// and the first chapter's predictions, steps, step back and reset. A
// playground that waits for the rest before its first drawing (embed.js,
// `waitsForRest`) is left out: the page never needs it from the first part. `make
// first-part` runs it after `make web`:
//   node scripts/first-part.mjs NAMED_MODULE
//
// It instruments the whole module with its names (NAMED_MODULE, which
// `make web` keeps) with wasm-split, serves a copy of the page whose first
// part is that instrumented module (it holds every function), does the
// above in Chromium, one page load each, and merges their profiles: a
// function any of them called is kept. The bootstrap is made to ask for
// the rest, which never comes, so the playgrounds that wait for it are
// never drawn.
// Then `make web` again builds the two parts from the new list.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, start } from "../e2e/harness.mjs";
import { FEATURES, plain } from "./function-names.mjs";

const named = process.argv[2];
if (!named) {
  console.error("usage: node scripts/first-part.mjs NAMED_MODULE");
  process.exit(2);
}
const split = (args) => execFileSync(join(ROOT, "scripts/wasm-split"), args, { encoding: "utf8", maxBuffer: 1 << 28 });
const work = mkdtempSync(join(tmpdir(), "leasefence-first-part-"));
const site = join(work, "www");
cpSync(join(ROOT, "www"), site, { recursive: true });
// Served as they are: no precompressed copy of the old first part.
for (const suffix of ["", ".br", ".gz"]) rmSync(join(site, `pkg/leasefence_first.wasm${suffix}`), { force: true });
split(["--instrument", ...FEATURES, named, "-o", join(site, "pkg/leasefence_first.wasm")]);

const chapters = readdirSync(join(ROOT, "chapters")).map((folder) => folder.replace(/^\d+-/, ""));
const server = await start({ dir: site });
const profiles = [];

/**
 * One page load of `path` (the full page's hash, or the embeds' page),
 * `width` pixels wide: `act(page)` once the first drawing has settled;
 * then its profile.
 */
async function profile(path, { width = 1280, act = async () => {} } = {}) {
  console.log(`first-part: ${path} at ${width} px`);
  const context = await server.browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    // The instance, to ask it for its profile.
    const original = WebAssembly.instantiateStreaming;
    WebAssembly.instantiateStreaming = async (...args) => {
      const result = await original(...args);
      window.__instance = result.instance;
      return result;
    };
    // The instrumented module is the whole one: it imports no placeholder,
    // and loadRest would resolve at once. Said to import one, it asks for
    // the rest, whose request is never answered (below).
    const imports = WebAssembly.Module.imports;
    WebAssembly.Module.imports = (module) => [...imports(module), { module: "placeholder", name: "0", kind: "function" }];
  });
  await page.route("**/pkg/leasefence_rest.wasm", () => new Promise(() => {}));
  page.on("pageerror", (error) => console.error(`${path}: ${error.message}`));
  await page.goto(`${server.base}${path}`);
  // The playgrounds that draw at once are drawn.
  await page.waitForFunction(() => performance.getEntriesByName("leasefence:drawn").length === 1);
  await settled(page);
  await act(page);
  await settled(page);
  const bytes = await page.evaluate(() => {
    const exports = window.__instance.exports;
    const size = 1 << 20;
    const at = exports.__wbindgen_malloc(size, 1);
    const written = exports.__write_profile(at, size);
    return Array.from(new Uint8Array(exports.memory.buffer, at, written));
  });
  await context.close();
  const file = join(work, `${profiles.length}.prof`);
  writeFileSync(file, Buffer.from(bytes));
  profiles.push(file);
}

/** Two animation frames later: what a drawing left for the next frame (the lanes' resize, a panel's scroll) has run. */
const settled = (page) => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

try {
  for (const lang of ["en", "ko"]) {
    for (const chapter of chapters) {
      await profile(`/#v=1&chapter=${chapter}&lang=${lang}`);
      // A phone's width: the lanes and the statement panel draw narrower.
      await profile(`/#v=1&chapter=${chapter}&lang=${lang}`, { width: 360 });
    }
    // The first chapter's first moves: predict, answer, the field question, step, back, reset.
    await profile(`/#v=1&chapter=canonical&lang=${lang}`, { act: async (page) => {
      await page.check(".lf [data-action=predict]");
      for (const answer of ["accept", "reject", "reject"]) {
        await page.locator(".lf [data-action=step]").click();
        await page.locator(`.lf-prompt [data-arg=${answer}]`).click();
      }
      // Which condition the refused finish failed.
      await page.locator(".lf-prompt [data-action=field]").first().click();
      await page.locator(".lf [data-action=back]").click();
      await page.locator(".lf [data-action=reset]").click();
    } });
  }
  // Embeds in shadow roots: one in Korean, one compact in English.
  await profile("/embed-example.html");
} finally {
  await server.stop();
}

try {
  const merged = join(work, "merged.prof");
  split(["--merge-profiles", ...profiles, "-o", merged]);
  // wasm-split -v names the functions it keeps.
  const said = split(["--split", ...FEATURES, `--profile=${merged}`, "-v", named,
    "-o1", join(work, "first.wasm"), "-o2", join(work, "rest.wasm")]);
  const line = said.split("\n").find((text) => text.startsWith("Keeping functions: "));
  if (!line) throw new Error("first-part: wasm-split -v named no kept function");
  // As wasm-split writes them (a byte that may not stand in a text-format
  // name as \xx: a space is \20, a comma \2c), so ", " separates them; kept
  // as the names themselves, without the crates' disambiguators. Unnamed
  // functions (a number: wasm-opt's merged ones) are kept by
  // scripts/split-module.mjs whatever this list says.
  const unescape = (name) => Buffer.from(name.replace(/\\([0-9a-f]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16))), "latin1").toString("utf8");
  const names = [...new Set(line.slice("Keeping functions: ".length).split(", ")
    .filter((name) => !/^\d+$/.test(name))
    .map((name) => plain(unescape(name))))].sort();
  const file = join(ROOT, "crates/web/first-part.txt");
  const header = readFileSync(file, "utf8").split("\n").filter((text) => text.startsWith("#"));
  writeFileSync(file, `${[...header, ...names].join("\n")}\n`);
  console.log(`first-part: ${names.length} functions in crates/web/first-part.txt, from ${profiles.length} page loads`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
