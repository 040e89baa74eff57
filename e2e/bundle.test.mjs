// The npm package as a developer uses it (issue 12): its types hold a
// program to the scenario format (`tsc --noEmit`), and a program bundled
// with esbuild, the way the package's README says, runs in Chromium.
// Against `make web`'s www/pkg. Run by `make e2e`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { ROOT, start } from "./harness.mjs";

const PKG = `${ROOT}www/pkg`;
const TSC = `${ROOT}e2e/node_modules/.bin/tsc`;
let work;

before(() => {
  work = mkdtempSync(join(tmpdir(), "leasefence-bundle-"));
});

after(() => {
  rmSync(work, { recursive: true, force: true });
});

/** `tsc --noEmit --strict` on `source`; the compiler's output when it fails. */
function typecheck(name, source) {
  const file = join(work, `${name}.ts`);
  writeFileSync(file, source);
  try {
    execFileSync(TSC, ["--noEmit", "--strict", "--target", "es2022", "--module", "es2022",
      "--moduleResolution", "bundler", "--lib", "es2022,esnext.disposable,dom", file], { encoding: "utf8" });
    return "";
  } catch (error) {
    return `${error.stdout}${error.stderr}`;
  }
}

test("the package's types accept a scenario and a chapter, and refuse a misspelt field or chapter", () => {
  const imports = `import type { Scenario, Chapter, MountOptions } from "${PKG}/leasefence.js";\n`;
  const good = `${imports}
const scenario: Scenario = { jobs: [{ id: "j", qty: 1, deadline: 5000 }],
  events: [{ at: 0, worker: "A", do: "claim", lease_ms: 1000 }] };
const chapter: Chapter = "fencing-off-vs-on";
const options: MountOptions = { scenario, title: "Mine", narration: { ko: "제 수업" }, lang: "ko" };
const byChapter: MountOptions = { scenario: chapter, compact: true };
document.body.addEventListener("leasefence:verdict", (event) => event.detail.accepted);
export { options, byChapter };
`;
  assert.equal(typecheck("good", good), "", "a correct program compiles");
  assert.match(typecheck("typo", `${imports}const s: Scenario = { evnts: [] };\nexport { s };\n`), /evnts/);
  assert.match(typecheck("chapter", `${imports}const c: Chapter = "canonicall";\nexport { c };\n`), /canonicall/);
});

test("a program bundled with esbuild, as the README says, runs in Chromium", async () => {
  const entry = join(work, "main.js");
  writeFileSync(entry, `
import init, { replay } from "${PKG}/leasefence.js";
import wasmUrl from "${PKG}/leasefence_bg.wasm";
await init({ module_or_path: wasmUrl });
const doc = replay({ jobs: [{ id: "snack-1", qty: 2, deadline: 5000 }], events: [
  { at: 0, worker: "A", do: "claim", lease_ms: 1000 },
  { at: 1000, worker: "B", do: "claim", lease_ms: 1000 },
  { at: 1001, worker: "A", do: "finish" }] });
document.body.dataset.verdict = doc.results[2].reason;
`);
  const out = join(work, "out");
  await esbuild.build({
    entryPoints: [entry], bundle: true, format: "esm", outdir: out,
    loader: { ".wasm": "file" }, assetNames: "[name]", publicPath: "/bundle/", logLevel: "silent",
  });
  const { base, browser, stop } = await start();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.route("**/bundle/**", (route) => {
      const name = new URL(route.request().url()).pathname.replace("/bundle/", "");
      const type = name.endsWith(".wasm") ? "application/wasm" : "text/javascript";
      route.fulfill({ contentType: type, body: readFileSync(join(out, name)) });
    });
    await page.route("**/bundled.html", (route) => route.fulfill({ contentType: "text/html",
      body: `<!doctype html><body><script type="module" src="/bundle/main.js"></script></body>` }));
    await page.goto(`${base}/bundled.html`);
    await page.waitForFunction(() => document.body.dataset.verdict !== undefined);
    assert.equal(await page.evaluate(() => document.body.dataset.verdict), "token_mismatch");
    assert.deepEqual(errors, []);
  } finally {
    await stop();
  }
});
