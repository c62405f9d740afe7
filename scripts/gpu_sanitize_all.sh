#!/usr/bin/env bash
# The full compute-sanitizer pass in one GPU-machine command: every test executable (but the
# real-matrix ones) under each tool, as shards run side by side, each one scripts/gpu_check.sh
# --steps sanitizer on one executable (strata_spmv_tests split further by test suite). Run
# serially, racecheck alone takes longer than the machine's 10-minute command limit.
#
# Usage: scripts/gpu_sanitize_all.sh [DIR] [options]
#   DIR                 as for gpu_check.sh (default .carry/gpu)
#   --tools LIST        default memcheck,racecheck,synccheck,initcheck
#   --jobs N            shards at a time (default 8)
#   --time-budget S     seconds for the whole pass (default 560); each shard gets what is left
#   --property-cases N  passed to gpu_check.sh (default 100)
# Writes one line per shard (PASS/FAIL/INCOMPLETE, seconds) and a summary to stdout and, when $OUT
# is set, to $OUT/gpu_sanitize_all.log; each shard's gpu_check.log and step logs under
# $OUT/shards/NAME/. Exits 0 when every shard passed, 1 when one failed, 3 when none failed but
# one ran out of time, 2 on a usage error.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir=".carry/gpu" tools="memcheck,racecheck,synccheck,initcheck" jobs=8 time_budget=560 property_cases=100
usage() { sed -n '2,/^set -uo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
positional=0
while [ $# -gt 0 ]; do
  case "$1" in
    --tools) tools="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --time-budget) time_budget="$2"; shift 2 ;;
    --property-cases) property_cases="$2"; shift 2 ;;
    -h|--help) usage ;;
    -*) echo "gpu_sanitize_all: unknown option $1" >&2; usage ;;
    *) [ $positional = 0 ] || usage; dir="$1"; positional=1; shift ;;
  esac
done
[ -d "$dir" ] || { echo "gpu_sanitize_all: no such folder: $dir" >&2; exit 2; }

# The executables' names, from the staged archive or the build tree.
if [ -f "$dir/executables.tar.xz" ]; then
  mapfile -t names < <(tar -tJf "$dir/executables.tar.xz" | grep -E '(^|/)strata_[a-z_]*_tests$' | xargs -n1 basename | sort -u)
else
  mapfile -t names < <(find "$dir" -type f -perm -u+x -name 'strata_*_tests' -printf '%f\n' | sort -u)
fi
[ ${#names[@]} -gt 0 ] || { echo "gpu_sanitize_all: no test executables in $dir" >&2; exit 2; }

# strata_spmv_tests by test suite: one shard per format, and the rest (the API, measurement,
# misuse and registry tests). Typed instances other than /1 are left out, as in gpu_check.sh.
others='*/0.*:*/2.*:*/3.*:*/4.*:*/5.*:*/6.*:*/7.*'
spmv_suites=('Csr*' 'Coo*' 'Dcsr*' 'Hyb*' 'HiSparse*')
spmv_shards=()
for s in "${spmv_suites[@]}"; do spmv_shards+=("$s-$others"); done
spmv_shards+=("*-$others:$(IFS=:; echo "${spmv_suites[*]}")")

shards=()  # "tool|executable|filter"
IFS=, read -r -a tool_list <<<"$tools"
for tool in "${tool_list[@]}"; do
  for n in "${names[@]}"; do
    [[ "$n" != *real_matrix* ]] || continue
    if [ "$n" = strata_spmv_tests ]; then
      for f in "${spmv_shards[@]}"; do shards+=("$tool|$n|$f"); done
    else
      shards+=("$tool|$n|-$others")
    fi
  done
done

out="${OUT:-$(mktemp -d)}"
mkdir -p "$out/shards"
log="$out/gpu_sanitize_all.log"
: >"$log"
say() { echo "$*"; echo "$*" >>"$log"; }
say "gpu_sanitize_all: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); ${#shards[@]} shards, $jobs at a time; tools $tools"

declare -A shard_of_pid
run_shard() {
  local tool="$1" exe="$2" filter="$3" name="$4" left
  left=$((time_budget - SECONDS))
  OUT="$out/shards/$name" bash "$here/gpu_check.sh" "$dir" --steps sanitizer --tools "$tool" \
    --sanitizer-tests "$exe" --sanitizer-filter "$filter" --property-cases "$property_cases" \
    --step-timeout "$left" --time-budget "$left" >"$out/shards/$name.stdout" 2>&1
}
failed=0 incomplete=0 index=0 running=0
finish_one() {
  local pid rc
  wait -n -p pid
  rc=$?
  running=$((running - 1))
  local name="${shard_of_pid[$pid]}" state=PASS
  if [ $rc -eq 3 ]; then state=INCOMPLETE; incomplete=1; elif [ $rc -ne 0 ]; then state=FAIL; failed=1; fi
  say "$(printf '%-10s %4d s  %s' "$state" "$SECONDS" "$name")"
  if [ $state = FAIL ]; then grep -E '^gpu_check: (FAIL|SKIP)|ERROR SUMMARY|Error|hazard' "$out/shards/$name.stdout" | head -n 20 | sed 's/^/    | /' | tee -a "$log"; fi
}
for s in "${shards[@]}"; do
  IFS='|' read -r tool exe filter <<<"$s"
  index=$((index + 1))
  name="$(printf '%02d' $index)-$tool-${exe#strata_}"
  if [ "$exe" = strata_spmv_tests ]; then
    suite="$(tr -c 'A-Za-z0-9' '_' <<<"${filter%%-*}" | sed 's/_*$//')"
    name="$name-${suite:-rest}"
  fi
  while [ $running -ge "$jobs" ]; do finish_one; done
  if [ $((time_budget - SECONDS)) -lt 20 ]; then
    say "$(printf '%-10s %4d s  %s' SKIP "$SECONDS" "$name (time budget spent)")"; incomplete=1; continue
  fi
  run_shard "$tool" "$exe" "$filter" "$name" &
  shard_of_pid[$!]="$name"
  running=$((running + 1))
done
while [ $running -gt 0 ]; do finish_one; done

result=PASSED status=0
if [ $failed = 1 ]; then result=FAILED status=1; elif [ $incomplete = 1 ]; then result="INCOMPLETE (no failure)" status=3; fi
say "gpu_sanitize_all: $result after $SECONDS s (shard logs in $out/shards)"
exit $status
