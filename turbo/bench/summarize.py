#!/usr/bin/env python3
"""summarize.py speed.txt [more.txt ...] [--markdown] [--files] [--spread]
                                       [--best]

Reads zbench output (run_speed.sh) and prints, per corpus set and per
(op, level), the speed of each library and the ratio TURBO/REF.

Aggregation, per set and (op, level):
  ref MB/s, tur MB/s  total bytes / total time, where each file's time is
                      bytes / (its median MB/s): the speed of processing the
                      whole set once, so large files weigh more.
  ratio(tot)          tur MB/s / ref MB/s of those totals.
  ratio(geo)          geometric mean of the per-file ratios (tur median /
                      ref median): every file weighs the same.
  min, max            smallest and largest per-file ratio.
  ident               'yes' if every file's outputs were identical (deflate:
                      same compressed bytes; inflate: both reproduced the
                      input), else 'NO k/n'.
Extra rows: 'canterbury+calgary' (when both are present) and 'ALL' (every set
together, when there is more than one).

Several input files are merged: if the same (set, file, op, level, lib)
appears more than once, its per-repetition speeds are pooled and the median
taken over the pool.  --files adds one row per file; --spread adds the
distribution of per-file ratios (for reading a REF-vs-REF noise floor).
--best uses each library's fastest repetition instead of the median (on a
shared machine, interference only ever slows a run down).  --markdown prints
markdown tables instead of fixed-width text.
"""
import math
import statistics
import sys
from collections import OrderedDict

OP_ORDER = ["deflate", "inflate-zlib", "inflate-zlib-16k", "inflate-gzip",
            "inflate-gzip-16k"]


BEST = False     # --best: use each library's fastest repetition


def read(paths):
    """-> OrderedDict (set, file, op, level) -> {lib: rec}, headers"""
    data = OrderedDict()
    headers = []
    for path in paths:
        with open(path) as f:
            for line in f:
                line = line.rstrip("\n")
                if not line:
                    continue
                if line.startswith("#"):
                    headers.append((path, line))
                    continue
                c = line.split("\t")
                if len(c) < 11:
                    raise SystemExit("%s: bad line: %r" % (path, line))
                key = (c[0], c[1], c[2], int(c[3]))
                lib = c[4]
                reps = [float(x) for x in c[10].split(",") if x]
                d = data.setdefault(key, {})
                if lib in d:
                    d[lib]["reps"] += reps
                    d[lib]["ident"] = d[lib]["ident"] and c[9] == "yes"
                else:
                    d[lib] = {"bytes": int(c[5]), "zbytes": int(c[6]),
                              "reps": reps, "ident": c[9] == "yes"}
    for d in data.values():
        for rec in d.values():
            # median speed = bytes / median time (times = bytes / speed)
            times = [rec["bytes"] / (s * 1e6) for s in rec["reps"]]
            t = min(times) if BEST else statistics.median(times)
            rec["median"] = rec["bytes"] / t / 1e6
    return data, headers


def aggregate(rows):
    """rows: list of (file, bytes, ref_mbps, tur_mbps, ident)."""
    nbytes = sum(r[1] for r in rows)
    tref = sum(r[1] / r[2] for r in rows)
    ttur = sum(r[1] / r[3] for r in rows)
    ratios = [r[3] / r[2] for r in rows]
    nident = sum(1 for r in rows if r[4])
    return {
        "files": len(rows),
        "mb": nbytes / 1e6,
        "ref": nbytes / tref,
        "tur": nbytes / ttur,
        "tot": tref / ttur,
        "geo": math.exp(sum(math.log(x) for x in ratios) / len(ratios)),
        "min": min(ratios),
        "max": max(ratios),
        "minf": rows[ratios.index(min(ratios))][0],
        "maxf": rows[ratios.index(max(ratios))][0],
        "ident": "yes" if nident == len(rows) else
                 "NO %d/%d" % (len(rows) - nident, len(rows)),
    }


def build(data):
    """-> OrderedDict (set, op, level) -> list of rows"""
    groups = OrderedDict()
    missing = 0
    for (sname, fname, op, level), d in data.items():
        if "ref" not in d or "tur" not in d:
            missing += 1
            continue
        r, t = d["ref"], d["tur"]
        groups.setdefault((sname, op, level), []).append(
            (fname, r["bytes"], r["median"], t["median"],
             r["ident"] and t["ident"]))
    if missing:
        print("summarize: %d entries lack a ref or tur line" % missing,
              file=sys.stderr)
    return groups


def keyorder(k):
    sname, op, level = k
    return (OP_ORDER.index(op) if op in OP_ORDER else 99, op, level)


def main(argv):
    global BEST
    BEST = "--best" in argv
    md = "--markdown" in argv
    per_file = "--files" in argv
    paths = [a for a in argv if not a.startswith("--")]
    if not paths:
        print(__doc__, file=sys.stderr)
        return 1
    data, headers = read(paths)
    groups = build(data)
    if not groups:
        print("summarize: no result lines in %s" % " ".join(paths),
              file=sys.stderr)
        return 1
    sets = []
    for (sname, _, _) in groups:
        if sname not in sets:
            sets.append(sname)
    opl = sorted({(op, lv) for (_, op, lv) in groups},
                 key=lambda k: keyorder(("", k[0], k[1])))
    combos = []
    if "canterbury" in sets and "calgary" in sets:
        combos.append(("canterbury+calgary", ["canterbury", "calgary"]))
    if len(sets) > 1 and not (len(sets) == 2 and combos):
        combos.append(("ALL", list(sets)))

    table = []      # (set, op, level, agg)
    for op, lv in opl:
        for sname in sets:
            rows = groups.get((sname, op, lv))
            if rows:
                table.append((sname, op, lv, aggregate(rows), rows))
        for cname, members in combos:
            rows = []
            for m in members:
                rows += groups.get((m, op, lv), [])
            if rows:
                table.append((cname, op, lv, aggregate(rows), rows))

    cols = ["set", "op", "lvl", "files", "MB", "ref MB/s", "tur MB/s",
            "ratio(tot)", "ratio(geo)", "min", "max", "ident"]

    def cells(sname, op, lv, a):
        return [sname, op, str(lv), str(a["files"]), "%.2f" % a["mb"],
                "%.1f" % a["ref"], "%.1f" % a["tur"], "%.3f" % a["tot"],
                "%.3f" % a["geo"], "%.3f" % a["min"], "%.3f" % a["max"],
                a["ident"]]

    out = []
    for (s, op, lv, a, _) in table:
        if out and not md and (op, lv) != prev:
            out.append(None)        # a blank line between (op, level) groups
        out.append(cells(s, op, lv, a))
        prev = (op, lv)
    for p in paths:
        print("source: %s" % p)
    for path, h in headers:
        if any(h.startswith(x) for x in ("# date:", "# cpu:", "# compiler:",
                                         "# CFLAGS:", "# REF:", "# TURBO:",
                                         "# reps:", "# tur zlibVersion",
                                         "# mismatches:")):
            print("  " + h[2:])
    print("per-file speed: %s" % ("the FASTEST repetition (--best)" if BEST
                                  else "median of the repetitions"))
    print("ratio = TURBO/REF speed; ratio(tot) = total bytes / total of "
          "per-file median times; ratio(geo) = geometric mean of per-file "
          "ratios; min/max = per-file ratios")
    print()
    emit(cols, out, md)

    if per_file:
        print()
        fcols = ["set", "file", "op", "lvl", "bytes", "ref MB/s",
                 "tur MB/s", "ratio", "ident"]
        frows = []
        for (sname, op, lv), rows in groups.items():
            for (fname, b, rm, tm, ok) in rows:
                frows.append([sname, fname, op, str(lv), str(b),
                              "%.1f" % rm, "%.1f" % tm, "%.3f" % (tm / rm),
                              "yes" if ok else "NO"])
        emit(fcols, frows, md)
    if "--spread" in argv:
        print()
        print("spread: per (op, level) over all files of all sets: quantiles "
              "of the per-file ratio, how many files are off 1.00 by more "
              "than 2% / 5%, and rep = median over files and libs of "
              "(max - min) / median of one library's repetitions")
        scols = ["op", "lvl", "files", "p05", "p25", "p50", "p75", "p95",
                 "off>2%", "off>5%", "rep"]
        srows = []
        for op, lv in opl:
            ratios, rspread = [], []
            for (sname, fname, o, l), d in data.items():
                if (o, l) != (op, lv) or "ref" not in d or "tur" not in d:
                    continue
                ratios.append(d["tur"]["median"] / d["ref"]["median"])
                for lib in ("ref", "tur"):
                    reps = d[lib]["reps"]
                    rspread.append((max(reps) - min(reps)) / d[lib]["median"])
            ratios.sort()
            n = len(ratios)
            q = lambda f: ratios[min(n - 1, int(round(f * (n - 1))))]
            srows.append([op, str(lv), str(n)] +
                         ["%.3f" % q(f) for f in (.05, .25, .5, .75, .95)] +
                         ["%d" % sum(abs(r - 1) > .02 for r in ratios),
                          "%d" % sum(abs(r - 1) > .05 for r in ratios),
                          "%.1f%%" % (100 * statistics.median(rspread))])
        emit(scols, srows, md)

    bad = [r for r in out if r and r[-1] != "yes"]
    return 3 if bad else 0


def emit(cols, rows, md):
    if md:
        print("| " + " | ".join(cols) + " |")
        print("|" + "|".join("---" if i < cols.index("lvl") else "---:"
                             for i in range(len(cols))) + "|")
        for r in rows:
            if r:
                print("| " + " | ".join(r) + " |")
        return
    real = [r for r in rows if r]
    w = [max([len(c)] + [len(r[i]) for r in real]) for i, c in enumerate(cols)]
    left = set(range(cols.index("lvl")))

    def fmt(r):
        return "  ".join(x.ljust(w[i]) if i in left else x.rjust(w[i])
                         for i, x in enumerate(r)).rstrip()
    print(fmt(cols))
    print("  ".join("-" * x for x in w))
    for r in rows:
        print(fmt(r) if r else "")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
