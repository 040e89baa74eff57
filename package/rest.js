
// Appended to the page's wasm-bindgen glue by `make web` (package/rest.js),
// before it is minified, so that it sees the glue's `wasm`.
//
// `make web` splits the page's module in two (scripts/split-module.mjs):
// the first part, `leasefence_first.wasm`, holds every function that the
// first drawing of a chapter drawn from its written timeline and its first
// steps call; the rest, `leasefence_rest.wasm`, holds the others (SQLite,
// the lab's grading, the census, ...). The first part is all a learner
// opening a chapter waits for. Each function of the
// rest that the first part calls is a placeholder there: an import from
// `placeholder` that lands here. The bootstrap (embed.js) calls `loadRest`
// once the playgrounds it can draw at once are drawn, and mounts those that
// replay before their first drawing once it resolves; when the rest is
// instantiated its functions take the placeholders' places in the first
// part's table, so a placeholder is called only when the learner reaches
// the rest before it arrived. Then the rest is fetched (a second download, if the background
// one is still under way) and compiled at once, synchronously: the learner
// waits, as for any page still loading. If it cannot be had even then, the
// call throws through the Rust code that made it, which leaves that
// playground unusable: the error says so, once, in the console and to the
// caller. The whole module, `leasefence_bg.wasm`, is still in the package
// for Node and for `init()`/`initSync()` without arguments: it imports no
// placeholder, and an import object with one namespace too many is fine.

/** Where the rest is, once `loadRest` was told; the glue's own folder otherwise. */
let restUrl;
/** The rest, once instantiated (its table entries written). */
let restAttached = false;

/** Instantiates the rest against the first part's exports, once. */
function attachRest(module) {
  if (restAttached) return;
  new WebAssembly.Instance(module, { primary: wasm });
  restAttached = true;
  // For a page's own measurements (and the tests): when the whole module was in.
  globalThis.performance?.mark?.("leasefence:rest");
}

/** Why the rest could not be had when a placeholder needed it, once that happened. */
let restFailed;

/** The rest's bytes, fetched synchronously: a placeholder cannot wait for a promise. */
function restBytesNow() {
  const url = String(restUrl ?? new URL("leasefence_rest.wasm", import.meta.url));
  if (typeof XMLHttpRequest !== "function") {
    throw new Error(`leasefence: the module's second part (${url}) is needed now and cannot be fetched synchronously here; give init() the whole leasefence_bg.wasm instead`);
  }
  let status = 0;
  // Twice: a dropped connection is worth one more try before the playground stops.
  for (let attempt = 0; attempt < 2 && status !== 200; attempt++) {
    const request = new XMLHttpRequest();
    request.open("GET", url, false);
    // A synchronous request in a window cannot ask for an ArrayBuffer;
    // this charset keeps every byte as one character.
    request.overrideMimeType("text/plain; charset=x-user-defined");
    try {
      request.send();
      status = request.status;
    } catch {
      continue;
    }
    if (status !== 200) continue;
    return bytesOf(request.responseText);
  }
  throw new Error(`leasefence: the module's second part (${url}) could not be loaded (HTTP ${status || "error"}); this playground has stopped, reload the page`);
}

/** The bytes of a response read with the x-user-defined charset. */
function bytesOf(text) {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}

const __lf_placeholders = new Proxy(
  {},
  {
    get: (_, name) =>
      (...args) => {
        if (!restAttached) {
          if (restFailed) throw restFailed;
          try {
            attachRest(new WebAssembly.Module(restBytesNow()));
          } catch (error) {
            restFailed = error;
            console.error(error);
            throw error;
          }
        }
        return wasm[__LF_SPLIT_TABLE__].get(Number(name))(...args);
      },
  },
);

/**
 * Starts loading the module's second part from `url` (the page's own
 * bootstrap calls it once the playgrounds are drawn, after `init`);
 * resolves once it is in. Calls into the rest made before then still work
 * (see above). Nothing to do when `init` was given the whole module.
 */
async function loadRest(url) {
  if (wasm === undefined) throw new Error("leasefence: loadRest() before init(): initialise the module first");
  if (!WebAssembly.Module.imports(wasmModule).some((entry) => entry.module === "placeholder")) return;
  restUrl = url;
  if (restAttached) return;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`leasefence: could not load the module's second part (${url}: HTTP ${response.status})`);
  // Compiled while it downloads, where the server says application/wasm.
  const module = response.headers.get("Content-Type") === "application/wasm"
    ? await WebAssembly.compileStreaming(response)
    : await WebAssembly.compile(await response.arrayBuffer());
  attachRest(module);
}

export { loadRest };
