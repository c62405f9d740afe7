#!/usr/bin/env bash
# Times Strata's CSR row kernel (csr-rows) with every lane count, 1 to 32, on each matrix in modes
# N and T, beside the kernels the automatic rule chooses among (default lanes), through the
# `strata spmv` command: the measurements behind lanes_for_mean_length (core/row_teams.cpp).
# Prints one JSON object per run to stdout, {"lanes": L, "run": <the command's --json output>}
# (L = 0: the kernels with their default lanes), progress to stderr; scripts/spmv_lanes_report.py
# turns them into a table.
#
# Usage: scripts/spmv_lanes_sweep.sh STRATA [--reps N] MATRIX...
#   STRATA   the strata executable; MATRIX a file or a gen: spec
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
strata="$1"; shift
reps=100
if [ "$1" = --reps ]; then reps="$2"; shift 2; fi
common=(--json --reps "$reps" --warmup 10 --copy-mib 8)
for m in "$@"; do
  for mode in N T; do
    echo "lanes sweep: $(basename "$m") mode $mode" >&2
    echo "{\"lanes\":0,\"run\":$("$strata" spmv "$m" --mode "$mode" --format csr,csr-rows,cusparse-csr,cusparse-coo,hyb "${common[@]}")}"
    for lanes in 1 2 4 8 16 32; do
      echo "{\"lanes\":$lanes,\"run\":$("$strata" spmv "$m" --mode "$mode" --format csr-rows --lanes "$lanes" "${common[@]}")}"
    done
  done
done
