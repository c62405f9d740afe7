#pragma once
// Kokkos::Cuda has the controller launcher; included only from
// ../controller_available.hpp under KOKKOS_ENABLE_CUDA && STRATA_ENABLE_CUDA_CONTROLLER.
#include <type_traits>

namespace strata::scheduler {

template <>
struct controller_available<Kokkos::Cuda> : std::true_type {};

}  // namespace strata::scheduler
