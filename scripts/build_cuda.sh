#!/usr/bin/env bash
# The CUDA tree to carry to the GPU machine: Kokkos 4.x for CUDA (Hopper by default) and every
# Strata target in build-cuda. Then: scripts/stage_gpu_carry.sh, and on the GPU machine
# scripts/gpu_check.sh .carry/gpu (docs/BACKENDS.md).
# Usage: scripts/build_cuda.sh [BUILD_DIR] [extra cmake arguments...]
set -euo pipefail
exec bash "$(dirname "${BASH_SOURCE[0]}")/build_backend.sh" cuda "$@"
