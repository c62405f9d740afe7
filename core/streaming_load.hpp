#pragma once
// A load of data read once, as a matrix streaming through a product: on CUDA it
// is cached evict-first (core/cuda/streaming_load_cuda.hpp), so that the matrix
// passing through the L2 does not push out the vector the product gathers from
// (keeping x cached took 15% off csr-balanced on the hubs in double, PERFORMANCE.md,
// 2026-11-27 10:33); a plain load on the other backends.
#include <Kokkos_Core.hpp>

namespace strata {

template <class ExecSpace>
struct streaming_load_impl {
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION static T apply(const T* p) {
    return *p;
  }
};

template <class ExecSpace, class T>
KOKKOS_FORCEINLINE_FUNCTION T streaming_load(const T* p) {
  return streaming_load_impl<ExecSpace>::apply(p);
}

}  // namespace strata

#if defined(KOKKOS_ENABLE_CUDA)
#include <strata/core/cuda/streaming_load_cuda.hpp>
#endif
