# Sourced by the build scripts: the cache outside the clone, and ccache when it is installed.
#   strata_cache_env   sets cache_dir (${STRATA_CACHE_DIR:-$HOME/.cache/strata}), exports
#                      CCACHE_DIR (default $cache_dir/ccache) and sets ccache_launcher to
#                      ccache's path, or to nothing when ccache is missing or STRATA_CCACHE=0.
strata_cache_env() {
  cache_dir="${STRATA_CACHE_DIR:-$HOME/.cache/strata}"
  mkdir -p "$cache_dir"
  cache_dir="$(cd "$cache_dir" && pwd)"
  ccache_launcher=""
  if [ "${STRATA_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
    ccache_launcher="$(command -v ccache)"
    export CCACHE_DIR="${CCACHE_DIR:-$cache_dir/ccache}"
  fi
}

#   strata_generator BUILD_DIR
#                      sets generator to (-G Ninja) when ninja is installed and BUILD_DIR is new
#                      (scripts/install_deps.sh installs it), else to nothing: CMake's default
#                      (Make), or the generator BUILD_DIR was configured with. Ninja starts a
#                      target's objects before the libraries it links are built, which keeps both
#                      cores of a small machine busy: a cold Serial build of every target took
#                      320 s instead of 351 s (docs/BACKENDS.md).
strata_generator() {
  generator=()
  if [ ! -f "$1/CMakeCache.txt" ] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
  if [ ${#generator[@]} -gt 0 ]; then
    echo "strata: CMake generator for $1: Ninja" >&2
  else
    echo "strata: CMake generator for $1: the one it was configured with, or the default of CMake" >&2
  fi
}
