#!/usr/bin/env bash
# Installs a built Strata into a temporary prefix and builds and runs the
# consumer project of unit_tests/install_consumer against it with find_package(Strata).
# Usage: scripts/check_install.sh [BUILD_DIR]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$root/unit_tests/install_consumer" -B "$work/consumer" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$work/prefix" ${STRATA_CONSUMER_CMAKE_ARGS:-} >/dev/null
cmake --build "$work/consumer" --parallel "$(nproc)" >/dev/null
"$work/consumer/strata_consumer"
echo "check_install: consumer built against the installed Strata and ran"
