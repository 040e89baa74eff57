// Where the module's bytes go: the code of a .wasm grouped by origin
// (SQLite's C, each Rust crate, leasefence's own modules, wasm-bindgen's
// glue) and the data segments, each group's bytes gzipped on their own.
// Groups compressed apart do not add up to the whole file's gzip exactly
// (one stream shares its dictionary), but they show what the budget is
// spent on. Needs a module with a name section:
//   node e2e/breakdown.mjs target/wasm-names/leasefence_bg.wasm
// (`make sizes` builds one with `wasm-opt -Oz -g`.)
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const bytes = readFileSync(process.argv[2]);
let at = 8; // after the magic number and version

function leb() {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return value;
  }
}

const sections = [];
while (at < bytes.length) {
  const id = bytes[at++];
  const size = leb();
  sections.push({ id, start: at, end: at + size });
  at += size;
}

// Imported functions come first in the function index space.
let imported = 0;
const names = new Map();
const bodies = [];
let data = Buffer.alloc(0);
for (const { id, start, end } of sections) {
  at = start;
  if (id === 2) {
    for (let n = leb(); n > 0; n--) {
      for (const _ of ["module", "name"]) {
        const length = leb();
        at += length;
      }
      const kind = bytes[at++];
      if (kind === 0) (leb(), imported++);
      else if (kind === 1) (at++, bytes[at++] & 1 ? (leb(), leb()) : leb());
      else if (kind === 2) (bytes[at++] & 1 ? (leb(), leb()) : leb());
      else if (kind === 3) at += 2;
      else if (kind === 4) (at++, leb());
    }
  } else if (id === 10) {
    for (let n = leb(); n > 0; n--) {
      const size = leb();
      bodies.push(bytes.subarray(at, at + size));
      at += size;
    }
  } else if (id === 11) {
    data = bytes.subarray(start, end);
  } else if (id === 0) {
    const length = leb();
    const title = bytes.subarray(at, at + length).toString();
    at += length;
    if (title !== "name") continue;
    while (at < end) {
      const sub = bytes[at++];
      const size = leb();
      const next = at + size;
      if (sub === 1) {
        for (let n = leb(); n > 0; n--) {
          const index = leb();
          const length = leb();
          names.set(index, bytes.subarray(at, at + length).toString());
          at += length;
        }
      }
      at = next;
    }
  }
}
if (names.size === 0) {
  console.error("no name section: build the module with `wasm-opt -g` (see `make sizes`)");
  process.exit(1);
}

/** The group a function's name belongs to. */
function group(name) {
  if (/shim|^__wbg|^__wbindgen|^__externref/.test(name)) return "wasm-bindgen glue";
  const own = name.match(/^<?(leasefence(?:_web|_course)?)(?:\[[0-9a-f]+\])?::([a-z_]+)(?:::([a-z_]+))?/);
  if (own) return `${own[1]}::${own[2]}${own[3] && ["page", "playground"].includes(own[2]) ? `::${own[3]}` : ""}`;
  const crate = name.match(/^<?&?(?:mut |dyn )*([a-z_][a-z0-9_]*)(?:\[[0-9a-f]+\])?::/);
  if (crate) return ["core", "alloc", "std"].includes(crate[1]) ? "Rust std (core, alloc, std)" : crate[1];
  if (/^<|::/.test(name)) return "other Rust (closures, generics)";
  return "SQLite (C) and other unnamespaced symbols";
}

const groups = new Map();
bodies.forEach((body, index) => {
  const key = group(names.get(index + imported) ?? "");
  groups.set(key, [...(groups.get(key) ?? []), body]);
});
const gz = (buffer) => gzipSync(buffer, { level: 9 }).length;
const kb = (n) => (n / 1000).toFixed(1);
const rows = [...groups].map(([key, parts]) => {
  const joined = Buffer.concat(parts);
  return { key, raw: joined.length, gzip: gz(joined) };
});
rows.push({ key: "data segments (SQLite's tables, strings)", raw: data.length, gzip: gz(data) });
rows.sort((a, b) => b.gzip - a.gzip);

console.log("| code of | raw KB | gzip -9 KB (alone) |\n| --- | ---: | ---: |");
let rest = { raw: 0, gzip: 0 };
for (const row of rows) {
  if (row.gzip < 1500) {
    rest = { raw: rest.raw + row.raw, gzip: rest.gzip + row.gzip };
    continue;
  }
  console.log(`| ${row.key} | ${kb(row.raw)} | ${kb(row.gzip)} |`);
}
console.log(`| everything under 1.5 KB | ${kb(rest.raw)} | ${kb(rest.gzip)} |`);
