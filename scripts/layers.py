#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that the driver's files form layers: no call and no #include from
a lower file to a higher one, unless scripts/layers.txt allows that edge.

usage: scripts/layers.py [--graph] [--suggest] [--spec=FILE] [--src=DIR] OBJDIR

OBJDIR holds the module's compiled objects (driver/*.o of one build).  A
call edge A -> B exists when A.o leaves a symbol undefined that B.o
defines, as `nm` shows them: real calls and data references between
files, never static inline helpers in headers (they are compiled into the
caller).  An include edge A -> B exists when A.c or A.h has `#include
"B.h"`: that is how a file reaches the inline helpers and the structure
layouts of another, which the objects do not show.  The sources are read
from DIR (default: OBJDIR, where lint's build copies them); an include
with a directory in it (our UAPI headers) is none of the driver's.

scripts/layers.txt names the layers, lowest first, one line each (files on
one line form one layer), lists the headers that are no one file's own
("header NAME... = LAYER": they count as that layer, "base" being below
every layer), and lists the allowed back-edges as "allow A -> B  # why".
An edge is a back-edge when B is not in a lower layer than A (a file may
include its own header, nothing else of its own layer).  Prints one line
per finding, then "PASS lint/layers" or "FAIL lint/layers: ..."; exits 1
on a failure.

  --graph    also print every edge, and the strongly connected groups
  --suggest  print "allow" lines for today's back-edges (for a reviewer
             who accepts them on purpose; not for silencing the check)
  --spec=F   read the layers from F instead (the checker's own tests)
  --src=DIR  read the #include lines from DIR's *.c and *.h
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = os.path.join(HERE, "layers.txt")
# Objects kbuild links that are not one of our files (.module-common: the
# scripts/module-common.c that 6.12's kbuild, unlike 6.1's, compiles beside
# every module's objects).
IGNORED = {"kbinder", "kbinder.mod", ".module-common"}
# Sources kbuild generates beside ours.
IGNORED_SOURCES = {"kbinder.mod.c", ".module-common.c"}
BASE = "base"
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def read_spec(path):
    layers, allowed, headers = {BASE: -1}, {}, {}
    level = 0
    with open(path, encoding="utf-8") as spec:
        for lineno, raw in enumerate(spec, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split()
            if words[0] == "allow":
                if len(words) != 4 or words[2] != "->":
                    sys.exit(f"{path}:{lineno}: expected 'allow A -> B'")
                allowed[(words[1], words[3])] = lineno
                continue
            if words[0] == "header":
                if len(words) < 4 or words[-2] != "=":
                    sys.exit(f"{path}:{lineno}: expected 'header NAME... = LAYER'")
                for name in words[1:-2]:
                    headers[name] = words[-1]
                continue
            for name in words:
                if name in layers:
                    sys.exit(f"{path}:{lineno}: {name} is in two layers")
                layers[name] = level
            level += 1
    for name, unit in headers.items():
        if unit not in layers:
            sys.exit(f"{path}: header {name} = {unit}: no such layer")
    return layers, allowed, headers


def symbols(obj):
    out = subprocess.run(["nm", obj], check=True, capture_output=True,
                         text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBRVW":
            defined.add(parts[2])
    return defined, undefined


def edges_of(objdir):
    objs = {}
    for name in sorted(os.listdir(objdir)):
        stem, ext = os.path.splitext(name)
        if ext == ".o" and stem not in IGNORED:
            objs[stem] = symbols(os.path.join(objdir, name))
    owner = {}
    for stem, (defined, _) in objs.items():
        for sym in defined:
            owner[sym] = stem
    edges = {}
    for stem, (_, undefined) in objs.items():
        for sym in undefined:
            callee = owner.get(sym)
            if callee and callee != stem:
                edges.setdefault((stem, callee), set()).add(sym)
    return sorted(objs), edges


def unit_of(name, headers):
    """The layer member a source file counts as: its stem, or for a header
    that is no one file's own, what layers.txt says."""
    stem, ext = os.path.splitext(name)
    if ext == ".h" and stem in headers:
        return headers[stem]
    return stem


def includes_of(srcdir, headers):
    """{(A, B): ["file:line", ...]} for every #include of a driver header."""
    edges = {}
    for name in sorted(os.listdir(srcdir)):
        if not name.endswith((".c", ".h")) or name in IGNORED_SOURCES:
            continue
        with open(os.path.join(srcdir, name), encoding="utf-8") as src:
            for lineno, line in enumerate(src, 1):
                m = INCLUDE.match(line)
                if not m or "/" in m.group(1):
                    continue
                a, b = unit_of(name, headers), unit_of(m.group(1), headers)
                edges.setdefault((a, b), []).append(
                    f"{name}:{lineno} includes {m.group(1)}")
    return edges


def strongly_connected(nodes, edges):
    """Tarjan's algorithm; returns the groups of more than one file."""
    succ = {n: [] for n in nodes}
    for a, b in edges:
        succ[a].append(b)
    index, low, stack, on_stack, groups = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return groups


def main(argv):
    spec, src = SPEC, None
    for a in argv:
        if a.startswith("--spec="):
            spec = a[len("--spec="):]
        elif a.startswith("--src="):
            src = a[len("--src="):]
    flags = {a for a in argv if a.startswith("--")
             and not a.startswith(("--spec=", "--src="))}
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 1 or flags - {"--graph", "--suggest"}:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    layers, allowed, headers = read_spec(spec)
    nodes, edges = edges_of(args[0])
    if not nodes:
        print(f"FAIL lint/layers: no objects in {args[0]}")
        return 1
    incs = includes_of(src or args[0], headers)
    problems = []
    for stem in nodes:
        if stem not in layers:
            problems.append(f"{stem}.o is in no layer of scripts/layers.txt")
    for unit in sorted({u for edge in incs for u in edge}):
        if unit not in layers:
            problems.append(f"{unit}.[ch] is in no layer of scripts/layers.txt")
    back = []
    for (a, b), syms in sorted(edges.items()):
        if a in layers and b in layers and layers[b] >= layers[a]:
            back.append((a, b, syms))
    up = []
    for (a, b), where in sorted(incs.items()):
        if a != b and a in layers and b in layers and layers[b] >= layers[a]:
            up.append((a, b, where))
    for a, b, syms in back:
        if (a, b) not in allowed:
            problems.append(f"back-edge {a} -> {b} ({', '.join(sorted(syms)[:3])})")
    for a, b, where in up:
        if (a, b) not in allowed:
            problems.extend(f"upward include {a} -> {b} ({w})" for w in where)
    for (a, b), lineno in sorted(allowed.items(), key=lambda x: x[1]):
        if not any(a == x and b == y for x, y, _ in back + up):
            problems.append(f"layers.txt:{lineno}: 'allow {a} -> {b}' is not "
                            "a back-edge any more: remove it")
    groups = strongly_connected(nodes, edges)
    if "--graph" in flags:
        for (a, b), syms in sorted(edges.items()):
            mark = " (back-edge)" if any(a == x and b == y for x, y, _ in back) else ""
            print(f"  {a} -> {b}: {len(syms)} symbol(s){mark}")
        for (a, b), where in sorted(incs.items()):
            if a != b:
                mark = " (upward)" if any(a == x and b == y for x, y, _ in up) else ""
                print(f"  {a} -> {b}: {len(where)} include(s){mark}")
        for group in groups:
            print(f"  cycle among: {' '.join(group)}")
    if "--suggest" in flags:
        for a, b, syms in back:
            print(f"allow {a} -> {b}  # {', '.join(sorted(syms)[:2])}")
        for a, b, where in up:
            if not any(a == x and b == y for x, y, _ in back):
                print(f"allow {a} -> {b}  # {where[0]}")
    for p in problems:
        print(f"  {p}")
    n_up = sum(len(w) for _, _, w in up)
    ok_back = sum(1 for a, b, _ in back if (a, b) in allowed)
    ok_up = sum(len(w) for a, b, w in up if (a, b) in allowed)
    summary = (f"{len(nodes)} files, {len(edges)} edges, {len(back)} back-edges "
               f"({ok_back} allowed), {n_up} upward includes ({ok_up} allowed), "
               f"{len(groups)} cycle group(s)")
    if problems:
        print(f"FAIL lint/layers: {len(problems)} finding(s); {summary}")
        return 1
    print(f"PASS lint/layers  # {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
