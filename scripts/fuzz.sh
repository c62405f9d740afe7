#!/usr/bin/env bash
# Fuzzes the code that parses untrusted text: builds the libFuzzer harnesses of
# unit_tests/fuzz with clang (ASan + UBSan, halting on the first report) in
# build-fuzz/ and runs each for SECONDS (default 60) from the seed corpus in
# unit_tests/fuzz/corpus/<harness>/. Fails on any crash, leak, timeout,
# out-of-memory or sanitizer report; the input that caused it is left in
# build-fuzz/runs/<harness>/artifacts/ (turn it into a regression test in
# unit_tests/core). New inputs found accumulate in build-fuzz/runs/<harness>/corpus.
#
# Usage: scripts/fuzz.sh [SECONDS]     environment: STRATA_FUZZ_BUILD_DIR, CXX (a clang++)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
build="${STRATA_FUZZ_BUILD_DIR:-$root/build-fuzz}"
compiler="${CXX:-clang++}"
if ! "$compiler" --version 2>/dev/null | grep -qi clang; then
  echo "fuzz: needs clang++ with libFuzzer (Debian: apt-get install clang); CXX=$compiler is not clang" >&2
  exit 2
fi

cmake -S "$root/unit_tests/fuzz" -B "$build" -DCMAKE_CXX_COMPILER="$compiler" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --parallel "${STRATA_BUILD_JOBS:-$(nproc)}"

# One harness per core, side by side: each is a single process, so running them one after the
# other left a core idle for the whole fuzzing time.
fuzz_one() {
  local harness="$1" work="$build/runs/$1" status=0 executions
  mkdir -p "$work/corpus" "$work/artifacts"
  rm -f "$work/artifacts/"*
  # The first corpus directory receives new inputs; the seeds are only read.
  "$build/strata_fuzz_$harness" "$work/corpus" "$root/unit_tests/fuzz/corpus/$harness" \
    -dict="$root/unit_tests/fuzz/$harness.dict" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$work/artifacts/" >"$work/log" 2>&1 || status=$?
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
  echo "fuzz: $harness: ${executions:-?} executions in ${seconds} s, exit status $status"
  if [ "$status" -ne 0 ]; then
    tail -n 40 "$work/log" >&2
    echo "fuzz: $harness FAILED; reproducer in $work/artifacts/, log in $work/log" >&2
  fi
  return "$status"
}

harnesses=(matrix_market generator_spec)
echo "fuzz: ${harnesses[*]} side by side for ${seconds} s"
pids=()
for harness in "${harnesses[@]}"; do
  fuzz_one "$harness" &
  pids+=($!)
done
failed=()
for i in "${!harnesses[@]}"; do
  wait "${pids[$i]}" || failed+=("${harnesses[$i]}")
done
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: failures in ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: no crash, leak or sanitizer report"
