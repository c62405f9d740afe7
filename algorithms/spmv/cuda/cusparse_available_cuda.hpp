#pragma once
// Kokkos::Cuda has cuSPARSE's SpMV; included only from ../cusparse_available.hpp
// under KOKKOS_ENABLE_CUDA && STRATA_ENABLE_CUSPARSE.
#include <type_traits>

namespace strata::Impl {

template <>
struct cusparse_spmv_available<Kokkos::Cuda> : std::true_type {};

}  // namespace strata::Impl
