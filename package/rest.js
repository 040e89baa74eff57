
// Appended to the page's wasm-bindgen glue by `make web` (package/rest.js),
// before it is minified, so that it sees the glue's `wasm`.
//
// `make web` splits the page's module in two (scripts/split-module.mjs):
// the first part, `leasefence_first.wasm`, holds every function the first
// drawing of a chapter and its first steps call; the rest,
// `leasefence_rest.wasm`, holds the others (the lab, the statement panel,
// the census, ...). The first part is all a learner waits for. In it, each
// function of the rest is a placeholder: an import from `placeholder` that
// lands here. The rest is loaded as soon as the first part runs
// (`loadRest`); when it is instantiated its functions take the
// placeholders' places in the first part's table, so a placeholder is
// called only when the learner reaches the rest before it arrived. Then
// the rest is fetched and compiled at once, synchronously (the learner
// waits, as for any page still loading), and the call goes on. The whole
// module, `leasefence_bg.wasm`, is still in the package for Node and for
// `init()`/`initSync()` without arguments: it imports no placeholder, and
// an import object with one too many namespaces is fine.

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

/** The rest's bytes, fetched synchronously: a placeholder cannot wait for a promise. */
function restBytesNow() {
  const url = String(restUrl ?? new URL("leasefence_rest.wasm", import.meta.url));
  const request = new XMLHttpRequest();
  request.open("GET", url, false);
  // A synchronous request in a window cannot ask for an ArrayBuffer;
  // this charset keeps every byte as one character.
  request.overrideMimeType("text/plain; charset=x-user-defined");
  request.send();
  if (request.status !== 200) {
    throw new Error(`leasefence: could not load the module's second part (${url}: HTTP ${request.status})`);
  }
  const text = request.responseText;
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
          attachRest(new WebAssembly.Module(restBytesNow()));
        }
        return wasm[__LF_SPLIT_TABLE__].get(Number(name))(...args);
      },
  },
);

/**
 * Starts loading the module's second part from `url` (the page's own
 * bootstrap calls it right after `init`); resolves once it is in. Calls
 * into the rest made before then still work (see above).
 */
async function loadRest(url) {
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
