#pragma once
// The Kokkos Kernels baseline strata::add is measured against (issue 10):
// C = alpha op(A) + beta op(B) on KokkosSparse::CrsMatrix with Kokkos Kernels'
// spadd (symbolic, then numeric, as a code forming a new sum calls them), where
// op = T is Kokkos Kernels' explicit transpose, part of the addition's cost.
#include <strata/algorithms/spmv/mode.hpp>
#include <strata/core/kokkos_compat.hpp>
#include <strata/core/kokkos_crs.hpp>

#include <KokkosKernels_Handle.hpp>
#include <KokkosSparse_spadd.hpp>

#include <string>

namespace strata::baseline {

// op(A) for op N (A itself, shared) or T (a new matrix; its rows are not sorted).
template <class Matrix>
Matrix kk_apply_mode(SpmvMode mode, const Matrix& A) {
  STRATA_REQUIRE(mode == SpmvMode::normal || mode == SpmvMode::transpose,
                 std::string("baseline::kk_add: mode ") + to_string(mode) + " (only N and T are measured)");
  if (mode == SpmvMode::normal) return A;
  using row_map = typename Matrix::row_map_type::non_const_type;
  using entries = typename Matrix::index_type::non_const_type;
  using values = typename Matrix::values_type::non_const_type;
  row_map t_row_map("strata::kk_add::transpose_row_map", A.numCols() + 1);
  entries t_entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::kk_add::transpose_entries"), A.nnz());
  values t_values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::kk_add::transpose_values"), A.nnz());
  compat::kk_sparse_utils::transpose_matrix<typename Matrix::row_map_type, typename Matrix::index_type,
                                            typename Matrix::values_type, row_map, entries, values, row_map,
                                            typename Matrix::execution_space>(
      A.numRows(), A.numCols(), A.graph.row_map, A.graph.entries, A.values, t_row_map, t_entries, t_values);
  return Matrix("strata::kk_add::transpose", A.numCols(), A.numRows(), A.nnz(), t_values, t_row_map, t_entries);
}

template <class Matrix>
Matrix kk_add(SpmvMode mode_a, const typename Matrix::non_const_value_type& alpha, const Matrix& A, SpmvMode mode_b,
              const typename Matrix::non_const_value_type& beta, const Matrix& B) {
  using exec = typename Matrix::execution_space;
  using memory = typename Matrix::memory_space;
  require_same_op_shape("baseline::kk_add", op_shape(mode_a, A.numRows(), A.numCols()),
                        op_shape(mode_b, B.numRows(), B.numCols()));
  const Matrix a = kk_apply_mode(mode_a, A);
  const Matrix b = kk_apply_mode(mode_b, B);
  using handle_type =
      KokkosKernels::Experimental::KokkosKernelsHandle<typename Matrix::size_type, typename Matrix::ordinal_type,
                                                       typename Matrix::non_const_value_type, exec, memory, memory>;
  handle_type handle;
  // Kokkos Kernels' faster path needs sorted rows, which a transpose does not give.
  handle.create_spadd_handle(mode_a == SpmvMode::normal && mode_b == SpmvMode::normal);
  Matrix C;
  KokkosSparse::spadd_symbolic(&handle, a, b, C);
  KokkosSparse::spadd_numeric(&handle, alpha, a, beta, b, C);
  handle.destroy_spadd_handle();
  // spadd sizes C's columns from its entries; op(A)'s column count is kept.
  return Matrix("strata::kk_add::sum", a.numRows(), a.numCols(), C.nnz(), C.values, C.graph.row_map, C.graph.entries);
}

}  // namespace strata::baseline
