// Size budget: raw, gzip -9 and brotli sizes of everything the page loads,
// and the wasm module against its 300 KB (gzip -9) budget.
//   node e2e/sizes.mjs        (after `make web`; `make sizes` does both)
//   node e2e/sizes.mjs DIR    (any other build output, e.g. the queue-only
//                              package built with --no-default-features)
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const WWW = process.argv[2] ? `${process.argv[2].replace(/\/$/, "")}/` : new URL("../www/", import.meta.url).pathname;
const BUDGET_GZIP = 300 * 1000;
// What a browser fetches: the page's own files and the package's JS + wasm.
const loaded = (path) => /\.(html|css|js|json|wasm|svg)$/.test(path) && !/(^|\/)(package\.json|embed-example\.html)$/.test(path);

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

const wasm = rows.find((row) => row.file.endsWith(".wasm"));
if (!wasm) {
  console.error("no .wasm under www/: run `make web` first");
  process.exit(1);
}
const verdict = wasm.gzip <= BUDGET_GZIP ? "within" : "OVER";
console.log(`\nwasm gzip -9: ${kb(wasm.gzip)} KB, ${verdict} the ${kb(BUDGET_GZIP)} KB budget`);
