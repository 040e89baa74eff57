// Size budget: raw, gzip -9 and brotli sizes of everything the page loads,
// and their gzip -9 total against its budget. A byte count is the same on
// every run, so `make test` checks it (`--check`: exit 1 when over).
//   node e2e/sizes.mjs                  (after `make web`; `make sizes` does both)
//   node e2e/sizes.mjs --check          (`make size-check`, part of `make test`)
//   node e2e/sizes.mjs DIR --budget KB  (any other build output, e.g. the
//                                        queue-only package, `make
//                                        queue-only`; add --check to fail)
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: { check: { type: "boolean", default: false }, budget: { type: "string", default: "420" } },
});
const WWW = positionals[0] ? `${positionals[0].replace(/\/$/, "")}/` : new URL("../www/", import.meta.url).pathname;
// The page's budget is its measured total rounded up to the next 5 KB, so
// that any growth is caught. It was raised once, on purpose, from 405 to
// 430 KB (2026-11-30): issue 11's statement panel, invariants and census,
// and issue 10's field question and course points cost 47.4 KB, of which
// 23.5 KB had been won back just before by building std for size
// (BENCHMARKS.md has each feature's cost). It came down to 425 KB when
// SQLite's unused SQL functions and defensive checks went and its C was
// built with bulk memory: 419,303 B on branch size-fns, 422,116 B with main
// at 65ba614 (the third race) merged in. It went back to 430 KB, on
// purpose, at the end of session 5: the statement panel's fixes after a
// code review and a learner's trial (the lane following its latest column
// in the next frame and keeping its focus, one header cell per instant,
// the refused finishes named, the workers' memory labelled) measured
// 425,481 B. It came down to 425 KB again in session 6, when drawing lost
// its error paths (elements and attributes the DOM never refuses): 421,423
// B. It came down to 415 KB in session 7, when the core's maps stopped
// costing a copy of the B-tree code each (sorted lists, maps filled by
// inserting instead of collecting): 414,031 B, and went to 420 KB, on
// purpose, when whole scenarios from JavaScript began to cross through
// `serde_wasm_bindgen` as issue 9's item 3 asks (they had gone through
// `JSON.stringify`): 418,610 B. Issue 9's target, 350 KB,
// is not met. `make size-check` also checks
// the queue-only package against the issue's 280 KB (`--budget 280
// --check`), which it meets since session 7 (273,499 B).
const BUDGET_GZIP = Number(options.budget) * 1000;
// What a browser fetches: the page's own files and the package's JS + wasm
// and stylesheet; not the stylesheet's source (leasefence.css, which `make
// web` minifies into pkg/, where the page reads it).
const loaded = (path) => /\.(html|css|js|json|wasm|svg)$/.test(path)
  && !/(^|\/)(package\.json|embed-example\.html)$/.test(path) && path !== "leasefence.css";

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

if (!rows.some((row) => row.file.endsWith(".wasm"))) {
  console.error(`no .wasm under ${WWW}: run \`make web\` first`);
  process.exit(1);
}
const within = total("gzip") <= BUDGET_GZIP;
console.log(
  `\ntotal gzip -9: ${total("gzip")} bytes (${kb(total("gzip"))} KB), ${within ? "within" : "OVER"} the ${kb(BUDGET_GZIP)} KB budget`,
);
if (options.check && !within) process.exit(1);
