#!/usr/bin/env bash
# Usage: scripts/check_kernel_launches.sh BUILD_DIR
#
# Fails if a CUDA build of Strata launches one of its own kernels through Kokkos's constant or
# global memory instead of kernel arguments. A constant-memory launch waits on the host for the
# previous one to finish (core/light_weight_launch.hpp says why), so a Strata functor of 512 bytes
# or more must be launched with strata::Impl::light_weight_parallel_for. The kernels are found by
# their symbols (Kokkos::Impl::cuda_parallel_launch_{constant,global}_memory<...<strata::...>>) in
# the executables and static libraries under BUILD_DIR; Kokkos Kernels' own kernels are not
# checked.
set -euo pipefail
build=${1:?usage: scripts/check_kernel_launches.sh BUILD_DIR}
[ -d "$build" ] || { echo "check_kernel_launches: no build folder '$build'" >&2; exit 2; }
command -v nm >/dev/null || { echo "check_kernel_launches: needs nm (binutils)" >&2; exit 2; }

mapfile -t binaries < <(find "$build" -type f \( -name 'libstrata*.a' -o \( -perm -u+x -name 'strata*' \) \) \
  -not -path '*/CMakeFiles/*' | sort)
[ ${#binaries[@]} -gt 0 ] || { echo "check_kernel_launches: no Strata binaries under '$build'" >&2; exit 2; }

# Matched on the mangled names (c++filt gives up on some of the scheduler's), then shortened to
# "<mechanism> memory: <Kokkos pattern> <Strata functor>", e.g. "constant memory: ParallelFor
# strata::scheduler::ProcessQueue": the functor's nested name is read from its length-prefixed
# components (N6strata9scheduler12ProcessQueueI...).
offending=$(for b in "${binaries[@]}"; do nm "$b" 2>/dev/null | awk '{print $NF}'; done | awk '
  match($0, /cuda_parallel_launch_(constant|global)_memoryINS0_[0-9]+Parallel[A-Za-z]+IN6strata/) {
    s = substr($0, RSTART + length("cuda_parallel_launch_"))
    mechanism = substr(s, 1, index(s, "_") - 1)
    s = substr(s, index(s, "INS0_") + 5)
    match(s, /^[0-9]+/); pattern = substr(s, RLENGTH + 1, substr(s, 1, RLENGTH) + 0)
    s = substr(s, RLENGTH + 1 + length(pattern) + 2)  # past the pattern and "IN"
    name = ""
    while (match(s, /^[0-9]+/)) {
      n = substr(s, 1, RLENGTH) + 0
      name = name (name == "" ? "" : "::") substr(s, RLENGTH + 1, n)
      s = substr(s, RLENGTH + 1 + n)
    }
    print mechanism " memory: " pattern " " name
  }' | sort -u)

if [ -n "$offending" ]; then
  echo "check_kernel_launches: Strata kernels launched through Kokkos's constant or global memory" >&2
  echo "(use strata::Impl::light_weight_parallel_for, core/light_weight_launch.hpp):" >&2
  echo "$offending" >&2
  exit 1
fi
echo "check_kernel_launches: ${#binaries[@]} binaries, every Strata kernel takes its functor as kernel arguments"
