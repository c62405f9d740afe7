#!/usr/bin/env bash
# Configures and builds Strata. Usage: scripts/build.sh [BUILD_DIR] [extra cmake arguments...]
# Without arguments: ./build against the Kokkos that CMake finds (Debian's by default).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
shift || true
jobs="${STRATA_BUILD_JOBS:-$(nproc)}"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build "$build" --parallel "$jobs"
