// Replay speed, browser against native, same machine, same run:
//   make replay-speed
// (runs `cargo bench --bench throughput -- replay`, which writes
// target/replay-native.json, then this script). Both replay the scenario of
// `Scenario::generated(10000)`; the browser times `replay()` from the wasm
// package, which parses, replays and returns the document as a JS object.
import { readFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { chromium } from "playwright-core";

const ROOT = new URL("../", import.meta.url).pathname;
const native = JSON.parse(readFileSync(`${ROOT}target/replay-native.json`, "utf8"));
const server = spawn(`${ROOT}target/debug/leasefence`, ["serve", "--listen", "127.0.0.1:0", "--dir", `${ROOT}www`], {
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
  await page.goto(`${base}/embed-example.html`);
  const ms = await page.evaluate(async (events) => {
    const pkg = await import("/pkg/leasefence.js");
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
  }, native.events);
  const browserRate = native.events / (ms / 1000);
  console.log(`| target | ms for ${native.events} events | events/s |`);
  console.log("| --- | ---: | ---: |");
  console.log(`| native (release) | ${native.ms.toFixed(1)} | ${native.events_per_s} |`);
  console.log(`| headless Chromium (wasm, profile web) | ${ms.toFixed(1)} | ${browserRate.toFixed(0)} |`);
  console.log(`\nbrowser / native: ${(browserRate / native.events_per_s).toFixed(2)}`);
} finally {
  await browser.close();
  server.kill();
}
