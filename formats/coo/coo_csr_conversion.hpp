#pragma once
// Device-side conversions between the COO format and the CSR baseline matrix.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/counts_to_offsets.hpp>
#include <strata/formats/coo/coo_matrix.hpp>

#include <cstdint>
#include <type_traits>

namespace strata {

template <class Device, class RowMap, class Entries>
struct CooRowsFromCsr {
  RowMap row_map;
  Kokkos::View<int*, Device> rows;
  Entries entries;

  KOKKOS_INLINE_FUNCTION void operator()(const int i, int& unsorted) const {
    for (int k = row_map(i); k < row_map(i + 1); ++k) {
      rows(k) = i;
      if (k > row_map(i) && entries(k) <= entries(k - 1)) ++unsorted;
    }
  }
};

// Expands the row offsets of a CSR matrix into row indices on the device.
// Columns must be sorted within each row (checked on the device; a matrix
// with unsorted rows is refused with an error rather than reordered silently).
template <class Value, class Device>
CooMatrix<Value, Device> coo_from_csr(const DeviceCsr<Value, Device>& A, const std::string& label) {
  using execution_space = typename Device::execution_space;
  coo_detail::require_int_sized(A.numRows(), A.numCols(), A.nnz(), label);
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  const int num_rows = A.numRows();
  const std::size_t nnz = static_cast<std::size_t>(A.nnz());
  Kokkos::View<int*, Device> rows(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::rows"), nnz);
  Kokkos::View<int*, Device> cols(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::cols"), nnz);
  Kokkos::View<Value*, Device> values(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::values"), nnz);
  using RowMap = std::remove_const_t<decltype(row_map)>;
  using Entries = std::remove_const_t<decltype(entries)>;
  int unsorted_rows = 0;
  Kokkos::parallel_reduce("strata::coo_from_csr", Kokkos::RangePolicy<execution_space>(0, num_rows),
                          CooRowsFromCsr<Device, RowMap, Entries>{row_map, rows, entries}, unsorted_rows);
  STRATA_REQUIRE(unsorted_rows == 0, label + ": the CSR matrix has " + std::to_string(unsorted_rows) +
                                         " places where columns are not strictly increasing within a row");
  Kokkos::deep_copy(cols, entries);
  Kokkos::deep_copy(values, A.values);
  return CooMatrix<Value, Device>(num_rows, A.numCols(), rows, cols, values);
}

// Entry k adds to row_map(row + 1), so the scan over row_map yields the offsets in place.
template <class RowMap, class Rows>
struct CsrFromCooRowCount {
  RowMap row_map;
  Rows rows;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k) const { Kokkos::atomic_add(&row_map(rows(k) + 1), 1); }
};

// Counts entries per row and scans the counts into row offsets on the device.
template <class Value, class Device>
DeviceCsr<Value, Device> csr_from_coo(const CooMatrix<Value, Device>& A, const std::string& label) {
  using execution_space = typename Device::execution_space;
  using matrix_type = DeviceCsr<Value, Device>;
  typename matrix_type::row_map_type::non_const_type row_map(label + "::row_map",
                                                              static_cast<std::size_t>(A.num_rows()) + 1);
  const auto rows = A.rows();
  using RowMap = decltype(row_map);
  using Rows = std::remove_const_t<decltype(rows)>;
  Kokkos::parallel_for("strata::csr_from_coo::count", Kokkos::RangePolicy<execution_space>(0, A.nnz()),
                       CsrFromCooRowCount<RowMap, Rows>{row_map, rows});
  counts_to_offsets("strata::csr_from_coo::offsets", execution_space{}, row_map, A.num_rows());
  typename matrix_type::index_type::non_const_type entries(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::entries"), static_cast<std::size_t>(A.nnz()));
  typename matrix_type::values_type::non_const_type values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::values"), static_cast<std::size_t>(A.nnz()));
  Kokkos::deep_copy(entries, A.cols());
  Kokkos::deep_copy(values, A.values());
  return matrix_type(label, A.num_rows(), A.num_cols(), static_cast<int>(A.nnz()), values, row_map, entries);
}

}  // namespace strata
