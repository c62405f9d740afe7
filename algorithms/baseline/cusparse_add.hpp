#pragma once
// cuSPARSE's addition, the second baseline of strata::add (issue 10):
// C = alpha op(A) + beta op(B) on CSR with csrgeam2 (buffer size, row counts,
// then the sum, as a code forming a new sum calls them), where op = T is
// cusparseCsr2cscEx2's explicit transpose, part of the addition's cost like
// Kokkos Kernels' transpose in csr_add.hpp. Only Kokkos::Cuda in builds with
// STRATA_ENABLE_CUSPARSE has it (cuda/cusparse_add_cuda.hpp); the trait tells
// generic code whether it may instantiate it.
#include <strata/algorithms/spmv/mode.hpp>
#include <strata/core/kokkos_crs.hpp>
#include <strata_config.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace strata::baseline {

template <class ExecSpace>
struct cusparse_add_available : std::false_type {};

// Holds the cuSPARSE handle, matrix descriptor and work buffer across additions, as a code
// adding repeatedly would; add(space, mode_a, alpha, A, mode_b, beta, B) returns
// a new DeviceCsr with sorted rows. Inputs: DeviceCsr with sorted rows, modes N or T.
template <class Value, class ExecSpace>
class CusparseAdd;

}  // namespace strata::baseline

#if defined(KOKKOS_ENABLE_CUDA) && STRATA_ENABLE_CUSPARSE
#include <strata/algorithms/baseline/cuda/cusparse_add_cuda.hpp>
#endif
