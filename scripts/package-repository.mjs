// Fills `repository` in a wasm-pack package.json from this clone's `origin`
// remote, so the npm package names the place its source was built from.
// A `repository` already there (from Cargo.toml) is kept.
// Cargo.toml has no `repository` because the project has no public home
// yet; a URL written there by hand would be invented. A clone without a
// web-style remote (a local path, as in CI) leaves the field out and says so.
//   node scripts/package-repository.mjs www/pkg
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const manifest = join(process.argv[2] ?? "www/pkg", "package.json");
const pkg = JSON.parse(readFileSync(manifest, "utf8"));

/** `origin` as an https URL, or null when it is not a web host. */
function originUrl() {
  let remote;
  try {
    remote = execFileSync("git", ["remote", "get-url", "origin"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
  const scp = remote.match(/^git@([^:]+):(.+?)(\.git)?$/); // git@host:owner/name.git
  if (scp) return `https://${scp[1]}/${scp[2]}`;
  const url = remote.match(/^(?:https|ssh|git):\/\/(?:[^@/]+@)?([^/:]+)(?::\d+)?\/(.+?)(\.git)?$/); // port dropped: the web host is not the ssh port
  return url ? `https://${url[1]}/${url[2]}` : null;
}

const url = pkg.repository ? null : originUrl();
if (pkg.repository) {
  console.log(`${manifest}: repository ${JSON.stringify(pkg.repository)} (already set, kept)`);
} else if (url) {
  pkg.repository = { type: "git", url: `git+${url}.git` };
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
  console.log(`${manifest}: repository ${url}`);
} else {
  console.log(`${manifest}: no repository field (this clone's origin is not a web URL)`);
}
