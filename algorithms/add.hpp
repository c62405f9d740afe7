#pragma once
// strata::add — C := alpha * op(A) + beta * op(B), a new matrix of A's format.
//
//   strata::AddHandle<ExecSpace, Matrix> handle;   // keeps the scratch from one addition to the next
//   auto C = strata::add(space, handle, "N", alpha, A, "T", beta, B);   // C = alpha A + beta B^T
//   auto C = strata::add(space, "N", alpha, A, "T", beta, B);   // one-shot: a handle made and dropped
//   auto C = strata::add("N", alpha, A, "N", beta, B);          // one-shot on the matrix's execution space
//
// op: "N", "T", "C" (conjugate), "H" (conjugate transpose), as strata::spmv
// spells them. op(A) and op(B) must have the same dimensions. The structure of
// C is the union of the terms' structures; entries that cancel stay stored
// zeros. Formats: HiSparseMatrix (algorithms/add/hisparse.hpp). Returns when C
// is complete. C's HiSparse pool may keep spare capacity, never more than the
// terms' pool bytes in all, where local edits of C append.
#include <strata/algorithms/add/add_format.hpp>
#include <strata/algorithms/add/handle.hpp>
#include <strata/algorithms/add/hisparse.hpp>

#include <string>
#include <type_traits>

namespace strata {

template <class ExecSpace, class Matrix, class AlphaType, class BetaType>
Matrix add(const ExecSpace& space, AddHandle<ExecSpace, Matrix>& handle, const char mode_a[], const AlphaType& alpha,
           const Matrix& A, const char mode_b[], const BetaType& beta, const Matrix& B) {
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "strata::add: the first argument must be a Kokkos execution space instance");
  static_assert(is_add_format<ExecSpace, Matrix>::value,
                "strata::add: Matrix is not a format strata::add supports (HiSparseMatrix) or its header "
                "(<strata/algorithms/add.hpp>) is not included");
  using format = Impl::AddFormat<ExecSpace, Matrix>;
  using value_type = typename format::value_type;
  static_assert(std::is_convertible_v<AlphaType, value_type> && std::is_convertible_v<BetaType, value_type>,
                "strata::add: alpha and beta must convert to the matrix's value type");
  const SpmvMode ma = parse_spmv_mode(mode_a, "strata::add (mode of A)");
  const SpmvMode mb = parse_spmv_mode(mode_b, "strata::add (mode of B)");
  const OpShape a = op_shape(ma, A.num_rows(), A.num_cols()), b = op_shape(mb, B.num_rows(), B.num_cols());
  STRATA_REQUIRE(a.rows == b.rows && a.cols == b.cols,
                 std::string("strata::add: op(A) (mode ") + to_string(ma) + " of a " + std::to_string(A.num_rows()) +
                     " x " + std::to_string(A.num_cols()) + " " + format::name + " matrix) is " +
                     std::to_string(a.rows) + " x " + std::to_string(a.cols) + " but op(B) (mode " + to_string(mb) +
                     " of a " + std::to_string(B.num_rows()) + " x " + std::to_string(B.num_cols()) + " matrix) is " +
                     std::to_string(b.rows) + " x " + std::to_string(b.cols));
  return format::apply(space, handle.state(), ma, static_cast<value_type>(alpha), A, mb, static_cast<value_type>(beta),
                       B);
}

// One-shot addition: the scratch is allocated and released with a handle of its own.
template <class ExecSpace, class Matrix, class AlphaType, class BetaType,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value, int> = 0>
Matrix add(const ExecSpace& space, const char mode_a[], const AlphaType& alpha, const Matrix& A, const char mode_b[],
           const BetaType& beta, const Matrix& B) {
  AddHandle<ExecSpace, Matrix> handle;
  return strata::add(space, handle, mode_a, alpha, A, mode_b, beta, B);
}

template <class Matrix, class AlphaType, class BetaType>
Matrix add(const char mode_a[], const AlphaType& alpha, const Matrix& A, const char mode_b[], const BetaType& beta,
           const Matrix& B) {
  return strata::add(typename Matrix::execution_space(), mode_a, alpha, A, mode_b, beta, B);
}

}  // namespace strata
