#!/usr/bin/env bash
# Stages a CUDA build for the GPU machine, small enough to carry (64 MiB for all carried paths):
# into DEST (git-ignored) go the executables of BUILD_DIR (tests, command, benchmarks; symbols
# kept for sanitizer backtraces, debug info stripped) as executables.tar.xz (xz: 31 MiB for the
# 15 executables of a build of every target on 2026-11-26, where gzip gave 53 MiB), the shared
# libraries they need that a Debian-like machine with the CUDA toolkit may lack (lib/: all but
# the C/C++ runtime, zlib and CUDA's own), and the real matrices (matrices/, 20 MiB).
# scripts/gpu_check.sh unpacks the executables into a temporary folder.
# Usage: scripts/stage_gpu_carry.sh [BUILD_DIR] [DEST] [--matrix-dir DIR | --no-matrices]
#   defaults: build-cuda, .carry/gpu, --matrix-dir ${STRATA_MATRIX_DIR:-../shared/matrices}
# It first runs scripts/check_kernel_launches.sh on BUILD_DIR (CI's cuda stage does) and stops if it fails.
# Then, on the GPU machine from the repository root: bash scripts/gpu_check.sh DEST
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="" dest="" matrix_dir="${STRATA_MATRIX_DIR:-$root/../shared/matrices}"
while [ $# -gt 0 ]; do
  case "$1" in
    --matrix-dir) matrix_dir="$2"; shift 2 ;;
    --no-matrices) matrix_dir=""; shift ;;
    -*) echo "stage_gpu_carry: unknown option $1" >&2; exit 2 ;;
    *) if [ -z "$build" ]; then build="$1"; elif [ -z "$dest" ]; then dest="$1"; else exit 2; fi; shift ;;
  esac
done
build="${build:-$root/build-cuda}"
dest="${dest:-$root/.carry/gpu}"
[ -f "$build/CMakeCache.txt" ] || { echo "stage_gpu_carry: $build is not a build tree (run scripts/build_cuda.sh)" >&2; exit 1; }
if grep -q '^STRATA_TEST_VALUE_TYPES:STRING=reduced' "$build/CMakeCache.txt"; then
  echo "stage_gpu_carry: $build compiles the typed tests for two value types only (STRATA_TEST_VALUE_TYPES=reduced," \
       "as CI's cuda stage does); the GPU check runs all four: reconfigure with -DSTRATA_TEST_VALUE_TYPES=all" >&2
  exit 1
fi
grep -q '^CMAKE_CXX_COMPILER:.*nvcc_wrapper' "$build/CMakeCache.txt" ||
  echo "stage_gpu_carry: warning: $build was not built with nvcc_wrapper (not a CUDA build?)" >&2

# CI's cuda stage fails when a Strata kernel takes its functor through Kokkos's constant or global
# memory; checking it here, before any GPU time is spent, keeps a build that CI would refuse from
# being carried (stop 56's CI failed on a scan functor that grew past 512 bytes).
bash "$root/scripts/check_kernel_launches.sh" "$build"

rm -rf "$dest"
mkdir -p "$dest/lib"
bin="$(mktemp -d)/bin"
trap 'rm -rf "$(dirname "$bin")"' EXIT
mkdir -p "$bin"

is_elf_executable() { [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]; }
mapfile -t exes < <(find "$build" -type f -perm -u+x -name 'strata*' -not -path '*/CMakeFiles/*' | sort)
staged=()
for exe in "${exes[@]}"; do
  is_elf_executable "$exe" || continue
  name="$(basename "$exe")"
  [ ! -e "$bin/$name" ] || { echo "stage_gpu_carry: two executables named $name" >&2; exit 1; }
  strip --strip-debug -o "$bin/$name" "$exe"
  staged+=("$bin/$name")
done
[ ${#staged[@]} -gt 0 ] || { echo "stage_gpu_carry: no strata executables in $build" >&2; exit 1; }

# Shared libraries to carry: all but the C/C++ runtime, zlib and CUDA's own (driver, runtime, cuSPARSE...),
# which the GPU machine has; carrying libstdc++ could shadow a newer one there.
declare -A libs=()
for exe in "${staged[@]}"; do
  while read -r soname path; do
    case "$soname" in
      linux-vdso*|ld-linux*|libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|libresolv.so*) continue ;;
      libstdc++.so*|libgcc_s.so*|libgomp.so*|libz.so*) continue ;;
      libcuda.so*|libcudart.so*|libcusparse.so*|libcublas*|libnvJitLink*|libcusolver*|libnvrtc*) continue ;;
    esac
    [ "$path" != "not" ] || { echo "stage_gpu_carry: $exe: $soname not found here" >&2; exit 1; }
    libs["$soname"]="$path"
  done < <(ldd "$exe" | awk '/=>/ {print $1, $3} !/=>/ && $1 ~ /^\// {n=split($1,a,"/"); print a[n], $1}')
done
for soname in "${!libs[@]}"; do cp -L "${libs[$soname]}" "$dest/lib/$soname"; done
tar -C "$(dirname "$bin")" -cJf "$dest/executables.tar.xz" bin

if [ -n "$matrix_dir" ] && [ -d "$matrix_dir" ]; then
  mkdir -p "$dest/matrices"
  find "$matrix_dir" -maxdepth 1 -type f -name '*.mtx*' -exec cp {} "$dest/matrices/" \;
fi

{
  echo "commit $(git -C "$root" rev-parse --short=12 HEAD)$(git -C "$root" status --porcelain --untracked-files=no | grep -q . && echo ' (dirty)')"
  echo "staged $(date -u '+%Y-%m-%d %H:%M UTC') from $build"
  echo "kokkos $(sed -n 's/^Kokkos_DIR:PATH=//p' "$build/CMakeCache.txt")"
  echo "executables ${#staged[@]}: $(cd "$bin" && echo *)"
  echo "libraries: ${!libs[*]}"
} > "$dest/STAGED"

size_kib="$(du -sk "$dest" | cut -f1)"
echo "stage_gpu_carry: ${#staged[@]} executables, ${#libs[@]} libraries$([ -d "$dest/matrices" ] && echo ", $(find "$dest/matrices" -type f | wc -l) matrices") in $dest: $((size_kib / 1024)) MiB"
du -sh "$dest"/* | sed 's/^/stage_gpu_carry:   /'
if [ "$size_kib" -gt $((60 * 1024)) ]; then
  echo "stage_gpu_carry: warning: over 60 MiB; the carry limit is 64 MiB in all (try --no-matrices)" >&2
fi
echo "stage_gpu_carry: on the GPU machine, from the repository root: bash scripts/gpu_check.sh ${dest#"$root"/}"
