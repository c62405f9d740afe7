#pragma once
// A CSR matrix kept as column panels (issue 16): panel p holds the entries of
// columns [column_begin(p), column_begin(p + 1)) as a CSR matrix of all the rows
// over those columns, with column indices local to the panel. A product then
// gathers from one panel's part of x at a time (algorithms/spmv/column_split.hpp),
// which the L2 can hold where the whole of x does not: on the H100 an x of 32 MiB
// gathered at random missed the L2 for about half of its gathers, one of 16 MiB
// for a tenth (docs/PERFORMANCE.md, 2026-11-27). The panels are a converted copy,
// as HYB's arrays are: values changed in the source CSR are not seen.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/counts_to_offsets.hpp>
#include <strata/core/error.hpp>
#include <strata/formats/column_split/column_panels.hpp>
#include <strata/core/kokkos_crs.hpp>

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace strata {

// Row r's entries in columns [begin, end): counted into count(r + 1).
template <class RowMap, class Entries, class Counts>
struct ColumnPanelCount {
  RowMap row_map;
  Entries entries;
  Counts count;
  int begin, end;

  KOKKOS_INLINE_FUNCTION void operator()(const int r) const {
    int n = 0;
    for (auto k = row_map(r); k < row_map(r + 1); ++k) {
      const int c = entries(k);
      n += c >= begin && c < end ? 1 : 0;
    }
    count(r + 1) = n;
  }
};

// Row r's entries in columns [begin, end), in their order, to the panel's row r.
template <class RowMap, class Entries, class Values, class PanelOffsets, class PanelEntries, class PanelValues>
struct ColumnPanelFill {
  RowMap row_map;
  Entries entries;
  Values values;
  PanelOffsets panel_row_map;
  PanelEntries panel_entries;
  PanelValues panel_values;
  int begin, end;

  KOKKOS_INLINE_FUNCTION void operator()(const int r) const {
    int at = panel_row_map(r);
    for (auto k = row_map(r); k < row_map(r + 1); ++k) {
      const int c = entries(k);
      if (c >= begin && c < end) {
        panel_entries(at) = c - begin;
        panel_values(at) = values(k);
        ++at;
      }
    }
  }
};

template <class Value, class Device>
class ColumnSplitCsr {
 public:
  using csr_type = DeviceCsr<Value, Device>;
  using value_type = Value;
  using device_type = Device;
  using execution_space = typename Device::execution_space;

  ColumnSplitCsr() = default;
  ColumnSplitCsr(std::vector<csr_type> panels, std::vector<index_type> column_begin, index_type rows, index_type cols)
      : panels_(std::move(panels)), column_begin_(std::move(column_begin)), rows_(rows), cols_(cols) {
    STRATA_REQUIRE(column_begin_.size() == panels_.size() + 1 && !panels_.empty(),
                   "ColumnSplitCsr: " + std::to_string(panels_.size()) + " panels need " +
                       std::to_string(panels_.size() + 1) + " column starts, got " +
                       std::to_string(column_begin_.size()));
  }

  int num_panels() const { return static_cast<int>(panels_.size()); }
  const csr_type& panel(int p) const { return panels_[static_cast<std::size_t>(p)]; }
  index_type column_begin(int p) const { return column_begin_[static_cast<std::size_t>(p)]; }
  index_type num_rows() const { return rows_; }
  index_type num_cols() const { return cols_; }
  // Same for this matrix and its copies: what SpMV handles are tied to.
  const void* identity_key() const { return identity_.get(); }

  index_type nnz() const {
    index_type n = 0;
    for (const auto& p : panels_) n += static_cast<index_type>(p.nnz());
    return n;
  }
  std::size_t memory_bytes() const {
    std::size_t bytes = 0;
    for (const auto& p : panels_) {
      bytes +=
          p.graph.row_map.span() * sizeof(int) + p.graph.entries.span() * sizeof(int) + p.values.span() * sizeof(Value);
    }
    return bytes;
  }

 private:
  std::vector<csr_type> panels_;
  std::vector<index_type> column_begin_;
  index_type rows_ = 0, cols_ = 0;
  std::shared_ptr<int> identity_ = std::make_shared<int>(0);
};

// A's columns in `panels` panels of equal width (the last one narrower when they
// do not divide), each a CSR matrix of all of A's rows; entries keep their order
// within a row. Throws strata::Error when `panels` is not in 1..max(1, columns).
template <class Value, class Device>
ColumnSplitCsr<Value, Device> split_columns(const DeviceCsr<Value, Device>& A, int panels) {
  using csr_type = DeviceCsr<Value, Device>;
  using exec = typename Device::execution_space;
  const int rows = A.numRows();
  const int cols = A.numCols();
  STRATA_REQUIRE(panels >= 1 && panels <= (cols > 0 ? cols : 1), "split_columns: panels = " + std::to_string(panels) +
                                                                     " must be between 1 and the " +
                                                                     std::to_string(cols) + " columns");
  const int width = cols > 0 ? (cols + panels - 1) / panels : 0;
  std::vector<csr_type> out;
  std::vector<index_type> begins;
  for (int p = 0; p < panels; ++p) {
    const int begin = std::min(cols, p * width);
    const int end = p + 1 == panels ? cols : std::min(cols, begin + width);
    begins.push_back(begin);
    const std::string label = "strata::column_split::panel" + std::to_string(p);
    typename csr_type::row_map_type::non_const_type row_map(label + "::row_map", static_cast<std::size_t>(rows) + 1);
    if (rows > 0) {
      Kokkos::parallel_for("strata::column_split::count", Kokkos::RangePolicy<exec>(0, rows),
                           ColumnPanelCount<decltype(A.graph.row_map), decltype(A.graph.entries), decltype(row_map)>{
                               A.graph.row_map, A.graph.entries, row_map, begin, end});
      counts_to_offsets("strata::column_split::offsets", exec{}, row_map, rows);
    }
    int nnz = 0;
    if (rows > 0) Kokkos::deep_copy(nnz, Kokkos::subview(row_map, static_cast<std::size_t>(rows)));
    typename csr_type::index_type::non_const_type entries(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::entries"), static_cast<std::size_t>(nnz));
    typename csr_type::values_type::non_const_type values(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::values"), static_cast<std::size_t>(nnz));
    if (rows > 0 && nnz > 0) {
      Kokkos::parallel_for("strata::column_split::fill", Kokkos::RangePolicy<exec>(0, rows),
                           ColumnPanelFill<decltype(A.graph.row_map), decltype(A.graph.entries), decltype(A.values),
                                           decltype(row_map), decltype(entries), decltype(values)>{
                               A.graph.row_map, A.graph.entries, A.values, row_map, entries, values, begin, end});
    }
    out.emplace_back(label, rows, end - begin, nnz, values, row_map, entries);
  }
  begins.push_back(cols);
  return ColumnSplitCsr<Value, Device>(std::move(out), std::move(begins), rows, cols);
}

}  // namespace strata
