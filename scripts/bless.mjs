// `make bless`: brings every chapter's expected replay up to date and
// writes the golden tests' list of chapters.
//
//   node scripts/bless.mjs path/to/leasefence
//
// For each folder `chapters/<NN>-<id>/`, the command line replays
// `scenario.json`; when the document differs from `expected.json` (as
// values: the hand-made layout of an unchanged file is kept), the file is
// rewritten and the change printed. Then `tests/support/chapters.rs`, the
// list the tests of every crate embed (natively and in Chromium), is
// written again from the folders, and so are the lists of chapter ids typed
// in prose and types: the `Chapter` union of the package's TypeScript
// (crates/web/src/lib.rs) and the `data-scenario` lists of both READMEs
// (crates/course/tests/chapter_lists.rs holds each to the folders). Nothing
// else needs to know a chapter.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";

const binary = process.argv[2];
if (!binary) {
  console.error("usage: node scripts/bless.mjs path/to/leasefence");
  process.exit(2);
}
const root = new URL("../", import.meta.url).pathname;
const folders = readdirSync(`${root}chapters`)
  .filter((name) => statSync(`${root}chapters/${name}`).isDirectory())
  .sort();

let changed = 0;
const list = [];
for (const folder of folders) {
  const match = /^\d\d-(.+)$/.exec(folder);
  if (!match) {
    console.error(`chapters/${folder}: a chapter folder is named NN-id`);
    process.exit(1);
  }
  const dir = `chapters/${folder}`;
  const current = JSON.parse(execFileSync(binary, ["replay", `${root}${dir}/scenario.json`], { encoding: "utf8" }));
  const path = `${root}${dir}/expected.json`;
  const before = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined;
  if (!isDeepStrictEqual(before, current)) {
    writeFileSync(path, `${JSON.stringify(current, null, 2)}\n`);
    changed += 1;
    console.log(`${dir}/expected.json: ${before === undefined ? "written" : "rewritten"}`);
    try {
      execFileSync("git", ["--no-pager", "diff", "--stat", "--", path], { cwd: root, stdio: "inherit" });
    } catch {
      // Not a git checkout: the message above says which file changed.
    }
  }
  list.push([match[1], dir]);
}

const entries = list
  .map(([id, dir]) => `    (\n        ${JSON.stringify(id)},\n        include_str!("../../${dir}/scenario.json"),\n        include_str!("../../${dir}/expected.json"),\n    ),`)
  .join("\n");
writeFileSync(
  `${root}tests/support/chapters.rs`,
  `// Written by \`make bless\` (scripts/bless.mjs) from the folders of
// chapters/; the golden tests check that it lists every folder.

/// Every chapter's id, scenario and expected replay, in course order.
pub const SCENARIOS: &[(&str, &str, &str)] = &[
${entries}
];
`,
);
// Rewrites the part of `file` from `start` up to `end` (not included) with
// `list`, the ids as they are written there; says so when it changed.
function rewriteList(file, start, end, list) {
  const path = `${root}${file}`;
  const text = readFileSync(path, "utf8");
  const from = text.indexOf(start);
  if (from < 0) {
    console.error(`${file}: ${JSON.stringify(start)} not found`);
    process.exit(1);
  }
  const to = text.indexOf(end, from + start.length);
  if (to < 0) {
    console.error(`${file}: the list after ${JSON.stringify(start)} has no end (${JSON.stringify(end)})`);
    process.exit(1);
  }
  const next = `${text.slice(0, from + start.length)}${list}${text.slice(to)}`;
  if (next !== text) {
    writeFileSync(path, next);
    console.log(`${file}: the list of chapters rewritten`);
  }
}

// `words` joined by ", " after a line already `used` columns long, wrapped
// before `width` columns, each new line opened by `indent`.
function wrap(words, used, width, indent) {
  const lines = [[]];
  let length = used;
  for (const [index, word] of words.entries()) {
    const piece = index === words.length - 1 ? word : `${word},`;
    if (lines.at(-1).length > 0 && length + 1 + piece.length > width) {
      lines.push([]);
      length = indent.length - 1;
    }
    lines.at(-1).push(piece);
    length += 1 + piece.length;
  }
  return ` ${lines.map((line) => line.join(" ")).join(`\n${indent}`)}`;
}

const ids = list.map(([id]) => id);
const ticked = ids.map((id) => `\`${id}\``);
rewriteList("README.md", "- `data-scenario`:", "\n- ", `${wrap(ticked, 18, 72, "  ")}.`);
rewriteList("package/README.md", "`data-scenario` (a chapter:", ")", wrap(ticked, 39, 72, ""));
rewriteList(
  "crates/web/src/lib.rs",
  "export type Chapter =",
  ";",
  ` ${ids.map((id) => JSON.stringify(id)).join(" | ")}`,
);

console.log(`${folders.length} chapters, ${changed} expected replay(s) changed; tests/support/chapters.rs written`);
