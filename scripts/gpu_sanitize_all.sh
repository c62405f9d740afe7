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
#   --split N           split each shard into N shards of its tests, dealt in turn (the tests are
#                       listed by running the executable here, so this needs the GPU machine);
#                       unsplit, racecheck's CSR, COO and HiSparse shards of strata_spmv_tests and
#                       all of strata_hisparse_tests each take longer than 514 s (2026-11-27)
#   --part I/K          run only shards I, I+K, I+2K, ... of the list (1 <= I <= K): a pass that
#                       does not fit one 10-minute command runs as K commands, --part 1/K to K/K
#   --shards LIST       run only these shards, by the numbers the log gives them (e.g. 080,083,
#                       with the same --tools and --split): a shard cut by the time budget alone
# Writes one line per shard (PASS/FAIL/INCOMPLETE, seconds) and a summary to stdout and, when $OUT
# is set, to $OUT/gpu_sanitize_all.log; each shard's output, gpu_check.log and step logs under
# shards/NAME in $OUT/gpu_sanitize_all_shards.tar.gz, packed again as each shard ends (the device
# tool returns at most 8 files from $OUT, 2 folders down; without $OUT, in a temporary folder).
# Exits 0 when every shard passed, 1 when one failed, 3 when none failed but one ran out of time,
# 2 on a usage error.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir=".carry/gpu" tools="memcheck,racecheck,synccheck,initcheck" jobs=8 time_budget=560 property_cases=100
split=1 part=1/1 shard_list=""
usage() { sed -n '2,/^set -uo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
positional=0
while [ $# -gt 0 ]; do
  case "$1" in
    --tools) tools="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --time-budget) time_budget="$2"; shift 2 ;;
    --property-cases) property_cases="$2"; shift 2 ;;
    --split) split="$2"; shift 2 ;;
    --part) part="$2"; shift 2 ;;
    --shards) shard_list="$2"; shift 2 ;;
    -h|--help) usage ;;
    -*) echo "gpu_sanitize_all: unknown option $1" >&2; usage ;;
    *) [ $positional = 0 ] || usage; dir="$1"; positional=1; shift ;;
  esac
done
[ -d "$dir" ] || { echo "gpu_sanitize_all: no such folder: $dir" >&2; exit 2; }
[[ "$split" =~ ^[1-9][0-9]*$ ]] || { echo "gpu_sanitize_all: --split wants a positive number, got '$split'" >&2; exit 2; }
[[ "$part" =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] && [ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] ||
  { echo "gpu_sanitize_all: --part wants I/K with 1 <= I <= K, got '$part'" >&2; exit 2; }
part_index="${BASH_REMATCH[1]}" part_count="${BASH_REMATCH[2]}"
[[ -z "$shard_list" || "$shard_list" =~ ^[0-9]+(,[0-9]+)*$ ]] ||
  { echo "gpu_sanitize_all: --shards wants shard numbers separated by commas, got '$shard_list'" >&2; exit 2; }
[[ -z "$shard_list" || "$part" == 1/1 ]] || { echo "gpu_sanitize_all: give --part or --shards, not both" >&2; exit 2; }

# A staged archive is unpacked once, here, with its lib/ beside the executables: every shard's
# gpu_check.sh runs on that folder (as on a build tree) instead of unpacking the archive again.
run_dir="$dir"
if [ -f "$dir/executables.tar.xz" ]; then
  run_dir="$(mktemp -d)"
  trap 'rm -rf "$run_dir"' EXIT
  tar -xJf "$dir/executables.tar.xz" -C "$run_dir" || { echo "gpu_sanitize_all: cannot unpack $dir/executables.tar.xz" >&2; exit 2; }
  [ ! -d "$dir/lib" ] || ln -s "$(cd "$dir/lib" && pwd)" "$run_dir/lib"
fi
mapfile -t names < <(find "$run_dir" -type f -perm -u+x -name 'strata_*_tests' -printf '%f\n' | sort -u)
[ ${#names[@]} -gt 0 ] || { echo "gpu_sanitize_all: no test executables in $dir" >&2; exit 2; }

# strata_spmv_tests by test suite: one shard per format, and the rest (the API, measurement,
# misuse and registry tests). Typed instances other than /1 are left out, as in gpu_check.sh.
others='*/0.*:*/2.*:*/3.*:*/4.*:*/5.*:*/6.*:*/7.*'
spmv_suites=('Csr*' 'Coo*' 'Dcsr*' 'Hyb*' 'HiSparse*')
spmv_shards=()
for s in "${spmv_suites[@]}"; do spmv_shards+=("$s-$others"); done
spmv_shards+=("*-$others:$(IFS=:; echo "${spmv_suites[*]}")")

# --split: the tests each filter selects, listed by the executable (gtest's listing: "Suite." lines,
# then indented test names; typed suites add "# TypeParam = ..." comments), dealt into N filters.
split_filter() {  # EXECUTABLE FILTER: prints the filters to run, one per line
  local exe listed piece i t
  if [ "$split" -le 1 ]; then echo "$2"; return; fi
  exe="$(find "$run_dir" -type f -perm -u+x -name "$1" | head -n 1)"
  [ -n "$exe" ] || { echo "gpu_sanitize_all: --split: no $1 under $dir" >&2; return 1; }
  mapfile -t listed < <(LD_LIBRARY_PATH="$dir/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    "$exe" --gtest_list_tests --gtest_filter="$2" 2>/dev/null | awk '/^[^ ]/ { suite = $1; next } /^  [^ ]/ { print suite $1 }')
  [ ${#listed[@]} -gt 0 ] || { echo "gpu_sanitize_all: --split: $1 lists no tests for '$2'" >&2; return 1; }
  for ((i = 0; i < split; i++)); do
    piece=()
    for ((t = i; t < ${#listed[@]}; t += split)); do piece+=("${listed[t]}"); done
    [ ${#piece[@]} -eq 0 ] || (IFS=:; echo "${piece[*]}")
  done
}

filters_of=()  # per executable, in the order of names: its filters, one per line
for n in "${names[@]}"; do
  [[ "$n" != *real_matrix* ]] || { filters_of+=(""); continue; }
  base=("-$others")
  [ "$n" != strata_spmv_tests ] || base=("${spmv_shards[@]}")
  lines=""
  for f in "${base[@]}"; do
    got="$(split_filter "$n" "$f")" || exit 2
    lines+="$got"$'\n'
  done
  filters_of+=("$lines")
done

shards=()  # "tool|executable|filter"
IFS=, read -r -a tool_list <<<"$tools"
for tool in "${tool_list[@]}"; do
  for i in "${!names[@]}"; do
    while IFS= read -r f; do
      [ -z "$f" ] || shards+=("$tool|${names[i]}|$f")
    done <<<"${filters_of[i]}"
  done
done

out="${OUT:-$(mktemp -d)}"
work="$out"
[ -z "${OUT:-}" ] || work="$(mktemp -d)"
mkdir -p "$out" "$work/shards"
log="$out/gpu_sanitize_all.log"
# pack_shards: the shards' outputs so far, as one file in $OUT (replaced whole).
pack_shards() {
  [ -n "${OUT:-}" ] || return 0
  tar czf "$out/gpu_sanitize_all_shards.tar.gz.part" -C "$work" shards &&
    mv -f "$out/gpu_sanitize_all_shards.tar.gz.part" "$out/gpu_sanitize_all_shards.tar.gz"
}
: >"$log"
say() { echo "$*"; echo "$*" >>"$log"; }
# --part I/K: every K-th shard from the I-th; --shards: the ones named. Names keep their place
# in the whole list.
selected=()
if [ -n "$shard_list" ]; then
  IFS=, read -r -a wanted <<<"$shard_list"
  for w in "${wanted[@]}"; do
    n=$((10#$w))
    [ "$n" -ge 1 ] && [ "$n" -le ${#shards[@]} ] ||
      { say "gpu_sanitize_all: no shard $w: this pass has ${#shards[@]} (tools $tools, split $split)"; exit 2; }
    selected+=("$((n - 1))")
  done
else
  for ((i = part_index - 1; i < ${#shards[@]}; i += part_count)); do selected+=("$i"); done
fi
say "gpu_sanitize_all: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); ${#selected[@]} of ${#shards[@]} shards" \
    "(${shard_list:+shards $shard_list, }part $part, split $split), $jobs at a time; tools $tools"

declare -A shard_of_pid
run_shard() {
  local tool="$1" exe="$2" filter="$3" name="$4" left
  left=$((time_budget - SECONDS))
  OUT="$work/shards/$name" bash "$here/gpu_check.sh" "$run_dir" --steps sanitizer --tools "$tool" \
    --logs-dir "$work/shards/$name/logs" \
    --sanitizer-tests "$exe" --sanitizer-filter "$filter" --property-cases "$property_cases" \
    --step-timeout "$left" --time-budget "$left" >"$work/shards/$name.stdout" 2>&1
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
  if [ $state = FAIL ]; then grep -E '^gpu_check: (FAIL|SKIP)|ERROR SUMMARY|Error|Warning|hazard' "$work/shards/$name.stdout" | sort | uniq -c | head -n 20 | sed 's/^/    | /' | tee -a "$log"; fi
  pack_shards
}
for i in "${selected[@]}"; do
  IFS='|' read -r tool exe filter <<<"${shards[i]}"
  index=$((i + 1))
  name="$(printf '%03d' $index)-$tool-${exe#strata_}"
  if [ "$exe" = strata_spmv_tests ]; then
    suite="$(tr -c 'A-Za-z0-9' '_' <<<"${filter%%[-.:]*}" | sed 's/_*$//')"
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
pack_shards
say "gpu_sanitize_all: $result after $SECONDS s (shard logs in ${OUT:+$out/gpu_sanitize_all_shards.tar.gz, }$work/shards)"
exit $status
