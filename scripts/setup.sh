#!/usr/bin/env bash
# Installs what leasefence's build and tests need, only what is missing, so
# it is cheap to run every time. Tested on Debian 12 as root.
#
#   scripts/setup.sh web    # what `make web` / `make serve` need
#   scripts/setup.sh all    # plus Chromium and its driver, for the tests
#
# Not root? It installs nothing and lists exactly what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

want=${1:-all}
# wasm-pack's version, as checked to work on this kind of machine.
WASM_PACK_VERSION=0.15.1
WASM_SPLIT_VERSION=120

# Rust itself (rustup, cargo) and make are the one thing this script
# expects; say so plainly if they are missing.
for tool in rustup cargo make; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "setup: $tool is missing; install Rust with rustup (and make) first" >&2
    exit 1
  fi
done
# wasm-bindgen-cli must equal the wasm-bindgen crate in Cargo.lock exactly.
WASM_BINDGEN_VERSION=$(sed -n '/^name = "wasm-bindgen"$/{n;s/^version = "\(.*\)"$/\1/p;}' Cargo.lock)

missing_apt=()
missing_other=()
have() { command -v "$1" >/dev/null 2>&1; }

# SQLite's C source is compiled to wasm by clang (gcc cannot). wasm-opt
# comes from npm's binaryen in e2e/ (Debian 12's binaryen 108 cannot parse
# what Rust 1.95 emits).
have clang-19 || missing_apt+=(clang-19)
have llvm-ar-19 || missing_apt+=(llvm-19)
have node || missing_apt+=(nodejs)
have npm || missing_apt+=(npm)
if [ "$want" = all ]; then
  have chromium || missing_apt+=(chromium)
  have chromedriver || missing_apt+=(chromium-driver)
  # The PostgreSQL queue's tests start a throwaway server of their own
  # (tests/engines/postgres.rs): the server's programs, found by pg_config.
  [ -x "$(pg_config --bindir 2>/dev/null)/initdb" ] || missing_apt+=(postgresql)
  # The servers' descriptor-flood test runs the receiver under prlimit.
  have prlimit || missing_apt+=(util-linux)
  # Korean text and the control symbols in the e2e screenshots.
  [ -d /usr/share/fonts/opentype/noto ] || missing_apt+=(fonts-noto-cjk)
  [ -d /usr/share/fonts/truetype/noto ] || missing_apt+=(fonts-noto-core)
  # A real MkDocs Material site for e2e/mkdocs.test.mjs, in its own
  # virtual environment (python3-venv gives `python3 -m venv` its pip).
  have python3 || missing_apt+=(python3)
  python3 -c "import ensurepip, venv" 2>/dev/null || missing_apt+=(python3-venv)
  cmp -s e2e/mkdocs-requirements.txt e2e/.mkdocs/requirements.txt || missing_other+=("MkDocs in e2e/.mkdocs (e2e/mkdocs-requirements.txt)")
fi
rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown || missing_other+=("rust target wasm32-unknown-unknown")
# The standard library's source: `make web` compiles std for size (Makefile).
rustup component list --installed 2>/dev/null | grep -q '^rust-src' || missing_other+=("rust component rust-src")
if ! have wasm-bindgen || [ "$(wasm-bindgen --version | awk '{print $2}')" != "$WASM_BINDGEN_VERSION" ]; then
  missing_other+=("wasm-bindgen-cli $WASM_BINDGEN_VERSION")
fi
if ! have wasm-pack || [ "$(wasm-pack --version | awk '{print $2}')" != "$WASM_PACK_VERSION" ]; then
  missing_other+=("wasm-pack $WASM_PACK_VERSION")
fi
# binaryen's wasm-split, which cuts the page's module in two (make web,
# scripts/split-module.mjs). npm's binaryen has no wasm-split, and Debian
# 12's (binaryen 108) turns wasm-bindgen's externref table into an anyref
# one and exports the wrong table; Debian 13's binaryen 120 is right. It
# needs Debian 13's C and C++ libraries, so those come beside it (in
# e2e/.binaryen, nothing installed system-wide) and it runs through their
# own loader (scripts/wasm-split).
scripts/wasm-split --version 2>/dev/null | grep -qx "wasm-split version $WASM_SPLIT_VERSION" || missing_other+=("binaryen $WASM_SPLIT_VERSION's wasm-split in e2e/.binaryen (from Debian 13)")
# Every devDependency of e2e/package.json, at the version it pins.
npm_ok=yes
for pinned in $(sed -n 's/^ *"\([^"]*\)": "\([0-9][^"]*\)",*$/\1@\2/p' e2e/package.json); do
  name=${pinned%@*} version=${pinned##*@}
  grep -qs "\"version\": \"$version\"" "e2e/node_modules/$name/package.json" || npm_ok=no
done
if [ "$npm_ok" = no ]; then
  missing_other+=("npm packages in e2e/ (those of e2e/package.json)")
fi

if [ ${#missing_apt[@]} -eq 0 ] && [ ${#missing_other[@]} -eq 0 ]; then
  echo "setup: everything for '$want' is installed"
  exit 0
fi

if [ "$(id -u)" != 0 ]; then
  echo "setup: not root, so nothing was installed. Missing:" >&2
  for item in "${missing_apt[@]}"; do echo "  - Debian package $item" >&2; done
  for item in "${missing_other[@]}"; do echo "  - $item" >&2; done
  exit 1
fi

if [ ${#missing_apt[@]} -gt 0 ]; then
  echo "setup: apt-get install ${missing_apt[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing_apt[@]}" >/dev/null
fi
for item in "${missing_other[@]}"; do
  echo "setup: installing $item"
  case "$item" in
    "rust target"*) rustup target add wasm32-unknown-unknown ;;
    "rust component"*) rustup component add rust-src ;;
    wasm-bindgen-cli*) cargo install --force wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" ;;
    wasm-pack*) cargo install --force wasm-pack --version "$WASM_PACK_VERSION" ;;
    "npm packages"*) (cd e2e && npm ci --no-audit --no-fund) ;;
    binaryen*)
      # Debian 13's packages through a private apt configuration: this
      # machine's own sources and lists are left as they are.
      rm -rf e2e/.binaryen
      mkdir -p e2e/.binaryen/apt/lists/partial e2e/.binaryen/apt/cache/archives/partial e2e/.binaryen/debs
      echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" > e2e/.binaryen/apt/sources.list
      apt_trixie=(-o Dir::Etc::sourcelist="$PWD/e2e/.binaryen/apt/sources.list" -o Dir::Etc::sourceparts=- \
        -o Dir::State::Lists="$PWD/e2e/.binaryen/apt/lists" -o Dir::Cache="$PWD/e2e/.binaryen/apt/cache" -o APT::Sandbox::User=root)
      apt-get "${apt_trixie[@]}" update -qq
      (cd e2e/.binaryen/debs && apt-get "${apt_trixie[@]}" download -qq "binaryen=$WASM_SPLIT_VERSION-*" libc6 libstdc++6 libgcc-s1)
      for deb in e2e/.binaryen/debs/*.deb; do dpkg-deb -x "$deb" e2e/.binaryen/root; done
      rm -rf e2e/.binaryen/apt e2e/.binaryen/debs
      scripts/wasm-split --version ;;
    MkDocs*)
      rm -rf e2e/.mkdocs
      python3 -m venv e2e/.mkdocs
      e2e/.mkdocs/bin/pip install --quiet --disable-pip-version-check -r e2e/mkdocs-requirements.txt
      # The copy says what is installed; a changed pin installs again.
      cp e2e/mkdocs-requirements.txt e2e/.mkdocs/requirements.txt ;;
  esac
done
echo "setup: done"
