// Cuts the page's module in two, so that a learner waits only for the part
// the first drawing needs (BENCHMARKS.md "Time to
// interactive"). `make web` runs it on wasm-pack's output, after
// package/rest.js is appended to the glue and before the glue is minified:
//   node scripts/split-module.mjs www/pkg NAMED_COPY
//
// - leasefence_first.wasm: the functions of crates/web/first-part.txt (those
//   the first drawing of each chapter and a chapter's first steps call,
//   written by `make first-part`), and a placeholder for each function of
//   the rest it calls;
// - leasefence_rest.wasm: every other function, which on instantiation
//   takes its placeholder's place in the first part's table
//   (package/rest.js loads it);
// - leasefence_bg.wasm: the whole module, still there for Node and for
//   init()/initSync() without arguments, its function names stripped;
// - NAMED_COPY: the whole module with its function names, which `make
//   first-part` instruments (wasm-split names functions by these names).
//
// The glue learns the placeholders' namespace and the name under which the
// first part exports its table (wasm-split picks it), read from the rest's
// imports with binaryen.js.
import { execFileSync, spawnSync } from "node:child_process";
import { FEATURES, plain } from "./function-names.mjs";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import binaryen from "../e2e/node_modules/binaryen/index.js";

const [pkgDir, namedCopy] = process.argv.slice(2);
if (!pkgDir || !namedCopy) {
  console.error("usage: node scripts/split-module.mjs PKG_DIR NAMED_COPY");
  process.exit(2);
}
const root = new URL("..", import.meta.url).pathname;
const whole = join(pkgDir, "leasefence_bg.wasm");
const first = join(pkgDir, "leasefence_first.wasm");
const rest = join(pkgDir, "leasefence_rest.wasm");
const glue = join(pkgDir, "leasefence.js");
const run = (tool, args) => execFileSync(tool, args, { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });

// Function names, one a line; `#` starts a comment line. Written without
// the crates' disambiguators (`leasefence_web::page::Page>::build`, not
// `leasefence_web[71b8…]::…`), which change with the compiler and the
// dependencies' versions.
const wanted = new Set(readFileSync(join(root, "crates/web/first-part.txt"), "utf8")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith("#")));
// The module's own names, matched without disambiguators, then written as
// wasm-split 120 reads them: each byte that may not stand in a text-format
// name as `\xx` (as its reader escaped the names section).
const ID_CHARS = /[0-9A-Za-z!#$%&'*+\-./:<=>?@\\^_`|~]/;
const escape = (name) => [...Buffer.from(name, "utf8")]
  .map((byte) => (byte < 0x80 && ID_CHARS.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `\\${byte.toString(16).padStart(2, "0")}`))
  .join("");
const kept = [];
const matched = new Set();
const named = binaryen.readBinary(readFileSync(whole));
for (let index = 0; index < named.getNumFunctions(); index++) {
  const { name, module: imported } = binaryen.getFunctionInfo(named.getFunctionByIndex(index));
  if (imported) continue;
  // Functions without a name (wasm-opt's merged ones) are named by their
  // index, which moves with every change: all are kept.
  if (/^\d+$/.test(name) || wanted.has(plain(name))) {
    kept.push(escape(name));
    matched.add(plain(name));
  }
}
named.dispose();
// A name of the list that matches no function: the list is older than the
// code (e2e/split.test.mjs says whether a first drawing now needs the rest).
const unmatched = [...wanted].filter((name) => !matched.has(name)).length;
const work = mkdtempSync(join(tmpdir(), "leasefence-split-"));
try {
  const list = join(work, "keep.txt");
  writeFileSync(list, `${kept.join("\n")}\n`);
  copyFileSync(whole, namedCopy);
  // Every name given is the module's own: a warning ("function ... does
  // not exist") means the escaping above is wrong, and would silently put
  // that function in the rest.
  const split = spawnSync(join(root, "scripts/wasm-split"), [
    "--split", ...FEATURES, `--keep-funcs=@${list}`, "--placeholder-namespace=placeholder",
    "--import-namespace=primary", whole, "-o1", first, "-o2", rest,
  ], { encoding: "utf8" });
  if (split.status !== 0 || split.stderr.trim()) {
    throw new Error(`split-module: wasm-split said (exit ${split.status}):\n${split.stderr.slice(0, 2000)}`);
  }
  // Each part once more through -Oz: the pipeline before the split keeps
  // the functions' names (the split needs them), and names hold back some
  // of binaryen's merging; the parts have none (1.9 KB gzip less in all,
  // BENCHMARKS.md). Exports and imports are kept, so the parts still fit.
  // `--low-memory-unused` as before the split (crates/web/Cargo.toml).
  for (const part of [first, rest]) {
    run(join(root, "e2e/node_modules/.bin/wasm-opt"), [...FEATURES, "-Oz", "--low-memory-unused", part, "-o", part]);
  }
  // The whole module without names, as wasm-pack would have left it.
  run(join(root, "e2e/node_modules/.bin/wasm-opt"), [...FEATURES, "--strip-debug", whole, "-o", whole]);
} finally {
  rmSync(work, { recursive: true, force: true });
}

// The table the rest writes its functions into: the one its element
// segment fills, imported from the first part under some export name.
const module = binaryen.readBinary(readFileSync(rest));
const segments = module.getNumElementSegments();
if (segments !== 1) throw new Error(`split-module: the rest has ${segments} element segments, expected 1`);
const { table } = binaryen.getElementSegmentInfo(module.getElementSegmentByIndex(0));
const { module: from, base } = binaryen.getTableInfo(module.getTable(table));
module.dispose();
if (from !== "primary") throw new Error(`split-module: the rest fills its own table ${table}, not the first part's`);

// The glue: a `placeholder` namespace beside wasm-bindgen's own, and the table's name.
const source = readFileSync(glue, "utf8");
const namespace = '"./leasefence_bg.js": import0,';
const marker = "__LF_SPLIT_TABLE__";
const count = (text, part) => text.split(part).length - 1;
if (count(source, namespace) !== 1 || count(source, marker) !== 1) {
  throw new Error(`split-module: ${glue} must hold "${namespace}" (wasm-bindgen's imports) and ${marker} (package/rest.js) once each`);
}
writeFileSync(glue, source
  .replace(namespace, `${namespace}\n        placeholder: __lf_placeholders,`)
  .replace(marker, JSON.stringify(base)));
console.log(`split-module: ${kept.length} functions kept in ${first}; the rest in ${rest}; the table is exported as ${JSON.stringify(base)}`
  + (unmatched ? `; ${unmatched} names of crates/web/first-part.txt match no function (run make first-part if a first drawing now waits)` : ""));
