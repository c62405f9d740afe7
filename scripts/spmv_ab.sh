#!/usr/bin/env bash
# A/B of two builds of the `strata` command on the GPU machine: one process per matrix, mode and
# build, the builds alternating, so that clocks and the device's state drift alike for both; every
# kernel verified against the host reference before it is timed (the command does so).
#
# Usage: scripts/spmv_ab.sh BASE NEW [options] MATRIX...
#   BASE, NEW      the two commands: executables, or .xz archives of them (unpacked into a temporary folder)
#   --rounds R     rounds over every matrix and mode (default 2)
#   --format F     the kernel compared (default hisparse)
#   --baselines B  kernels run beside it in NEW's first round only (default cusparse-csr; '' for none)
#   --modes LIST   comma-separated (default N,T)
#   --reps N       products per run (default 100; the median is the figure)
#   MATRIX         a .mtx/.mtx.gz file or a generator (gen:...)
# Output: $OUT (or the current folder) gets base-R.jsonl and new-R.jsonl for each round R (the command's
# --json lines), and errors.txt. Then: python3 scripts/spmv_ab_report.py THAT_FOLDER > table.md
set -uo pipefail
[ $# -ge 3 ] || { sed -n '2,/^set -uo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
base="$1" new="$2"; shift 2
rounds=2 format=hisparse baselines=cusparse-csr modes=N,T reps=100
matrices=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --format) format="$2"; shift 2 ;;
    --baselines) baselines="$2"; shift 2 ;;
    --modes) modes="$2"; shift 2 ;;
    --reps) reps="$2"; shift 2 ;;
    -*) echo "spmv_ab: unknown option $1" >&2; exit 2 ;;
    *) matrices+=("$1"); shift ;;
  esac
done
out="${OUT:-.}"
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# The command of each build: an .xz archive is unpacked, an executable is used where it is.
command_of() {
  case "$1" in
    *.xz) xz -dc "$1" > "$tmp/$2" && chmod +x "$tmp/$2" && echo "$tmp/$2" ;;
    *) [ -x "$1" ] && echo "$1" ;;
  esac
}
base_cmd="$(command_of "$base" base)" || { echo "spmv_ab: BASE '$base' is neither an executable nor an .xz of one" >&2; exit 2; }
new_cmd="$(command_of "$new" new)" || { echo "spmv_ab: NEW '$new' is neither an executable nor an .xz of one" >&2; exit 2; }
IFS=, read -r -a mode_list <<< "$modes"
failures=0
for r in $(seq 1 "$rounds"); do
  for m in "${matrices[@]}"; do
    for mode in "${mode_list[@]}"; do
      for build in base new; do
        cmd="$base_cmd" formats="$format"
        if [ "$build" = new ]; then
          cmd="$new_cmd"
          [ "$r" = 1 ] && [ -n "$baselines" ] && formats="$format,$baselines"
        fi
        if ! "$cmd" spmv "$m" --format "$formats" --mode "$mode" --reps "$reps" --copy-mib 256 --json \
            >> "$out/$build-$r.jsonl" 2>> "$out/errors.txt"; then
          echo "spmv_ab: FAILED $build round $r: $m mode $mode" | tee -a "$out/errors.txt" >&2
          failures=$((failures + 1))
        fi
      done
    done
  done
  echo "spmv_ab: round $r of $rounds done ($(date -u +%H:%M:%S))" >&2
done
[ "$failures" = 0 ] || { echo "spmv_ab: $failures runs failed (errors.txt)" >&2; exit 1; }
