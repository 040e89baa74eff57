// The npm package as a developer uses it: its types hold a
// program to the scenario format (`tsc --noEmit`), and the package
// README's bundler blocks, as written, built from the packed package (`npm
// pack`) run in Chromium: esbuild's, and Vite's one-tag bootstrap and
// playground mounted by hand.
// Against `make web`'s www/pkg. Run by `make e2e`.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { ROOT, codeBlock, start, typecheck } from "./harness.mjs";

const PKG = `${ROOT}www/pkg`;
let work;

before(() => {
  work = mkdtempSync(join(tmpdir(), "leasefence-bundle-"));
});

after(() => {
  rmSync(work, { recursive: true, force: true });
});

/** `tsc --noEmit --strict` on `source`, written as `name.ts`; the compiler's output when it fails. */
function typecheckSource(name, source) {
  const file = join(work, `${name}.ts`);
  writeFileSync(file, source);
  return typecheck(file);
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
  assert.equal(typecheckSource("good", good), "", "a correct program compiles");
  assert.match(typecheckSource("typo", `${imports}const s: Scenario = { evnts: [] };\nexport { s };\n`), /evnts/);
  assert.match(typecheckSource("chapter", `${imports}const c: Chapter = "canonicall";\nexport { c };\n`), /canonicall/);
});

test("a program bundled with esbuild, as the README says, runs in Chromium", async () => {
  const app = appWithPackage("esbuild-app");
  const entry = join(app, "main.js");
  // The package README's esbuild block as written, then a use of it.
  writeFileSync(entry, `${codeBlock("package/README.md", 'import init, { replay } from "leasefence";')}
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

test("the one-tag bootstrap bundled with esbuild, as the package README's commands say, mounts in Chromium", async () => {
  const app = appWithPackage("esbuild-embed");
  writeFileSync(join(app, "main.js"), 'import "leasefence/embed";\n');
  // The README's commands, as written, with esbuild from e2e/node_modules.
  execFileSync("bash", ["-e", "-c", codeBlock("package/README.md", "esbuild main.js --bundle")], {
    cwd: app, env: { ...process.env, PATH: `${ROOT}e2e/node_modules/.bin:${process.env.PATH}` }, stdio: "ignore",
  });
  const dist = join(app, "dist");
  writeFileSync(join(dist, "index.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head>
<body><div id="embed" data-leasefence data-scenario="late-delivery"></div><script type="module" src="./main.js"></script></body></html>`);
  const { browser, stop } = await start();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    await serveBuilt(page, "esbuild-embed", dist);
    await page.goto("http://esbuild.test/esbuild-embed/index.html");
    await page.waitForSelector("#embed [data-event]");
    // The stylesheet came along, into the playground's shadow root.
    const background = await page.$eval("#embed .lf", (el) => getComputedStyle(el).getPropertyValue("--_lf-bg").trim());
    assert.notEqual(background, "", "the stylesheet is loaded");
    // The module's second part came along too: the page marks it in.
    await page.waitForFunction(() => performance.getEntriesByName("leasefence:rest").length === 1);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await stop();
  }
});

/** `npm pack` of the package, unpacked as `node_modules/leasefence` of a new app folder `name`. */
function appWithPackage(name) {
  const app = join(work, name);
  const installed = join(app, "node_modules", "leasefence");
  mkdirSync(installed, { recursive: true });
  const packed = join(work, "packed");
  mkdirSync(packed, { recursive: true });
  if (!readdirSync(packed).length) {
    execFileSync("npm", ["pack", "--silent", "--pack-destination", packed], { cwd: PKG, stdio: "ignore" });
  }
  const tarball = join(packed, readdirSync(packed).find((file) => file.endsWith(".tgz")));
  execFileSync("tar", ["-xzf", tarball, "-C", installed, "--strip-components=1"]);
  return app;
}

/** Builds the app in `app` with Vite for the base `/<name>/`; its output folder. */
async function viteBuild(app, name) {
  const { build } = await import("vite");
  const outDir = join(app, "dist");
  await build({ root: app, base: `/${name}/`, logLevel: "silent", build: { outDir, emptyOutDir: true } });
  return outDir;
}

const TYPES = { ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css", ".html": "text/html" };

/** Serves `dir` at `/<name>/` on `page`. */
async function serveBuilt(page, name, dir) {
  await page.route(`**/${name}/**`, (route) => {
    const path = new URL(route.request().url()).pathname.replace(`/${name}/`, "") || "index.html";
    const type = TYPES[path.slice(path.lastIndexOf("."))] ?? "application/octet-stream";
    try {
      route.fulfill({ contentType: type, body: readFileSync(join(dir, path)) });
    } catch {
      route.fulfill({ status: 404, body: "" });
    }
  });
}

test("apps built with Vite from the packed package run: the one-tag bootstrap, and a playground mounted by hand", async () => {
  const embedApp = appWithPackage("vite-embed");
  writeFileSync(join(embedApp, "index.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head>
<body><div id="embed" data-leasefence data-scenario="canonical"></div>
<script type="module">${codeBlock("package/README.md", 'import "leasefence/embed";')}</script></body></html>`);
  const handApp = appWithPackage("vite-hand");
  writeFileSync(join(handApp, "index.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head>
<body><div id="playground"></div><script type="module" src="./main.js"></script></body></html>`);
  writeFileSync(join(handApp, "main.js"), codeBlock("package/README.md", 'import init, { mount } from "leasefence";'));
  // The types of every subpath the README imports, resolved through the
  // package's exports as a bundler resolves them, under tsc --strict.
  const check = join(embedApp, "check.ts");
  writeFileSync(check, `import wasmUrl from "leasefence/leasefence_bg.wasm";
import css from "leasefence/leasefence.css";
import theme from "leasefence/leasefence-theme.css";
import { mountAll } from "leasefence/embed";
import init, { type MountOptions } from "leasefence";
const urls: string[] = [wasmUrl, css, theme];
const options: MountOptions = { lab: "finish" };
export { urls, options, mountAll, init };
`);
  assert.equal(typecheck(check, embedApp), "", "every subpath has types");
  rmSync(check);
  const built = { "vite-embed": await viteBuild(embedApp, "vite-embed"), "vite-hand": await viteBuild(handApp, "vite-hand") };
  const { browser, stop } = await start();
  try {
    for (const [name, selector] of [["vite-embed", "#embed"], ["vite-hand", "#playground"]]) {
      const page = await browser.newPage();
      const errors = [];
      page.on("pageerror", (error) => errors.push(error.message));
      page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
      await serveBuilt(page, name, built[name]);
      await page.goto(`http://vite.test/${name}/index.html`);
      await page.waitForSelector(`${selector} [data-event]`);
      // The stylesheet came along: the playground's own colours apply.
      const background = await page.$eval(`${selector} .lf, ${selector}.lf`, (el) => getComputedStyle(el).getPropertyValue("--_lf-bg").trim());
      assert.notEqual(background, "", `${name}: the stylesheet is loaded`);
      if (name === "vite-embed") {
        // The module's second part came along too: the page marks it in.
        await page.waitForFunction(() => performance.getEntriesByName("leasefence:rest").length === 1);
      }
      assert.deepEqual(errors, [], name);
      await page.close();
    }
  } finally {
    await stop();
  }
});
