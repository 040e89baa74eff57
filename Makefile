# The two commands of the README:
#   make serve   build the playground and serve it on http://127.0.0.1:8080
#   make test    install what is missing, then run every test
# The others are their parts.

CHROMEDRIVER ?= /usr/bin/chromedriver
LISTEN ?= 127.0.0.1:8080
# Where cargo builds: $CARGO_TARGET_DIR when set, as cargo itself does.
TARGET ?= $(or $(CARGO_TARGET_DIR),$(CURDIR)/target)
# wasm-bindgen's test runner gives a whole test file 20 s in the browser
# by default; crates/web/tests/hostile.rs (40,000 hostile calls and three
# playgrounds on a booby-trapped root, in a debug build) needs about that.
WASM_PACK_TEST = WASM_BINDGEN_TEST_TIMEOUT=120 wasm-pack test --headless --chrome --chromedriver $(CHROMEDRIVER)

.PHONY: test serve web first-part queue-only setup setup-web native-test lint browser-test e2e size-check bench bench-page bench-load bless sizes breakdown replay-speed

test: setup lint native-test browser-test e2e size-check

setup:
	scripts/setup.sh all

setup-web:
	scripts/setup.sh web

lint:
	cargo fmt --all -- --check
	node scripts/module-cycles.mjs
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy --target wasm32-unknown-unknown --all-targets -- -D warnings
	cargo clippy --target wasm32-unknown-unknown -p leasefence-course --all-targets -- -D warnings
	cargo clippy --target wasm32-unknown-unknown -p leasefence-web --all-targets -- -D warnings
	cargo clippy --target wasm32-unknown-unknown -p leasefence-web --all-targets --no-default-features -- -D warnings
	cargo clippy --target wasm32-unknown-unknown -p leasefence-web --lib --no-default-features --features bench -- -D warnings
	cargo clippy --target wasm32-unknown-unknown -p leasefence-web --lib --features fetched-messages -- -D warnings

native-test:
	cargo test --workspace

# The queue's tests (the root) and the course's (crates/course) again,
# compiled to wasm and run in headless Chromium, then the web crate's: the
# JavaScript-facing API (crates/web/tests/web.rs) and the page. The web
# crate's also without default features, as the queue-only package is
# built (no page).
browser-test:
	$(WASM_PACK_TEST)
	$(WASM_PACK_TEST) crates/course
	$(WASM_PACK_TEST) crates/web
	$(WASM_PACK_TEST) crates/web --no-default-features

# The browser's module is built with its own standard library, compiled for
# size (`optimize_for_size`), with panics that abort on the spot instead of
# formatting a message nobody reads (`-Cpanic=immediate-abort`, no panic
# locations), and derived `Debug` impls that print only the type's name
# (`-Zfmt-debug=shallow`: no message of the page or the API uses one; ids
# and names print through `str`'s own `Debug`). Together 23.5 KB less
# gzip than the prebuilt std (BENCHMARKS.md). And every function may be
# inlined into another crate as if marked `#[inline]`
# (`-Zcross-crate-inline-threshold=always`): the page's crate calls the
# queue's, both call std and serde, and rustc otherwise inlines across a
# crate boundary only what is marked or tiny, which LTO at `-Oz` seldom
# makes up for: 425.6 -> 396.3 KB gzip for the page (measured in
# BENCHMARKS.md). All are unstable options;
# this machine's one toolchain is stable and no nightly can be fetched, so
# RUSTC_BOOTSTRAP=1 lets the stable compiler take them (it needs the
# rust-src component, which the setup script adds). A compiler upgrade may
# rename them: `make web SMALL_STD=` builds with the prebuilt std and none
# of these options (the inlining included). Tests
# (`browser-test`) always use the prebuilt std, so a panic in a test still
# says where it happened.
SMALL_STD ?= 1
WEB_BUILD = PATH="$(CURDIR)/e2e/node_modules/.bin:$$PATH" \
	$(if $(SMALL_STD),RUSTC_BOOTSTRAP=1 CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none -Zfmt-debug=shallow -Zcross-crate-inline-threshold=always") \
	wasm-pack build --profile web --target web
comma := ,
WEB_STD_ARGS = $(if $(SMALL_STD),-Zbuild-std=std$(comma)panic_abort -Zbuild-std-features=optimize_for_size)

# wasm-opt comes from npm's binaryen (e2e/node_modules): Debian's is too old.
# package/freed.js is appended to wasm-bindgen's glue: a call on a freed
# object says so, instead of the glue's "null pointer passed to rust".
# package/messages.js too: the module carries no message text (the
# `fetched-messages` feature), and the learner's language's texts, which
# the course's build script wrote, are copied beside it
# (leasefence.<lang>.json) for it to fetch (crates/web/src/page/texts.rs).
# package/rest.js is appended too, and scripts/split-module.mjs cuts the
# module in two (the first part: what crates/web/first-part.txt names; the
# rest loaded once the page is drawn) with binaryen's wasm-split
# (scripts/wasm-split, from Debian 13: setup.sh).
# esbuild (also from e2e/) minifies wasm-bindgen's glue and the stylesheet:
# and the bootstrap (package/embed.js). package-extras.mjs completes the npm
# package (types of the bootstrap, README, exports).
# WEB_FEATURES: cargo features for the module (`make bench-page` adds
# `bench`: census() and generatedScenario(), which the page leaves out).
web: setup-web
	$(WEB_BUILD) --out-dir $(CURDIR)/www/pkg --out-name leasefence crates/web -- $(WEB_STD_ARGS) --features fetched-messages$(if $(WEB_FEATURES),$(comma)$(WEB_FEATURES))
	out=$$(dirname "$$(ls -t $(TARGET)/wasm32-unknown-unknown/web/build/leasefence-course-*/out/messages.en.json | head -n 1)") \
		&& cp "$$out/messages.en.json" www/pkg/leasefence.en.json && cp "$$out/messages.ko.json" www/pkg/leasefence.ko.json
	node scripts/package-repository.mjs www/pkg
	cat package/freed.js package/rest.js package/messages.js >> www/pkg/leasefence.js
	node scripts/split-module.mjs www/pkg $(TARGET)/leasefence-named.wasm
	e2e/node_modules/.bin/esbuild www/pkg/leasefence.js --minify --allow-overwrite --outfile=www/pkg/leasefence.js --log-level=warning
	e2e/node_modules/.bin/esbuild www/leasefence.css --minify --outfile=www/pkg/leasefence.css --log-level=warning
	e2e/node_modules/.bin/esbuild www/leasefence-theme.css --minify --outfile=www/pkg/leasefence-theme.css --log-level=warning
	e2e/node_modules/.bin/esbuild package/embed.js --minify --outfile=www/pkg/embed.js --log-level=warning
	node scripts/package-extras.mjs www/pkg
	node scripts/compress.mjs www

serve: web
	cargo run --release --quiet -p leasefence-cli -- serve --listen $(LISTEN) --dir www

# The page in Chromium against the real `leasefence serve` (debug build,
# already compiled by the native tests). One test file at a time: each
# starts its own Chromium, and on 2 cores five at once starve the iframes.
e2e: web
	cargo build --quiet -p leasefence-cli
	LEASEFENCE_BIN=$(TARGET)/debug/leasefence node --test --test-concurrency=1 e2e/*.test.mjs

# The page's total gzip -9 against its budget, then the queue-only
# package's against 265 KB, a ratchet never raised (e2e/sizes.mjs): byte counts, the
# same on every run, so they can fail the build.
size-check: web
	node e2e/sizes.mjs --check
	$(MAKE) --no-print-directory queue-only
	node e2e/sizes.mjs $(TARGET)/pkg-queue-only --budget 265 --check

# The package without default features (the queue, the receiver and
# `replay`; no page; WEB_FEATURES adds cargo features, such as `bench`),
# its glue minified as `make web` minifies the page's,
# in $(TARGET)/pkg-queue-only. It and `web` build the same file under
# $(TARGET), so they run one after the other (`size-check`, `sizes`).
queue-only: setup-web
	$(WEB_BUILD) --out-dir $(TARGET)/pkg-queue-only --out-name leasefence crates/web -- $(WEB_STD_ARGS) --no-default-features $(if $(WEB_FEATURES),--features $(WEB_FEATURES))
	e2e/node_modules/.bin/wasm-opt --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue --strip-debug $(TARGET)/pkg-queue-only/leasefence_bg.wasm -o $(TARGET)/pkg-queue-only/leasefence_bg.wasm
	cat package/freed.js >> $(TARGET)/pkg-queue-only/leasefence.js
	e2e/node_modules/.bin/esbuild $(TARGET)/pkg-queue-only/leasefence.js --minify --allow-overwrite --outfile=$(TARGET)/pkg-queue-only/leasefence.js --log-level=warning

bench:
	cargo bench --bench throughput
	cargo bench -p leasefence-course --bench course

# Every chapter's expected replay and its timeline written down (which
# the page draws it from, crates/course/src/timeline/written.rs) brought up
# to date (the changed ones rewritten and listed), and the tests' list of
# chapters written again:
# after adding a chapter folder, or changing what a replay says.
bless:
	BLESS=1 cargo test --quiet -p leasefence-course --lib -- --exact --nocapture playground::chapters::tests::each_chapter_is_drawn_from_the_timeline_the_queue_plays > $(TARGET)/bless.log 2>&1 \
		|| { cat $(TARGET)/bless.log; exit 1; }
	grep "^wrote" $(TARGET)/bless.log || true
	grep -q "^test result: ok. 1 passed" $(TARGET)/bless.log || { echo "bless: the timelines' test did not run"; exit 1; }
	cargo build --quiet -p leasefence-cli
	node scripts/bless.mjs $(TARGET)/debug/leasefence

# crates/web/first-part.txt written again from what the first drawings
# call (scripts/first-part.mjs), then the page built with it: after a
# change that e2e/split.test.mjs says makes a first drawing wait for the
# module's second part.
first-part: web
	cargo build --quiet -p leasefence-cli
	LEASEFENCE_BIN=$(TARGET)/debug/leasefence node scripts/first-part.mjs $(TARGET)/leasefence-named.wasm
	$(MAKE) --no-print-directory web

# The page's timings in Chromium (first render, a step, a 2,000-event
# scenario, the census of the largest chapter): measured, never asserted,
# so not part of `make test`. The module is built with `census()`, so the
# page's files are a little larger than `make web`'s until it runs again.
bench-page:
	$(MAKE) --no-print-directory web WEB_FEATURES=bench
	cargo build --quiet -p leasefence-cli
	LEASEFENCE_BIN=$(TARGET)/debug/leasefence node e2e/budgets.mjs

# Time to interactive on a throttled connection and CPU: the playground
# against a bare page that loads sql.js and runs one statement, side by
# side (e2e/bench-load.mjs; RUNS=n, default 5). Measured, not asserted.
bench-load: web
	cargo build --quiet -p leasefence-cli
	LEASEFENCE_BIN=$(TARGET)/debug/leasefence node e2e/bench-load.mjs

# The page's files, then the queue-only package alone; after each, where
# the module's bytes go (a copy optimised the same way but keeping function
# names).
sizes: web
	node e2e/sizes.mjs
	$(MAKE) --no-print-directory breakdown
	$(MAKE) --no-print-directory queue-only
	node e2e/sizes.mjs $(TARGET)/pkg-queue-only --budget 265
	$(MAKE) --no-print-directory breakdown

# Of the module cargo built last (`make sizes` runs it after each build).
breakdown:
	wasm-bindgen --target web --out-dir $(TARGET)/wasm-names --out-name leasefence $(TARGET)/wasm32-unknown-unknown/web/leasefence_web.wasm
	e2e/node_modules/.bin/wasm-opt -Oz -g $(TARGET)/wasm-names/leasefence_bg.wasm -o $(TARGET)/wasm-names/leasefence_bg.wasm
	node e2e/breakdown.mjs $(TARGET)/wasm-names/leasefence_bg.wasm

# Browser against native on the same generated 10,000-event scenario.
replay-speed: setup-web
	$(MAKE) --no-print-directory web WEB_FEATURES=bench
	cargo build --quiet -p leasefence-cli
	cargo bench --bench throughput -- replay
	node e2e/replay-speed.mjs
