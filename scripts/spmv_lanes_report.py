#!/usr/bin/env python3
"""Tables from scripts/spmv_lanes_sweep.sh output: per matrix and mode, the median time (us) of
Strata's CSR row kernel with every lane count beside the kernels the automatic rule chooses among.

Usage: scripts/spmv_lanes_report.py SWEEP.jsonl...

"mean" is the mean length of the rows the kernel runs over: A's rows in mode N, A's columns
(the rows of A^T) in modes T and H. "rule" is the lane count csr-rows took by default (the
handle's lanes_for_mean_length), "best L" the fastest lane count, "rule / best L" their ratio,
"best / best other" the fastest lane count against the fastest of the other kernels.
A run that did not verify is shown as FAIL and never counts as the best; "-" was not run.
"""
import sys

from json_lines import json_lines

LANES = [1, 2, 4, 8, 16, 32]
OTHERS = ["csr", "cusparse-csr", "cusparse-coo", "hyb"]


def median_us(kernel):
    if not kernel.get("verified"):
        return None
    return kernel["median_seconds"] * 1e6


def load(paths):
    table = {}  # (matrix, mode) -> {"nnz", "mean", "default": us, "others": {k: us}, "lanes": {L: us}}
    for path in paths:
        for record in json_lines(path):
            run, lanes = record["run"], record["lanes"]
            key = (run["matrix"], run["mode"])
            entry = table.setdefault(key, {"others": {}, "lanes": {}, "default": None})
            entry["nnz"] = run["nnz"]
            along = run["rows"] if run["mode"] == "N" else run["cols"]
            entry["mean"] = run["nnz"] / along if along else 0.0
            for k in run["kernels"]:
                if lanes == 0 and k["kernel"] == "csr-rows":
                    entry["default"] = median_us(k)
                    entry["default_set"] = True
                elif lanes == 0:
                    entry["others"][k["kernel"]] = median_us(k)
                elif k["kernel"] == "csr-rows":
                    entry["lanes"][lanes] = median_us(k)
    return table


MISSING = object()  # not run


def cell(us):
    if us is MISSING:
        return "-"
    return "FAIL" if us is None else f"{us:.1f}"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    table = load(sys.argv[1:])
    header = (["matrix", "mode", "nnz", "mean"] + OTHERS + ["csr-rows (rule)"] + [f"L{l}" for l in LANES] +
              ["best L", "rule / best L", "best / best other"])
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for (matrix, mode), e in sorted(table.items(), key=lambda kv: (kv[1]["nnz"], kv[0])):
        timed = {l: us for l, us in e["lanes"].items() if us is not None}
        best_l = min(timed, key=timed.get) if timed else None
        others = [us for us in e["others"].values() if us is not None]
        row = [matrix, mode, str(e["nnz"]), f"{e['mean']:.2f}"]
        row += [cell(e["others"].get(k, MISSING)) for k in OTHERS] + [cell(e["default"] if "default_set" in e else MISSING)]
        row += [("**" + cell(e["lanes"].get(l, MISSING)) + "**") if l == best_l else cell(e["lanes"].get(l, MISSING)) for l in LANES]
        row.append(str(best_l) if best_l else "-")
        row.append(f"{e['default'] / timed[best_l]:.2f}" if best_l and e["default"] else "-")
        row.append(f"{timed[best_l] / min(others):.2f}" if best_l and others else "-")
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
