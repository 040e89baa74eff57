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
// written again from the folders. Nothing else needs to know a chapter.
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
console.log(`${folders.length} chapters, ${changed} expected replay(s) changed; tests/support/chapters.rs written`);
