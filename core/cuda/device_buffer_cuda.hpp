#pragma once
// Kokkos::CudaSpace specialisation of device_buffer_impl; included only under KOKKOS_ENABLE_CUDA.
//
// Buffers come from a memory pool of Strata's own (cudaMemPoolCreate on the device current at the
// first allocation: Kokkos' device) by cudaMallocFromPoolAsync and go back by cudaFreeAsync, both
// on the legacy default stream (cudaStreamLegacy): they are ordered after all work queued before
// them on every blocking stream, Kokkos's default instance's included (Kokkos makes its streams
// with cudaStreamCreate), as cudaMalloc and cudaFree are, but the host does not wait. Work queued
// later on a blocking stream sees the allocation; a release waits, on the device, for the kernels
// queued before it. Work on a stream created non-blocking is not ordered with them: fence such an
// instance before releasing a matrix it used.
//
// The pool keeps up to pool_kept_bytes of released memory across synchronisations for the next
// allocations (the pool returns the rest to the device at each); a failed allocation trims it
// and tries once more, so memory held there is not memory Strata fails for. Kokkos's
// allocations do not see it: a View allocated while the pool holds released memory may fail
// where it would have fit.
#include <cuda_runtime.h>

#include <cstdint>

namespace strata {

template <>
struct device_buffer_impl<Kokkos::CudaSpace> {
  static constexpr std::uint64_t pool_kept_bytes = std::uint64_t(256) << 20;

  static cudaMemPool_t pool() {
    static const cudaMemPool_t made = [] {
      int device = 0;
      check(cudaGetDevice(&device), "cudaGetDevice", 0);
      cudaMemPoolProps props = {};
      props.allocType = cudaMemAllocationTypePinned;
      props.location.type = cudaMemLocationTypeDevice;
      props.location.id = device;
      cudaMemPool_t p = nullptr;
      check(cudaMemPoolCreate(&p, &props), "cudaMemPoolCreate", 0);
      std::uint64_t kept = pool_kept_bytes;
      check(cudaMemPoolSetAttribute(p, cudaMemPoolAttrReleaseThreshold, &kept), "cudaMemPoolSetAttribute", 0);
      return p;
    }();
    return made;
  }

  static DeviceBytes allocate(std::size_t bytes, const std::string& label, bool zeroed) {
    void* data = nullptr;
    cudaError_t status = cudaMallocFromPoolAsync(&data, bytes, pool(), cudaStreamLegacy);
    if (status != cudaSuccess) {
      cudaGetLastError();
      cudaMemPoolTrimTo(pool(), 0);
      status = cudaMallocFromPoolAsync(&data, bytes, pool(), cudaStreamLegacy);
    }
    if (status != cudaSuccess) {
      cudaGetLastError();
      throw Error(label + ": device allocation of " + std::to_string(bytes) +
                  " bytes failed: " + cudaGetErrorString(status));
    }
    if (zeroed) {
      status = cudaMemsetAsync(data, 0, bytes, cudaStreamLegacy);
      if (status != cudaSuccess) {
        cudaFreeAsync(data, cudaStreamLegacy);
        check(status, "cudaMemsetAsync", bytes, label);
      }
    }
    // A release after the CUDA runtime has shut down (a matrix destroyed at exit) has nothing to return.
    return {data, std::shared_ptr<void>(data, [](void* p) { cudaFreeAsync(p, cudaStreamLegacy); })};
  }

 private:
  static void check(cudaError_t status, const char* call, std::size_t bytes, const std::string& label = "strata") {
    if (status == cudaSuccess) return;
    cudaGetLastError();
    throw Error(label + ": " + call + (bytes > 0 ? " of " + std::to_string(bytes) + " bytes" : std::string()) +
                " failed: " + cudaGetErrorString(status));
  }
};

}  // namespace strata
