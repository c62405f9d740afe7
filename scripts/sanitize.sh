#!/usr/bin/env bash
# Builds everything (library, command, tests, benchmarks) with AddressSanitizer
# and UndefinedBehaviorSanitizer in build-asan/ and runs the whole ctest set.
# Any sanitizer report stops the test that made it (UBSan does not recover,
# ASan aborts, leaks are errors), so ctest fails. The build also compiles with
# STRATA_WARNINGS=ON and prints how many compiler warnings it saw.
#
# Usage: scripts/sanitize.sh [extra cmake arguments...]
#   Against the Kokkos CMake finds (Debian's 3.4, Serial) or another (-DKokkos_ROOT=... 
#   -DKokkosKernels_ROOT=...). CI's openmp stage builds it against Kokkos 4.x for OpenMP in
#   build-openmp with -DSTRATA_WARNINGS_AS_ERRORS=ON, so that a warning fails the build (.ci/run).
# Environment: STRATA_SANITIZE_BUILD_DIR (default build-asan), STRATA_BUILD_JOBS,
# STRATA_MATRIX_DIR (real matrices, default ../shared/matrices), CXX,
# STRATA_SANITIZE_CTEST_EXCLUDE (a ctest -E regular expression: tests left out); ccache and
# STRATA_UNITY_BUILD as in scripts/build.sh (STRATA_CCACHE=0 turns ccache off).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/cache_env.sh
source "$root/scripts/cache_env.sh"
strata_cache_env
launcher=()
if [ -n "$ccache_launcher" ]; then
  launcher=("-DCMAKE_CXX_COMPILER_LAUNCHER=$ccache_launcher")
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
fi
build="${STRATA_SANITIZE_BUILD_DIR:-$root/build-asan}"
strata_generator "$build"
jobs="${STRATA_BUILD_JOBS:-$(nproc)}"
matrix_dir="${STRATA_MATRIX_DIR:-$root/../shared/matrices}"
sanitizers="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

start=$(date +%s)
# -O1 -g1: what the sanitizers need for usable reports (line numbers, stack traces). On 2 cores it
# compiled about 1.5x faster than -O2 -g (69% of the targets in 15 min against 71% in 23 min).
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
  "${launcher[@]}" \
  -DCMAKE_CXX_FLAGS="$sanitizers" -DCMAKE_EXE_LINKER_FLAGS="$sanitizers" \
  -DCMAKE_SHARED_LINKER_FLAGS="$sanitizers" -DSTRATA_MATRIX_DIR="$matrix_dir" \
  -DSTRATA_ENABLE_TESTS=ON -DSTRATA_ENABLE_BENCHMARKS=ON -DSTRATA_WARNINGS=ON \
  "-DSTRATA_UNITY_BUILD=${STRATA_UNITY_BUILD:-ON}" "$@"
log="$build/sanitize_build.log"
cmake --build "$build" --parallel "$jobs" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] || { echo "sanitize: build failed" >&2; exit "$status"; }
warnings=$(grep -E ': warning: ' "$log" | sort -u | wc -l || true)
built=$(date +%s)

# shellcheck source=scripts/sanitizer_options.sh
source "$root/scripts/sanitizer_options.sh"
cd "$build"
status=0
exclude=()
[ -z "${STRATA_SANITIZE_CTEST_EXCLUDE:-}" ] || exclude=(-E "$STRATA_SANITIZE_CTEST_EXCLUDE")
ctest --output-on-failure --parallel "$jobs" --timeout 1800 "${exclude[@]}" || status=$?
finished=$(date +%s)
echo "sanitize: $warnings distinct compiler warnings (-Wall -Wextra -Wpedantic) in $log"
echo "sanitize: build $((built - start)) s, ctest $((finished - built)) s, ctest exit status $status"
exit "$status"
