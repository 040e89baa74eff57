// `leasefence serve` as the page is served: the precompressed copies
// `make web` writes, chosen by the request's Accept-Encoding. Against the
// real server, with node:http, which decompresses nothing. Run by
// `make e2e` (part of `make test`).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { ROOT, serving } from "./harness.mjs";

const site = serving();

/** A raw GET (node:http decompresses nothing): status, headers, body bytes. */
function get(path, headers) {
  return new Promise((resolve, reject) => {
    request(new URL(path, site.base), { headers }, (response) => {
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
    }).on("error", reject).end();
  });
}

describe("leasefence serve", () => {
  test("answers with the precompressed copy the client accepts, and says so", async () => {
    const plain = readFileSync(`${ROOT}www/pkg/leasefence_bg.wasm`);
    const cases = [
      ["gzip, deflate, br, zstd", "br", (body) => brotliDecompressSync(body)],
      ["gzip", "gzip", (body) => gunzipSync(body)],
      ["br;q=0, gzip", "gzip", (body) => gunzipSync(body)],
      ["identity", undefined, (body) => body],
    ];
    for (const [accept, encoding, decode] of cases) {
      const { headers, body } = await get("/pkg/leasefence_bg.wasm", { "Accept-Encoding": accept });
      assert.equal(headers["content-encoding"], encoding, `Content-Encoding for ${accept}`);
      assert.equal(headers["content-type"], "application/wasm");
      assert.equal(headers.vary, "Accept-Encoding");
      assert.ok(decode(body).equals(plain), `the module, whole, for ${accept}`);
    }
    const page = await get("/", { "Accept-Encoding": "gzip, br" });
    assert.equal(page.headers["content-type"], "text/html; charset=utf-8");
    assert.equal(page.headers["content-encoding"], "br");
    assert.match(brotliDecompressSync(page.body).toString(), /<html/);
  });
});
