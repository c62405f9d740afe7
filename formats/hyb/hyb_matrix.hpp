#pragma once
// HYB (ELL of width mu plus a row-sorted COO overflow), the update baseline of
// the DCSR paper (its SpMV is algorithms/spmv/hyb.hpp), written here because no library in use ships one any more.
// Insertion fills a row's free ELL slots, appends the rest to the COO part and
// re-sorts it by row.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/kokkos_crs.hpp>
#include <strata/formats/dcsr/dcsr_batch.hpp>

#include <Kokkos_Sort.hpp>

#include <cstdint>
#include <memory>
#include <type_traits>

namespace strata {

template <class Value, class Device>
struct HybView {
  int num_rows = 0;
  int num_cols = 0;
  int width = 0;
  int coo_nnz = 0;
  Kokkos::View<int*, Device> ell_fill;     // used ELL slots per row
  Kokkos::View<int*, Device> ell_cols;     // width x rows, column-major (slot j of row r at j * rows + r)
  Kokkos::View<Value*, Device> ell_values;
  Kokkos::View<int*, Device> coo_rows;     // sorted by row
  Kokkos::View<int*, Device> coo_cols;
  Kokkos::View<Value*, Device> coo_values;
};

template <class Device>
struct HybEllFillSum {
  Kokkos::View<int*, Device> fill;

  KOKKOS_INLINE_FUNCTION void operator()(const int r, index_type& sum) const { sum += fill(r); }
};

template <class Value, class Device, class RowView, class ColView, class ValueView>
struct HybInsertEll {
  HybView<Value, Device> v;
  RowView rows;
  ColView cols;
  ValueView values;
  Kokkos::View<int*, Device> overflows;

  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    const int r = static_cast<int>(rows(i));
    const int slot = Kokkos::atomic_fetch_add(&v.ell_fill(r), 1);
    overflows(i) = slot < v.width ? 0 : 1;
    if (slot < v.width) {
      v.ell_cols(static_cast<std::size_t>(slot) * v.num_rows + r) = static_cast<int>(cols(i));
      v.ell_values(static_cast<std::size_t>(slot) * v.num_rows + r) = values(i);
    }
  }
};

// HybInsertEll bumps ell_fill for overflowing entries too, so it can end above the width.
template <class Value, class Device>
struct HybClampEllFill {
  HybView<Value, Device> v;

  KOKKOS_INLINE_FUNCTION void operator()(const int r) const {
    if (v.ell_fill(r) > v.width) v.ell_fill(r) = v.width;
  }
};

template <class Device>
struct HybOverflowPositions {
  Kokkos::View<int*, Device> position;
  Kokkos::View<int*, Device> overflows;

  KOKKOS_INLINE_FUNCTION void operator()(const int i, int& at, const bool final) const {
    if (final) position(i) = at;
    at += overflows(i);
  }
};

template <class Value, class Device, class RowView, class ColView, class ValueView>
struct HybAppendCoo {
  Kokkos::View<int*, Device> overflows;
  Kokkos::View<int*, Device> position;
  int old_nnz;
  HybView<Value, Device> grown;
  RowView rows;
  ColView cols;
  ValueView values;

  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    if (overflows(i) == 0) return;
    const int at = old_nnz + position(i);
    grown.coo_rows(at) = static_cast<int>(rows(i));
    grown.coo_cols(at) = static_cast<int>(cols(i));
    grown.coo_values(at) = values(i);
  }
};

template <class Value, class Device>
class HybMatrix {
 public:
  using view_type = HybView<Value, Device>;
  using value_type = Value;
  using device_type = Device;
  using execution_space = typename Device::execution_space;

  HybMatrix() = default;
  explicit HybMatrix(view_type v) : v_(std::move(v)) {}
  const view_type& view() const { return v_; }
  // Same for this matrix and its copies, through insertions: what SpMV handles are tied to.
  const void* identity_key() const { return shared_.get(); }
  // Counts the insertions into this matrix and its copies (which share the ELL arrays): an SpMV
  // handle that keeps an encoding of the ELL columns compares it to know when to redo it.
  std::uint64_t insertions() const { return shared_->insertions; }
  int num_rows() const { return v_.num_rows; }
  int num_cols() const { return v_.num_cols; }

  index_type nnz() const {
    index_type ell = 0;
    const auto fill = v_.ell_fill;
    Kokkos::parallel_reduce("strata::hyb::nnz", Kokkos::RangePolicy<execution_space>(0, v_.num_rows),
                            HybEllFillSum<Device>{fill}, ell);
    return ell + v_.coo_nnz;
  }

  std::size_t memory_bytes() const {
    return v_.ell_fill.span() * sizeof(int) + v_.ell_cols.span() * sizeof(int) + v_.ell_values.span() * sizeof(Value) +
           static_cast<std::size_t>(v_.coo_nnz) * (2 * sizeof(int) + sizeof(Value));
  }

  // Appends the batch (duplicates kept as separate entries).
  template <class RowView, class ColView, class ValueView>
  void insert(const RowView& rows, const ColView& cols, const ValueView& values) {
    STRATA_REQUIRE(rows.extent(0) == cols.extent(0) && rows.extent(0) == values.extent(0),
                   "HybMatrix::insert: rows, cols and values differ in length");
    const int n = static_cast<int>(rows.extent(0));
    if (n == 0) return;
    Impl::require_batch_in_range<execution_space>(v_.num_rows, v_.num_cols, rows, cols, "HybMatrix::insert");
    ++shared_->insertions;
    const view_type v = v_;
    Kokkos::View<int*, Device> overflows(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hyb::overflows"), n);
    Kokkos::parallel_for("strata::hyb::insert_ell", Kokkos::RangePolicy<execution_space>(0, n),
                         HybInsertEll<Value, Device, RowView, ColView, ValueView>{v, rows, cols, values, overflows});
    Kokkos::parallel_for("strata::hyb::clamp_fill", Kokkos::RangePolicy<execution_space>(0, v.num_rows),
                         HybClampEllFill<Value, Device>{v});
    Kokkos::View<int*, Device> position(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hyb::position"), n);
    int overflow = 0;
    Kokkos::parallel_scan("strata::hyb::overflow_positions", Kokkos::RangePolicy<execution_space>(0, n),
                          HybOverflowPositions<Device>{position, overflows}, overflow);
    if (overflow == 0) return;
    const int old_nnz = v.coo_nnz;
    const int total = old_nnz + overflow;
    view_type grown = v;
    grown.coo_nnz = total;
    grown.coo_rows = Kokkos::View<int*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hyb::coo_rows"), total);
    grown.coo_cols = Kokkos::View<int*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hyb::coo_cols"), total);
    grown.coo_values =
        Kokkos::View<Value*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hyb::coo_values"), total);
    const auto old_range = std::make_pair(0, old_nnz);
    Kokkos::deep_copy(Kokkos::subview(grown.coo_rows, old_range), Kokkos::subview(v.coo_rows, old_range));
    Kokkos::deep_copy(Kokkos::subview(grown.coo_cols, old_range), Kokkos::subview(v.coo_cols, old_range));
    Kokkos::deep_copy(Kokkos::subview(grown.coo_values, old_range), Kokkos::subview(v.coo_values, old_range));
    Kokkos::parallel_for("strata::hyb::append_coo", Kokkos::RangePolicy<execution_space>(0, n),
                         HybAppendCoo<Value, Device, RowView, ColView, ValueView>{overflows, position, old_nnz, grown,
                                                                                  rows, cols, values});
    sort_coo_by_row(grown);
    v_ = grown;
  }

 private:
  static void sort_coo_by_row(const view_type& v) {
    using Comparator = Kokkos::BinOp1D<Kokkos::View<int*, Device>>;
    // One bin per row: bin(r) = r.
    Comparator bin_op(v.num_rows, 0, v.num_rows);
    Kokkos::BinSort<Kokkos::View<int*, Device>, Comparator> sorter(v.coo_rows, bin_op, false);
    sorter.create_permute_vector();
    sorter.sort(v.coo_cols);
    sorter.sort(v.coo_values);
    sorter.sort(v.coo_rows);
  }

  struct Shared {
    std::uint64_t insertions = 0;
  };

  view_type v_;
  std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
};

template <class RowMap>
struct HybCsrOverflowCount {
  RowMap row_map;
  int width;

  KOKKOS_INLINE_FUNCTION void operator()(const int r, int& sum) const {
    const int length = static_cast<int>(row_map(r + 1) - row_map(r));
    sum += length > width ? length - width : 0;
  }
};

template <class Device, class RowMap>
struct HybCsrCooOffsets {
  RowMap row_map;
  Kokkos::View<int*, Device> coo_begin;
  int width;

  KOKKOS_INLINE_FUNCTION void operator()(const int r, int& at, const bool final) const {
    const int length = static_cast<int>(row_map(r + 1) - row_map(r));
    if (final) coo_begin(r) = at;
    at += length > width ? length - width : 0;
  }
};

template <class Value, class Device, class RowMap, class Entries, class Values>
struct HybFromCsrFill {
  RowMap row_map;
  Entries entries;
  Values values;
  int width;
  HybView<Value, Device> v;
  Kokkos::View<int*, Device> coo_begin;

  KOKKOS_INLINE_FUNCTION void operator()(const int r) const {
    const int begin = static_cast<int>(row_map(r));
    const int length = static_cast<int>(row_map(r + 1)) - begin;
    const int in_ell = length < width ? length : width;
    v.ell_fill(r) = in_ell;
    for (int j = 0; j < in_ell; ++j) {
      v.ell_cols(static_cast<std::size_t>(j) * v.num_rows + r) = entries(begin + j);
      v.ell_values(static_cast<std::size_t>(j) * v.num_rows + r) = values(begin + j);
    }
    for (int j = in_ell; j < length; ++j) {
      const int at = coo_begin(r) + j - in_ell;
      v.coo_rows(at) = r;
      v.coo_cols(at) = entries(begin + j);
      v.coo_values(at) = values(begin + j);
    }
  }
};

// HYB with ELL width `width` from CSR: the first `width` entries of each row
// in ELL, the rest in the COO part.
template <class Value, class Device, class CrsMatrix>
HybMatrix<Value, Device> hyb_from_csr(const CrsMatrix& csr, int width) {
  using ExecSpace = typename Device::execution_space;
  STRATA_REQUIRE(width >= 0, "hyb_from_csr: width must not be negative");
  HybView<Value, Device> v;
  v.num_rows = csr.numRows();
  v.num_cols = csr.numCols();
  v.width = width;
  v.ell_fill = Kokkos::View<int*, Device>("strata::hyb::ell_fill", v.num_rows);
  v.ell_cols = Kokkos::View<int*, Device>("strata::hyb::ell_cols", static_cast<std::size_t>(width) * v.num_rows);
  v.ell_values = Kokkos::View<Value*, Device>("strata::hyb::ell_values", static_cast<std::size_t>(width) * v.num_rows);
  const auto row_map = csr.graph.row_map;
  const auto entries = csr.graph.entries;
  const auto values = csr.values;
  using RowMap = std::remove_const_t<decltype(row_map)>;
  using Entries = std::remove_const_t<decltype(entries)>;
  using Values = std::remove_const_t<decltype(values)>;
  int overflow = 0;
  Kokkos::parallel_reduce("strata::hyb::count_overflow", Kokkos::RangePolicy<ExecSpace>(0, v.num_rows),
                          HybCsrOverflowCount<RowMap>{row_map, width}, overflow);
  Kokkos::View<int*, Device> coo_begin("strata::hyb::coo_begin", v.num_rows);
  Kokkos::parallel_scan("strata::hyb::coo_offsets", Kokkos::RangePolicy<ExecSpace>(0, v.num_rows),
                        HybCsrCooOffsets<Device, RowMap>{row_map, coo_begin, width});
  v.coo_nnz = overflow;
  v.coo_rows = Kokkos::View<int*, Device>("strata::hyb::coo_rows", overflow);
  v.coo_cols = Kokkos::View<int*, Device>("strata::hyb::coo_cols", overflow);
  v.coo_values = Kokkos::View<Value*, Device>("strata::hyb::coo_values", overflow);
  Kokkos::parallel_for("strata::hyb::from_csr", Kokkos::RangePolicy<ExecSpace>(0, v.num_rows),
                       HybFromCsrFill<Value, Device, RowMap, Entries, Values>{row_map, entries, values, width, v,
                                                                             coo_begin});
  return HybMatrix<Value, Device>(v);
}

}  // namespace strata
