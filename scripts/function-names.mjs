// What scripts/first-part.mjs and scripts/split-module.mjs share.

// A function's name in the page's module without the crates'
// disambiguators: `<leasefence_web[71b814a29ae00443]::page::Page>::build`
// is `<leasefence_web::page::Page>::build` (rustc prints a disambiguator as
// up to 16 hex digits, `sqlite_wasm_rs[465cc2516bf34dc]`), and without the
// `[1]` binaryen adds to the second function of a name already taken (which
// of the two gets it follows the module's order). crates/web/first-part.txt
// holds names in this form, so that a new compiler or a dependency's new
// version, which changes every disambiguator, does not empty the module's
// first part; functions that share a plain name are kept together.
export const plain = (name) => name.replace(/\[[0-9a-f]{1,16}\](?=::)/g, "").replace(/\[\d+\]$/, "");

// The wasm features wasm-pack's wasm-opt is given (crates/web/Cargo.toml),
// and only those: with --all-features binaryen may write newer encodings
// that Node 20 refuses ("unknown import kind").
export const FEATURES = ["--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext",
  "--enable-mutable-globals", "--enable-reference-types", "--enable-multivalue"];
