
// Appended to wasm-bindgen's glue by `make web` and `make queue-only`
// (package/freed.js), before it is minified, so that it sees the glue's
// classes.
//
// After `free()`, the glue alone hands Rust a null pointer, and the
// caller reads wasm-bindgen's "null pointer passed to rust". Here every
// method, getter and setter of each class first asks whether its object
// was freed, and if so throws an Error in the caller's words, naming the
// call: "Queue.claim: this Queue was freed (free() was called); make a new
// Queue" (a playground: "mount a new one"). A second `free()` does
// nothing, as closing twice does, nor does leaving a `using` block after
// one. It reads the glue's own `__wbg_ptr`, which `free()` sets to 0
// (wasm-bindgen is pinned in Cargo.lock; e2e/package.test.mjs fails if
// that changes).
for (const Class of [
  Queue,
  Player,
  Receiver,
  // Only the page's module has the playground (no default features: none).
  typeof Playground === "function" ? Playground : undefined,
]) {
  if (Class === undefined) continue;
  const again = Class.name === "Playground" ? "mount() a new one" : `make a new ${Class.name}`;
  const freed = (name) => new Error(`${Class.name}.${name}: this ${Class.name} was freed (free() was called); ${again}`);
  for (const [name, property] of Object.entries(Object.getOwnPropertyDescriptors(Class.prototype))) {
    if (name === "constructor" || name.startsWith("__")) continue; // the glue's own
    for (const part of ["value", "get", "set"]) {
      const call = property[part];
      if (typeof call !== "function") continue;
      property[part] =
        name === "free"
          ? function () {
              if (this.__wbg_ptr !== 0) call.call(this);
            }
          : function (...args) {
              if (this instanceof Class && this.__wbg_ptr === 0) throw freed(name);
              return call.apply(this, args);
            };
    }
    Object.defineProperty(Class.prototype, name, property);
  }
  // The glue's `[Symbol.dispose]` (a `using` declaration's) is its `free`.
  if (typeof Symbol.dispose === "symbol" && Object.hasOwn(Class.prototype, Symbol.dispose)) {
    Class.prototype[Symbol.dispose] = Class.prototype.free;
  }
}
