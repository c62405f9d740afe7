#!/usr/bin/env bash
# The test job on a fresh Debian 12 machine: install dependencies, build
# everything (library, strata command, unit tests, perf tests) and run ctest.
# The real-matrix set runs too when ../shared/matrices (or STRATA_MATRIX_DIR) exists.
# Usage: scripts/run_tests.sh [extra cmake arguments...]   (CI adds -DSTRATA_WARNINGS_AS_ERRORS=ON)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install_deps.sh"
matrix_dir="${STRATA_MATRIX_DIR:-$root/../shared/matrices}"
"$root/scripts/build.sh" "$root/build" -DSTRATA_MATRIX_DIR="$matrix_dir" -DSTRATA_ENABLE_TESTS=ON -DSTRATA_ENABLE_BENCHMARKS=ON "$@"
cd "$root/build"
ctest --output-on-failure --parallel "$(nproc)" --timeout 900
