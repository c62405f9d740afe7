#pragma once
// Whether the controller launcher (controller.hpp) exists for an execution
// space: Kokkos::Cuda in builds with STRATA_ENABLE_CUDA_CONTROLLER
// (cuda/controller_available_cuda.hpp). Apart from the launcher so that an
// operation's interface can say which algorithms it supports without the CUDA
// runtime's headers.
#include <strata_config.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace strata::scheduler {

template <class ExecSpace>
struct controller_available : std::false_type {};

}  // namespace strata::scheduler

#if defined(KOKKOS_ENABLE_CUDA) && STRATA_ENABLE_CUDA_CONTROLLER
#include <strata/scheduler/cuda/controller_available_cuda.hpp>
#endif
