#!/usr/bin/env bash
# Runs strata_spmv_suite from a folder staged by scripts/stage_gpu_carry.sh on the GPU machine and
# writes Google Benchmark's JSON (and the console table) where the device tool brings files back.
# The suite is long on a GPU (every kernel of the registry converts, verifies and times every
# matrix): split it over commands of a few minutes with --part.
#
# Usage: scripts/gpu_spmv_suite.sh [DIR] --part generated|real [suite options...]
#   DIR      staged folder (default .carry/gpu): executables.tar.xz, lib/, matrices/
#   --part generated   the generated GPU-scale matrices only (the suite's defaults, no files)
#   --part real        the real matrices of DIR/matrices only
#   other options go to strata_spmv_suite (e.g. --formats=all --modes=N,T --precisions=double)
# Output: $OUT/spmv_suite_<part>.json and $OUT/spmv_suite_<part>.txt (or the current folder
# without $OUT). Then: python3 scripts/spmv_report.py FILE.json ...
set -euo pipefail
dir=".carry/gpu" part=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --part) part="$2"; shift 2 ;;
    --*) args+=("$1"); shift ;;
    *) dir="$1"; shift ;;
  esac
done
case "$part" in
  generated|real) ;;
  *) echo "gpu_spmv_suite: --part generated|real is required" >&2; exit 2 ;;
esac
[ -f "$dir/executables.tar.xz" ] || { echo "gpu_spmv_suite: $dir/executables.tar.xz not found" >&2; exit 2; }
cuda_home="${CUDA_HOME:-/usr/local/cuda}"
export LD_LIBRARY_PATH="$dir/lib:$cuda_home/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
unpacked="$(mktemp -d)"
trap 'rm -rf "$unpacked"' EXIT
tar -xJf "$dir/executables.tar.xz" -C "$unpacked"
suite="$(find "$unpacked" -type f -perm -u+x -name strata_spmv_suite | head -n 1)"
[ -n "$suite" ] || { echo "gpu_spmv_suite: no strata_spmv_suite in $dir/executables.tar.xz" >&2; exit 2; }

out="${OUT:-.}"
selection=()
if [ "$part" = generated ]; then
  selection=(--matrix-dir=)
else
  [ -d "$dir/matrices" ] || { echo "gpu_spmv_suite: $dir/matrices not found" >&2; exit 2; }
  # The files named in place of the generated defaults (Debian's Google Benchmark 1.7 has no
  # negative --benchmark_filter: a filter '-/(...)' ran everything).
  files="$(find "$dir/matrices" -maxdepth 1 \( -name '*.mtx' -o -name '*.mtx.gz' \) | sort | paste -sd, -)"
  [ -n "$files" ] || { echo "gpu_spmv_suite: no .mtx or .mtx.gz in $dir/matrices" >&2; exit 2; }
  selection=(--matrix-dir= "--matrices=$files")
fi
echo "gpu_spmv_suite: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1); part $part; $(date -u +%FT%TZ)"
"$suite" "${selection[@]}" "${args[@]}" --benchmark_out="$out/spmv_suite_$part.json" \
  --benchmark_out_format=json | tee "$out/spmv_suite_$part.txt"
