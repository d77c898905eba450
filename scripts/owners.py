#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that each object's lock-protected state is touched only by its
owner: `X->inner` (and `X.inner`) of a struct appears only in the files
scripts/owners.txt names for that struct, and so does the name of its
inner type (struct kb_proc_inner ...).

usage: scripts/owners.py [--spec=FILE] [--list] SRCDIR

SRCDIR holds the driver's *.c and *.h.  Comments and strings are skipped.
Whose `inner` an expression is comes from the identifier before `->inner`:
the struct type that name is declared with (as a parameter, a variable or
a field: `struct kb_proc *owner`) anywhere in SRCDIR.  A name declared
with two of the owned types, or with none, is a finding too: name the
variable after one type, or it cannot be checked.

scripts/owners.txt: one line per struct, "STRUCT FILE...".  Prints one
line per finding, then "PASS lint/owners" or "FAIL lint/owners: ...";
exits 1 on a failure.

  --spec=F   read the owners from F instead (the checker's own tests)
  --list     also print every access and whose it is
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = os.path.join(HERE, "owners.txt")
IGNORED_SOURCES = {"kbinder.mod.c", ".module-common.c"}
ACCESS = re.compile(r"(\)|\]|\b\w+)\s*(->|\.)\s*inner\b")
DECL = re.compile(r"\bstruct\s+(\w+)\s*((?:\*\s*|\s)(?:const\s+)?\w+"
                  r"(?:\s*(?:=[^,;(){}]*)?,\s*\**\s*\w+)*)")


def read_spec(path):
    owners = {}
    with open(path, encoding="utf-8") as spec:
        for lineno, raw in enumerate(spec, 1):
            words = raw.split("#", 1)[0].split()
            if not words:
                continue
            if len(words) < 2:
                sys.exit(f"{path}:{lineno}: expected 'STRUCT FILE...'")
            owners[words[0]] = set(words[1:])
    return owners


def strip(text):
    """The C text with comments and string/char literals blanked (newlines
    kept, so line numbers stay)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def sources(srcdir):
    for name in sorted(os.listdir(srcdir)):
        if name.endswith((".c", ".h")) and name not in IGNORED_SOURCES:
            with open(os.path.join(srcdir, name), encoding="utf-8") as f:
                yield name, strip(f.read())


def declared_types(texts, owned):
    """{name: {struct types among @owned it is declared with}}."""
    names = {}
    for _, text in texts:
        for m in DECL.finditer(text):
            if m.group(1) not in owned:
                continue
            for part in m.group(2).split(","):
                word = re.match(r"\s*\**\s*(?:const\s+)?(\w+)", part)
                if word:
                    names.setdefault(word.group(1), set()).add(m.group(1))
    return names


def main(argv):
    spec = SPEC
    for a in argv:
        if a.startswith("--spec="):
            spec = a[len("--spec="):]
    flags = {a for a in argv if a.startswith("--") and not a.startswith("--spec=")}
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 1 or flags - {"--list"}:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    owners = read_spec(spec)
    texts = list(sources(args[0]))
    if not texts:
        print(f"FAIL lint/owners: no sources in {args[0]}")
        return 1
    names = declared_types(texts, owners)
    problems, accesses = [], 0
    for name, text in texts:
        for m in ACCESS.finditer(text):
            accesses += 1
            line = text.count("\n", 0, m.start()) + 1
            where = f"{name}:{line}"
            types = names.get(m.group(1), set())
            if len(types) != 1:
                why = (f"declared as {' and '.join(sorted(types))}" if types
                       else "no declaration of an owned type")
                problems.append(f"{where}: whose inner is '{m.group(1)}{m.group(2)}inner'? "
                                f"({why})")
                continue
            struct = next(iter(types))
            if "--list" in flags:
                print(f"  {where}: {m.group(1)}{m.group(2)}inner is {struct}'s")
            if name not in owners[struct]:
                problems.append(f"{where}: {m.group(1)}{m.group(2)}inner of "
                                f"{struct} outside {' '.join(sorted(owners[struct]))}")
        for struct, files in owners.items():
            if name in files:
                continue
            for m in re.finditer(rf"\b{struct}_inner\b", text):
                line = text.count("\n", 0, m.start()) + 1
                problems.append(f"{name}:{line}: {struct}_inner outside "
                                f"{' '.join(sorted(files))}")
    for p in problems:
        print(f"  {p}")
    summary = f"{len(texts)} files, {accesses} inner accesses, {len(owners)} owned structs"
    if problems:
        print(f"FAIL lint/owners: {len(problems)} finding(s); {summary}")
        return 1
    print(f"PASS lint/owners  # {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
