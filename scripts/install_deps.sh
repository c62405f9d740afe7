#!/usr/bin/env bash
# Installs what Strata needs on Debian 12 from Debian's own packages:
# Kokkos 3.4 + Kokkos Kernels (Trilinos packaging, Serial backend), GoogleTest,
# Google Benchmark, zlib, CMake, a compiler and ccache. Safe to run again.
set -euo pipefail
packages=(cmake make ninja-build g++ git pkg-config ccache zlib1g-dev libgtest-dev libbenchmark-dev
          libtrilinos-kokkos-dev libtrilinos-kokkos-kernels-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install_deps: all packages present"
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install_deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "install_deps: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
