#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: install dependencies, build, and
# run `strata spmv` (Kokkos Kernels CSR SpMV baseline on the default generated
# matrix, verified against the host reference). Extra arguments go to strata,
# e.g. scripts/run_main.sh spmv ../shared/matrices/cage11.mtx.gz
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install_deps.sh"
"$root/scripts/build.sh" "$root/build" -DSTRATA_ENABLE_CLI=ON -DSTRATA_ENABLE_TESTS=OFF -DSTRATA_ENABLE_BENCHMARKS=OFF
if [ $# -eq 0 ]; then set -- spmv; fi
exec "$root/build/apps/strata" "$@"
