#!/usr/bin/env python3
"""Turns the JSON of perf_tests/strata_spmv_suite into the SpMV tables of docs/PERFORMANCE.md.

Usage: scripts/spmv_report.py SUITE.json [SUITE.json...] [--reference cusparse-csr] > report.md
(several files: the parts of one suite run, e.g. scripts/gpu_spmv_suite.sh --part generated and real,
and repeated runs, where a benchmark found in several files counts by the median of its values; the
context printed is the first file's)

Benchmark names are spmv/KERNEL/PRECISION/MODE[xK]/MATRIX. For each precision and mode it
prints one table with every kernel side by side (median time per product in us; the mean
for runs that recorded no median_us), the best concrete kernel
(`auto` and `auto-timed` are choices among them, not candidates), what `auto` picked and its
slowdown versus the best and versus the reference; then win counts, geometric-mean speed of every
kernel relative to the reference over all matrices and over the irregular ones (row-length
std/mean > 1), the worst slowdown versus the best, and the slowdown-versus-best profile (fraction
of matrices on which a kernel is within a factor tau of the best, as in Flegar & Anzt).
"""
import argparse
import json
import math
import statistics
import sys
from collections import defaultdict

TAUS = [1.0, 1.1, 1.25, 1.5, 2.0, 3.0, 5.0, 10.0]
CHOICES = ("auto", "auto-timed")


STATISTICS = {
    "median": "median_us",  # each product between fences: launch latency included
    "back_to_back": "back_to_back_us",  # products launched back to back, as an iterative solver runs them
}


def product_ms(benchmark, statistic):
    """Time per product in ms by `statistic`; runs that did not record it give their mean."""
    key = STATISTICS[statistic]
    if key in benchmark:
        return benchmark[key] * 1e-3
    return benchmark["real_time"]


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("suite_json", nargs="+")
    parser.add_argument("--reference", default=None, help="default: cusparse-csr if present, else csr")
    parser.add_argument("--statistic", choices=sorted(STATISTICS), default="median",
                        help="median: each product between fences (default); back_to_back: 100 products per fence")
    args = parser.parse_args()

    parts = []
    for path in args.suite_json:
        with open(path) as f:
            parts.append(json.load(f))
    suite = {"context": parts[0].get("context", {}), "benchmarks": [b for p in parts for b in p["benchmarks"]]}
    ctx = suite["context"]
    runs = defaultdict(dict)  # (precision, mode, matrix) -> kernel -> benchmark
    failures = []
    for b in suite["benchmarks"]:
        name = b.get("run_name", b["name"])
        _, kernel, precision, mode, matrix = name.split("/", 4)
        # Google Benchmark appends /iterations:N and /manual_time to the run name.
        matrix = "/".join(p for p in matrix.split("/") if not p.startswith("iterations:") and p != "manual_time")
        if b.get("error_occurred"):
            failures.append(f"{kernel}/{precision}/{mode}/{matrix}: {b.get('error_message', '')}")
            continue
        runs[(precision, mode, matrix)].setdefault(kernel, []).append(b)

    print(f"Device: {ctx.get('device', '?')}; Kokkos {ctx.get('kokkos_version', '?')}; "
          f"Strata {ctx.get('strata_git_hash', '?')}; run {ctx.get('date', '?')}; "
          f"copy bandwidth {float(ctx.get('copy_bandwidth_gb_per_s', 'nan')):.0f} GB/s.\n")
    if failures:
        print("**Failed or skipped benchmarks:** " + "; ".join(failures) + "\n")

    seen = []
    for per in runs.values():
        for k in per:
            if k not in seen:
                seen.append(k)
    reference = args.reference or ("cusparse-csr" if "cusparse-csr" in seen else "csr")
    candidates = [k for k in seen if k not in CHOICES]
    choices = [k for k in CHOICES if k in seen]
    for precision, mode in sorted({(p, m) for p, m, _ in runs}):
        keys = [key for key in runs if key[0] == precision and key[1] == mode]
        keys.sort(key=lambda key: -next(iter(runs[key].values()))[0]["nnz"])
        print(f"### {precision}, mode {mode}\n")
        print("| matrix | nnz | std/mean | " + " | ".join(candidates + choices) + " | best | auto picked | auto/best | auto/" + reference + " |")
        print("|---|---:|---:|" + "---:|" * (len(candidates) + len(choices)) + "---|---|---:|---:|")
        wins = defaultdict(int)
        slowdowns = defaultdict(list)
        speed_vs_ref = defaultdict(list)
        speed_vs_ref_irregular = defaultdict(list)
        misses, products = [], 0
        choice_slowdowns = []  # (the picked kernel as its own benchmark / the best, matrix)
        for key in keys:
            per = runs[key]
            # A kernel that failed on this matrix (listed above) is left out of its row ("-").
            present = [k for k in candidates if k in per]
            if not present:
                continue
            # A benchmark in several files (repeated runs) counts by the median of its runs.
            times = {k: statistics.median(product_ms(b, args.statistic) for b in per[k]) for k in candidates + choices if k in per}
            best = min(present, key=lambda k: times[k])
            wins[best] += 1
            first = per[present[0]][0]
            cv = first.get("row_length_cv", 0.0)
            for k in times:
                slowdowns[k].append(times[k] / times[best])
                if reference in times:
                    speed_vs_ref[k].append(times[reference] / times[k])
                    if cv > 1.0:
                        speed_vs_ref_irregular[k].append(times[reference] / times[k])
            cells = " | ".join(f"{times[k] * 1e3:.1f}" if k in times else "-" for k in candidates + choices)
            auto = per.get("auto", [None])[0]
            picked = auto.get("label", "?").split(" [")[0].replace("AnyMatrix holding ", "") if auto else "-"
            if auto:
                # The kernel auto ran, as its own benchmark: "[csr-rows, rule: ..." names it.
                picked_kernel = auto.get("label", "").split(" [", 1)[-1].split(",", 1)[0]
                alone = times.get(picked_kernel)
                if alone:
                    choice_slowdowns.append((alone / times[best], key[2]))
                over_ref = reference in times and times["auto"] / times[reference] > 1.1
                if times["auto"] / times[best] > 1.1 or over_ref:
                    alone_text = f"{alone / times[best]:.2f}" if alone else "?"
                    misses.append(f"{key[2]} ({picked_kernel}: auto/best {times['auto'] / times[best]:.2f}, "
                                  f"{picked_kernel} alone/best {alone_text}, best {best})")
                products += 1
            auto_best = f"{times['auto'] / times[best]:.2f}" if auto else "-"
            auto_ref = f"{times['auto'] / times[reference]:.2f}" if auto and reference in times else "-"
            print(f"| {key[2]} | {int(first['nnz'])} | {cv:.2f} | {cells} | {best} | {picked} | {auto_best} | {auto_ref} |")
        n = max(len(v) for v in slowdowns.values()) if slowdowns else 0
        recorded = all(STATISTICS[args.statistic] in b for key in keys for bs in runs[key].values() for b in bs)
        statistic = args.statistic.replace("_", "-") if recorded else f"mean (no {STATISTICS[args.statistic]} recorded)"
        print(f"\nCells: {statistic} time per product in us. {n} matrices.\n")
        if "auto" in choices:
            print(f"`auto` more than 1.1x the best or than {reference}: {len(misses)} of {products} matrices"
                  + ("".join(f"\n- {m}" for m in misses) if misses else "") + "\n")
            # The quality of the choice apart from run-to-run spread: the kernel auto picked,
            # timed as its own benchmark, against the best.
            if choice_slowdowns:
                worst = max(choice_slowdowns)
                within = sum(1 for r, _ in choice_slowdowns if r <= 1.1)
                print(f"The kernel `auto` picked, as its own benchmark, within 1.1x of the best: {within} of "
                      f"{len(choice_slowdowns)} matrices (worst {worst[0]:.2f}, {worst[1]})\n")
        print("| kernel | wins | geomean speed vs " + reference + " | on irregular (std/mean > 1) | worst slowdown vs best |")
        print("|---|---:|---:|---:|---:|")
        for k in candidates + choices:
            if not slowdowns[k]:
                continue
            irregular = speed_vs_ref_irregular[k]
            print(f"| {k} | {wins[k]} | {geomean(speed_vs_ref[k]):.3f} | "
                  f"{geomean(irregular):.3f} ({len(irregular)} matrices) | {max(slowdowns[k]):.2f} |")
        print("\nSlowdown-versus-best profile: fraction of matrices on which the kernel is within tau of the best.\n")
        print("| kernel | " + " | ".join(f"tau={t:g}" for t in TAUS) + " |")
        print("|---|" + "---:|" * len(TAUS))
        for k in candidates + choices:
            if not slowdowns[k]:
                continue
            fractions = [sum(1 for s in slowdowns[k] if s <= t * (1 + 1e-12)) / len(slowdowns[k]) for t in TAUS]
            print(f"| {k} | " + " | ".join(f"{f:.2f}" for f in fractions) + " |")
        print()


if __name__ == "__main__":
    sys.exit(main())
