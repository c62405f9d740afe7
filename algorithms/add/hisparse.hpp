#pragma once
// strata::add on HiSparseMatrix, first version: each term's entries come out of
// its tree (its transpose flag and scale factor honoured), conjugated and scaled
// by alpha or beta, straight into one concatenation, converted back to a
// HiSparse tree whose leaf level adds the entries at equal coordinates
// (hisparse::Duplicates::sum). Every transpose combination costs the same:
// transposing a term only swaps the coordinates it emits. The block size of C
// is A's.
// Not yet the dual traversal of the ICS'17 paper (issue 10): that one walks both
// trees on the scheduler and shares sub-trees present in one term only.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/algorithms/add/add_format.hpp>
#include <strata/algorithms/spmv/mode.hpp>
#include <strata/formats/hisparse/hisparse_from_coo.hpp>
#include <strata/formats/hisparse/hisparse_to_coo.hpp>

#include <string>

namespace strata::Impl {

template <class ExecSpace, class Value, class Device>
struct AddFormat<ExecSpace, HiSparseMatrix<Value, Device>> {
  static constexpr bool available = true;
  static constexpr const char* name = "HiSparse";
  using matrix_type = HiSparseMatrix<Value, Device>;
  using value_type = Value;
  // The conversion runs on the matrix's execution space (Kokkos::sort takes no instance in Kokkos 3.4).
  static_assert(std::is_same_v<ExecSpace, typename Device::execution_space>,
                "strata::add: a HiSparseMatrix adds on its own execution space (Device::execution_space)");

  static matrix_type apply(const ExecSpace& space, SpmvMode mode_a, const Value& alpha, const matrix_type& A,
                           SpmvMode mode_b, const Value& beta, const matrix_type& B) {
    // Work queued on `space` may still be writing the terms' pools.
    space.fence();
    matrix_type a = A, b = B;
    if (is_transposed(mode_a)) a.transpose();
    if (is_transposed(mode_b)) b.transpose();
    // Both terms' entries, alpha * op(a) then beta * op(b), in one concatenation.
    const index_type na = a.nnz(), nb = b.nnz();
    Kokkos::View<index_type*, Device> rows(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::add::rows"), na + nb);
    Kokkos::View<index_type*, Device> cols(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::add::cols"), na + nb);
    Kokkos::View<Value*, Device> values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::add::values"), na + nb);
    write_device_coo(a, rows, cols, values, 0, alpha, is_conjugated(mode_a));
    write_device_coo(b, rows, cols, values, na, beta, is_conjugated(mode_b));
    return hisparse::Impl::FromCoo<Value, Device>::convert(rows, cols, values, a.num_rows(), a.num_cols(),
                                                           A.log2_block(), hisparse::Duplicates::sum);
  }
};

}  // namespace strata::Impl
