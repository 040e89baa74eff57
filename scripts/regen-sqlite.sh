#!/bin/sh
# Regenerates vendor/sqlite/sqlite3.c and sqlite3.h: the amalgamation that
# sqlite-wasm-rs ships, with its parser (lemon), opcode tables and keyword
# hash generated again under the grammar-level SQLITE_OMIT_* options of
# vendor/sqlite/regen/grammar-flags.txt, so those options really drop code,
# and its built-in SQL functions cut to those of regen/keep-functions.txt.
# (The shipped parser is pre-generated with every feature in it.)
#
# usage: scripts/regen-sqlite.sh [SHIPPED_DIR]
#   SHIPPED_DIR: sqlite-wasm-rs's own sqlite3/ folder; by default the one of
#   the version in Cargo.lock, in cargo's registry (run `cargo fetch` first).
# Needs cc, tclsh (Debian: tcl) and python3; takes a few seconds. Only for
# an upgrade of sqlite-wasm-rs or a change of flags: builds use the result.
set -eu
cd "$(dirname "$0")/.."
REGEN=vendor/sqlite/regen
OUT=vendor/sqlite

if [ $# -ge 1 ]; then
  AMD=$1
else
  version=$(sed -n '/^name = "sqlite-wasm-rs"$/{n;s/^version = "\(.*\)"$/\1/p;}' Cargo.lock)
  AMD=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/sqlite-wasm-rs-"$version"/sqlite3 2>/dev/null | head -n 1)
  [ -n "$AMD" ] || { echo "regen-sqlite: sqlite-wasm-rs $version is not in cargo's registry; run cargo fetch" >&2; exit 1; }
fi
# The grammar must be the one of the shipped SQLite version.
shipped=$(sed -n 's/^#define SQLITE_VERSION  *"\(.*\)"$/\1/p' "$AMD/sqlite3.h")
grammar=$(cat "$REGEN/SQLITE_VERSION")
if [ "$shipped" != "$grammar" ]; then
  echo "regen-sqlite: $AMD is SQLite $shipped but $REGEN/parse.y is $grammar's grammar;" >&2
  echo "  put that version's src/parse.y (and tool/) in $REGEN first (see vendor/sqlite/README.md)" >&2
  exit 1
fi

FLAGS=$(grep -v '^#' "$REGEN/grammar-flags.txt" | sed 's/^/-D/' | tr '\n' ' ' | sed 's/ $//')
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# 1. The parser, with lemon's own -D options.
cc -O2 -o "$W/lemon" "$REGEN/lemon.c"
cp "$REGEN/lempar.c" "$REGEN/parse.y" "$W/"
( cd "$W" && ./lemon $FLAGS -S parse.y >/dev/null )
# 2. The opcode tables, numbered from the new parse.h and the shipped vdbe.c.
python3 "$REGEN/splice.py" extract "$AMD/sqlite3.c" vdbe.c "$W/vdbe.c"
cat "$W/parse.h" "$W/vdbe.c" | tclsh "$REGEN/mkopcodeh.tcl" > "$W/opcodes.h"
tclsh "$REGEN/mkopcodec.tcl" "$W/opcodes.h" > "$W/opcodes.c"
# 3. The keyword hash, without the omitted keywords.
cc -o "$W/mkkeywordhash" $FLAGS "$REGEN/mkkeywordhash.c"
"$W/mkkeywordhash" > "$W/keywordhash.h"
# 4. Those five sections swapped into a copy of the shipped amalgamation.
python3 "$REGEN/splice.py" splice "$AMD/sqlite3.c" "$W" "$W/sqlite3.c"
# 5. Definitions 3.54.1 still calls from live code under OMIT_ATTACH/VACUUM.
cat "$REGEN/omit-fixes.c" >> "$W/sqlite3.c"
# 6. SQLITE_OMIT_DATETIME_FUNCS keeps CURRENT_TIME* through libc's gmtime
#    and strftime, which no browser provides: make them NULL instead.
for pattern in '^  pTm = gmtime(&t);$' '^    strftime(zBuf, 20, zFormat, &sNow);$'; do
  grep -q "$pattern" "$W/sqlite3.c" || { echo "regen-sqlite: no line $pattern to patch" >&2; exit 1; }
done
sed -i 's/^  pTm = gmtime(&t);$/  pTm = 0; \/* no gmtime in the browser *\//; s/^    strftime(zBuf, 20, zFormat, &sNow);$/    zBuf[0] = 0;/' "$W/sqlite3.c"
# 7. Only the built-in SQL functions of regen/keep-functions.txt stay in
#    SQLite's function tables, so the linker drops the others' code. Stops
#    when a table is not where it was (see regen/functions.py).
python3 "$REGEN/functions.py" "$REGEN/keep-functions.txt" "$W/sqlite3.c" "$W/sqlite3.c.kept"
mv "$W/sqlite3.c.kept" "$W/sqlite3.c"
# 8. The marker the web crate's build script reads: which options this parser was made with.
printf '/* OMIT flags baked into the parser: %s */\n' "$FLAGS" >> "$W/sqlite3.c"

# Every option the generators read: the web crate's build script checks the compiler's flags
# against the marker for these (and only these).
{
  echo "# Options SQLite's parser generator and keyword hash read (written by scripts/regen-sqlite.sh)."
  { grep -E '^%if' "$REGEN/parse.y"; sed -n '1,/^static Keyword aKeywordTable/p' "$REGEN/mkkeywordhash.c" | grep -E '^#if'; } |
    grep -oE 'SQLITE_[A-Z_]+' | sort -u
} > "$W/grammar-options.txt"
# 9. A guard at the top: the C compiler stops at the first grammar-level
#    option that differs from the parser's, naming it. (This fires before
#    the web crate's build script can run, since sqlite-wasm-rs builds first.)
{
  echo "/* Written by scripts/regen-sqlite.sh: the parser below was generated for"
  echo "** exactly the grammar-level options in vendor/sqlite/regen/grammar-flags.txt,"
  echo "** so SQLITE_WASM_RS_FLAGS (.cargo/config.toml) must define exactly those. */"
  grep -v '^#' "$W/grammar-options.txt" | while read -r option; do
    if grep -qx "$option" "$REGEN/grammar-flags.txt"; then
      printf '#ifndef %s\n# error "the parser was generated with -D%s but SQLITE_WASM_RS_FLAGS lacks it (vendor/sqlite/README.md)"\n#endif\n' "$option" "$option"
    else
      printf '#ifdef %s\n# error "SQLITE_WASM_RS_FLAGS sets %s but the parser was generated without it (vendor/sqlite/README.md)"\n#endif\n' "$option" "$option"
    fi
  done
  cat "$W/sqlite3.c"
} > "$OUT/sqlite3.c"
cp "$AMD/sqlite3.h" "$OUT/sqlite3.h"
cp "$W/grammar-options.txt" "$OUT/grammar-options.txt"
echo "regen-sqlite: wrote $OUT/sqlite3.c (SQLite $shipped) with $FLAGS; SQL functions: $(grep -v '^#' "$REGEN/keep-functions.txt" | grep . | tr '\n' ' ')"
