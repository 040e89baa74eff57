// Writes NAME.br (brotli, quality 11) and NAME.gz (gzip -9) beside every
// file a browser fetches under DIR, for `leasefence serve` (or any static
// host that serves precompressed files) to answer by Accept-Encoding.
// Node's own zlib, so the output is the same on every machine.
//   node scripts/compress.mjs www      (`make web` runs it)
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dir = process.argv[2] ?? "www";
const compressible = /\.(html|css|js|json|wasm|svg|ts)$/;

function walk(folder) {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

let count = 0;
for (const path of walk(dir).filter((path) => compressible.test(path))) {
  const bytes = readFileSync(path);
  // The same settings as e2e/sizes.mjs, so the files served are the sizes
  // measured.
  writeFileSync(`${path}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
  count++;
}
console.log(`compress: wrote .br and .gz of ${count} files under ${dir}`);
