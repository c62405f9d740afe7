#pragma once
// A one-line description of the device an execution space runs on, recorded
// with every measurement. Backends with more to say specialise device_info.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <fstream>
#include <string>
#include <thread>

namespace strata {

inline std::string host_cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  }
  return "unknown CPU";
}

template <class ExecSpace>
struct device_info {
  static std::string describe() {
    return std::string(ExecSpace::name()) + " on " + host_cpu_model() + " (" +
           std::to_string(std::thread::hardware_concurrency()) + " hardware threads, " +
           std::to_string(ExecSpace().concurrency()) + " used)";
  }
};

// How many independent processors an execution space has (SMs on a GPU,
// threads on a host): the unit that oversubscription factors multiply.
template <class ExecSpace>
struct execution_units {
  static int count(const ExecSpace& space) { return space.concurrency() > 0 ? space.concurrency() : 1; }
};

// Bytes of the last-level cache the device's kernels share (the L2 of a GPU), 0
// where unknown: what format choices sized to the cache read.
template <class ExecSpace>
struct last_level_cache_bytes {
  static std::size_t get() { return 0; }
};

}  // namespace strata

#if defined(KOKKOS_ENABLE_CUDA)
#include <strata/core/cuda/device_info_cuda.hpp>
#endif
