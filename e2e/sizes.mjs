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
  options: { check: { type: "boolean", default: false }, budget: { type: "string", default: "474" } },
});
const WWW = positionals[0] ? `${positionals[0].replace(/\/$/, "")}/` : new URL("../www/", import.meta.url).pathname;
// The page's budget is a ratchet: it is never raised, so each feature
// pays for itself in bytes saved elsewhere, and it is lowered when a saving
// leaves room (to the total rounded up to the next KB). Its history and the
// savings that paid for each feature are in BENCHMARKS.md ("Package
// size" and the sections after it). `make size-check` also checks the
// queue-only package (`--budget 265 --check`).
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
// Each language's texts are a file of their own, and a learner's page
// fetches one (crates/web/src/page/texts.rs): a page's total is the
// shared files and one language's, the larger (the budget holds for
// either language).
const texts = (row) => /(^|\/)leasefence\.[a-z]+\.json$/.test(row.file);
const shared = rows.filter((row) => !texts(row));
const languages = rows.filter(texts);
const largest = (key) => Math.max(0, ...languages.map((row) => row[key]));
const total = (key) => shared.reduce((sum, row) => sum + row[key], 0) + largest(key);
const what = languages.length ? "the page in one language (the larger)" : "total";
console.log(`| **${what}** | ${kb(total("raw"))} | ${kb(total("gzip"))} | ${kb(total("brotli"))} |`);

if (split) {
  // What a learner waits for before the first drawing: all but the rest.
  const first = shared.filter((row) => row.file !== "pkg/leasefence_rest.wasm");
  const sum = (key) => first.reduce((total, row) => total + row[key], 0) + largest(key);
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
