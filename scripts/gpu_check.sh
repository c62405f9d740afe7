#!/usr/bin/env bash
# The GPU check: run on the GPU machine from the repository root before submitting a change to
# device code. Needs no network, no Kokkos install and no CMake: it runs prebuilt CUDA executables.
#
# Usage: scripts/gpu_check.sh [DIR] [options]
#   DIR   a folder staged by scripts/stage_gpu_carry.sh (executables.tar.xz, lib/, matrices/;
#         default .carry/gpu; the executables are unpacked into a temporary folder), or a CUDA
#         build tree (e.g. build-cuda, when it was built on this machine)
#   --matrix-dir DIR         real matrices (.mtx/.mtx.gz); default DIR/matrices when present.
#                            Without matrices, the real-matrix tests (*real_matrix*) are skipped.
#   --filter F               gtest filter for the plain test runs (default '*')
#   --sanitizer-filter F     gtest filter under compute-sanitizer (default: every test but the
#                            typed ones other than the second type, /1: double in the SpMV suites,
#                            and but DeviceBuffer's out-of-memory test; '*' for all). The
#                            real-matrix tests do not run under the sanitizers.
#   --sanitizer-tests GLOB   which test executables run under the sanitizers (default '*'; e.g.
#                            'strata_spmv_tests' alone). Racecheck of every executable takes
#                            longer than one 10-minute command: scripts/gpu_sanitize_all.sh runs
#                            the whole pass as shards side by side.
#   --racecheck-cusparse     instrument cuSPARSE's kernels under racecheck too. By default they are
#                            excluded (--kernel-name-exclude kns=cusparse): racecheck reports
#                            write-write hazards on shared memory inside cuSPARSE's csrmv_v3_kernel
#                            and coomv_kernel, and warp-level WAR warnings inside csrgeam2's
#                            csrgeam_windowBased_core, NVIDIA's code (docs/RELIABILITY.md).
#   --property-cases N       seeded cases of each randomized property test under the sanitizers
#                            (STRATA_PROPERTY_CASES; default 100 of the 1500-5000 the plain run has:
#                            every launch costs milliseconds under compute-sanitizer)
#   --tools LIST             sanitizer tools, comma-separated (default memcheck,racecheck,synccheck,initcheck)
#   --steps LIST             which steps: tests,cli,sanitizer (default all three); e.g. run
#                            '--steps tests,cli' and '--steps sanitizer' as two commands when one
#                            command may run only a few minutes
#   --step-timeout S         seconds one step may run before it counts as failed (default 300)
#   --logs-dir DIR           keep the step logs as files in DIR instead of packing them into $OUT
#                            (gpu_sanitize_all.sh packs its shards' folders itself)
#   --cli-matrices N         how many real matrices (the largest) `strata spmv` runs on (default 3)
#   --time-budget S          stop starting steps after S seconds in all (default 540, under the GPU
#                            machine's 10-minute command limit; 0: none); steps left are SKIPped
# Writes a summary (PASS/FAIL/SKIP per step with seconds) to stdout and, when $OUT is set, to
# $OUT/gpu_check.log (line by line as the steps finish, so a killed run still leaves it; at the end
# with each failed step's failed tests and output tail), and every step's full output, packed again
# after each step, to $OUT/gpu_check_logs.tar.gz: the device tool returns at most 8 files from $OUT,
# so a folder of step logs came back without most of them.
# A racecheck, synccheck or initcheck step whose only reports are the tool's notices that it cannot
# instrument kernels launched from the device (dynamic parallelism: the scheduler's controller
# launcher), with every test passed, is a PASS whose summary line gives the number of those notices
# (racecheck counts each as a hazard, synccheck and initcheck as an error).
# Exits 1 when any step failed or timed out, 3 when none failed but the time budget left steps
# out, 2 on a usage error.
set -uo pipefail

# Under compute-sanitizer: every test but the typed instances other than /1 (the SpMV suites'
# float and complex types add launches, not code paths of their own), and but the test that asks
# the device for more memory than it has (memcheck reports the refusal as an API error).
default_sanitizer_filter='-*/0.*:*/2.*:*/3.*:*/4.*:*/5.*:*/6.*:*/7.*:DeviceBuffer.AllocationBeyondTheDeviceIsAnErrorNamingIt'
dir=".carry/gpu" matrix_dir="" filter='*' sanitizer_filter="$default_sanitizer_filter"
tools="memcheck,racecheck,synccheck,initcheck" steps="tests,cli,sanitizer" step_timeout=300 cli_matrices=3
time_budget=540 property_cases=100 sanitizer_tests='*' racecheck_cusparse=0 logs_dir=""
usage() { sed -n '2,/^set -uo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
positional=0
while [ $# -gt 0 ]; do
  case "$1" in
    --matrix-dir) matrix_dir="$2"; shift 2 ;;
    --filter) filter="$2"; shift 2 ;;
    --sanitizer-filter) sanitizer_filter="$2"; shift 2 ;;
    --property-cases) property_cases="$2"; shift 2 ;;
    --sanitizer-tests) sanitizer_tests="$2"; shift 2 ;;
    --tools) tools="$2"; shift 2 ;;
    --steps) steps="$2"; shift 2 ;;
    --step-timeout) step_timeout="$2"; shift 2 ;;
    --logs-dir) logs_dir="$2"; shift 2 ;;
    --cli-matrices) cli_matrices="$2"; shift 2 ;;
    --time-budget) time_budget="$2"; shift 2 ;;
    --racecheck-cusparse) racecheck_cusparse=1; shift ;;
    -h|--help) usage ;;
    -*) echo "gpu_check: unknown option $1" >&2; usage ;;
    *) [ $positional = 0 ] || usage; dir="$1"; positional=1; shift ;;
  esac
done
[ -d "$dir" ] || { echo "gpu_check: no such folder: $dir (stage it with scripts/stage_gpu_carry.sh)" >&2; exit 2; }
dir="$(cd "$dir" && pwd)"
wants() { [[ ",$steps," == *",$1,"* ]]; }

# ---- environment ------------------------------------------------------------------
cuda_home="${CUDA_HOME:-/usr/local/cuda}"
[ -d "$cuda_home/bin" ] && export PATH="$cuda_home/bin:$PATH"
export LD_LIBRARY_PATH="$cuda_home/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
[ -d "$dir/lib" ] && export LD_LIBRARY_PATH="$dir/lib:$LD_LIBRARY_PATH"
if [ -z "$matrix_dir" ] && [ -d "$dir/matrices" ]; then matrix_dir="$dir/matrices"; fi
matrices=()
if [ -n "$matrix_dir" ]; then
  # largest first
  while IFS= read -r f; do matrices+=("$f"); done < <(find "$matrix_dir" -maxdepth 1 -name '*.mtx*' -printf '%s %p\n' | sort -rn | cut -d' ' -f2-)
  matrix_dir="$(cd "$matrix_dir" && pwd)"
fi

# Executables by pattern, whatever the build tree's layout: tests strata_*_tests, the command strata.
search="$dir"
if [ -f "$dir/executables.tar.xz" ]; then
  unpacked="$(mktemp -d)"
  trap 'rm -rf "$unpacked"' EXIT
  tar -xJf "$dir/executables.tar.xz" -C "$unpacked" || { echo "gpu_check: cannot unpack $dir/executables.tar.xz" >&2; exit 2; }
  search="$unpacked"
fi
mapfile -t tests < <(find "$search" -type f -perm -u+x -name 'strata_*_tests' | sort)
cli="$(find "$search" -type f -perm -u+x -name strata | head -n 1)"
# strata_cli_tests runs the command; its build path does not exist where the executables were unpacked.
[ -z "$cli" ] || export STRATA_CLI="$cli"

logs="${logs_dir:-$(mktemp -d)}"
mkdir -p "$logs"
[ -z "${OUT:-}" ] || mkdir -p "$OUT"
# pack_logs: the step logs so far, as one file in $OUT (replaced whole, so a killed run leaves the
# last complete one); not with --logs-dir.
pack_logs() {
  [ -n "${OUT:-}" ] && [ -z "$logs_dir" ] || return 0
  tar czf "$OUT/gpu_check_logs.tar.gz.part" -C "$logs" . && mv -f "$OUT/gpu_check_logs.tar.gz.part" "$OUT/gpu_check_logs.tar.gz"
}
summary=()
failed=0 incomplete=0
failed_logs=()
progress="${OUT:+$OUT/gpu_check.log}"
record() {
  summary+=("$(printf '%-4s %6s s  %s' "$1" "$2" "$3")")
  echo "gpu_check: $1 ($2 s) $3"
  if [ -n "$progress" ]; then echo "${summary[-1]}" >>"$progress"; fi
}

# step NAME COMMAND...: runs with the step timeout, output in $logs/NAME.log, tail shown on failure.
step() {
  local name="$1" t0 rc log limit="$step_timeout"
  log="$logs/$(tr -c 'A-Za-z0-9._-' '_' <<<"$name" | sed 's/_$//').log"
  shift
  if [ "$time_budget" -gt 0 ]; then
    local left=$((time_budget - SECONDS))
    if [ $left -lt 10 ]; then incomplete=1; record SKIP 0 "$name (time budget of $time_budget s spent)"; return; fi
    [ $left -ge "$limit" ] || limit=$left
  fi
  t0=$SECONDS
  if [ "$(type -t "$1")" = function ]; then
    "$@" >"$log" 2>&1
  else
    timeout --signal=TERM --kill-after=10 "$limit" "$@" >"$log" 2>&1
  fi
  rc=$?
  local secs=$((SECONDS - t0))
  local cdp
  if [ $rc -eq 0 ]; then
    record PASS "$secs" "$name"
  elif [ $rc -eq 86 ] && [[ "$name" == racecheck:* || "$name" == synccheck:* || "$name" == initcheck:* ]] &&
       cdp=$(unsupported_cdp_warnings_only "$log"); then
    # Racecheck, synccheck and initcheck count their own notice that they cannot follow kernels
    # launched from the device as a hazard or an error; the tests passed and nothing else was
    # reported. Said, not hidden.
    record PASS "$secs" "$name (nothing reported but $cdp notices that kernels launched from the device, by dynamic parallelism, are not instrumented: ${name%%:*} does not support them)"
  else
    failed=1
    local why="exit $rc"
    [ $rc -ne 124 ] && [ $rc -ne 137 ] || why="timed out after $limit s"
    record FAIL "$secs" "$name ($why; log $(basename "$log") in $(logs_place))"
    failed_logs+=("$log")
    # The sanitizer's distinct reports first (they may lie above the tail), then the tail.
    grep -E '^========= (Error|Warning)' "$log" | sort | uniq -c | sort -rn | head -n 10 | sed 's/^/    | /'
    tail -n 25 "$log" | sed 's/^/    | /'
  fi
  pack_logs
}
skip() { record SKIP 0 "$1"; }
logs_place() { if [ -n "${OUT:-}" ] && [ -z "$logs_dir" ]; then echo "$OUT/gpu_check_logs.tar.gz"; else echo "$logs"; fi; }

# unsupported_cdp_warnings_only LOG: prints the number of the sanitizer's "CUDA Dynamic Parallelism
# is not supported by the selected tool" warnings and succeeds when they are all that LOG reports:
# racecheck's summary counts them as its only hazards (warnings), synccheck's and initcheck's as their
# only errors, no other report line is in LOG, and every test in it passed.
unsupported_cdp_warnings_only() {
  local log="$1" cdp shown warnings errors summary others
  local notice='Warning: CUDA Dynamic Parallelism is not supported by the selected tool'
  cdp=$(grep -c "$notice" "$log")
  [ "$cdp" -gt 0 ] || return 1
  # Any other sanitizer line than its banner, blank separators, these notices and the summary.
  others=$(grep '^=========' "$log" | grep -cvE "^=========( COMPUTE-SANITIZER| *\$| $notice\$| (RACECHECK|ERROR) SUMMARY: )")
  [ "$others" -eq 0 ] || return 1
  # One report reads "1 hazard displayed (0 errors, 1 warning)": singular and plural both.
  summary=$(grep -oE 'RACECHECK SUMMARY: [0-9]+ hazards? displayed \([0-9]+ errors?, [0-9]+ warnings?\)' "$log" | tail -n 1)
  if [ -n "$summary" ]; then
    read -r shown errors warnings <<<"$(sed -E 's/[^0-9]+/ /g' <<<"$summary")"
    [ "$errors" -eq 0 ] && [ "$warnings" -eq "$cdp" ] && [ "$shown" -eq "$cdp" ] || return 1
  else
    summary=$(grep -oE 'ERROR SUMMARY: [0-9]+ errors?' "$log" | tail -n 1)
    [ -n "$summary" ] && [ "$(sed -E 's/[^0-9]+//g' <<<"$summary")" -eq "$cdp" ] || return 1
  fi
  grep -q '^\[  PASSED  \]' "$log" && ! grep -q '^\[  FAILED  \]' "$log" || return 1
  echo "$cdp"
}

header() {
  echo "gpu_check: $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname)"
  echo "gpu_check: folder $dir; ${#tests[@]} test executables; command: ${cli:-none}"
  echo "gpu_check: matrices: ${#matrices[@]} in ${matrix_dir:-(none)}"
  echo "gpu_check: GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1 || echo unknown)"
  echo "gpu_check: nvcc: $(nvcc --version 2>/dev/null | grep -o 'release [0-9.]*' || echo 'not found')"
  [ -f "$dir/STAGED" ] && sed 's/^/gpu_check: staged: /' "$dir/STAGED"
  echo "gpu_check: steps $steps; filter '$filter'; sanitizer filter '$sanitizer_filter'; tools $tools"
  [ $racecheck_cusparse = 1 ] || echo "gpu_check: racecheck leaves cuSPARSE's kernels out (--racecheck-cusparse to include them)"
  echo "gpu_check: step timeout $step_timeout s; time budget $time_budget s"
}
SECONDS=0
header
if [ -n "$progress" ]; then header >"$progress"; fi
[ ${#tests[@]} -gt 0 ] || { echo "gpu_check: no strata_*_tests executables under $search" >&2; exit 2; }

# Arguments of a test executable: the real-matrix sets (*real_matrix*) need the matrix folder.
test_args() {  # $1: executable; prints nothing and returns 1 when it must be skipped
  case "$(basename "$1")" in
    *real_matrix*) [ ${#matrices[@]} -gt 0 ] || return 1; echo "--matrix-dir=$matrix_dir" ;;
  esac
  return 0
}

# ---- 0. every executable finds its shared libraries -----------------------------------
missing_libraries() {
  local exe missing=0
  for exe in "${tests[@]}" $cli; do
    if ldd "$exe" | grep 'not found'; then echo "  in $exe"; missing=1; fi
  done
  return $missing
}
step "libraries" missing_libraries

# ---- 1. every test executable ------------------------------------------------------
if wants tests; then
  for t in "${tests[@]}"; do
    name="test:$(basename "$t")"
    if args="$(test_args "$t")"; then
      # shellcheck disable=SC2086
      step "$name" "$t" --gtest_filter="$filter" --gtest_brief=1 $args
    else
      skip "$name (no matrices)"
    fi
  done
fi

# ---- 2. the strata command on generators and real matrices --------------------------
if wants cli; then
  if [ -z "$cli" ]; then
    failed=1; record FAIL 0 "cli: no strata executable under $search"
  else
    # Every kernel of the registry, each verified against the host reference, N and T.
    step "cli:poisson3d:24" "$cli" spmv gen:poisson3d:24 --format all
    step "cli:poisson3d:24:T" "$cli" spmv gen:poisson3d:24 --format all --mode T
    step "cli:rmat:14" "$cli" spmv gen:rmat:14 --format all
    step "cli:hubs" "$cli" spmv gen:hubs:20000:8:4:5000 --format all
    step "cli:info:rmat:14" "$cli" info gen:rmat:14
    n=0
    for m in "${matrices[@]}"; do
      [ $n -lt "$cli_matrices" ] || break
      step "cli:$(basename "$m")" "$cli" spmv "$m" --format all
      n=$((n + 1))
    done
  fi
fi

# ---- 3. compute-sanitizer on every test executable, each tool ------------------------
if wants sanitizer; then
  if ! command -v compute-sanitizer >/dev/null; then
    failed=1; record FAIL 0 "sanitizer: compute-sanitizer not found (PATH, $cuda_home/bin)"
  else
    IFS=, read -r -a tool_list <<<"$tools"
    for tool in "${tool_list[@]}"; do
      for t in "${tests[@]}"; do
        [[ "$(basename "$t")" != *real_matrix* ]] || continue
        # shellcheck disable=SC2053  # a glob on purpose
        [[ "$(basename "$t")" == $sanitizer_tests ]] || continue
        exclude=()
        [ "$tool" != racecheck ] || [ $racecheck_cusparse = 1 ] || exclude=(--kernel-name-exclude kns=cusparse)
        STRATA_PROPERTY_CASES="$property_cases" \
        step "$tool:$(basename "$t")" compute-sanitizer --tool "$tool" --error-exitcode 86 --print-limit 50 \
             "${exclude[@]}" "$t" --gtest_filter="$sanitizer_filter" --gtest_brief=1
      done
      # shellcheck disable=SC2053  # a glob on purpose
      if [ "$tool" = memcheck ] && [ -n "$cli" ] && [[ strata_cli_tests == $sanitizer_tests ]]; then
        step "memcheck:cli:poisson3d:16" compute-sanitizer --tool memcheck --error-exitcode 86 \
             "$cli" spmv gen:poisson3d:16 --reps 2 --warmup 1
      fi
    done
  fi
fi

# ---- summary ---------------------------------------------------------------------------
result="PASSED" status=0
if [ $failed = 1 ]; then result="FAILED" status=1
elif [ $incomplete = 1 ]; then result="INCOMPLETE (no failure; steps left out by the time budget)" status=3; fi
report() {
  header
  echo "gpu_check: summary"
  printf '  %s\n' "${summary[@]}"
  echo "gpu_check: $result after $SECONDS s"
}
echo
report
if [ -n "${OUT:-}" ]; then
  {
    report
    for l in "${failed_logs[@]}"; do
      echo; echo "---- $(basename "$l"): failed tests"; grep -E '^\[  FAILED  \] [A-Za-z]' "$l" | sed -E 's/ \([0-9]+ ms\)$//' | sort -u | head -n 50
      echo "---- $(basename "$l"): last 60 lines"; tail -n 60 "$l"
    done
  } > "$OUT/gpu_check.log"
  pack_logs
  echo "gpu_check: summary written to $OUT/gpu_check.log"
fi
echo "gpu_check: step logs in $(logs_place)"
exit $status
