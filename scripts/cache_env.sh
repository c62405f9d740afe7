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
