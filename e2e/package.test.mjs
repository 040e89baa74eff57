// The npm package (`make web` writes it to www/pkg) under Node, through
// wasm-bindgen's real glue: it loads with the one documented call, replays,
// and every wrong JavaScript type throws a TypeError (never "memory access
// out of bounds"), a thousand times over, leaving the module working. Its
// manifest lists the CSS and the bootstrap. Run by `make e2e`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";

const PKG = new URL("../www/pkg/", import.meta.url);
const lib = await import(new URL("leasefence.js", PKG));
lib.initSync({ module: readFileSync(new URL("leasefence_bg.wasm", PKG)) });

const canonical = JSON.parse(readFileSync(new URL("../chapters/01-canonical/scenario.json", import.meta.url), "utf8"));
const expected = JSON.parse(readFileSync(new URL("../chapters/01-canonical/expected.json", import.meta.url), "utf8"));

test("the package replays under Node, from an object or JSON text", () => {
  assert.deepEqual(lib.replay(canonical), expected);
  assert.deepEqual(lib.replay(JSON.stringify(canonical)), expected);
});

test("check() reads a lesson as the playground does, under Node too (a course's build)", () => {
  assert.deepEqual(lib.check(JSON.stringify(canonical)), { ok: true, jobs: canonical.jobs.length, events: canonical.events.length });
  const broken = lib.check('{"jobs": [],\n "events": [{"at": 0, "worker": "A", "do": "claim", "lease": 10}]}');
  assert.equal(broken.ok, false);
  assert.match(broken.error, /lease.*line 2/);
  assert.throws(() => lib.check(3), TypeError);
});

test("wrong JavaScript types throw TypeErrors naming the argument, a thousand times, and the module keeps working", () => {
  const queue = new lib.Queue();
  const receiver = new lib.Receiver();
  const calls = [
    [() => lib.replay(NaN), /^scenario: /],
    [() => lib.replay(undefined), /^scenario: /],
    [() => lib.replay({ events: [{ at: "0", worker: "A", do: "finish" }] }), /^scenario: events\[0\]\.at: /],
    [() => new lib.Player(42), /^scenario: /],
    [() => new lib.Player({ events: 5 }), /^scenario: events: /],
    [() => queue.claim(42, 0, 1000), /^owner: expected a string/],
    [() => queue.claim("A", "0", 1000), /^now: expected an integer/],
    [() => queue.claim(undefined, undefined, undefined), /^owner: /],
    [() => queue.enqueue("snack-1"), /^job: expected an object/],
    [() => queue.finish(null, 0), /^stamp: /],
    [() => queue.process("A", 1000, 0, () => {}), /^clock: expected a function/],
    [() => receiver.deliver({}, 1), /^id: /],
  ];
  for (let round = 0; round < 80; round++) {
    for (const [call, message] of calls) assert.throws(call, (error) => error instanceof TypeError && message.test(error.message));
  }
  queue.enqueue({ id: "snack-1", qty: 2, deadline: 5000 });
  assert.equal(queue.claim("A", 0, 1000).token, 1);
  assert.deepEqual(lib.replay(canonical), expected);
});

test("a call on a freed object says it was freed, naming the call, in JavaScript's words; other objects keep working", () => {
  const queue = new lib.Queue();
  const player = new lib.Player(canonical);
  const receiver = new lib.Receiver();
  for (const object of [queue, player, receiver]) object.free();
  const calls = [
    [() => queue.claim("A", 0, 1000), "Queue.claim: this Queue was freed (free() was called); make a new Queue"],
    [() => queue.rows(), "Queue.rows: this Queue was freed (free() was called); make a new Queue"],
    [() => player.step(), "Player.step: this Player was freed (free() was called); make a new Player"],
    [() => player.position, "Player.position: this Player was freed (free() was called); make a new Player"],
    [() => receiver.deliver("a", 1), "Receiver.deliver: this Receiver was freed (free() was called); make a new Receiver"],
  ];
  for (const [call, message] of calls) {
    assert.throws(call, (error) => {
      assert.equal(error.message, message, `expected ${JSON.stringify(message)}, got ${JSON.stringify(error.message)}`);
      return true;
    });
  }
  queue.free(); // a second free() is still harmless
  if (typeof Symbol.dispose === "symbol" && Symbol.dispose in queue) queue[Symbol.dispose](); // and so is a using block's
  const fresh = new lib.Queue();
  fresh.enqueue({ id: "a", qty: 1, deadline: 5000 });
  assert.equal(fresh.claim("A", 0, 1000).token, 1);
  assert.deepEqual(lib.replay(canonical), expected);
});

test("an async send is awaited, and a rejection leaves the job leased", async () => {
  const queue = new lib.Queue();
  queue.enqueue({ id: "a", qty: 1, deadline: 5000 });
  queue.enqueue({ id: "b", qty: 1, deadline: 5000 });
  const done = await queue.process("A", 1000, () => 10, async () => {});
  assert.equal(done.finish.accepted, true);
  await assert.rejects(queue.process("A", 1000, () => 10, async () => { throw new Error("receiver down"); }), /receiver down/);
  assert.deepEqual(queue.rows().map((row) => row.state), ["done", "leased"]);
});

test("the manifest ships the stylesheet and the bootstrap, with exports and types", () => {
  const pkg = JSON.parse(readFileSync(new URL("package.json", PKG), "utf8"));
  for (const file of ["leasefence.css", "embed.js", "embed.d.ts", "leasefence_bg.wasm", "leasefence_first.wasm", "leasefence_rest.wasm", "leasefence.d.ts"]) {
    assert.ok(pkg.files.includes(file), file);
  }
  assert.equal(pkg.exports["./embed"].default, "./embed.js");
  const types = readFileSync(new URL("leasefence.d.ts", PKG), "utf8");
  for (const name of ["export interface Scenario", "export type Chapter", "HTMLElementEventMap", "options?: MountOptions", "export function loadRest(url: URL | string): Promise<void>;", "export function waitsForRest(root: Element, options?: MountOptions): boolean;"]) {
    assert.ok(types.includes(name), name);
  }
});

test("the Chapter union in the .d.ts lists every chapter of the playground", () => {
  const types = readFileSync(new URL("leasefence.d.ts", PKG), "utf8");
  const union = types.match(/export type Chapter =([^;]+);/)[1];
  const listed = [...union.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  const chapters = readdirSync(new URL("../chapters/", import.meta.url))
    .sort()
    .map((name) => name.replace(/^\d\d-/, ""));
  assert.deepEqual(listed, chapters);
});
