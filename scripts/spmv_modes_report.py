#!/usr/bin/env python3
"""SpMV^T over SpMV per matrix, pooled over every run of one build: issue 10's "SpMV^T within 1.1x of SpMV".

Usage: scripts/spmv_modes_report.py [--format hisparse] [--limit 1.1] FILE.jsonl...

FILEs hold `strata spmv --json` lines of one build (from scripts/spmv_ab.sh or other runs), in any
number: each line is one process, and its kernel's median time is one sample. Prints, per matrix,
the samples in N and in T, the median of each, T / N of the medians, and the least and greatest T / N
of the samples paired in order (the i-th T sample over the i-th N sample: runs that alternate modes pair
a T with the N run beside it). A matrix whose T / N of the medians exceeds the limit is named at the end
and the exit status is 1; a kernel that failed its verification is named too, and its time left out.
"""
import argparse
import statistics
import sys
from collections import defaultdict

from json_lines import json_lines, short


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--format", default="hisparse", help="the kernel (default hisparse)")
    parser.add_argument("--limit", type=float, default=1.1, help="the largest T / N allowed (default 1.1)")
    args = parser.parse_args()
    samples, nnz, failures = defaultdict(list), {}, []
    for path in args.files:
        for run in json_lines(path):
            for k in run["kernels"]:
                if k["kernel"] != args.format:
                    continue
                if not k["verified"]:
                    failures.append(f"{path}: {run['matrix']} {run['mode']}: {k['failure']}")
                    continue
                nnz[run["matrix"]] = run["nnz"]
                samples[(run["matrix"], run["mode"])].append(k["median_seconds"] * 1e6)
    matrices = sorted({m for m, mode in samples if (m, "N") in samples and (m, "T") in samples}, key=lambda m: nnz[m])
    if not matrices:
        sys.exit(f"spmv_modes_report: no matrix with verified {args.format} runs in both N and T")
    print("| matrix | nnz | samples N / T | median N µs | median T µs | T ÷ N | paired T ÷ N, least–greatest |")
    print("|---|---|---|---|---|---|---|")
    over = []
    for m in matrices:
        n, t = samples[(m, "N")], samples[(m, "T")]
        ratio = statistics.median(t) / statistics.median(n)
        paired = [b / a for a, b in zip(n, t)]
        print(f"| {short(m)} | {nnz[m]:,} | {len(n)} / {len(t)} | {statistics.median(n):.1f} | "
              f"{statistics.median(t):.1f} | {ratio:.2f} | {min(paired):.2f}–{max(paired):.2f} |")
        if ratio > args.limit:
            over.append(f"{short(m)} {ratio:.2f}")
    print(f"\nT ÷ N of the medians above {args.limit}: {', '.join(over) if over else 'none'} "
          f"({len(matrices)} matrices).")
    for failure in failures:
        print(f"spmv_modes_report: NOT VERIFIED, left out: {failure}", file=sys.stderr)
    return 1 if over or failures else 0


if __name__ == "__main__":
    sys.exit(main())
