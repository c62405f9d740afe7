#pragma once
// cuSPARSE CSR and COO SpMV called directly (not through Kokkos Kernels' TPL layer), so
// that the vendor library is measured with its own preprocessing and algorithm.
// Available only for Kokkos::Cuda in builds with STRATA_ENABLE_CUSPARSE; the
// trait below tells generic code whether it may instantiate the class.
#include <strata_config.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace strata::baseline {

template <class ExecSpace>
struct cusparse_spmv_available : std::false_type {};

template <class Value, class ExecSpace>
class CusparseCsrSpmv;

template <class Value, class ExecSpace>
class CusparseCooSpmv;

}  // namespace strata::baseline

#if defined(KOKKOS_ENABLE_CUDA) && STRATA_ENABLE_CUSPARSE
#include <strata/algorithms/baseline/cuda/cusparse_spmv_cuda.hpp>
#endif
