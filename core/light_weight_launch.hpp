#pragma once
// Launching a kernel whose functor is larger than 512 bytes without a host wait.
//
// Kokkos's CUDA backend passes a functor of 512 bytes or more through one constant-memory
// buffer, and before it overwrites that buffer it waits (cudaEventSynchronize) until the
// previous kernel launched that way has finished. A sequence of such launches therefore stops
// the host at every launch: the launches no longer overlap the kernels, and a repeated product
// of a small matrix costs a launch round trip per call. Strata's larger functors (both terms of
// an addition, the scheduler's queue sets, the COO kernel's operands) are below the 4 KiB that
// Kokkos passes as kernel arguments, which need no shared buffer; the light-weight hint asks for
// that. Other backends ignore the hint.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>

namespace strata::Impl {

// Kokkos's limit for passing a functor as kernel arguments (CudaTraits::KernelArgumentLimit);
// past it the light-weight hint would copy the functor to global memory on every launch.
inline constexpr std::size_t kernel_argument_bytes = 4096;

template <class Policy, class Functor>
void light_weight_parallel_for(const std::string& label, const Policy& policy, const Functor& functor) {
  static_assert(sizeof(Functor) < kernel_argument_bytes,
                "strata: this functor no longer fits the kernel arguments (4 KiB); keep its Views few "
                "or pass them through one View of operands");
  Kokkos::parallel_for(
      label, Kokkos::Experimental::require(policy, Kokkos::Experimental::WorkItemProperty::HintLightWeight),
      functor);
}

}  // namespace strata::Impl
