// What the page's end-to-end tests and benchmarks share: the real
// `leasefence serve` on a free port, Debian's Chromium driven by
// playwright-core, and pages that collect console errors.
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createInterface } from "node:readline";
import { chromium } from "playwright-core";

export const ROOT = new URL("../", import.meta.url).pathname;
const TARGET = process.env.CARGO_TARGET_DIR ?? `${ROOT}target`;
const BINARY = process.env.LEASEFENCE_BIN ?? `${TARGET}/debug/leasefence`;
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
/** Where the tests' screenshots go (made by `start`). */
export const SHOTS = `${TARGET}/screenshots`;

/** Starts the server and the browser: `{ base, browser, stop() }`. */
export async function start() {
  mkdirSync(SHOTS, { recursive: true });
  const server = spawn(BINARY, ["serve", "--listen", "127.0.0.1:0", "--dir", `${ROOT}www`], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const first = await createInterface({ input: server.stdout })[Symbol.asyncIterator]().next();
  const base = JSON.parse(first.value).listening;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    // As root Chromium needs --no-sandbox; the rest keep it off this
    // machine's closed network.
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  const stop = async () => {
    await browser.close();
    server.kill();
  };
  return { base, browser, stop };
}

/** The scenario JSON as a link's `scenario=` value. */
export const base64url = (text) => Buffer.from(text, "utf8").toString("base64url");
