// Completes the npm package wasm-pack wrote (`make web` runs it after
// esbuild has put the minified stylesheet and bootstrap, embed.js, in it):
// - embed.d.ts and README.md from package/ (the README for npm users, in
//   place of the repository's, which is about make and cargo), and the
//   declarations of loadRest (package/rest.js) and loadMessages
//   (package/messages.js) in leasefence.d.ts;
// - package.json: its name, those files, `exports` for each entry point, and the
//   bootstrap as the one file with side effects.
//   node scripts/package-extras.mjs www/pkg
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const out = process.argv[2] ?? "www/pkg";
const root = new URL("../", import.meta.url).pathname;

copyFileSync(join(root, "package/embed.d.ts"), join(out, "embed.d.ts"));

// The glue's one export wasm-bindgen does not declare (package/rest.js).
const types = join(out, "leasefence.d.ts");
const declared = readFileSync(types, "utf8");
if (!declared.includes("export function loadRest(")) {
  writeFileSync(types, `${declared}
/**
 * Loads the module's second part, \`leasefence_rest.wasm\`, when the first
 * part (\`leasefence_first.wasm\`) was given to \`init()\`; resolves once it is
 * in. \`embed.js\` calls it after the first drawing. A call into the rest made
 * before then loads it at once. Not needed with the whole
 * \`leasefence_bg.wasm\`.
 */
export function loadRest(url: URL | string): Promise<void>;
`);
}
// And the one package/messages.js adds.
if (!readFileSync(types, "utf8").includes("export function loadMessages(")) {
  writeFileSync(types, `${readFileSync(types, "utf8")}
/**
 * Fetches the texts of one language (\`leasefence.ko.json\` or
 * \`leasefence.en.json\`, beside the module), once; resolves when they are
 * in. The module carries none: \`embed.js\` loads each playground's
 * language (\`langOf\`) before it mounts it. A playground mounted before
 * then fetches them synchronously when it first draws.
 */
export function loadMessages(lang: "ko" | "en"): Promise<void>;
`);
}
copyFileSync(join(root, "package/asset.d.ts"), join(out, "asset.d.ts"));
copyFileSync(join(root, "package/README.md"), join(out, "README.md"));

const manifest = join(out, "package.json");
const pkg = JSON.parse(readFileSync(manifest, "utf8"));
// Named for the project, not for its crate (wasm-pack takes the crate's
// name, leasefence-web: the workspace's queue crate is `leasefence`).
pkg.name = "leasefence";
pkg.files = [...new Set([...(pkg.files ?? []), "leasefence.css", "leasefence-theme.css", "embed.js", "embed.d.ts", "asset.d.ts", "leasefence_first.wasm", "leasefence_rest.wasm", "leasefence.en.json", "leasefence.ko.json"])];
pkg.exports = {
  ".": { types: "./leasefence.d.ts", default: "./leasefence.js" },
  "./embed": { types: "./embed.d.ts", default: "./embed.js" },
  "./embed.js": { types: "./embed.d.ts", default: "./embed.js" },
  // Every subpath has types: an asset's default export is its URL.
  "./leasefence.css": { types: "./asset.d.ts", default: "./leasefence.css" },
  "./leasefence-theme.css": { types: "./asset.d.ts", default: "./leasefence-theme.css" },
  "./leasefence_bg.wasm": { types: "./asset.d.ts", default: "./leasefence_bg.wasm" },
  // The same module in two parts, as embed.js loads it (package/rest.js).
  "./leasefence_first.wasm": { types: "./asset.d.ts", default: "./leasefence_first.wasm" },
  "./leasefence_rest.wasm": { types: "./asset.d.ts", default: "./leasefence_rest.wasm" },
  // Each language's texts, which the module fetches (package/messages.js).
  "./leasefence.en.json": "./leasefence.en.json",
  "./leasefence.ko.json": "./leasefence.ko.json",
  "./package.json": "./package.json",
};
pkg.sideEffects = ["./embed.js", "./leasefence.css", "./leasefence-theme.css"];
pkg.engines = { node: ">=18" };
writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
console.log(`${out}: embed.js, embed.d.ts, asset.d.ts, README.md, package.json exports`);
