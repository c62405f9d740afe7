#!/usr/bin/env python3
"""Turns the JSON of perf_tests/strata_spmv_suite into the SpMV tables of docs/PERFORMANCE.md.

Usage: scripts/spmv_report.py SUITE.json [--reference cusparse_csr] [--target strata_coo] > report.md

For each precision it prints: per-matrix median time (us) and GFLOP/s of every kernel, the
winner, win counts, geometric-mean speed of every kernel relative to the reference kernel over
all matrices and over the irregular ones (row-length std/mean > 1), the worst slowdown versus
the best kernel, the slowdown-versus-best profile (fraction of matrices on which a kernel is
within a factor tau of the best, as in Flegar & Anzt, Figs. 7-9), and the fraction of the copy
bandwidth the target reaches on the largest matrices under its own bytes model.
"""
import argparse
import json
import math
import sys
from collections import defaultdict

TAUS = [1.0, 1.1, 1.25, 1.5, 2.0, 3.0, 5.0, 10.0]


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("suite_json")
    parser.add_argument("--reference", default="cusparse_csr")
    parser.add_argument("--target", default="strata_coo")
    parser.add_argument("--largest", type=int, default=3, help="how many of the largest matrices for the copy fraction")
    args = parser.parse_args()

    with open(args.suite_json) as f:
        suite = json.load(f)
    ctx = suite.get("context", {})
    runs = defaultdict(dict)  # (precision, matrix) -> kernel -> benchmark
    failures = []
    for b in suite["benchmarks"]:
        _, kernel, precision, matrix = b["run_name"].split("/")[:4] if "run_name" in b else b["name"].split("/")[:4]
        if b.get("error_occurred"):
            failures.append(f"{kernel}/{precision}/{matrix}: {b.get('error_message', '')}")
            continue
        runs[(precision, matrix)][kernel] = b

    print(f"Device: {ctx.get('device', '?')}; Kokkos {ctx.get('kokkos_version', '?')}; "
          f"Strata {ctx.get('strata_git_hash', '?')}; run {ctx.get('date', '?')}; "
          f"copy bandwidth {float(ctx.get('copy_bandwidth_gb_per_s', 'nan')):.0f} GB/s.\n")
    if failures:
        print("**Failed or skipped benchmarks:** " + "; ".join(failures) + "\n")

    kernels = sorted({k for per in runs.values() for k in per})
    ordered = [args.target] + [k for k in kernels if k != args.target] if args.target in kernels else kernels
    for precision in sorted({p for p, _ in runs}):
        matrices = sorted((m for p, m in runs if p == precision), key=lambda m: -next(iter(runs[(precision, m)].values()))["nnz"])
        print(f"### {precision}\n")
        print("| matrix | nnz | std/mean | " + " | ".join(ordered) + " | best |")
        print("|---|---:|---:|" + "---|" * len(ordered) + "---|")
        wins = defaultdict(int)
        slowdowns = defaultdict(list)
        speed_vs_ref = defaultdict(list)
        speed_vs_ref_irregular = defaultdict(list)
        for m in matrices:
            per = runs[(precision, m)]
            if any(k not in per for k in ordered):
                continue
            times = {k: per[k]["real_time"] for k in ordered}
            best = min(times, key=times.get)
            wins[best] += 1
            cv = per[ordered[0]].get("row_length_cv", 0.0)
            for k in ordered:
                slowdowns[k].append(times[k] / times[best])
                if args.reference in times:
                    speed_vs_ref[k].append(times[args.reference] / times[k])
                    if cv > 1.0:
                        speed_vs_ref_irregular[k].append(times[args.reference] / times[k])
            cells = " | ".join(f"{times[k] * 1e3:.1f} us ({per[k]['GFLOP/s']:.1f})" for k in ordered)
            print(f"| {m} | {int(per[ordered[0]]['nnz'])} | {cv:.2f} | {cells} | {best} |")
        n = len(slowdowns[ordered[0]])
        print(f"\nCells: median time (GFLOP/s). {n} matrices.\n")
        print("| kernel | wins | geomean speed vs " + args.reference + " | on irregular (std/mean > 1) | worst slowdown vs best |")
        print("|---|---:|---:|---:|---:|")
        for k in ordered:
            irregular = speed_vs_ref_irregular[k]
            print(f"| {k} | {wins[k]} | {geomean(speed_vs_ref[k]):.3f} | "
                  f"{geomean(irregular):.3f} ({len(irregular)} matrices) | {max(slowdowns[k]):.2f} |")
        print("\nSlowdown-versus-best profile: fraction of matrices on which the kernel is within tau of the best.\n")
        print("| kernel | " + " | ".join(f"tau={t:g}" for t in TAUS) + " |")
        print("|---|" + "---:|" * len(TAUS))
        for k in ordered:
            fractions = [sum(1 for s in slowdowns[k] if s <= t * (1 + 1e-12)) / n for t in TAUS]
            print(f"| {k} | " + " | ".join(f"{f:.2f}" for f in fractions) + " |")
        print(f"\n{args.target} on the {args.largest} largest matrices ({precision}), own bytes model:\n")
        for m in matrices[: args.largest]:
            b = runs[(precision, m)].get(args.target)
            if b:
                print(f"- {m}: {b['GB/s']:.0f} GB/s = {100 * b['copy_fraction']:.1f}% of copy bandwidth")
        print()


if __name__ == "__main__":
    sys.exit(main())
