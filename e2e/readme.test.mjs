// The two READMEs' code blocks, run as written: every
// block is accounted for below, and a block added to either README fails
// the first test until it is. A block a reader would run is run here (a
// transcript's commands, compared with the output it shows; the one-tag
// embeds and the API in Chromium; the Node example in Node; the typed
// events under `tsc --strict`), or names the test that builds it with a
// bundler; the rest are pictures and output of the blocks before them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { BINARY, ROOT, codeBlock, codeBlocks, done, everyPlaygroundDrawn, serving, typecheck, watched } from "./harness.mjs";

const site = serving();

/** What becomes of each block, by README and the start of its first line. */
const ACCOUNTED = {
  "README.md": {
    "0 ms     A claims": "a picture of the canonical timeline",
    "make serve": "the README's two commands: .ci/run runs `make test`",
    "CONTRACT.md ": "run here: every path the layout names exists",
    "$ leasefence --db demo.db enqueue": "run here: the transcript, output compared",
    "# three jobs whose deadline": "run here: the receiver exercise on the wall clock",
    '{"applied":': "the receiver exercise's output: compared by the test that runs it",
    "$ leasefence grade finish": "run here: the transcript, output compared",
    '<script type="module" src="https://your.host/': "run here: the one tag, in Chromium",
    'import init, { replay, Queue, Receiver, Player, mount } from "./pkg/': "run here: the API, in Chromium",
  },
  "package/README.md": {
    '<script type="module" src="leasefence/embed.js">': "run here: the one tag, in Chromium",
    'element.addEventListener("leasefence:step"': "run here: under tsc --strict",
    'import "leasefence/embed";': "e2e/bundle.test.mjs: built with Vite from the packed package",
    'import init, { mount } from "leasefence";': "e2e/bundle.test.mjs: built with Vite from the packed package",
    'import init, { replay } from "leasefence";': "e2e/bundle.test.mjs: bundled with esbuild",
    "esbuild main.js --bundle": "e2e/bundle.test.mjs: the one-tag bootstrap bundled with esbuild, these commands run as written",
    'import { readFileSync } from "node:fs";': "run here: under Node",
  },
};

test("every code block of both READMEs is run or accounted for", () => {
  for (const [file, known] of Object.entries(ACCOUNTED)) {
    const starts = codeBlocks(file).map((block) =>
      Object.keys(known).find((start) => block.code.startsWith(start)) ?? `(line ${block.line}) ${block.code.split("\n")[0]}`);
    assert.deepEqual(starts, Object.keys(known), `${file}: its blocks, in order (a new one needs a way to be run)`);
  }
});

test("README.md's layout names only paths that exist", () => {
  const named = codeBlock("README.md", "CONTRACT.md ").split("\n")
    .map((line) => line.match(/^(\S+)\s{2,}/)?.[1]).filter(Boolean);
  assert.ok(named.length > 10, `${named.length} paths`);
  assert.deepEqual(named.filter((path) => !existsSync(join(ROOT, path))), [], "paths that do not exist");
});

/**
 * Runs a transcript (`$ command` lines, each followed by the output it
 * shows) in one shell in `dir`, with `leasefence` on the PATH; each
 * command's output is compared with the lines shown after it. A command
 * shown without output is compared by `unshown(command, output)`.
 */
function transcript(block, dir, unshown) {
  const steps = [];
  for (const line of block.trimEnd().split("\n")) {
    if (line.startsWith("$ ")) steps.push({ command: line.slice(2), shown: [] });
    else steps.at(-1).shown.push(line);
  }
  // `$?` survives the marker between commands, so `echo $?` says the
  // exit status of the command before it.
  const marker = "--- leasefence transcript ---";
  const script = steps.map(({ command }) => `${command}\nstatus=$?; echo "${marker}"; (exit $status)`).join("\n");
  const output = execFileSync("bash", ["-c", script], {
    cwd: dir, encoding: "utf8", env: { ...process.env, PATH: `${dirname(BINARY)}:${process.env.PATH}` },
  });
  const outputs = output.split(`${marker}\n`);
  steps.forEach(({ command, shown }, index) => {
    const printed = outputs[index].trimEnd();
    if (shown.length) assert.equal(printed, shown.join("\n"), `$ ${command}`);
    else unshown(command, printed);
  });
}

test("README.md's command-line transcripts print what they show", () => {
  const dir = mkdtempSync(join(tmpdir(), "leasefence-readme-"));
  try {
    symlinkSync(join(ROOT, "chapters"), join(dir, "chapters"));
    transcript(codeBlock("README.md", "$ leasefence --db demo.db enqueue"), dir, (command, printed) => {
      assert.match(command, /^leasefence replay chapters\/01-canonical\/scenario\.json/);
      const expected = JSON.parse(readFileSync(join(ROOT, "chapters/01-canonical/expected.json"), "utf8"));
      assert.deepEqual(JSON.parse(printed), expected, "the contract's replay document");
    });
    // The learner's file: the fenced finish, as the level asks for it.
    writeFileSync(join(dir, "my-finish.sql"), "UPDATE jobs SET state = 'done'\n"
      + " WHERE id = :id AND owner = :owner AND token = :token AND attempts = :attempt\n"
      + "   AND state = 'leased' AND :now < lease_until AND :now < deadline\n");
    transcript(codeBlock("README.md", "$ leasefence grade finish").replace(/ +#.*$/m, ""), dir, () => assert.fail("shown"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("README.md's receiver exercise: every job applied once, as the output it shows", async () => {
  const dir = mkdtempSync(join(tmpdir(), "leasefence-exercise-"));
  // Its own process group, so the receiver it starts in the background
  // goes with it.
  const shell = spawn("bash", ["-c", codeBlock("README.md", "# three jobs whose deadline")], {
    cwd: dir, detached: true, stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, PATH: `${dirname(BINARY)}:${process.env.PATH}` },
  });
  let output = "";
  shell.stdout.on("data", (chunk) => { output += chunk; });
  const closed = new Promise((resolve) => shell.on("close", resolve));
  try {
    // The receiver it left running keeps the output open: the shell's
    // exit is the end, then its group goes.
    await new Promise((resolve) => shell.on("exit", resolve));
  } finally {
    try { process.kill(-shell.pid, "SIGTERM"); } catch { /* already gone */ }
    await closed;
    rmSync(dir, { recursive: true, force: true });
  }
  const totals = JSON.parse(output.trimEnd().split("\n").at(-1));
  const shown = JSON.parse(codeBlock("README.md", '{"applied":'));
  // Whether B's repeat of snack-1 reached the receiver depends on the
  // wall clock (the README says what it printed there); what never varies
  // is that each job is applied once.
  assert.deepEqual({ ...totals, repeats: undefined }, { ...shown, repeats: undefined });
  assert.ok(totals.repeats <= 1, `${totals.repeats} repeats`);
});

/** Serves the files of `dir` at the URLs under `prefix`, on every page of `context`. */
async function serveFrom(context, prefix, dir) {
  const types = { ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css" };
  await context.route(`${prefix}**`, (route) => {
    const path = new URL(route.request().url()).pathname.replace(new URL(prefix).pathname, "");
    route.fulfill({ contentType: types[path.slice(path.lastIndexOf("."))], body: readFileSync(join(dir, path)) });
  });
}

test("both READMEs' one-tag embeds mount every element, in Chromium", async () => {
  for (const [file, start, page, dir] of [
    ["README.md", '<script type="module" src="https://your.host/', "https://your.host/course/lesson.html", `${ROOT}www/`],
    ["package/README.md", '<script type="module" src="leasefence/embed.js">', "https://your.host/course/lesson.html", `${ROOT}www/pkg/`],
  ]) {
    const html = codeBlock(file, start);
    const context = await site.browser.newContext();
    const root = file === "README.md" ? "https://your.host/leasefence/" : "https://your.host/course/leasefence/";
    await serveFrom(context, root, dir);
    await context.route(page, (route) => route.fulfill({ contentType: "text/html",
      body: `<!doctype html><html><head><meta charset="utf-8"><title>lesson</title></head><body>${html}</body></html>` }));
    const tab = await context.newPage();
    const problems = [];
    tab.on("pageerror", (error) => problems.push(error.message));
    await tab.goto(page);
    const elements = (html.match(/data-leasefence/g) ?? []).length;
    await tab.waitForFunction(everyPlaygroundDrawn, elements);
    assert.deepEqual(problems, [], file);
    await context.close();
  }
});

test("README.md's API example runs in a page beside the package", async () => {
  const code = codeBlock("README.md", 'import init, { replay, Queue, Receiver, Player, mount } from "./pkg/');
  const page = await watched(site, "/#v=1&chapter=canonical&lang=en&predict=0", {});
  // What the example leaves to its reader: a scenario, and where its send
  // goes (a request that is answered at once).
  const prelude = `const scenario = ${readFileSync(join(ROOT, "chapters/01-canonical/scenario.json"), "utf8")};
const fetch = async () => new Response("ok");\n`;
  const result = await page.evaluate(async (source) => {
    const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    try {
      await import(url);
      return "ran";
    } catch (error) {
      return `${error.name}: ${error.message}`;
    }
  }, `${prelude}${code.replaceAll('"./pkg/', `"${site.base}/pkg/`)}\nwindow.readmeLast = player.scenarioJson();`);
  assert.equal(result, "ran");
  assert.match(await page.evaluate(() => window.readmeLast), /"at":1001/);
  await done(page);
});

test("package/README.md's typed events pass tsc --strict", () => {
  const dir = mkdtempSync(join(tmpdir(), "leasefence-readme-ts-"));
  try {
    const file = join(dir, "events.ts");
    writeFileSync(file, `import type {} from "${ROOT}www/pkg/leasefence.js";
declare const element: HTMLElement;
${codeBlock("package/README.md", 'element.addEventListener("leasefence:step"')}`);
    assert.equal(typecheck(file), "");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("package/README.md's Node example replays under Node", () => {
  const dir = mkdtempSync(join(tmpdir(), "leasefence-readme-node-"));
  try {
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(join(ROOT, "www/pkg"), join(dir, "node_modules/leasefence"));
    const code = codeBlock("package/README.md", 'import { readFileSync } from "node:fs";');
    writeFileSync(join(dir, "example.mjs"), `${code}\nconsole.log(JSON.stringify(doc.results[2]));\n`);
    const last = JSON.parse(execFileSync("node", ["example.mjs"], { cwd: dir, encoding: "utf8" }));
    assert.equal(last.accepted, false);
    assert.equal(last.reason, "token_mismatch", "as the example's comment says");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
