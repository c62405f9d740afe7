#!/usr/bin/env python3
"""Turns the JSON of perf_tests/strata_dcsr_updates into the Dynamic CSR tables of docs/PERFORMANCE.md,
with issue 16's DCSR goals checked on them.

Usage: scripts/dcsr_report.py [--processes K] FILE.json [FILE.json...] > report.md
Each file is one run of the runner with any of its groups (iterative, spmv, memory); give the files
of one run (e.g. the three commands of a session, each with its --benchmark_filter). A benchmark
found in several files is an error: one run, not a best-of.
--processes K: the files are K processes of the runner in one session (run one after another, the
same benchmarks in each): every benchmark must appear exactly K times, and each of its counters is
the median over the K processes (not the best; an odd K makes it one of them). Small matrices'
update steps differ by ~10% from one process of the same binary to the next (docs/PERFORMANCE.md,
2026-11-28: rajat01 0.093 and 0.103 ms), so one process cannot place a step that close to 0.1 ms;
the goal's line then gives each small matrix's range over the processes beside its median.

Tables:
- iterative: ms per update step (ms_per_step: the median of the passes) of DCSR, ADCSR and the CSR
  rebuild, their ratios, ADCSR / DCSR, pool rebuilds per step, and what ADCSR ran;
- spmv: us per product (median_us; runs that recorded none give their mean) of DCSR and ADCSR,
  fragmented and defragmented, and Kokkos Kernels' CSR;
- ADCSR / DCSR, both tables: the median ratio of ADCSR's passes or products each paired with
  DCSR's on the same matrix (over_dcsr_paired) where the run recorded it, else the ratio of the two
  benchmarks, which ran one after the other (a stall of the host during one of them moves it);
- memory: bytes per nonzero of DCSR k = 2, 3, 4 built by insertion, CSR and HYB.
Then the goals: updates >= 3x a CSR rebuild (geometric mean), <= 0.1 ms per step under 100K
nonzeros (by the better of DCSR and ADCSR), ADCSR never slower than DCSR by more than 5% (steps and
products), DCSR(k = 4) <= 1.3x CSR's bytes.
"""
import json
import math
import statistics
import sys
from collections import defaultdict

# Issue 16's DCSR goals.
MIN_REBUILD_OVER_DCSR = 3.0
SMALL_NNZ = 100_000
MAX_SMALL_STEP_MS = 0.1
MAX_ADCSR_OVER_DCSR = 1.05
MAX_K4_BYTES_OVER_CSR = 1.3


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def merge_processes(copies):
    """One benchmark from its copies in K processes: each numeric counter the median of the K, and
    '_range' the (min, max) of each."""
    merged = dict(copies[0])
    merged["_range"] = {}
    for key, value in copies[0].items():
        if isinstance(value, (int, float)) and not isinstance(value, bool) and all(key in c for c in copies):
            values = [c[key] for c in copies]
            merged[key] = statistics.median(values)
            merged["_range"][key] = (min(values), max(values))
    return merged


def load(paths, processes=1):
    """{group: {matrix: {item: benchmark}}} over all files; benchmark names are GROUP/ITEM/PRECISION/MATRIX/...
    With processes > 1, every benchmark appears that many times and is merged (merge_processes)."""
    copies = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    context = None
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        context = context or data.get("context", {})
        for b in data.get("benchmarks", []):
            parts = b["name"].split("/")
            if len(parts) < 4:
                continue
            group, item, precision, matrix = parts[:4]
            key = f"{matrix} ({precision})" if precision != "double" else matrix
            if "error_message" in b:
                sys.exit(f"dcsr_report: {path}: {b['name']} failed: {b['error_message']}")
            copies[group][key][item].append(b)
    runs = defaultdict(lambda: defaultdict(dict))
    for group, table in copies.items():
        for key, items in table.items():
            for item, found in items.items():
                if len(found) != processes:
                    name = found[0]["name"]
                    sys.exit(f"dcsr_report: {name} appears {len(found)} times, expected {processes}: "
                             + ("give the files of one run" if processes == 1
                                else "every process must run the same benchmarks"))
                runs[group][key][item] = found[0] if processes == 1 else merge_processes(found)
    return runs, context or {}


TIME_UNIT_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def product_us(b):
    return b["median_us"] if "median_us" in b else b["real_time"] * TIME_UNIT_US[b.get("time_unit", "ns")]


def by_nnz(table, item):
    return sorted(table.items(), key=lambda kv: -kv[1].get(item, {}).get("nnz", 0))


def report_iterative(table, goals):
    print("### Iterative updates (ms per step: the median pass of insert 0.2%, refit, 5 products)\n")
    print("| matrix | nnz | DCSR | ADCSR | CSR rebuild | rebuild / DCSR | rebuild / ADCSR | ADCSR / DCSR "
          "| ADCSR / DCSR paired | pool rebuilds per step | ADCSR ran |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    over_dcsr, over_adcsr, over_best, slow_small, adcsr_slower, small_steps = [], [], [], [], [], []
    for matrix, row in by_nnz(table, "dcsr"):
        # The step goal needs no CSR rebuild: judged on whatever DCSR and ADCSR steps the run has.
        formats = [row[k] for k in ("dcsr", "adcsr") if k in row]
        best = min(formats, key=lambda b: b["ms_per_step"], default=None)
        if best is not None and best["nnz"] < SMALL_NNZ:
            low, high = best.get("_range", {}).get("ms_per_step", (None, None))
            spread = f" ({low:.3f}-{high:.3f})" if low is not None else ""
            small_steps.append(f"{matrix} {best['ms_per_step']:.3f}{spread}")
            if best["ms_per_step"] > MAX_SMALL_STEP_MS:
                slow_small.append(small_steps[-1])
        if not all(k in row for k in ("dcsr", "adcsr", "csr_rebuild")):
            print(f"| {matrix} | (missing: {', '.join(k for k in ('dcsr', 'adcsr', 'csr_rebuild') if k not in row)}) |")
            continue
        d, a, c = (row[k]["ms_per_step"] for k in ("dcsr", "adcsr", "csr_rebuild"))
        nnz = int(row["dcsr"]["nnz"])
        over_dcsr.append(c / d)
        over_adcsr.append(c / a)
        over_best.append(c / min(d, a))
        paired = row["adcsr"].get("over_dcsr_paired")
        ratio = paired if paired is not None else a / d
        if ratio > MAX_ADCSR_OVER_DCSR:
            adcsr_slower.append(f"{matrix} {ratio:.3f}x")
        label = row["adcsr"].get("label", "").replace("DCSR ", "").replace("|", "/")
        print(f"| {matrix} | {nnz:,} | {d:.3f} | {a:.3f} | {c:.3f} | {c / d:.2f} | {c / a:.2f} | {a / d:.2f} "
              f"| {'-' if paired is None else f'{paired:.2f}'} "
              f"| {row['dcsr'].get('pool_rebuilds_per_step', 0):.2f} | {label} |")
    print()
    goals.append(("updates >= 3x a CSR rebuild (geometric mean)",
                  geomean(over_best) >= MIN_REBUILD_OVER_DCSR,
                  f"DCSR {geomean(over_dcsr):.2f}x, ADCSR {geomean(over_adcsr):.2f}x, "
                  f"the better of the two {geomean(over_best):.2f}x"))
    processes_merged = any("_range" in b for row in table.values() for b in row.values())
    goals.append((f"<= {MAX_SMALL_STEP_MS} ms per step under {SMALL_NNZ:,} nonzeros (better format)",
                  not slow_small, f"{len(small_steps) - len(slow_small)} of {len(small_steps)}" +
                  (f"; over: {', '.join(slow_small)}" if slow_small else "") +
                  (f"; medians over the processes (range): {', '.join(small_steps)}" if processes_merged else "")))
    goals.append(("ADCSR within 1.05x of DCSR, update steps", not adcsr_slower,
                  f"{len(over_dcsr) - len(adcsr_slower)} of {len(over_dcsr)}" +
                  (f"; over: {', '.join(adcsr_slower)}" if adcsr_slower else "")))


def report_spmv(table, goals):
    items = ["dcsr_fragmented", "adcsr_fragmented", "dcsr_defragmented", "adcsr_defragmented", "csr_kk"]
    print("### SpMV after the updates (us per product, median)\n")
    print("| matrix | " + " | ".join(items) + " | ADCSR / DCSR fragmented | defragmented "
          "| paired fragmented | paired defragmented |")
    print("|---|" + "---:|" * (len(items) + 4))
    slower, compared = [], 0
    for matrix, row in by_nnz(table, "dcsr_fragmented"):
        us = {k: product_us(row[k]) for k in items if k in row}
        ratios, paired_ratios = [], []
        for state in ("fragmented", "defragmented"):
            d, a = us.get("dcsr_" + state), us.get("adcsr_" + state)
            paired = row.get("adcsr_" + state, {}).get("over_dcsr_paired")
            paired_ratios.append("-" if paired is None else f"{paired:.2f}")
            if d and a:
                ratios.append(f"{a / d:.2f}")
                compared += 1
                ratio = paired if paired is not None else a / d
                if ratio > MAX_ADCSR_OVER_DCSR:
                    slower.append(f"{matrix} {state} {ratio:.3f}x")
            else:
                ratios.append("-")
        print(f"| {matrix} | " + " | ".join(f"{us[k]:.1f}" if k in us else "-" for k in items) + " | " +
              " | ".join(ratios + paired_ratios) + " |")
    print()
    goals.append(("ADCSR within 1.05x of DCSR, products", not slower,
                  f"{compared - len(slower)} of {compared}" + (f"; over: {', '.join(slower)}" if slower else "")))


def report_memory(table, goals):
    items = ["dcsr_k2", "dcsr_k3", "dcsr_k4", "csr", "hyb"]
    print("### Memory (bytes per nonzero; DCSR built by insertion)\n")
    print("| matrix | " + " | ".join(items) + " | k=4 / CSR |")
    print("|---|" + "---:|" * (len(items) + 1))
    over = []
    for matrix, row in by_nnz(table, "csr"):
        bpn = {k: row[k]["bytes_per_nnz"] for k in items if k in row}
        ratio = bpn["dcsr_k4"] / bpn["csr"] if "dcsr_k4" in bpn and "csr" in bpn else None
        if ratio is not None and ratio > MAX_K4_BYTES_OVER_CSR:
            over.append(f"{matrix} {ratio:.2f}x")
        ratio_cell = f"{ratio:.3f}" if ratio is not None else "-"
        print(f"| {matrix} | " + " | ".join(f"{bpn[k]:.2f}" if k in bpn else "-" for k in items) + f" | {ratio_cell} |")
    print()
    goals.append(("DCSR(k = 4) by insertion <= 1.3x CSR's bytes", not over,
                  f"{len(table) - len(over)} of {len(table)}" + (f"; over: {', '.join(over)}" if over else "")))


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) >= 2 else 2
    args, processes = argv[1:], 1
    if args[0] == "--processes":
        if len(args) < 3 or not args[1].isdigit() or int(args[1]) < 1:
            sys.exit("dcsr_report: --processes takes a count of at least 1, then the files")
        processes, args = int(args[1]), args[2:]
    runs, context = load(args, processes)
    if processes > 1:
        print(f"Medians over {processes} processes of the runner.\n")
    print(f"Device: {context.get('device', 'unknown')}; date: {context.get('date', 'unknown')}\n")
    goals = []
    if "iterative" in runs:
        report_iterative(runs["iterative"], goals)
    if "spmv" in runs:
        report_spmv(runs["spmv"], goals)
    if "memory" in runs:
        report_memory(runs["memory"], goals)
    print("### Against issue 16's DCSR goals\n")
    print("| goal | met | this run |")
    print("|---|---|---|")
    for goal, met, detail in goals:
        print(f"| {goal} | {'**met**' if met else '**not met**'} | {detail} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
