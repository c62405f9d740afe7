#pragma once
// Kokkos::Cuda specialisation of streaming_load_impl; included only under KOKKOS_ENABLE_CUDA.
// Arithmetic values are loaded with the cache-streaming hint (ld.global.cs: evict-first in
// the L2); other types (Kokkos::complex) by a plain load, which __ldcs does not take.
#include <type_traits>

namespace strata {

template <>
struct streaming_load_impl<Kokkos::Cuda> {
  template <class T>
  KOKKOS_FORCEINLINE_FUNCTION static T apply(const T* p) {
    if constexpr (std::is_arithmetic_v<T>) {
      KOKKOS_IF_ON_DEVICE((return __ldcs(p);))
      KOKKOS_IF_ON_HOST((return *p;))
    } else {
      return *p;
    }
  }
};

}  // namespace strata
