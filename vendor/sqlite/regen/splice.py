"""Cuts sections out of, and swaps generated files into, an amalgamation.

SQLite's amalgamation marks every source file it holds with
"/****** Begin file NAME ******/" and "/****** End of NAME ******/" lines.

  splice.py extract AMALGAMATION NAME OUT    writes section NAME to OUT
  splice.py splice AMALGAMATION WORKDIR OUT  replaces parse.h, opcodes.h,
      opcodes.c, parse.c and keywordhash.h by WORKDIR's generated files
"""
import re
import sys

GENERATED = ["parse.h", "opcodes.h", "opcodes.c", "parse.c", "keywordhash.h"]


def section(src, name):
    begin = re.search(r"^/\*+ Begin file %s \*+/\n" % re.escape(name), src, re.M)
    end = re.search(r"^/\*+ End of %s \*+/\n" % re.escape(name), src, re.M)
    if not begin or not end:
        sys.exit("splice.py: no section %s in the amalgamation" % name)
    return begin.end(), end.start()


def as_amalgamated(text):
    """What SQLite's own mksqlite3c.tcl does to a file it inlines: no #line,
    local #includes commented out, internal functions SQLITE_PRIVATE and the
    keyword API SQLITE_API."""
    lines = []
    for line in text.split("\n"):
        if line.startswith("#line "):
            continue
        if re.match(r'^#\s*include\s+["<]([^">]+)[">]', line) and not line.startswith("# include <stdio.h>"):
            line = "/* " + line + " */"
        line = re.sub(
            r"^((?:const )?(?:void|int|char|unsigned char|const char) \*?)(sqlite3(?:Parser|Opcode|Keyword)[A-Za-z]*\()",
            r"SQLITE_PRIVATE \1\2",
            line,
        )
        line = re.sub(r"^(int )(sqlite3_keyword_(?:name|count|check)\()", r"SQLITE_API \1\2", line)
        lines.append(line.rstrip())
    return "\n".join(lines)


def main():
    mode, amalgamation = sys.argv[1], sys.argv[2]
    src = open(amalgamation).read()
    if mode == "extract":
        name, out = sys.argv[3], sys.argv[4]
        begin, end = section(src, name)
        open(out, "w").write(src[begin:end])
    elif mode == "splice":
        work, out = sys.argv[3], sys.argv[4]
        for name in GENERATED:
            begin, end = section(src, name)
            src = src[:begin] + as_amalgamated(open("%s/%s" % (work, name)).read()) + "\n" + src[end:]
        open(out, "w").write(src)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
