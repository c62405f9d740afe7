#!/usr/bin/env bash
# Configures and builds Strata. Usage: scripts/build.sh [BUILD_DIR] [extra cmake arguments...]
# Without arguments: ./build against the Kokkos that CMake finds (Debian's by default).
# Generator: Ninja when it is installed and BUILD_DIR is new (scripts/cache_env.sh).
# Uses ccache as compiler launcher when it is installed (STRATA_CCACHE=0 turns that off;
# CCACHE_DIR defaults to ${STRATA_CACHE_DIR:-$HOME/.cache/strata}/ccache).
# STRATA_UNITY_BUILD=OFF compiles every source alone (default ON: cold builds take about half the
# time; cmake/StrataUnityBuild.cmake).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/cache_env.sh
source "$root/scripts/cache_env.sh"
build="${1:-$root/build}"
shift || true
jobs="${STRATA_BUILD_JOBS:-$(nproc)}"
strata_cache_env
strata_generator "$build"
launcher=()
if [ -n "$ccache_launcher" ]; then
  launcher=("-DCMAKE_CXX_COMPILER_LAUNCHER=$ccache_launcher")
  # Paths inside the clone are hashed relative to it, so another clone reuses the objects.
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$root}"
fi
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "-DSTRATA_UNITY_BUILD=${STRATA_UNITY_BUILD:-ON}" \
  "${launcher[@]}" "$@"
cmake --build "$build" --parallel "$jobs"
