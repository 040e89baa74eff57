// Size budget: raw, gzip -9 and brotli sizes of everything the page loads,
// and their gzip -9 total against its budget. A byte count is the same on
// every run, so `make test` checks it (`--check`: exit 1 when over).
//   node e2e/sizes.mjs                  (after `make web`; `make sizes` does both)
//   node e2e/sizes.mjs --check          (`make size-check`, part of `make test`)
//   node e2e/sizes.mjs DIR --budget KB  (any other build output, e.g. the
//                                        queue-only package, `make
//                                        queue-only`; add --check to fail)
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: { check: { type: "boolean", default: false }, budget: { type: "string", default: "490" } },
});
const WWW = positionals[0] ? `${positionals[0].replace(/\/$/, "")}/` : new URL("../www/", import.meta.url).pathname;
// The page's budget is its measured total rounded up to the next 5 KB, so
// that any growth is caught; it moves only on purpose, with the reason in
// BENCHMARKS.md ("Package size"). Its history: 405 KB; 430 KB for issues
// 10 and 11's panels (+47.4 KB); 425 KB when SQLite's unused functions
// went; 430 KB for the statement panel's fixes (session 5); 425 KB when
// drawing lost its error paths (session 6); 425 KB again at the end of
// session 7 (420,129 B): its maps without extra B-tree copies took the
// page to 414,031 B, then whole scenarios from JavaScript began to cross
// through `serde_wasm_bindgen` (issue 9's item 3, +4.6 KB) and a
// scenario's job ids went back to a `BTreeSet` (a sorted list made
// checking 100,000 ids quadratic); 400 KB in session 8 (396,306 B), when
// the web build began to inline across crates (the page had become its
// own crate); 415 KB in session 10 for the lab of issue 21 (+13.5 KB:
// its grader and panel, and SQLite's authorizer, progress handler and
// six functions, after the single read of JavaScript values had won 6.0
// KB); 420 KB in session 11 for issue 20's fixes of what the page said
// falsely (the lanes' tools that would change nothing disabled, a short
// lease's own cost, why the token and not the owner, the statement panel
// while predicting, idle sweeps folded) and the lab's claim level; no win was
// found to pay for them, and the one seen (each language's messages
// fetched on their own, about 8 KB) is not made yet (BENCHMARKS.md,
// session 11); 425 KB in session 13 (420,155 B) for issue 20's item 4
// (the counts of every ordering wait while predicting) and item 8 (both
// sides of the statement panel on one clock), +1.1 KB, that win still not
// made (BENCHMARKS.md, session 13); 430 KB in session 14 (425,101 B) for
// a lesson's own title and narration (issue 22, items 5 and 6), a call on
// a freed object said in JavaScript's words and the root read through
// catching calls (issue 23), +4.5 KB (BENCHMARKS.md, session 14); 455 KB
// in session 15 (450,730 B) for the lab's transaction level (issue 21),
// +19.5 KB, and the course's quiz (issue 20), +2.6 KB (BENCHMARKS.md,
// session 15); 460 KB in session 17 (455,529 B) for the course's point
// #9, the lease's end read three ways (issue 20), +4.8 KB; 465 KB in the
// same session (460,377 B) for point #1 (the designs the course turns
// down, +4.4 KB) and #13 (another worker's claim in the send race); the
// messages win still not made (BENCHMARKS.md, session 17); 480 KB in
// session 18 (479,161 B) when the module came in two parts (issue 22,
// item 9): what the page fetches before its first drawing fell from
// 461,566 B to 358,315 B, and the two parts together are 16.1 KB more than
// the whole (the rest's imports of the first part's functions, and the
// placeholders); the page no longer fetches the whole module; 490 KB in
// session 19 (487,309 B) when chapters began to be drawn from their
// timelines written down (crates/course/src/timeline/written.rs), so that
// SQLite moved to the second part: what the page fetches before its
// first drawing fell from 358,315 B to 210,306 B; the timelines (40 KB of
// JSON, 2.2 KB of it gzipped in the module) and the code reading them back
// (serde's derived readers) add about 18 KB to the whole module. Issue 9's
// target, 350 KB, is not met. `make size-check` also
// checks the queue-only package (`--budget 265 --check`): issue 9's 280
// KB until session 8, then its 259,481 B rounded up to 5 KB with room
// (260,270 B in session 13, with the statement cache always on).
const BUDGET_GZIP = Number(options.budget) * 1000;
// What a browser fetches: the page's own files and the package's JS + wasm
// and stylesheet; not the stylesheet's source (leasefence.css, which `make
// web` minifies into pkg/, where the page reads it).
// Where the module comes in two parts (scripts/split-module.mjs), the
// page fetches those, never the whole leasefence_bg.wasm (kept for Node).
const split = existsSync(join(WWW, "pkg/leasefence_first.wasm"));
const loaded = (path) => /\.(html|css|js|json|wasm|svg)$/.test(path)
  && !/(^|\/)(package\.json|embed-example\.html)$/.test(path) && !["leasefence.css", "leasefence-theme.css"].includes(path)
  && !(split && path === "pkg/leasefence_bg.wasm");

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const kb = (bytes) => (bytes / 1000).toFixed(1);
const rows = walk(WWW)
  .filter((path) => loaded(relative(WWW, path)))
  .map((path) => {
    const bytes = readFileSync(path);
    return {
      file: relative(WWW, path),
      raw: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
      brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    };
  })
  .sort((a, b) => b.raw - a.raw);

console.log("| file | raw KB | gzip -9 KB | brotli KB |\n| --- | ---: | ---: | ---: |");
for (const row of rows) console.log(`| ${row.file} | ${kb(row.raw)} | ${kb(row.gzip)} | ${kb(row.brotli)} |`);
const total = (key) => rows.reduce((sum, row) => sum + row[key], 0);
console.log(`| **total** | ${kb(total("raw"))} | ${kb(total("gzip"))} | ${kb(total("brotli"))} |`);

if (split) {
  // What a learner waits for before the first drawing: all but the rest.
  const first = rows.filter((row) => row.file !== "pkg/leasefence_rest.wasm");
  const sum = (key) => first.reduce((total, row) => total + row[key], 0);
  console.log(`| before the first drawing (all but the rest) | ${kb(sum("raw"))} | ${kb(sum("gzip"))} | ${kb(sum("brotli"))} |`);
}
if (!rows.some((row) => row.file.endsWith(".wasm"))) {
  console.error(`no .wasm under ${WWW}: run \`make web\` first`);
  process.exit(1);
}
const within = total("gzip") <= BUDGET_GZIP;
console.log(
  `\ntotal gzip -9: ${total("gzip")} bytes (${kb(total("gzip"))} KB), ${within ? "within" : "OVER"} the ${kb(BUDGET_GZIP)} KB budget`,
);
if (options.check && !within) process.exit(1);
