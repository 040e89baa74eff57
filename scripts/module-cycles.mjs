// No import circles between a crate's modules: every path a
// module names through `crate::` or `super::` (outside comments) is an
// edge to the module it lands in, and the graph of each crate must have
// no cycle. A module's own children and ancestors are not edges (a parent
// declares its children; a child reaching for its parent's items is how
// Rust nests modules). Run by `make lint`; prints each cycle's edges and
// exits 1 when there is one.
//   node scripts/module-cycles.mjs
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname;
const CRATES = ["src", "crates/course/src", "crates/web/src", "crates/cli/src"];

/** Every `.rs` file under `dir`, by module path (`a::b`; the root is ""). */
function modules(dir) {
  const found = new Map();
  const walk = (at) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".rs")) {
        const parts = relative(dir, path).slice(0, -3).split("/");
        if (["mod", "lib", "main"].includes(parts.at(-1))) parts.pop();
        found.set(parts.join("::"), path);
      }
    }
  };
  walk(dir);
  return found;
}

/** The module a path written in module `from` lands in, if it is one of `known`. */
function landing(from, path, known) {
  let segments = path.split("::");
  let base = from ? from.split("::") : [];
  if (segments[0] === "crate") {
    base = [];
    segments = segments.slice(1);
  } else {
    while (segments[0] === "super") {
      base = base.slice(0, -1);
      segments = segments.slice(1);
    }
  }
  for (let length = segments.length; length >= 0; length--) {
    const candidate = [...base, ...segments.slice(0, length)].join("::");
    if (known.has(candidate)) return candidate;
  }
  return null;
}

const nested = (a, b) => a === b || b.startsWith(`${a}::`) || a.startsWith(`${b}::`) || a === "" || b === "";

let cycles = 0;
for (const dir of CRATES) {
  const known = modules(join(ROOT, dir));
  const edges = new Map([...known.keys()].map((name) => [name, new Set()]));
  for (const [name, file] of known) {
    const code = readFileSync(file, "utf8").replace(/\/\/[^\n]*/g, "");
    for (const [path] of code.matchAll(/\b(?:crate|super)(?:::[A-Za-z_][A-Za-z0-9_]*)+/g)) {
      const target = landing(name, path, known);
      if (target !== null && !nested(name, target)) edges.get(name).add(target);
    }
  }
  // Tarjan's strongly connected components: a component of more than one
  // module is a cycle.
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  let counter = 0;
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node)) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) {
        cycles += 1;
        console.log(`${dir}: modules that import each other:`);
        for (const from of component) {
          for (const to of edges.get(from)) if (component.includes(to)) console.log(`  ${from} -> ${to}`);
        }
      }
    }
  };
  for (const node of known.keys()) if (!index.has(node)) visit(node);
}
if (cycles > 0) process.exit(1);
console.log(`no import circles in ${CRATES.join(", ")}`);
