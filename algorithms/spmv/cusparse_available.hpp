#pragma once
// Whether cuSPARSE's SpMV exists for an execution space: Kokkos::Cuda in builds
// with STRATA_ENABLE_CUSPARSE (cuda/cusparse_available_cuda.hpp). Apart from
// the wrapper (cusparse.hpp) so that a format's interface can say which
// algorithms it supports without cuSPARSE's headers.
#include <strata_config.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace strata::Impl {

template <class ExecSpace>
struct cusparse_spmv_available : std::false_type {};

}  // namespace strata::Impl

#if defined(KOKKOS_ENABLE_CUDA) && STRATA_ENABLE_CUSPARSE
#include <strata/algorithms/spmv/cuda/cusparse_available_cuda.hpp>
#endif
