#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The host half of `make bench-insn`: instructions per operation.

usage: report.py table LOGDIR [--json OUT] [--profile N] [--profile-out FILE]
                              [--commit REV] [--qemu TEXT]
       report.py compare A.json B.json [--tolerance PCT] [--floor N]
                              [--judge CHANNELS]

table: joins the guest's `INSN {json}` lines (LOGDIR/results.log: which
workload and channel each window tag names, and how many operations it
ran) with the plugin's counts (LOGDIR/plugin.log, `KBINSN` lines of
bench/insn/kbinsn.c) and prints kernel and user instructions per
operation for every workload and channel. With --profile N, and when the
run carried the profile (the plugin's block lines and the guest's
kallsyms, KBT-KALLSYMS on results.log), it also prints the N functions
with the most kernel instructions per workload and driver; --profile-out
writes every function of every channel. --json writes the table for
`compare`; --commit and --qemu say in its heading which kbinder and how
QEMU ran. Fails (exit 1) when a window the guest ran has no count, a
channel was unavailable, the plugin reported an error, or a profile does
not add up to its window's kernel count.

compare: two tables of the same workloads (two boots): for every row and
for kernel and user apart, how far they are apart, relative to their
mean. Fails when a count of the channels --judge names (comma-separated;
default reference,kbinder,pipe: the drivers and the baseline the issue
compares them with) of at least --floor instructions per operation
(default 1000) differs by more than --tolerance percent (default 2).
Smaller counts, and the other baselines (unix, memcpy), are shown but
not judged: a few timer interrupts more or less move a small count by
more than 2%, and the unix socket's ping-pong was seen 3% apart.
Standard library only.
"""
import base64
import bisect
import gzip
import json
import os
import re
import sys

DRIVERS = ("reference", "kbinder")


def load_results(path):
    """The guest's env record, its INSN records in order, its kallsyms text."""
    env, recs, ksyms, inside, chunks = {}, [], None, False, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            line = raw.strip().replace("\r", "")
            if line == "KBT-KALLSYMS: begin":
                inside, chunks = True, []
                continue
            if line == "KBT-KALLSYMS: end":
                inside = False
                try:
                    ksyms = gzip.decompress(base64.b64decode("".join(chunks))).decode(
                        "utf-8", "replace")
                except (ValueError, OSError) as e:
                    raise SystemExit("report.py: the guest's kallsyms do not decode: %s" % e)
                continue
            if inside:
                chunks.append(line)
                continue
            if not line.startswith("INSN "):
                continue
            try:
                rec = json.loads(line[5:])
            except ValueError:
                continue
            if rec.get("kind") == "env":
                env = rec
            elif rec.get("kind") == "insn":
                recs.append(rec)
    return env, recs, ksyms


WINDOW = re.compile(r"KBINSN (window|total|end|block) tag=([0-9a-f]{8}) (.*)$")


def load_plugin(path):
    """Per tag: kernel, user, per-vCPU counts, kernel blocks, profiled sum; and errors."""
    wins, errors = {}, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            line = raw.strip()
            if line.startswith("KBINSN error"):
                errors.append(line)
                continue
            m = WINDOW.match(line)
            if not m:
                continue
            what, tag, rest = m.groups()
            w = wins.setdefault(tag, {"vcpus": [], "blocks": {}, "seen": 0})
            if what == "block":
                f = rest.split()
                a, n, e = int(f[0], 16), int(f[1]), int(f[2]) if len(f) > 2 else 0
                old = w["blocks"].get(a, (0, 0))
                w["blocks"][a] = (old[0] + n, old[1] + e)
                continue
            kv = dict(p.split("=", 1) for p in rest.split())
            if what == "window":
                w["vcpus"].append({k: int(v) for k, v in kv.items()})
            elif what == "total":
                w["kernel"], w["user"] = int(kv["kernel"]), int(kv["user"])
                w["seen"] += 1
            else:
                w["profiled"] = int(kv["profiled"])
    return wins, errors


class Symbols:
    """Addresses to names from the guest's text symbols (and module sections)."""

    def __init__(self, text):
        pairs = []
        for line in text.splitlines():
            f = line.split()
            if len(f) < 3 or f[1] not in "tTwWs":
                continue
            try:
                addr = int(f[0], 16)
            except ValueError:
                continue
            name = f[2] + (" " + f[3] if len(f) > 3 else "")
            # A symbol beats a section start at the same address.
            pairs.append((addr, 0 if f[1] == "s" else 1, name))
        pairs.sort()
        self.addrs = [p[0] for p in pairs]
        self.names = [p[2] for p in pairs]

    def name(self, addr):
        i = bisect.bisect_right(self.addrs, addr) - 1
        return self.names[i] if i >= 0 else "0x%x" % addr

    def starts(self, addr):
        i = bisect.bisect_left(self.addrs, addr)
        return i < len(self.addrs) and self.addrs[i] == addr


def per_function(blocks, syms, ops):
    """{function: kernel instructions per operation} of one window, and
    {function: times its first instruction's block ran per operation}
    (the calls, but for blocks that jump back to a function's start)."""
    funcs, entries = {}, {}
    for addr, (n, e) in blocks.items():
        f = syms.name(addr)
        funcs[f] = funcs.get(f, 0) + n
        if syms.starts(addr):
            entries[f] = entries.get(f, 0) + e
    return ({f: n / ops for f, n in funcs.items()},
            {f: e / ops for f, e in entries.items()})


def fmt_count(v):
    return "-" if v is None else "{:,.0f}".format(v)


def fmt_runs(v):
    return "-" if v is None else "%.2f" % v


def build_rows(recs, wins):
    """One row per INSN record that has a count; the problems found."""
    rows, problems, tags = [], [], set()
    for r in recs:
        if r["tag"] in tags:
            problems.append("window %s is named twice in the results" % r["tag"])
            continue
        tags.add(r["tag"])
        if r.get("status") != "ok":
            problems.append("%s on %s: unavailable: %s" % (r["workload"], r["channel"],
                                                           r.get("why", "?")))
            continue
        w = wins.get(r["tag"])
        if not w or "kernel" not in w:
            problems.append("%s on %s: no count for window %s (was the plugin loaded?)" % (
                r["workload"], r["channel"], r["tag"]))
            continue
        if w["seen"] != 1:
            problems.append("window %s counted %d times" % (r["tag"], w["seen"]))
        if w["blocks"] and w.get("profiled") != w["kernel"]:
            problems.append("%s on %s: the profile adds up to %s, the window to %d" % (
                r["workload"], r["channel"], w.get("profiled"), w["kernel"]))
        ops = r["ops"]
        rows.append({"workload": r["workload"], "name": r["name"], "channel": r["channel"],
                     "ops": ops, "kernel": w["kernel"] / ops, "user": w["user"] / ops,
                     "tag": r["tag"], "vcpus": w["vcpus"]})
    return rows, problems


def wkey(r):
    """A row's workload: its kind and its operations (one may run at several counts)."""
    return "%s/%d" % (r["workload"], r["ops"])


def print_table(env, rows, commit, qemu):
    workloads, seen = [], set()
    for r in rows:
        if wkey(r) not in seen:
            seen.add(wkey(r))
            workloads.append(wkey(r))
    extra = []
    for r in rows:
        if r["channel"] not in DRIVERS and r["channel"] not in extra:
            extra.append(r["channel"])
    cell = {(wkey(r), r["channel"]): r for r in rows}

    def both(w, c):
        r = cell.get((w, c))
        return "-" if r is None else "%s (%s)" % (fmt_count(r["kernel"]), fmt_count(r["user"]))

    def ratio(w, a, b):
        ra, rb = cell.get((w, a)), cell.get((w, b))
        if not ra or not rb or rb["kernel"] <= 0:
            return "-"
        return "%.2f" % (ra["kernel"] / rb["kernel"])

    print()
    print("instructions per operation, kernel (user): kernel %s, %s vCPU(s)%s; kbinder %s" % (
        env.get("kernel", "?"), env.get("cpus", "?"), ", " + qemu if qemu else "",
        commit or "?"))
    print("kb/ref, kb/pipe: kbinder's kernel instructions over the reference's, the pipe's")
    head = ["workload", "ops"] + list(DRIVERS) + ["kb/ref", "kb/pipe"] + extra
    table = []
    for w in workloads:
        name = next(r["name"] for r in rows if wkey(r) == w)
        ops = next(r["ops"] for r in rows if wkey(r) == w)
        table.append([name, str(ops)] + [both(w, c) for c in DRIVERS] +
                     [ratio(w, "kbinder", "reference"), ratio(w, "kbinder", "pipe")] +
                     [both(w, c) for c in extra])
    widths = [max(len(t[i]) for t in table + [head]) for i in range(len(head))]
    for t in [head, ["-" * n for n in widths]] + table:
        print("  ".join(s.ljust(widths[i]) if i < 2 else s.rjust(widths[i])
                        for i, s in enumerate(t)).rstrip())


def by_module(funcs):
    """Instructions per operation in each module, and in the rest of the kernel."""
    mods = {}
    for f, v in funcs:
        m = re.search(r"\[(\S+)\]$", f)
        where = "module " + m.group(1) if m else "the core kernel"
        mods[where] = mods.get(where, 0) + v
    return sorted(mods.items(), key=lambda kv: -kv[1])


def print_profile(rows, wins, syms, top, out_path):
    full = []
    for r in rows:
        w = wins[r["tag"]]
        if not w["blocks"]:
            continue
        insns, calls = per_function(w["blocks"], syms, r["ops"])
        funcs = sorted(insns.items(), key=lambda kv: (-kv[1], kv[0]))
        full.append((r, funcs, calls))
        if r["channel"] not in DRIVERS:
            continue
        print()
        print("kernel profile, %s on %s: %s instructions per operation; top %d functions" % (
            r["name"], r["channel"], fmt_count(r["kernel"]), top))
        print("  %8s  %6s  %6s  %s" % ("insns/op", "share", "runs", "function"))
        for f, v in funcs[:top]:
            print("  %8s  %5.1f%%  %6s  %s" % (fmt_count(v), 100.0 * v / r["kernel"],
                                               fmt_runs(calls.get(f)), f))
        for where, v in by_module(funcs):
            print("  %8s  %5.1f%%          (all of %s)" % (fmt_count(v), 100.0 * v / r["kernel"],
                                                          where))
    if out_path and full:
        with open(out_path, "w", encoding="utf-8") as o:
            for r, funcs, calls in full:
                o.write("# %s on %s: %s kernel instructions per operation\n" % (
                    r["name"], r["channel"], fmt_count(r["kernel"])))
                o.write("# insns/op  share  runs/op  function\n")
                for f, v in funcs:
                    o.write("%10.1f %6.2f%% %7s  %s\n" % (v, 100.0 * v / r["kernel"],
                                                        fmt_runs(calls.get(f)), f))
    return len(full)


def cmd_table(args):
    logdir, jout, top, pout, commit, qemu = args[0], None, 0, None, None, None
    i = 1
    while i < len(args):
        if args[i] == "--json":
            jout = args[i + 1]
        elif args[i] == "--profile":
            top = int(args[i + 1])
        elif args[i] == "--profile-out":
            pout = args[i + 1]
        elif args[i] == "--commit":
            commit = args[i + 1]
        elif args[i] == "--qemu":
            qemu = args[i + 1]
        else:
            raise SystemExit(__doc__)
        i += 2
    env, recs, ksyms = load_results(os.path.join(logdir, "results.log"))
    plugin_log = os.path.join(logdir, "plugin.log")
    if not os.path.exists(plugin_log):
        print("FAIL bench-insn/table: no %s: the plugin was not loaded" % plugin_log)
        return 1
    wins, errors = load_plugin(plugin_log)
    rows, problems = build_rows(recs, wins)
    problems += ["the plugin: " + e for e in errors]
    if not recs:
        problems.append("no INSN line in %s" % os.path.join(logdir, "results.log"))
    print_table(env, rows, commit, qemu)
    if top > 0:
        if ksyms is None:
            problems.append("--profile: the guest handed over no kallsyms (BENCH_INSN_PROFILE=1)")
        elif print_profile(rows, wins, Symbols(ksyms), top, pout) == 0:
            problems.append("--profile: the plugin printed no blocks (profile=on)")
    if jout:
        with open(jout, "w", encoding="utf-8") as o:
            json.dump({"env": env, "commit": commit, "qemu": qemu, "rows": rows}, o, indent=1)
    print()
    for p in problems:
        print("FAIL bench-insn/table: %s" % p)
    if not problems:
        print("PASS bench-insn/table")
    return 1 if problems else 0


def deviation(a, b):
    mean = (a + b) / 2.0
    return 0.0 if mean == 0 else 100.0 * abs(a - b) / mean


def cmd_compare(args):
    if len(args) < 2:
        raise SystemExit(__doc__)
    tol, floor, judge = 2.0, 1000.0, ["reference", "kbinder", "pipe"]
    i = 2
    while i < len(args):
        if args[i] == "--tolerance":
            tol = float(args[i + 1])
        elif args[i] == "--floor":
            floor = float(args[i + 1])
        elif args[i] == "--judge":
            judge = args[i + 1].split(",")
        else:
            raise SystemExit(__doc__)
        i += 2
    with open(args[0], encoding="utf-8") as f:
        a = json.load(f)
    with open(args[1], encoding="utf-8") as f:
        b = json.load(f)
    rb = {(wkey(r), r["channel"]): r for r in b["rows"]}
    twice = []
    for name, t in (("a", a), ("b", b)):
        keys = [(wkey(r), r["channel"]) for r in t["rows"]]
        twice += ["%s on %s is twice in table %s" % (k[0], k[1], name)
                  for k in sorted(set(keys)) if keys.count(k) > 1]
    print()
    print("two boots, instructions per operation: kernel and user of each, and how far apart"
          " (|a-b| / mean; judged on %s where the mean is at least %s, limit %.1f%%)" % (
              ", ".join(judge), fmt_count(floor), tol))
    head = ["workload", "channel", "ops", "kernel a", "kernel b", "dev", "user a", "user b", "dev"]
    table, worst, bad, missing = [], 0.0, [], []
    for r in a["rows"]:
        o = rb.pop((wkey(r), r["channel"]), None)
        if o is None:
            missing.append("%s on %s" % (wkey(r), r["channel"]))
            continue
        line = [r["name"], r["channel"], str(r["ops"])]
        for k in ("kernel", "user"):
            d = deviation(r[k], o[k])
            judged = (r[k] + o[k]) / 2.0 >= floor and r["channel"] in judge
            if judged:
                worst = max(worst, d)
                if d > tol:
                    bad.append("%s on %s, %s: %.2f%%" % (r["name"], r["channel"], k, d))
            line += [fmt_count(r[k]), fmt_count(o[k]), ("%.2f%%" % d) + ("" if judged else " *")]
        table.append(line)
    missing += ["%s on %s" % k for k in rb]
    widths = [max(len(t[i]) for t in table + [head]) for i in range(len(head))]
    for t in [head, ["-" * n for n in widths]] + table:
        print("  ".join(s.ljust(widths[i]) if i < 2 else s.rjust(widths[i])
                        for i, s in enumerate(t)).rstrip())
    print("(* not judged: below %s per operation, or not on %s)" % (fmt_count(floor),
                                                                    ", ".join(judge)))
    for m in missing:
        print("FAIL bench-insn/agreement: %s is in one boot only" % m)
    for t in twice:
        print("FAIL bench-insn/agreement: %s" % t)
    for x in bad:
        print("FAIL bench-insn/agreement: %s apart (limit %.1f%%)" % (x, tol))
    if not missing and not bad and not twice:
        print("PASS bench-insn/agreement: the two boots agree within %.2f%% (limit %.1f%%)" % (
            worst, tol))
    return 1 if (missing or bad or twice) else 0


def main(argv):
    if len(argv) < 3 or argv[1] not in ("table", "compare"):
        raise SystemExit(__doc__)
    return cmd_table(argv[2:]) if argv[1] == "table" else cmd_compare(argv[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
