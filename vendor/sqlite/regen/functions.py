"""Removes the built-in SQL functions the browser build never calls.

  functions.py KEEPFILE IN OUT

SQLite registers its built-in functions from static FuncDef tables, one
macro a function (FUNCTION(substr, 2, ...), WAGGREGATE(sum, ...), ...).
Every entry points at its C implementation, so the linker keeps all of them
however few a program calls. This drops the entries of the tables below
whose name is not in KEEPFILE (one SQL name a line, '#' comments), and the
per-connection MATCH overload unless "match" is kept; the implementations
they pointed at become unreferenced and the linker drops them.

It stops, naming what it missed, when a table or the MATCH overload is not
found as expected, when an entry uses a macro it does not know, or when a
kept name is in no table: a new SQLite version (a sqlite-wasm-rs upgrade)
must be looked at, not patched blindly.
"""
import re
import sys

# The tables patched: func.c's and date.c's. (The JSON, window and ALTER
# TABLE tables are compiled out by SQLITE_OMIT_JSON, _WINDOWFUNC and
# _ALTERTABLE.)
TABLES = ["aBuiltinFunc", "aDateTimeFuncs"]

# The FuncDef macros of SQLite's sqliteInt.h: the SQL name is the first
# argument of each.
MACROS = {
    "FUNCTION", "FUNCTION2", "VFUNCTION", "SFUNCTION", "MFUNCTION",
    "JFUNCTION", "INLINE_FUNC", "TEST_FUNC", "DFUNCTION", "PURE_DATE",
    "STR_FUNCTION", "LIKEFUNC", "WAGGREGATE", "INTERNAL_FUNCTION",
}

MATCH_OVERLOAD = (
    "SQLITE_PRIVATE void sqlite3RegisterPerConnectionBuiltinFunctions(sqlite3 *db){\n"
    "  int rc = sqlite3_overload_function(db, \"MATCH\", 2);\n"
    "  assert( rc==SQLITE_NOMEM || rc==SQLITE_OK );\n"
    "  if( rc==SQLITE_NOMEM ){\n"
    "    sqlite3OomFault(db);\n"
    "  }\n"
    "}\n"
)
MATCH_REMOVED = (
    "SQLITE_PRIVATE void sqlite3RegisterPerConnectionBuiltinFunctions(sqlite3 *db){\n"
    "  /* regen-sqlite: no MATCH overload (regen/keep-functions.txt) */\n"
    "  (void)db;\n"
    "}\n"
)


def fail(why):
    sys.exit("functions.py: %s (vendor/sqlite/README.md)" % why)


def read_keep(path):
    keep = []
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if line:
            if not re.fullmatch(r"[a-z_][a-z0-9_]*", line):
                fail("%s: %r is not a lowercase SQL function name" % (path, line))
            keep.append(line)
    if not keep:
        fail("%s names no function" % path)
    return keep


def without_strings(text):
    return re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)


def patch_table(src, table, keep, seen):
    """src with table's entries not in keep removed; adds the names it
    kept to seen; returns (src, removed names)."""
    opening = re.compile(r"^  static FuncDef %s\[\] = \{\n" % table, re.M)
    found = list(opening.finditer(src))
    if len(found) != 1:
        fail("%d definitions of the table %s, expected 1" % (len(found), table))
    start = found[0].end()
    close = re.compile(r"^  \};\n", re.M).search(src, start)
    if not close:
        fail("no end of the table %s" % table)
    lines = src[start:close.start()].split("\n")[:-1]
    out, removed, kept = [], [], 0
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or (stripped.startswith("/*") and stripped.endswith("*/")):
            out.append(line)
            i += 1
            continue
        head = re.match(r"\s*([A-Z_0-9]+)\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*,", line)
        if not head:
            fail("%s: cannot read the entry %r" % (table, stripped))
        macro, name = head.group(1), head.group(2).lower()
        if macro not in MACROS:
            fail("%s: unknown FuncDef macro %s (for %s)" % (table, macro, name))
        entry = [line]
        depth = without_strings(line).count("(") - without_strings(line).count(")")
        while depth > 0:
            i += 1
            if i >= len(lines):
                fail("%s: the entry for %s does not end" % (table, name))
            entry.append(lines[i])
            depth += without_strings(lines[i]).count("(") - without_strings(lines[i]).count(")")
        if not re.search(r"\),?\s*$", entry[-1]):
            fail("%s: the entry for %s ends oddly: %r" % (table, name, entry[-1]))
        i += 1
        if name in keep:
            out.extend(entry)
            seen.add(name)
            kept += 1
        else:
            removed.append(name)
    note = "/* regen-sqlite: only the functions of regen/keep-functions.txt are kept */"
    if kept:
        body = "    %s\n%s\n" % (note, "\n".join(out))
        return src[:start] + body + src[close.start():], removed
    # Nothing kept: an empty initializer is not C89, so the table and the
    # call that registers it both go.
    src = src[:found[0].start()] + src[close.end():]
    call = "  sqlite3InsertBuiltinFuncs(%s, ArraySize(%s));\n" % (table, table)
    if src.count(call) != 1:
        fail("no single call registering %s" % table)
    gone = "  /* regen-sqlite: no function of %s is in regen/keep-functions.txt */\n" % table
    return src.replace(call, gone), removed


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    keep_path, source, out = sys.argv[1:]
    keep = read_keep(keep_path)
    src = open(source).read()
    seen = set()
    removed = []
    for table in TABLES:
        src, gone = patch_table(src, table, keep, seen)
        removed += gone
    if src.count(MATCH_OVERLOAD) != 1:
        fail("sqlite3RegisterPerConnectionBuiltinFunctions is not the MATCH overload it was")
    if "match" in keep:
        seen.add("match")
    else:
        src = src.replace(MATCH_OVERLOAD, MATCH_REMOVED)
    missing = [name for name in keep if name not in seen]
    if missing:
        fail("%s names %s, which no table holds" % (keep_path, ", ".join(missing)))
    open(out, "w").write(src)
    print("functions.py: kept %s; removed %d table entries (%s)%s" % (
        ", ".join(keep), len(removed), " ".join(sorted(set(removed))),
        "" if "match" in keep else " and the MATCH overload"))


if __name__ == "__main__":
    main()
