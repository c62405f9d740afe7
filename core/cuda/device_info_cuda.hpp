#pragma once
// Kokkos::Cuda specialisation of device_info; included only under KOKKOS_ENABLE_CUDA.
#include <cuda_runtime.h>

#include <string>

namespace strata {

template <>
struct device_info<Kokkos::Cuda> {
  static std::string describe() {
    int device = 0;
    cudaGetDevice(&device);
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) return "CUDA device (properties unavailable)";
    return std::string("CUDA ") + prop.name + " (sm_" + std::to_string(prop.major) + std::to_string(prop.minor) +
           ", " + std::to_string(prop.multiProcessorCount) + " SMs, " +
           std::to_string(prop.totalGlobalMem >> 30) + " GiB)";
  }
};

template <>
struct execution_units<Kokkos::Cuda> {
  static int count(const Kokkos::Cuda& space) { return space.cuda_device_prop().multiProcessorCount; }
};

template <>
struct last_level_cache_bytes<Kokkos::Cuda> {
  static std::size_t get() {
    const int bytes = Kokkos::Cuda().cuda_device_prop().l2CacheSize;
    return bytes > 0 ? static_cast<std::size_t>(bytes) : 0;
  }
};

}  // namespace strata
