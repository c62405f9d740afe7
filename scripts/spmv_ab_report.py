#!/usr/bin/env python3
"""The tables of an A/B run of scripts/spmv_ab.sh, in Markdown for docs/PERFORMANCE.md.

Usage: scripts/spmv_ab_report.py DIR [--format hisparse]

DIR holds base-R.jsonl and new-R.jsonl (the `strata spmv --json` lines of each round R). Prints:
- per matrix and mode: the compared kernel's median time in each round for both builds, the speedup
  (base over new, the midpoint of each build's rounds), the baselines' times (NEW's first round) and
  NEW over the first baseline;
- the geometric mean and range of the speedups;
- per matrix and build, SpMV^T over SpMV (the mean of the rounds' T over the mean of their N), where
  both modes ran.
A kernel that failed its verification is named on stderr and the exit status is 1: its time is no figure.
"""
import argparse
import glob
import math
import os
import sys
from collections import defaultdict

from json_lines import json_lines, short


def load(directory, build):
    """(matrix, mode, kernel) -> [median us per round, in round order]; matrix -> nnz; failures."""
    times, nnz, failures = defaultdict(list), {}, []
    paths = sorted(glob.glob(os.path.join(directory, f"{build}-*.jsonl")),
                   key=lambda p: int(os.path.basename(p)[len(build) + 1:-len(".jsonl")]))
    for path in paths:
        for run in json_lines(path):
            nnz[run["matrix"]] = run["nnz"]
            for k in run["kernels"]:
                if not k["verified"]:
                    failures.append(f"{build}: {run['matrix']} {run['mode']} {k['kernel']}: {k['failure']}")
                    continue
                times[(run["matrix"], run["mode"], k["kernel"])].append(k["median_seconds"] * 1e6)
    return times, nnz, failures


def midpoint(values):
    s = sorted(values)
    return (s[(len(s) - 1) // 2] + s[len(s) // 2]) / 2


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("directory")
    parser.add_argument("--format", default="hisparse", help="the kernel compared (default hisparse)")
    args = parser.parse_args()
    base, nnz, failed_base = load(args.directory, "base")
    new, nnz_new, failed_new = load(args.directory, "new")
    nnz.update(nnz_new)
    if not base or not new:
        sys.exit(f"spmv_ab_report: no base-R.jsonl or new-R.jsonl with verified kernels in {args.directory}")
    rows = sorted({(m, mode) for (m, mode, k) in new if k == args.format}, key=lambda t: (nnz[t[0]], t[1]))
    baselines = sorted({k for (m, mode, k) in new if k != args.format})
    fmt = lambda v: " / ".join(f"{x:.1f}" for x in v) if v else "–"
    head = ["matrix", "nnz", "mode", "base µs", "new µs", "speedup"] + [f"{b} µs" for b in baselines]
    if baselines:
        head.append(f"new ÷ {baselines[0]} time")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    speedups = []
    for m, mode in rows:
        b, n = base.get((m, mode, args.format), []), new[(m, mode, args.format)]
        speedup = midpoint(b) / midpoint(n) if b else float("nan")
        if b:
            speedups.append(speedup)
        cells = [short(m), f"{nnz[m]:,}", mode, fmt(b), fmt(n), f"{speedup:.2f}"]
        cells += [fmt(new.get((m, mode, k), [])) for k in baselines]
        if baselines:
            first = new.get((m, mode, baselines[0]), [])
            cells.append(f"{midpoint(n) / midpoint(first):.2f}" if first else "–")
        print("| " + " | ".join(cells) + " |")
    if speedups:
        g = math.exp(sum(map(math.log, speedups)) / len(speedups))
        print(f"\nGeometric mean of the speedups: {g:.3f} over {len(speedups)} rows "
              f"({min(speedups):.2f}–{max(speedups):.2f}).")
    print("\n| matrix | base: T ÷ N | new: T ÷ N |\n|---|---|---|")
    for m in sorted({m for m, _ in rows}, key=lambda m: nnz[m]):
        ratio = lambda t: (sum(t[(m, "T", args.format)]) / len(t[(m, "T", args.format)]) /
                           (sum(t[(m, "N", args.format)]) / len(t[(m, "N", args.format)])))
        has = lambda t: (m, "T", args.format) in t and (m, "N", args.format) in t
        if has(new):
            print(f"| {short(m)} | {f'{ratio(base):.2f}' if has(base) else '–'} | {ratio(new):.2f} |")
    for failure in failed_base + failed_new:
        print(f"spmv_ab_report: NOT VERIFIED, left out: {failure}", file=sys.stderr)
    return 1 if failed_base or failed_new else 0


if __name__ == "__main__":
    sys.exit(main())
