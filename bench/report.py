#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turn the BENCH lines of a `make bench` run into a table, JSON, CSV and SVG.

usage: report.py RESULTS_LOG OUTDIR

Reads the `BENCH {json}` lines the guest wrote (results.log), writes
OUTDIR/results.json (everything), OUTDIR/results.csv (one row per workload
and channel, one per ratio) and OUTDIR/bench.svg (ratios with their spread,
and absolute latencies), and prints the table with the kbinder/reference
ratio of every row, its spread, the A/A control and the issue's targets.
Standard library only.
"""
import csv
import json
import math
import os
import sys

# Ratio names as the guest writes them: (a, b, kind).
KB_REF = ("kbinder", "reference", "speedup")
AA = ("reference2", "reference", "speedup")
KB_OLD = ("kbinder", "old", "speedup")


def load(path):
    env, workloads, memory = {}, [], []
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            line = raw.strip().replace("\r", "")
            if not line.startswith("BENCH "):
                continue
            try:
                rec = json.loads(line[6:])
            except ValueError:
                continue
            kind = rec.get("kind")
            if kind == "env":
                env = rec
            elif kind == "workload":
                workloads.append(rec)
            elif kind == "memory":
                memory.append(rec)
    return env, workloads, memory


def chan(w, name):
    for c in w.get("channels", []):
        if c.get("name") == name:
            return c
    return None


def ratio(w, a, b, kind):
    for r in w.get("ratios", []):
        if (r.get("a"), r.get("b"), r.get("kind")) == (a, b, kind):
            return r if r.get("rounds") else None
    return None


def fmt_value(w, c):
    """A channel's headline figure: median latency, or calls per second."""
    if c is None:
        return "-"
    if c.get("status") != "ok":
        return "unavailable"
    if w["metric"] == "latency":
        return "%.1f us" % c["median_us"]
    return "%.0f/s" % c["rate_per_s"]


def fmt_ratio(r):
    """median (95% interval of the median) [p10..p90 of the rounds]"""
    if r is None:
        return "n/a"
    if "ci_lo" in r:
        return "%.3f (%.2f-%.2f) [%.2f..%.2f]" % (r["median"], r["ci_lo"], r["ci_hi"],
                                                 r["p10"], r["p90"])
    return "%.3f [%.2f..%.2f]" % (r["median"], r["p10"], r["p90"])


def baselines(w):
    """Pipe, unix and memcpy figures and how the drivers compare with them."""
    out = []
    for name in ("pipe", "unix", "memcpy"):
        c = chan(w, name)
        if c is None or c.get("status") != "ok":
            continue
        text = "%s %.1f us" % (name, c["median_us"])
        parts = []
        for drv in ("reference", "kbinder"):
            r = ratio(w, drv, name, "cost")
            if r:
                parts.append("%s %.2fx" % ("ref" if drv == "reference" else "kb", r["median"]))
        if parts:
            text += " (" + ", ".join(parts) + ")"
        out.append(text)
    return "; ".join(out)


def print_table(env, workloads, memory):
    print()
    print("kbinder bench: kernel %s, %s vCPUs (%s), scale %s" % (
        env.get("kernel", "?"), env.get("cpus", "?"), env.get("cpu", "?"), env.get("scale", "?")))
    print("kbinder: %s" % env.get("kbinder", "?"))
    print("speedup = kbinder's rate / reference's rate: median of the per-round ratios,")
    print("  (95% confidence interval of that median) [p10..p90 of the per-round ratios];")
    print("A/A = the reference against itself under a second name: the noise floor.")
    has_old = any(chan(w, "old") for w in workloads)
    if has_old:
        print("vs old = kbinder's rate / the rate of %s, loaded beside it" % env.get("old", "?"))
        print("  (make bench OLD=REV; below 1: this tree is slower than the old one).")
    print("baselines: time of one call, and a driver's time in multiples of it.")
    print()
    head = ("workload", "reference", "kbinder", "kbinder speedup", "A/A control")
    if has_old:
        head += ("vs old",)
    head += ("baselines",)
    rows = []
    for w in workloads:
        row = (w["workload"], fmt_value(w, chan(w, "reference")),
               fmt_value(w, chan(w, "kbinder")), fmt_ratio(ratio(w, *KB_REF)),
               fmt_ratio(ratio(w, *AA)))
        if has_old:
            row += (fmt_ratio(ratio(w, *KB_OLD)),)
        rows.append(row + (baselines(w),))
    ncols = len(head) - 1
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(ncols)]
    fmt = "  ".join("%%-%ds" % wd for wd in widths) + "  %s"
    print(fmt % head)
    print(fmt % (tuple("-" * wd for wd in widths) + ("-" * 9,)))
    for r in rows:
        print(fmt % r)
    unavailable = [(w["workload"], chan(w, "kbinder").get("why", "?")) for w in workloads
                   if chan(w, "kbinder") and chan(w, "kbinder").get("status") != "ok"]
    if unavailable:
        print()
        print("kbinder unavailable: %s" % unavailable[0][1]
              + (" (and %d more rows)" % (len(unavailable) - 1) if len(unavailable) > 1 else ""))
    print_targets(workloads, memory)
    print_memory(memory)


def find(workloads, type_, size=None, clients=None, cpu=-1):
    for w in workloads:
        if w["type"] != type_ or w.get("cpu", -1) != cpu:
            continue
        if size is not None and w["size"] != size:
            continue
        if clients is not None and w["clients"] != clients:
            continue
        return w
    return None


def targets(workloads):
    """Issue 21's targets on the workloads: (text, measured ratio record or
    None, goal, higher_is_better). The memory target is in memory_target()."""
    out = []
    for size in (4, 128):
        w = find(workloads, "sync", size)
        out.append(("sync %d B >= 1.6x reference" % size,
                    ratio(w, *KB_REF) if w else None, 1.6, True))
    ow = find(workloads, "oneway")
    out.append(("one-way throughput >= 1.8x reference",
                ratio(ow, *KB_REF) if ow else None, 1.8, True))
    w4 = find(workloads, "sync", 4)
    out.append(("small round trip <= 1.2x pipe ping-pong",
                ratio(w4, "kbinder", "pipe", "cost") if w4 else None, 1.2, False))
    w = find(workloads, "sync", 65536)
    out.append(("sync 64 KiB <= 1.4x memcpy bound",
                ratio(w, "kbinder", "memcpy", "cost") if w else None, 1.4, False))
    return out


FLOOR = 1.3


def memory_target(memory):
    """Slab bytes per node, kbinder's and the reference's, or None."""
    per = {m.get("driver"): m.get("node", {}).get("slab_bytes") for m in memory}
    if per.get("kbinder") is None or per.get("reference") is None:
        return None
    return per["kbinder"], per["reference"]


def print_targets(workloads, memory):
    print()
    print("targets (issue 21)")
    for text, r, goal, higher in targets(workloads):
        if r is None:
            verdict = "not measured (kbinder unavailable)"
        else:
            met = r["median"] >= goal if higher else r["median"] <= goal
            verdict = "%s: %s" % (fmt_ratio(r), "met" if met else "NOT met")
        print("  %-48s %s" % (text, verdict))
    below = []
    for w in workloads:
        r = ratio(w, *KB_REF)
        if r and r["median"] < FLOOR:
            below.append("%s %.3f" % (w["workload"], r["median"]))
    measured = any(ratio(w, *KB_REF) for w in workloads)
    print("  %-48s %s" % ("no workload below %.1fx" % FLOOR, "not measured" if not measured else
                          ("met" if not below else "NOT met: " + ", ".join(below))))
    mt = memory_target(memory)
    print("  %-48s %s" % ("slab bytes per node <= the reference's",
                          "not measured" if mt is None else "%d against %d: %s" % (
                              mt[0], mt[1], "met" if mt[0] <= mt[1] else "NOT met")))


def print_memory(memory):
    if not memory:
        return
    print()
    print("kernel memory per object, bytes of slab objects (kbmem; pages outside the slab")
    print("are in results.json as page_bytes: within noise unless a driver allocates pages)")
    names = ("idle_process", "node", "ref", "transaction")
    print("  %-10s " % "driver" + " ".join("%13s" % n for n in names))
    for m in memory:
        cells = ["%13d" % m.get(n, {}).get("slab_bytes", 0) for n in names]
        print("  %-10s " % m.get("driver", "?") + " ".join(cells))


def write_csv(path, workloads):
    with open(path, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["workload", "type", "size", "clients", "cpu", "row", "name", "status",
                      "median_us", "p99_us", "rate_per_s", "ratio_median", "ratio_p10",
                      "ratio_p90", "rounds", "why"])
        for w in workloads:
            base = [w["workload"], w["type"], w["size"], w["clients"], w.get("cpu", -1)]
            for c in w["channels"]:
                out.writerow(base + ["channel", c["name"], c["status"], c.get("median_us", ""),
                                     c.get("p99_us", ""), c.get("rate_per_s", ""), "", "", "",
                                     c.get("rounds_ok", ""), c.get("why", "")])
            for r in w["ratios"]:
                out.writerow(base + ["ratio", "%s %s %s" % (r["a"], r["kind"], r["b"]),
                                     "ok" if r.get("rounds") else "n/a", "", "", "",
                                     r.get("median", ""), r.get("p10", ""), r.get("p90", ""),
                                     r.get("rounds", 0), ""])


# ---------------------------------------------------------------- SVG

def esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg_ratios(workloads, y0, width):
    """Panel 1: kbinder speedup and A/A control per workload, with p10..p90."""
    parts = []
    label_w, right = 230, 40
    plot_w = width - label_w - right
    lo, hi = 0.0, 2.0
    for w in workloads:
        for r in (ratio(w, *KB_REF), ratio(w, *AA)):
            if r:
                hi = max(hi, min(r["p90"] * 1.05, 6.0))

    def x(v):
        return label_w + (min(max(v, lo), hi) - lo) / (hi - lo) * plot_w

    row_h = 30
    top = y0 + 40
    height = 40 + row_h * len(workloads) + 40
    parts.append('<text x="%d" y="%d" class="title">kbinder / reference speedup '
                 '(bar: median of round ratios; black: its 95%% interval; whisker: p10..p90)</text>' % (10, y0 + 20))
    tick = 0.0
    while tick <= hi + 1e-9:
        tx = x(tick)
        parts.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" class="grid"/>' % (
            tx, top - 5, tx, top + row_h * len(workloads)))
        parts.append('<text x="%.1f" y="%d" class="tick" text-anchor="middle">%g</text>' % (
            tx, top + row_h * len(workloads) + 15, round(tick, 2)))
        tick += 0.25 if hi <= 2.5 else 0.5
    for goal, cls in ((1.0, "one"), (1.6, "goal")):
        parts.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" class="%s"/>' % (
            x(goal), top - 8, x(goal), top + row_h * len(workloads), cls))
    parts.append('<text x="%.1f" y="%d" class="tick goaltext">target 1.6</text>' % (
        x(1.6) + 3, top - 10))
    for i, w in enumerate(workloads):
        yy = top + i * row_h
        parts.append('<text x="%d" y="%d" class="label">%s</text>' % (10, yy + 17, esc(w["workload"])))
        for j, (r, cls) in enumerate(((ratio(w, *KB_REF), "kb"), (ratio(w, *AA), "aa"))):
            by = yy + 3 + j * 12
            if r is None:
                if cls == "kb":
                    parts.append('<text x="%.1f" y="%d" class="na">kbinder unavailable</text>' % (
                        x(lo) + 4, by + 9))
                continue
            parts.append('<rect x="%.1f" y="%d" width="%.1f" height="10" class="%s"/>' % (
                x(lo), by, max(x(r["median"]) - x(lo), 1), cls))
            parts.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" class="whisker"/>' % (
                x(r["p10"]), by + 5, x(r["p90"]), by + 5))
            for v in (r["p10"], r["p90"]):
                parts.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" class="whisker"/>' % (
                    x(v), by + 1, x(v), by + 9))
            if "ci_lo" in r:
                parts.append('<rect x="%.1f" y="%d" width="%.1f" height="4" class="ci">'
                             '<title>95%% interval of the median %.3f..%.3f</title></rect>' % (
                                 x(r["ci_lo"]), by + 3, max(x(r["ci_hi"]) - x(r["ci_lo"]), 1.5),
                                 r["ci_lo"], r["ci_hi"]))
    ly = top + row_h * len(workloads) + 30
    parts.append('<rect x="%d" y="%d" width="12" height="10" class="kb"/>'
                 '<text x="%d" y="%d" class="tick">kbinder vs reference</text>' % (
                     label_w, ly - 9, label_w + 16, ly))
    parts.append('<rect x="%d" y="%d" width="12" height="10" class="aa"/>'
                 '<text x="%d" y="%d" class="tick">A/A control: reference vs itself (noise floor)</text>'
                 % (label_w + 170, ly - 9, label_w + 186, ly))
    return parts, height + 10


def svg_latency(workloads, y0, width):
    """Panel 2: median latency of every channel of the latency workloads (log scale)."""
    order = ("reference", "kbinder", "reference2", "pipe", "unix", "memcpy")
    rows = [w for w in workloads if w["metric"] == "latency"]
    parts = []
    if not rows:
        return parts, 0
    label_w, right = 230, 40
    plot_w = width - label_w - right
    vals = [c["median_us"] for w in rows for c in w["channels"] if c.get("status") == "ok"]
    lo = 10 ** math.floor(math.log10(max(min(vals), 0.01))) if vals else 1
    hi = 10 ** math.ceil(math.log10(max(vals))) if vals else 1000
    if hi <= lo:
        hi = lo * 10

    def x(v):
        return label_w + (math.log10(max(v, lo)) - math.log10(lo)) / (
            math.log10(hi) - math.log10(lo)) * plot_w

    bar_h = 7
    row_h = bar_h * len(order) + 10
    top = y0 + 40
    parts.append('<text x="%d" y="%d" class="title">median time per call, us (log scale)</text>' % (
        10, y0 + 20))
    d = lo
    while d <= hi * 1.001:
        parts.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" class="grid"/>' % (
            x(d), top - 5, x(d), top + row_h * len(rows)))
        parts.append('<text x="%.1f" y="%d" class="tick" text-anchor="middle">%g</text>' % (
            x(d), top + row_h * len(rows) + 15, d))
        d *= 10
    for i, w in enumerate(rows):
        yy = top + i * row_h
        parts.append('<text x="%d" y="%d" class="label">%s</text>' % (
            10, yy + row_h / 2 + 4, esc(w["workload"])))
        for j, name in enumerate(order):
            c = chan(w, name)
            if c is None or c.get("status") != "ok":
                continue
            by = yy + j * bar_h
            parts.append('<rect x="%d" y="%d" width="%.1f" height="%d" class="c-%s">'
                         '<title>%s %.1f us</title></rect>' % (
                             label_w, by, max(x(c["median_us"]) - label_w, 1), bar_h - 1, name,
                             name, c["median_us"]))
    ly = top + row_h * len(rows) + 32
    for j, name in enumerate(order):
        parts.append('<rect x="%d" y="%d" width="12" height="10" class="c-%s"/>'
                     '<text x="%d" y="%d" class="tick">%s</text>' % (
                         label_w + j * 95, ly - 9, name, label_w + j * 95 + 16, ly, name))
    return parts, 40 + row_h * len(rows) + 45


def write_svg(path, env, workloads):
    width = 900
    p1, h1 = svg_ratios(workloads, 30, width)
    p2, h2 = svg_latency(workloads, 30 + h1, width)
    height = 30 + h1 + h2 + 10
    style = """
text { font-family: DejaVu Sans, Arial, sans-serif; fill: #222; }
.title { font-size: 14px; font-weight: bold; }
.label { font-size: 12px; }
.tick { font-size: 10px; fill: #555; }
.na { font-size: 10px; fill: #a33; font-style: italic; }
.grid { stroke: #e3e3e3; stroke-width: 1; }
.one { stroke: #333; stroke-width: 1.5; }
.goal { stroke: #2a8a2a; stroke-width: 1.5; stroke-dasharray: 4 3; }
.goaltext { fill: #2a8a2a; }
.whisker { stroke: #111; stroke-width: 1.2; }
.ci { fill: #111; }
.kb { fill: #d9822b; }
.aa { fill: #9aa5b1; }
.c-reference { fill: #3b6fb6; } .c-kbinder { fill: #d9822b; } .c-reference2 { fill: #9aa5b1; }
.c-pipe { fill: #4caf50; } .c-unix { fill: #8e5ab5; } .c-memcpy { fill: #c9b037; }
"""
    head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
            '<style>%s</style><rect width="100%%" height="100%%" fill="white"/>'
            '<text x="10" y="20" class="title">kbinder bench: %s, %s vCPUs, same boot, interleaved'
            '</text>' % (width, height, width, height, style,
                         esc(env.get("kernel", "?")), esc(env.get("cpus", "?"))))
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + "\n".join(p1 + p2) + "</svg>\n")


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: report.py RESULTS_LOG OUTDIR\n")
        return 2
    env, workloads, memory = load(sys.argv[1])
    if not workloads:
        sys.stderr.write("report.py: no BENCH workload lines in %s\n" % sys.argv[1])
        return 1
    os.makedirs(sys.argv[2], exist_ok=True)
    doc = {"env": env, "workloads": workloads, "memory": memory,
           "targets": [{"target": t, "goal": g, "higher_is_better": h, "measured": r}
                       for t, r, g, h in targets(workloads)]}
    with open(os.path.join(sys.argv[2], "results.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
    write_csv(os.path.join(sys.argv[2], "results.csv"), workloads)
    write_svg(os.path.join(sys.argv[2], "bench.svg"), env, workloads)
    print_table(env, workloads, memory)
    print()
    print("written: %s/results.json, results.csv, bench.svg" % sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
