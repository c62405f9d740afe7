#pragma once
// Device copy bandwidth measured in the same process as a kernel, so that a
// kernel's effective bandwidth can be reported as a fraction of what the
// memory system delivers on this device today.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace strata {

struct CopyBandwidth {
  std::size_t bytes_moved = 0;  // read + write per copy
  double median_seconds = 0.0;
  double best_seconds = 0.0;
  double median_gb_per_s() const { return median_seconds > 0 ? bytes_moved / median_seconds * 1e-9 : 0.0; }
  double best_gb_per_s() const { return best_seconds > 0 ? bytes_moved / best_seconds * 1e-9 : 0.0; }
};

template <class ExecSpace>
CopyBandwidth measure_copy_bandwidth(std::size_t bytes_per_buffer, int repetitions) {
  using memory_space = typename ExecSpace::memory_space;
  const std::size_t n = std::max<std::size_t>(1, bytes_per_buffer / sizeof(double));
  Kokkos::View<double*, memory_space> source("strata::copy_bandwidth_source", n);
  Kokkos::View<double*, memory_space> target(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::copy_bandwidth_target"), n);
  ExecSpace space;
  Kokkos::deep_copy(space, target, source);  // first touch, not timed
  space.fence();
  std::vector<double> seconds;
  for (int r = 0; r < std::max(1, repetitions); ++r) {
    Kokkos::Timer timer;
    Kokkos::deep_copy(space, target, source);
    space.fence();
    seconds.push_back(timer.seconds());
  }
  std::sort(seconds.begin(), seconds.end());
  CopyBandwidth result;
  result.bytes_moved = 2 * n * sizeof(double);
  result.median_seconds = seconds[seconds.size() / 2];
  result.best_seconds = seconds.front();
  return result;
}

}  // namespace strata
