#!/usr/bin/env bash
# Builds Kokkos 4.x for a backend (scripts/build_kokkos.sh, cached outside the clone) and every
# Strata target (library, command, tests, benchmarks) against it.
# Usage: scripts/build_backend.sh BACKEND [BUILD_DIR] [extra cmake arguments...]
#   BACKEND serial | openmp | cuda; BUILD_DIR default build-BACKEND.
#   STRATA_KOKKOS_ARGS: extra build_kokkos.sh options, e.g. "--arch AMPERE80" or "--rdc".
# CUDA: nvcc from PATH, else /usr/local/cuda/bin; the compiler is the install's nvcc_wrapper.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
backend="${1:?usage: scripts/build_backend.sh serial|openmp|cuda [BUILD_DIR] [cmake arguments...]}"
shift
build="$root/build-$backend"
if [ $# -gt 0 ] && [[ "$1" != -* ]]; then build="$1"; shift; fi
if [ "$backend" = cuda ] && ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
# shellcheck disable=SC2086
prefix="$(bash "$root/scripts/build_kokkos.sh" "$backend" ${STRATA_KOKKOS_ARGS:-} --print-prefix)"
compiler=()
[ "$backend" != cuda ] || compiler=(-DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper")
echo "build_backend: Strata for $backend in $build against $prefix" >&2
bash "$root/scripts/build.sh" "$build" "${compiler[@]}" -DKokkos_ROOT="$prefix" -DKokkosKernels_ROOT="$prefix" \
     -DSTRATA_ENABLE_TESTS=ON -DSTRATA_ENABLE_BENCHMARKS=ON -DSTRATA_ENABLE_CLI=ON "$@"
