#pragma once
// y[i] += v from many threads, for every supported value type. The portable
// version is Kokkos::atomic_add; CUDA uses the hardware atomics directly
// (core/cuda/atomic_add_cuda.hpp), including the sm_90 float2 vector atomic
// for complex<float>, which Kokkos would emulate with a compare-and-swap loop.
#include <Kokkos_Core.hpp>

namespace strata {

template <class ExecSpace>
struct atomic_add_impl {
  template <class Value>
  KOKKOS_FORCEINLINE_FUNCTION static void apply(Value* target, const Value& value) {
    Kokkos::atomic_add(target, value);
  }
};

template <class ExecSpace, class Value>
KOKKOS_FORCEINLINE_FUNCTION void atomic_add(Value* target, const Value& value) {
  atomic_add_impl<ExecSpace>::apply(target, value);
}

}  // namespace strata

#if defined(KOKKOS_ENABLE_CUDA)
#include <strata/core/cuda/atomic_add_cuda.hpp>
#endif
