#pragma once
// Building DCSR (blank, from CSR by a copy, from COO by insertion) and turning
// it back into CSR.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/kokkos_crs.hpp>
#include <strata/formats/dcsr/dcsr_defragment.hpp>
#include <strata/formats/dcsr/dcsr_insert.hpp>

#include <type_traits>

namespace strata {

template <class Value, class Device>
struct DcsrBlankSegments {
  DcsrView<Value, Device> v;
  int mu;

  KOKKOS_INLINE_FUNCTION void operator()(const int r) const { v.set_single_segment(r, r * mu, r * mu + mu); }
};

// num_rows x num_cols without entries; every row owns one segment of mu free slots (by default
// none: the pool is sized by the first batch).
template <class Value, class Device>
DcsrMatrix<Value, Device> dcsr_blank(index_type num_rows, index_type num_cols, DcsrParameters parameters = {}) {
  using ExecSpace = typename Device::execution_space;
  parameters.validate();
  const int mu = parameters.initial_row_slots;
  const index_type slots = num_rows * mu;
  index_type capacity =
      parameters.capacity > 0 ? parameters.capacity : parameters.capacity_for(slots, num_rows, sizeof(Value));
  STRATA_REQUIRE(capacity >= slots, "dcsr_blank: capacity " + std::to_string(capacity) + " is below the " +
                                        std::to_string(slots) + " initial slots (rows x mu)");
  auto storage = Impl::allocate_dcsr<Value, Device>(
      num_rows, num_cols, parameters.max_segments, capacity,
      dcsr_record_capacity(num_rows, parameters.max_segments, capacity, slots), "dcsr_blank");
  const auto& v = storage.view;
  if (mu > 0) {
    Kokkos::parallel_for("strata::dcsr::blank", Kokkos::RangePolicy<ExecSpace>(0, v.num_rows),
                         DcsrBlankSegments<Value, Device>{v, mu});
  }
  Kokkos::deep_copy(v.allocated, static_cast<int>(slots));
  return DcsrMatrix<Value, Device>(storage, parameters);
}

template <class Value, class Device, class RowMap>
struct DcsrSegmentsFromCsr {
  DcsrView<Value, Device> v;
  RowMap row_map;

  KOKKOS_INLINE_FUNCTION void operator()(const int r) const {
    const int begin = static_cast<int>(row_map(r));
    const int end = static_cast<int>(row_map(r + 1));
    v.set_single_segment(r, begin, end);
    v.row_sizes(r) = end - begin;
  }
};

// A copy of a CSR matrix: row r's one segment is its CSR range, the pool
// continues beyond nnz with its spare room.
template <class Value, class Device, class CrsMatrix>
DcsrMatrix<Value, Device> dcsr_from_csr(const CrsMatrix& csr, DcsrParameters parameters = {}) {
  using ExecSpace = typename Device::execution_space;
  static_assert(std::is_same<typename CrsMatrix::non_const_value_type, Value>::value,
                "dcsr_from_csr: the CSR value type must equal the DCSR value type");
  parameters.validate();
  const index_type rows = csr.numRows();
  const index_type nnz = csr.nnz();
  const index_type capacity = parameters.capacity_for(nnz, rows, sizeof(Value));
  STRATA_REQUIRE(parameters.max_capacity == 0 || nnz <= parameters.max_capacity,
                 "dcsr_from_csr: nnz " + std::to_string(nnz) + " exceeds max_capacity " +
                     std::to_string(parameters.max_capacity));
  auto storage = Impl::allocate_dcsr<Value, Device>(rows, csr.numCols(), parameters.max_segments, capacity,
                                                    dcsr_record_capacity(rows, parameters.max_segments, capacity, nnz),
                                                    "dcsr_from_csr");
  const auto& v = storage.view;
  const auto row_map = csr.graph.row_map;
  Kokkos::parallel_for("strata::dcsr::from_csr", Kokkos::RangePolicy<ExecSpace>(0, v.num_rows),
                       DcsrSegmentsFromCsr<Value, Device, std::remove_const_t<decltype(row_map)>>{v, row_map});
  const auto range = std::make_pair<std::size_t, std::size_t>(0, static_cast<std::size_t>(nnz));
  Kokkos::deep_copy(Kokkos::subview(v.cols, range), Kokkos::subview(csr.graph.entries, range));
  Kokkos::deep_copy(Kokkos::subview(v.values, range), Kokkos::subview(csr.values, range));
  Kokkos::deep_copy(v.allocated, static_cast<int>(nnz));
  return DcsrMatrix<Value, Device>(storage, parameters);
}

// From (row, col, value) triplets on the device: a matrix without slots
// receives them as one inserted batch.
template <class Value, class Device, class RowView, class ColView, class ValueView>
DcsrMatrix<Value, Device> dcsr_from_coo(index_type num_rows, index_type num_cols, const RowView& rows,
                                        const ColView& cols, const ValueView& values, DuplicatePolicy policy,
                                        DcsrParameters parameters = {}) {
  parameters.validate();
  DcsrParameters empty = parameters;
  empty.initial_row_slots = 0;
  if (parameters.capacity == 0)
    empty.capacity = parameters.capacity_for(static_cast<index_type>(rows.extent(0)), num_rows, sizeof(Value));
  auto A = dcsr_blank<Value, Device>(num_rows, num_cols, empty);
  dcsr_insert(A, rows, cols, values, policy);
  return DcsrMatrix<Value, Device>(A.storage(), parameters);
}

// Row n's offset is the total, so the scan runs over n + 1 rows.
template <class Value, class Device, class RowMap>
struct DcsrCsrRowOffsets {
  DcsrView<Value, Device> v;
  RowMap row_map;
  int n;

  KOKKOS_INLINE_FUNCTION void operator()(const int r, int& sum, const bool final) const {
    if (final) row_map(r) = sum;
    if (r < n) sum += v.row_sizes(r);
  }
};

// CSR with the rows' entries in their DCSR order (not sorted by column;
// duplicates kept as they are stored).
template <class Value, class Device>
DeviceCsr<Value, Device> dcsr_to_csr(const DcsrMatrix<Value, Device>& A) {
  using ExecSpace = typename Device::execution_space;
  using Csr = DeviceCsr<Value, Device>;
  const auto v = A.view();
  const int n = v.num_rows;
  typename Csr::row_map_type::non_const_type row_map(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::dcsr::to_csr::row_map"), n + 1);
  int nnz = 0;
  Kokkos::parallel_scan("strata::dcsr::to_csr_offsets", Kokkos::RangePolicy<ExecSpace>(0, n + 1),
                        DcsrCsrRowOffsets<Value, Device, decltype(row_map)>{v, row_map, n}, nnz);
  typename Csr::index_type::non_const_type entries(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::dcsr::to_csr::entries"), nnz);
  typename Csr::values_type::non_const_type values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::dcsr::to_csr::values"), nnz);
  Impl::gather_dcsr_rows<Value, Device>(v, row_map, Kokkos::View<int*, Device>(), entries, values);
  return Csr("strata::dcsr::to_csr", n, v.num_cols, nnz, values, row_map, entries);
}

}  // namespace strata
