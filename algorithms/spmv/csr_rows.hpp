#pragma once
// Strata's own CSR kernels (SpmvAlgorithm::row_vectors on CSR): one launch per
// product in every mode, beta applied inside the kernel, no atomics.
//  * N and C: a vector of lanes per row (lanes from the mean row length).
//  * T and H: the same kernel over the rows of A^T. The handle keeps the
//    structure of A^T (row starts, the row of A each entry comes from, and the
//    position of its value in A), built once on the host on the first
//    transposed product; values are read from A through that position at every
//    product, so changed values never go stale. Sums run in the order of A's
//    rows: results are reproducible run to run.
// Small (launch-bound) products are where this wins: cuSPARSE and Kokkos
// Kernels pay a memset or a scale pass, and atomics, before a transposed product.
#include <strata/algorithms/spmv/vectors.hpp>
#include <strata/core/error.hpp>
#include <strata/core/index.hpp>
#include <strata/core/row_teams.hpp>
#include <strata/core/runs_on_host.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>
#include <vector>

namespace strata::Impl {

// The structure of A^T for a CSR matrix A: rows of A^T are columns of A.
template <class Offset, class Ordinal, class Device>
struct CsrTransposedStructure {
  Kokkos::View<Offset*, Device> row_map;    // num_cols + 1 starts
  Kokkos::View<Ordinal*, Device> rows;      // per entry of A^T: its row in A (the column of x)
  Kokkos::View<Offset*, Device> positions;  // per entry of A^T: where its value sits in A.values
  int lanes = 1;
  bool built = false;
};

// Builds A^T's structure with a stable counting sort on the host (entries of
// one column stay in row order); its rows get `requested_lanes` (0: from their mean length). Throws strata::Error on a column index
// outside [0, num_cols) rather than writing out of bounds.
template <class Offset, class Ordinal, class Device, class RowMap, class Entries>
CsrTransposedStructure<Offset, Ordinal, Device> transpose_csr_structure(const RowMap& row_map, const Entries& entries,
                                                                       index_type num_rows, index_type num_cols,
                                                                       int requested_lanes) {
  const auto starts = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), row_map);
  const auto cols = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), entries);
  const std::size_t nnz = num_rows > 0 ? static_cast<std::size_t>(starts(num_rows)) : 0;
  CsrTransposedStructure<Offset, Ordinal, Device> t;
  t.row_map = Kokkos::View<Offset*, Device>("strata::csr_rows::transposed_row_map", static_cast<std::size_t>(num_cols) + 1);
  t.rows = Kokkos::View<Ordinal*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::csr_rows::transposed_rows"), nnz);
  t.positions =
      Kokkos::View<Offset*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::csr_rows::transposed_positions"), nnz);
  auto t_starts = Kokkos::create_mirror_view(t.row_map);
  auto t_rows = Kokkos::create_mirror_view(t.rows);
  auto t_positions = Kokkos::create_mirror_view(t.positions);
  std::vector<Offset> cursor(static_cast<std::size_t>(num_cols) + 1, 0);
  for (std::size_t p = 0; p < nnz; ++p) {
    const auto c = cols(p);
    if (c < 0 || static_cast<index_type>(c) >= num_cols) {
      throw Error("strata::spmv (CSR row_vectors, transposed): entry " + std::to_string(p) + " has column index " +
                  std::to_string(static_cast<long long>(c)) + ", outside [0, " + std::to_string(num_cols) + ")");
    }
    ++cursor[static_cast<std::size_t>(c) + 1];
  }
  for (index_type c = 0; c < num_cols; ++c) cursor[c + 1] += cursor[c];
  for (index_type c = 0; c <= num_cols; ++c) t_starts(c) = cursor[c];
  for (index_type r = 0; r < num_rows; ++r) {
    for (auto p = starts(r); p < starts(r + 1); ++p) {
      const Offset q = cursor[static_cast<std::size_t>(cols(p))]++;
      t_rows(q) = static_cast<Ordinal>(r);
      t_positions(q) = static_cast<Offset>(p);
    }
  }
  Kokkos::deep_copy(t.row_map, t_starts);
  Kokkos::deep_copy(t.rows, t_rows);
  Kokkos::deep_copy(t.positions, t_positions);
  t.lanes = row_lanes(requested_lanes, static_cast<index_type>(nnz), num_cols);
  t.built = true;
  return t;
}

// Where the value of entry p sits: at positions(p) for rows of A^T, at p otherwise.
template <bool Gathered, class Positions, class Offset>
KOKKOS_INLINE_FUNCTION auto value_position(const Positions& positions, const Offset p) {
  if constexpr (Gathered) {
    return positions(p);
  } else {
    (void)positions;
    return p;
  }
}

// What a product reads and writes: y(i, j) := alpha * sum_p op(values(at(p))) * x(cols(p), j)
// + beta * y(i, j) over the entries p of row i, for every column j of x and y. Gathered: the
// value of entry p sits at positions(p) (rows of A^T); otherwise at p.
template <bool Gathered, class RowMap, class Cols, class Positions, class Values, class XView, class YView>
struct CsrRowOperands {
  using value_type = typename YView::non_const_value_type;
  using offset_type = std::remove_const_t<typename RowMap::value_type>;
  static constexpr bool gathered = Gathered;
  RowMap row_map;
  Cols cols;
  Positions positions;
  Values values;
  XView x;
  YView y;
  value_type alpha, beta;
  bool conjugate = false;

  KOKKOS_INLINE_FUNCTION std::size_t columns() const { return YView::rank == 1 ? 1 : y.extent(YView::rank - 1); }
  template <class Offset>
  KOKKOS_INLINE_FUNCTION value_type term(const Offset p, const std::size_t j) const {
    return conjugate_if(values(value_position<Gathered>(positions, p)), conjugate) * vector_at(x, cols(p), j);
  }
  KOKKOS_INLINE_FUNCTION void store(const int i, const std::size_t j, const value_type& sum) const {
    value_type& out = vector_at(y, i, j);
    out = beta == value_type(0) ? alpha * sum : alpha * sum + beta * out;
  }
};

// Devices: a vector of lanes per row, a row per team thread.
template <class ExecSpace, class Operands>
struct CsrRowProduct {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using value_type = typename Operands::value_type;
  Operands op;
  int rows = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    const int i = member.league_rank() * member.team_size() + member.team_rank();
    if (i >= rows) return;
    const auto begin = op.row_map(i);
    const int length = static_cast<int>(op.row_map(i + 1) - begin);
    const std::size_t columns = op.columns();
    for (std::size_t j = 0; j < columns; ++j) {
      value_type sum = value_type(0);
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(member, length),
          [&](const int k, value_type& acc) { acc += op.term(begin + k, j); }, sum);
      Kokkos::single(Kokkos::PerThread(member), [&]() { op.store(i, j, sum); });
    }
  }
};

// Host backends: one row per iteration of a range over the rows, handed out in chunks as
// threads come free. The team policy with one row per team (a host has no vector lanes to
// share a row) trailed Kokkos Kernels' range kernel by 20-30%; four partial sums per row (to
// break the chain of additions) were slower: the core overlaps rows already
// (docs/PERFORMANCE.md, "OpenMP: Strata's row kernel as a range over rows on hosts").
template <class Operands>
struct CsrRowRangeProduct {
  using value_type = typename Operands::value_type;
  Operands op;

  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    const auto begin = op.row_map(i), end = op.row_map(i + 1);
    const std::size_t columns = op.columns();
    for (std::size_t j = 0; j < columns; ++j) {
      value_type sum = value_type(0);
      for (auto p = begin; p < end; ++p) sum += op.term(p, j);
      op.store(i, j, sum);
    }
  }
};

template <bool Gathered, class ExecSpace, class RowMap, class Cols, class Positions, class Values, class XView,
          class YView>
void launch_csr_rows(const ExecSpace& space, const RowMap& row_map, const Cols& cols, const Positions& positions,
                     const Values& values, index_type rows, int lanes, bool conjugate,
                     typename YView::non_const_value_type alpha, const XView& x,
                     typename YView::non_const_value_type beta, const YView& y) {
  if (rows == 0) return;
  using Operands = CsrRowOperands<Gathered, RowMap, Cols, Positions, Values, XView, YView>;
  const Operands op{row_map, cols, positions, values, x, y, alpha, beta, conjugate};
  const char* label = Gathered ? "strata::csr_rows::spmv_transposed" : "strata::csr_rows::spmv";
  if constexpr (runs_on_host<ExecSpace>) {
    (void)lanes;
    // Dynamic: a thread that is slowed down (a shared or virtual host) does not hold up the product.
    Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>>(space, 0, rows),
                         CsrRowRangeProduct<Operands>{op});
  } else {
    const auto teams = row_teams(space, rows, lanes);
    Kokkos::parallel_for(label, teams.policy(), CsrRowProduct<ExecSpace, Operands>{op, static_cast<int>(rows)});
  }
}

}  // namespace strata::Impl
