// Replay speed, browser against native, same machine, same run:
//   make replay-speed
// (runs `cargo bench --bench throughput -- replay`, which writes
// target/replay-native.json, then this script). Both replay the scenario of
// `Scenario::generated(10000)`; the browser times `replay()` from the wasm
// package, which parses, replays and returns the document as a JS object.
// `--package DIR` times another build of the package instead of the page's
// (`www/pkg`), e.g. the queue-only one, built with the `bench` feature that
// exports `generatedScenario`:
//   make queue-only WEB_FEATURES=bench && node e2e/replay-speed.mjs --package target/pkg-queue-only
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const ROOT = new URL("../", import.meta.url).pathname;
const { values: options } = parseArgs({ options: { package: { type: "string" } } });
// Another package is copied beside a blank page (`leasefence serve` wants
// an index.html), so its module is `/leasefence.js`.
let served = `${ROOT}www`;
if (options.package) {
  served = mkdtempSync(join(tmpdir(), "leasefence-replay-speed-"));
  cpSync(options.package, served, { recursive: true });
  writeFileSync(join(served, "index.html"), "<!doctype html><title>replay speed</title>\n");
}
const module = options.package ? "/leasefence.js" : "/pkg/leasefence.js";
const native = JSON.parse(readFileSync(`${ROOT}target/replay-native.json`, "utf8"));
const server = spawn(`${ROOT}target/debug/leasefence`, ["serve", "--listen", "127.0.0.1:0", "--dir", served], {
  stdio: ["ignore", "pipe", "inherit"],
});
const { value: line } = await createInterface({ input: server.stdout })[Symbol.asyncIterator]().next();
const base = JSON.parse(line).listening;
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
});
try {
  const page = await browser.newPage();
  await page.goto(options.package ? `${base}/` : `${base}/embed-example.html`);
  const ms = await page.evaluate(async ([events, module]) => {
    const pkg = await import(module);
    await pkg.default();
    const json = pkg.generatedScenario(events);
    const times = [];
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      const document = pkg.replay(json);
      times.push(performance.now() - started);
      if (document.results.length !== events) throw new Error("short replay");
    }
    times.sort((a, b) => a - b);
    return times[2];
  }, [native.events, module]);
  const browserRate = native.events / (ms / 1000);
  console.log(`| target | ms for ${native.events} events | events/s |`);
  console.log("| --- | ---: | ---: |");
  console.log(`| native (release) | ${native.ms.toFixed(1)} | ${native.events_per_s} |`);
  console.log(`| headless Chromium (wasm, profile web, ${options.package ?? "www/pkg"}) | ${ms.toFixed(1)} | ${browserRate.toFixed(0)} |`);
  console.log(`\nbrowser / native: ${(browserRate / native.events_per_s).toFixed(2)}`);
} finally {
  await browser.close();
  server.kill();
  if (options.package) rmSync(served, { recursive: true, force: true });
}
