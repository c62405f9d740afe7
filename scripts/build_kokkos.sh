#!/usr/bin/env bash
# Builds and installs Kokkos and Kokkos Kernels 4.x for one backend into a cached
# prefix outside the repository, and prints the cmake line that builds Strata against it.
#
# Usage: scripts/build_kokkos.sh [options] BACKEND          BACKEND: serial | openmp | cuda
#   --arch ARCH       Kokkos architecture (Kokkos_ARCH_<ARCH>); cuda default HOPPER90,
#                     host backends default none (portable code, no -march)
#   --kokkos SRC      Kokkos sources: a .tar.gz or a directory (a clone)
#   --kernels SRC     Kokkos Kernels sources: a .tar.gz or a directory
#                     (defaults: the tarballs kokkos-*.tar.gz / kokkos-kernels-*.tar.gz in ../shared/deps)
#   --rdc             CUDA relocatable device code (Kokkos_ENABLE_CUDA_RELOCATABLE_DEVICE_CODE; default OFF)
#   --cache DIR       cache root (default ${STRATA_CACHE_DIR:-$HOME/.cache/strata})
#   --jobs N          parallel build jobs (default ${STRATA_BUILD_JOBS:-$(nproc)})
#   --keep-build      keep the unpacked, patched sources and build trees after installing
#   --force           rebuild even if the prefix for this key is installed
#   --print-prefix    print only the prefix on stdout (the log goes to stderr in any case)
#
# Both projects install into ONE prefix: ${cache}/kokkos/<backend>-<arch>-<hash>, where the hash
# covers the sources (tarball sha256, or commit + local changes of a clone), backend, arch, RDC,
# compilers (path and version), every configure option and PATCH_LOGIC_VERSION below. A second run
# with the same key prints "cached" and returns at once. ${cache}/kokkos/<backend>.prefix holds the
# prefix of the last run for that backend. Sources are unpacked and patched under
# ${cache}/kokkos/build/; the tarballs and source directories given are never modified.
#
# Patches, each applied only when the sources still contain the code it fixes:
#   * CUDA 13 (nvcc >= 13): cudaGraphAddDependencies gained an edge-data argument and
#     cudaMemPrefetchAsync takes a cudaMemLocation and flags (core/src/Cuda/Kokkos_Cuda_Instance.hpp;
#     the new calls are guarded by CUDART_VERSION >= 13000);
#   * CUDA: bin/nvcc_wrapper's default architecture (sm_70, which CUDA 13 no longer supports)
#     becomes the requested one, e.g. sm_90, so CMake's compiler checks work;
#   * GCC 12 host compiler, serial/openmp: SharedAllocationTracker's default constructor
#     (core/src/impl/Kokkos_SharedAlloc.hpp) is not constexpr for GCC 12.2-12.x, which otherwise
#     miscompiles it (kokkos/kokkos issue 8187, pull request 8223); nvcc keeps it constexpr.
# ccache is used as compiler launcher when installed (CCACHE_DIR defaults to ${cache}/ccache).
set -euo pipefail

# Bump whenever the patches or the configure options change in a way the hash does not see.
PATCH_LOGIC_VERSION=1

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/cache_env.sh
source "$root/scripts/cache_env.sh"

log() { echo "build_kokkos: $*" >&2; }
die() { echo "build_kokkos: error: $*" >&2; exit 1; }
usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }

backend="" arch="" kokkos_src="" kernels_src="" rdc=OFF keep_build=0 force=0 print_prefix=0
jobs="${STRATA_BUILD_JOBS:-$(nproc)}"
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch="$2"; shift 2 ;;
    --kokkos) kokkos_src="$2"; shift 2 ;;
    --kernels) kernels_src="$2"; shift 2 ;;
    --rdc) rdc=ON; shift ;;
    --cache) STRATA_CACHE_DIR="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --keep-build) keep_build=1; shift ;;
    --force) force=1; shift ;;
    --print-prefix) print_prefix=1; shift ;;
    -h|--help) usage ;;
    serial|openmp|cuda) backend="$1"; shift ;;
    *) echo "build_kokkos: unknown argument '$1'" >&2; usage ;;
  esac
done
[ -n "$backend" ] || usage
strata_cache_env   # sets cache_dir, CCACHE_DIR, ccache_launcher (empty without ccache)
[ "$rdc" = OFF ] || [ "$backend" = cuda ] || die "--rdc is for the cuda backend"

# ---- sources ------------------------------------------------------------------
deps="$root/../shared/deps"
default_tarball() {  # $1: kokkos | kokkos-kernels
  local found=() f
  for f in "$deps/$1"-*.tar.gz; do
    [ -e "$f" ] || continue
    # kokkos-*.tar.gz also matches kokkos-kernels-*.tar.gz
    if [ "$1" = kokkos ] && [[ "$(basename "$f")" == kokkos-kernels-* ]]; then continue; fi
    found+=("$f")
  done
  [ ${#found[@]} -eq 1 ] || die "expected exactly one $1-*.tar.gz in $deps (found ${#found[@]}); pass --${1#kokkos-} SRC"
  echo "$(cd "$(dirname "${found[0]}")" && pwd)/$(basename "${found[0]}")"
}
[ -n "$kokkos_src" ] || kokkos_src="$(default_tarball kokkos)"
[ -n "$kernels_src" ] || kernels_src="$(default_tarball kokkos-kernels)"
for s in "$kokkos_src" "$kernels_src"; do [ -e "$s" ] || die "no such source: $s"; done
kokkos_src="$(readlink -f "$kokkos_src")"
kernels_src="$(readlink -f "$kernels_src")"

# Identity of a source: a tarball's sha256; for a git clone its commit plus its local changes
# (tracked diff and untracked, not ignored files); for another directory the sha256 of all files.
source_identity() {
  local src="$1"
  if [ -f "$src" ]; then
    echo "tarball $(sha256sum "$src" | cut -d' ' -f1)"
  elif git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    local changes
    changes="$( { git -C "$src" diff HEAD --binary
                  git -C "$src" ls-files --others --exclude-standard -z | (cd "$src" && xargs -0r sha256sum); } | sha256sum | cut -d' ' -f1)"
    echo "git $(git -C "$src" rev-parse HEAD) changes $changes"
  else
    echo "tree $(cd "$src" && find . -type f -not -path './.git/*' -print0 | LC_ALL=C sort -z | xargs -0r sha256sum | sha256sum | cut -d' ' -f1)"
  fi
}

# ---- compilers ------------------------------------------------------------------
# The resolved path and the version line without the name it was called by (c++ and g++ are one).
compiler_identity() { echo "$(readlink -f "$(command -v "$1")") $("$1" --version | head -n1 | cut -d' ' -f2-)"; }
gcc_major() {  # prints the GCC major version of compiler $1, or nothing for another compiler
  "$1" -dM -E -x c++ - </dev/null 2>/dev/null |
    awk '/#define __clang__ /{clang=1} /#define __GNUC__ /{v=$3} END{if(!clang && v) print v}'
}
if [ "$backend" = cuda ]; then
  if ! command -v nvcc >/dev/null; then
    for d in "${CUDA_ROOT:-}" "${CUDA_HOME:-}" /usr/local/cuda; do
      if [ -n "$d" ] && [ -x "$d/bin/nvcc" ]; then export PATH="$d/bin:$PATH"; break; fi
    done
  fi
  command -v nvcc >/dev/null || die "cuda backend: nvcc not found (put it on PATH or set CUDA_ROOT)"
  host_cxx="${NVCC_WRAPPER_DEFAULT_COMPILER:-g++}"
  nvcc_version="$(nvcc --version | sed -n 's/.*release \([0-9][0-9]*\)\.\([0-9][0-9]*\).*/\1.\2/p')"
  nvcc_major="${nvcc_version%%.*}"
  arch="${arch:-HOPPER90}"
  sm="sm_$(echo "$arch" | sed -n 's/^[A-Z_]*\([0-9][0-9]*\)$/\1/p')"
  [ "$sm" != sm_ ] || die "cannot derive the sm_ number from --arch $arch (expected e.g. HOPPER90)"
  compilers="host $(compiler_identity "$host_cxx"); nvcc $(command -v nvcc) $nvcc_version"
else
  host_cxx="${CXX:-c++}"
  arch="${arch:-none}"
  compilers="cxx $(compiler_identity "$host_cxx")"
fi
command -v "$host_cxx" >/dev/null || die "C++ compiler '$host_cxx' not found"
host_gcc_major="$(gcc_major "$host_cxx")"

# ---- configure options (all of them enter the hash) -------------------------------
upper="$(echo "$backend" | tr '[:lower:]' '[:upper:]')"
kokkos_opts=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DBUILD_SHARED_LIBS=OFF
             -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF
             "-DKokkos_ENABLE_$upper=ON")
[ "$arch" = none ] || kokkos_opts+=("-DKokkos_ARCH_$arch=ON")
kernels_inst=(ADD_DEFAULT_ETI INST_DOUBLE INST_FLOAT INST_COMPLEX_DOUBLE INST_COMPLEX_FLOAT INST_HALF INST_BHALF
              INST_ORDINAL_INT INST_ORDINAL_INT64_T INST_OFFSET_INT INST_OFFSET_SIZE_T
              INST_LAYOUTLEFT INST_LAYOUTRIGHT INST_MEMSPACE_HOSTSPACE)
case "$backend" in
  serial) kernels_inst+=(INST_EXECSPACE_SERIAL) ;;
  openmp) kernels_inst+=(INST_EXECSPACE_OPENMP) ;;
  cuda)   kernels_inst+=(INST_EXECSPACE_SERIAL INST_EXECSPACE_CUDA INST_MEMSPACE_CUDASPACE INST_MEMSPACE_CUDAUVMSPACE) ;;
esac
kernels_opts=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DBUILD_SHARED_LIBS=OFF
              -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DKokkosKernels_ENABLE_TESTS=OFF
              -DKokkosKernels_ENABLE_EXAMPLES=OFF -DKokkosKernels_ENABLE_PERFTESTS=OFF
              -DKokkosKernels_ENABLE_TPL_BLAS=OFF -DKokkosKernels_ENABLE_TPL_LAPACK=OFF)
for o in "${kernels_inst[@]}"; do kernels_opts+=("-DKokkosKernels_$o=OFF"); done
if [ "$backend" = cuda ]; then
  kokkos_opts+=(-DKokkos_ENABLE_SERIAL=ON "-DKokkos_ENABLE_CUDA_RELOCATABLE_DEVICE_CODE=$rdc")
  kernels_opts+=(-DKokkosKernels_ENABLE_TPL_CUSPARSE=ON -DKokkosKernels_ENABLE_TPL_CUBLAS=OFF
                 -DKokkosKernels_ENABLE_TPL_CUSOLVER=OFF)
fi

# ---- key, prefix, cache hit ---------------------------------------------------------
key_text="patch-logic $PATCH_LOGIC_VERSION
backend $backend
arch $arch
rdc $rdc
kokkos $(source_identity "$kokkos_src")
kernels $(source_identity "$kernels_src")
compilers $compilers
kokkos-options ${kokkos_opts[*]}
kernels-options ${kernels_opts[*]}"
hash="$(echo "$key_text" | sha256sum | cut -c1-12)"
name="$backend-$arch-$hash"
kdir="$cache_dir/kokkos"
prefix="$kdir/$name"
work="$kdir/build/$name"
mkdir -p "$kdir"

strata_cmake_line() {
  local line="cmake -S . -B build-$backend -DKokkos_ROOT=$prefix -DKokkosKernels_ROOT=$prefix"
  [ "$backend" != cuda ] || line+=" -DCMAKE_CXX_COMPILER=$prefix/bin/nvcc_wrapper"
  echo "$line"
}
finish() {  # $1: cached | built
  echo "$prefix" > "$kdir/$backend.prefix.tmp" && mv "$kdir/$backend.prefix.tmp" "$kdir/$backend.prefix"
  log "$1: Kokkos + Kokkos Kernels ($backend, arch $arch) in $prefix"
  log "pointer: $kdir/$backend.prefix"
  log "build Strata with:"
  log "  $(strata_cmake_line)"
  if [ "$backend" = cuda ]; then log "  (nvcc must be on PATH, or CUDA_ROOT set, when building)"; fi
  if [ "$print_prefix" = 1 ]; then echo "$prefix"; fi
  exit 0
}

# One build per key at a time (CI and a developer may start the same one).
exec 9>"$kdir/$name.lock"
flock 9
if [ "$force" = 0 ] && [ -f "$prefix/.strata-complete" ]; then finish cached; fi

log "building $name (sources: $kokkos_src, $kernels_src)"
start=$SECONDS
rm -rf "$prefix" "$work"
mkdir -p "$work"

unpack() {  # $1: source, $2: destination (a fresh copy the patches may change)
  mkdir -p "$2"
  if [ -f "$1" ]; then
    tar -xzf "$1" -C "$2" --strip-components=1
  else
    tar -C "$1" --exclude=./.git -cf - . | tar -C "$2" -xf -
  fi
}
unpack "$kokkos_src" "$work/kokkos-src"
unpack "$kernels_src" "$work/kernels-src"

# ---- patches (printed, and recorded in the prefix) ------------------------------------
patches=()
patch_file() {  # $1: file, $2: perl substitution; fails if it changed nothing
  local before after
  before="$(sha256sum "$1")"
  perl -0pi -e "$2" "$1"
  after="$(sha256sum "$1")"
  [ "$before" != "$after" ] || die "patch did not apply to $1"
}
ksrc="$work/kokkos-src"
if [ "$backend" = cuda ]; then
  inst="$ksrc/core/src/Cuda/Kokkos_Cuda_Instance.hpp"
  if [ "$nvcc_major" -ge 13 ] && grep -q 'cudaGraphAddDependencies(graph, from, to, numDependencies)' "$inst"; then
    patch_file "$inst" 's/^(\s*)return cudaGraphAddDependencies\(graph, from, to, numDependencies\);\n/#if CUDART_VERSION >= 13000\n$1return cudaGraphAddDependencies(graph, from, to, nullptr, numDependencies);\n#else\n$1return cudaGraphAddDependencies(graph, from, to, numDependencies);\n#endif\n/m'
    patches+=("CUDA 13: cudaGraphAddDependencies with edge data (Kokkos_Cuda_Instance.hpp)")
  fi
  if [ "$nvcc_major" -ge 13 ] && grep -q 'cudaMemPrefetchAsync(devPtr, count, dstDevice, m_stream)' "$inst"; then
    patch_file "$inst" 's/^(\s*)return cudaMemPrefetchAsync\(devPtr, count, dstDevice, m_stream\);\n/#if CUDART_VERSION >= 13000\n$1cudaMemLocation location{};\n$1location.type = cudaMemLocationTypeDevice;\n$1location.id   = dstDevice;\n$1return cudaMemPrefetchAsync(devPtr, count, location, 0, m_stream);\n#else\n$1return cudaMemPrefetchAsync(devPtr, count, dstDevice, m_stream);\n#endif\n/m'
    patches+=("CUDA 13: cudaMemPrefetchAsync with cudaMemLocation and flags (Kokkos_Cuda_Instance.hpp)")
  fi
  wrapper="$ksrc/bin/nvcc_wrapper"
  old_sm="$(sed -n 's/^default_arch="\(sm_[0-9]*\)".*/\1/p' "$wrapper")"
  if [ -n "$old_sm" ] && [ "$old_sm" != "$sm" ]; then
    patch_file "$wrapper" "s/^default_arch=\"$old_sm\"/default_arch=\"$sm\"/m"
    patches+=("nvcc_wrapper: default architecture $old_sm -> $sm (CUDA 13 dropped sm_70; CMake's compiler checks pass no -arch)")
  fi
fi
alloc="$ksrc/core/src/impl/Kokkos_SharedAlloc.hpp"
if [ "$backend" != cuda ] && [ "$host_gcc_major" = 12 ] &&
   grep -q 'KOKKOS_FORCEINLINE_FUNCTION constexpr SharedAllocationTracker()' "$alloc"; then
  patch_file "$alloc" 's/^(\s*)KOKKOS_FORCEINLINE_FUNCTION constexpr SharedAllocationTracker\(\)\n/#if defined(KOKKOS_COMPILER_GNU) \&\& (KOKKOS_COMPILER_GNU >= 1220) \&\& (KOKKOS_COMPILER_GNU < 1300) \&\& !defined(__NVCC__)\n$1\/\/ GCC 12 miscompiles the constexpr version (kokkos\/kokkos#8187, fixed upstream by #8223)\n$1KOKKOS_FORCEINLINE_FUNCTION SharedAllocationTracker()\n#else\n$1KOKKOS_FORCEINLINE_FUNCTION constexpr SharedAllocationTracker()\n#endif\n/m'
  patches+=("GCC 12 host: SharedAllocationTracker() not constexpr (Kokkos_SharedAlloc.hpp; kokkos#8187/#8223)")
fi
if [ ${#patches[@]} -eq 0 ]; then
  log "patches: none needed"
else
  for p in "${patches[@]}"; do log "patch applied: $p"; done
fi

# ---- configure, build, install ------------------------------------------------------
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
launcher=()
if [ -n "$ccache_launcher" ]; then
  launcher=("-DCMAKE_CXX_COMPILER_LAUNCHER=$ccache_launcher")
  # Paths below the work tree are hashed relative to it: a rebuild under another key reuses objects.
  export CCACHE_BASEDIR="$work"
fi
if [ "$backend" = cuda ]; then
  kokkos_cxx="$ksrc/bin/nvcc_wrapper"
  kernels_cxx="$prefix/bin/nvcc_wrapper"
else
  kokkos_cxx="$(command -v "$host_cxx")"
  kernels_cxx="$kokkos_cxx"
fi

step() {  # $1: label, rest: command; output to a log file, its tail on failure
  local label="$1" logfile="$work/$1.log"
  shift
  local t=$SECONDS
  if ! nice -n "${STRATA_NICE:-0}" "$@" >"$logfile" 2>&1; then
    tail -n 60 "$logfile" >&2
    die "$label failed (full log: $logfile)"
  fi
  log "$label: $((SECONDS - t)) s"
}
step kokkos-configure cmake -S "$ksrc" -B "$work/kokkos-build" "${generator[@]}" "${launcher[@]}" \
     "-DCMAKE_CXX_COMPILER=$kokkos_cxx" "-DCMAKE_INSTALL_PREFIX=$prefix" "${kokkos_opts[@]}"
step kokkos-build cmake --build "$work/kokkos-build" --parallel "$jobs"
step kokkos-install cmake --install "$work/kokkos-build"
step kernels-configure cmake -S "$work/kernels-src" -B "$work/kernels-build" "${generator[@]}" "${launcher[@]}" \
     "-DCMAKE_CXX_COMPILER=$kernels_cxx" "-DCMAKE_INSTALL_PREFIX=$prefix" "-DKokkos_ROOT=$prefix" "${kernels_opts[@]}"
step kernels-build cmake --build "$work/kernels-build" --parallel "$jobs"
step kernels-install cmake --install "$work/kernels-build"

{
  echo "# Kokkos + Kokkos Kernels installed by Strata's scripts/build_kokkos.sh"
  echo "$key_text"
  echo "kokkos-source $kokkos_src"
  echo "kernels-source $kernels_src"
  for p in "${patches[@]}"; do echo "patch $p"; done
} > "$prefix/strata-build-info.txt"
touch "$prefix/.strata-complete"
[ "$keep_build" = 1 ] || rm -rf "$work"
log "total: $((SECONDS - start)) s"
finish built
