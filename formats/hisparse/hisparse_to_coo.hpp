#pragma once
// Device conversion HiSparse -> COO and CSR, honouring the matrix's transpose
// flag and scale factor. COO comes out in tree order of the stored matrix;
// CSR rows are sorted by column (a heap sort per row, no extra memory).
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/counts_to_offsets.hpp>
#include <strata/core/host_coo.hpp>
#include <strata/core/kokkos_crs.hpp>
#include <strata/formats/hisparse/hisparse_leaves.hpp>

#include <limits>

namespace strata {

template <class Value, class Device>
struct DeviceCoo {
  index_type num_rows = 0;
  index_type num_cols = 0;
  Kokkos::View<index_type*, Device> rows, cols;
  Kokkos::View<Value*, Device> values;
};

namespace hisparse::Impl {

template <class Value>
KOKKOS_INLINE_FUNCTION void sift_down(int* cols, Value* vals, index_type root, index_type n) {
  while (true) {
    index_type child = 2 * root + 1;
    if (child >= n) return;
    if (child + 1 < n && cols[child + 1] > cols[child]) ++child;
    if (cols[root] >= cols[child]) return;
    const int c = cols[root];
    cols[root] = cols[child];
    cols[child] = c;
    const Value v = vals[root];
    vals[root] = vals[child];
    vals[child] = v;
    root = child;
  }
}

template <class Value>
KOKKOS_INLINE_FUNCTION void heap_sort_by_column(int* cols, Value* vals, index_type n) {
  for (index_type i = n / 2; i-- > 0;) sift_down(cols, vals, i, n);
  for (index_type end = n - 1; end > 0; --end) {
    const int c = cols[0];
    cols[0] = cols[end];
    cols[end] = c;
    const Value v = vals[0];
    vals[0] = vals[end];
    vals[end] = v;
    sift_down(cols, vals, 0, end);
  }
}

}  // namespace hisparse::Impl

template <class Value, class Device>
struct HiSparseLeavesToCoo {
  hisparse::HiSparseRef<Value, Device> R;
  Kokkos::View<hisparse::offset_type*, Device> refs;
  Kokkos::View<index_type*, Device> row0, col0, start;
  Kokkos::View<index_type*, Device> rows, cols;
  Kokkos::View<Value*, Device> values;
  int b;
  bool transposed;
  Value scale;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i) const {
    const index_type base = start(i), r0 = row0(i), c0 = col0(i);
    hisparse::for_each_in_node_sequential<Value>(
        R.bytes(), refs(i), b, sizeof(Value),
        [&](std::uint32_t k, std::uint32_t lr, std::uint32_t lc, const Value& v) {
          const index_type r = r0 + lr, c = c0 + lc;
          rows(base + k) = transposed ? c : r;
          cols(base + k) = transposed ? r : c;
          values(base + k) = scale * v;
        });
  }
};

// A's entries (its transpose flag and scale factor honoured) as device COO, in tree order.
template <class Value, class Device>
DeviceCoo<Value, Device> to_device_coo(const HiSparseMatrix<Value, Device>& A) {
  using namespace hisparse;
  using exec = typename Device::execution_space;
  const LeafList<Device> leaves = collect_leaves(A);
  STRATA_REQUIRE(leaves.entries == A.nnz(), "to_device_coo: the tree holds " + std::to_string(leaves.entries) +
                                                " entries, the matrix says " + std::to_string(A.nnz()));
  DeviceCoo<Value, Device> out;
  out.num_rows = A.num_rows();
  out.num_cols = A.num_cols();
  out.rows = Kokkos::View<index_type*, Device>("strata::hisparse::coo_rows", leaves.entries);
  out.cols = Kokkos::View<index_type*, Device>("strata::hisparse::coo_cols", leaves.entries);
  out.values = Kokkos::View<Value*, Device>("strata::hisparse::coo_values", leaves.entries);
  Kokkos::parallel_for("strata::hisparse::to_coo", Kokkos::RangePolicy<exec>(0, leaves.size),
                       HiSparseLeavesToCoo<Value, Device>{A.ref(), leaves.refs, leaves.row0, leaves.col0,
                                                          leaves.entry_start, out.rows, out.cols, out.values,
                                                          A.log2_block(), A.transposed(), A.scale_factor()});
  exec().fence();
  return out;
}

template <class Value, class Device>
HostCoo<Value> to_host_coo(const HiSparseMatrix<Value, Device>& A) {
  const auto d = to_device_coo(A);
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.rows);
  auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.cols);
  auto v = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d.values);
  HostCoo<Value> out(d.num_rows, d.num_cols);
  out.rows.assign(r.data(), r.data() + r.extent(0));
  out.cols.assign(c.data(), c.data() + c.extent(0));
  out.values.assign(v.data(), v.data() + v.extent(0));
  return out;
}

// Entry k adds to row_map(row + 1), so the scan over row_map yields the offsets in place.
template <class Value, class Device>
struct HiSparseCsrCount {
  using csr = DeviceCsr<Value, Device>;
  typename csr::row_map_type::non_const_type row_map;
  Kokkos::View<index_type*, Device> rows;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type k) const { Kokkos::atomic_add(&row_map(rows(k) + 1), 1); }
};

template <class Value, class Device>
struct HiSparseCsrScatter {
  using csr = DeviceCsr<Value, Device>;
  Kokkos::View<index_type*, Device> rows, cols;
  Kokkos::View<Value*, Device> vals;
  typename csr::row_map_type::non_const_type row_map;
  Kokkos::View<int*, Device> cursor;
  typename csr::index_type::non_const_type entries;
  typename csr::values_type::non_const_type values;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type k) const {
    const index_type r = rows(k);
    const int at = row_map(r) + Kokkos::atomic_fetch_add(&cursor(r), 1);
    entries(at) = static_cast<int>(cols(k));
    values(at) = vals(k);
  }
};

template <class Value, class Device>
struct HiSparseCsrSortRows {
  using csr = DeviceCsr<Value, Device>;
  typename csr::row_map_type::non_const_type row_map;
  typename csr::index_type::non_const_type entries;
  typename csr::values_type::non_const_type values;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i) const {
    hisparse::Impl::heap_sort_by_column(entries.data() + row_map(i), values.data() + row_map(i),
                                        row_map(i + 1) - row_map(i));
  }
};

// HiSparse -> DeviceCsr (32-bit indices, as the Kokkos Kernels baseline uses).
template <class Value, class Device>
DeviceCsr<Value, Device> to_device_csr(const HiSparseMatrix<Value, Device>& A) {
  using exec = typename Device::execution_space;
  using policy = Kokkos::RangePolicy<exec>;
  STRATA_REQUIRE(A.num_rows() <= std::numeric_limits<int>::max() && A.num_cols() <= std::numeric_limits<int>::max() &&
                     A.nnz() <= std::numeric_limits<int>::max(),
                 "to_device_csr: " + std::to_string(A.num_rows()) + " x " + std::to_string(A.num_cols()) + " with " +
                     std::to_string(A.nnz()) + " nonzeros does not fit 32-bit CSR indices");
  const auto coo = to_device_coo(A);
  const index_type n = A.nnz(), m = A.num_rows();
  using csr = DeviceCsr<Value, Device>;
  typename csr::row_map_type::non_const_type row_map("strata::hisparse::csr_row_map", m + 1);
  typename csr::index_type::non_const_type entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hisparse::csr_entries"), n);
  typename csr::values_type::non_const_type values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hisparse::csr_values"), n);
  const auto rows = coo.rows, cols = coo.cols;
  const auto vals = coo.values;
  Kokkos::parallel_for("strata::hisparse::csr_count", policy(0, n), HiSparseCsrCount<Value, Device>{row_map, rows});
  counts_to_offsets("strata::hisparse::csr_offsets", exec{}, row_map, m);
  Kokkos::View<int*, Device> cursor("strata::hisparse::csr_cursor", m);
  Kokkos::parallel_for("strata::hisparse::csr_scatter", policy(0, n),
                       HiSparseCsrScatter<Value, Device>{rows, cols, vals, row_map, cursor, entries, values});
  Kokkos::parallel_for("strata::hisparse::csr_sort_rows", policy(0, m),
                       HiSparseCsrSortRows<Value, Device>{row_map, entries, values});
  exec().fence();
  return csr("strata::hisparse::csr", static_cast<int>(m), static_cast<int>(A.num_cols()), static_cast<int>(n), values,
             row_map, entries);
}

}  // namespace strata
