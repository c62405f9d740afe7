#pragma once
// strata::spmv on DcsrMatrix, fragmented or not.
// row_vectors: one vector of lanes per row, the lane count from the mean row
// length at analysis. binned_rows (ADCSR): rows binned by length (1, 2-3, 4-8,
// 9-16, ...), one kernel per bin with lanes matched to it, bins launched on
// separate execution space instances so that they may overlap. Both read the
// row lengths at product time, so results stay right after insertions; call
// SpmvHandle::reanalyze to refit lanes and bins. Rank-2 x/y: every row
// multiplies all columns in one launch. T and H scatter into y with atomics.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/algorithms/spmv/handle.hpp>
#include <strata/algorithms/spmv/vectors.hpp>
#include <strata/core/atomic_add.hpp>
#include <strata/core/kokkos_compat.hpp>
#include <strata/core/light_weight_launch.hpp>
#include <strata/formats/dcsr/dcsr_matrix.hpp>
#include <strata/formats/dcsr/dcsr_rows.hpp>

#include <string>
#include <vector>

namespace strata::Impl {

// Thread per row, ThreadVectorRange over each segment's live entries, every
// column of x in turn. With a row list the thread's row is taken from it (one ADCSR bin).
template <class Value, class Device, class XView, class YView>
struct DcsrRowProduct {
  using member_type = typename Kokkos::TeamPolicy<typename Device::execution_space>::member_type;
  DcsrView<Value, Device> A;
  XView x;
  YView y;
  Value alpha, beta;
  Kokkos::View<const int*, Device> row_list;  // empty: rows in index order
  int first = 0;
  int count = 0;
  bool conjugate = false;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    const int i = member.league_rank() * member.team_size() + member.team_rank();
    if (i >= count) return;
    const int r = row_list.extent(0) > 0 ? row_list(first + i) : first + i;
    const std::size_t columns = YView::rank == 1 ? 1 : y.extent(YView::rank - 1);
    for (std::size_t j = 0; j < columns; ++j) {
      int remaining = A.row_sizes(r);
      Value sum = Value(0);
      for (int s = 0; s < A.max_segments && remaining > 0; ++s) {
        const int begin = A.segment_begin(r, s);
        const int capacity = A.segment_end(r, s) - begin;
        const int length = capacity < remaining ? capacity : remaining;
        Value part = Value(0);
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(member, length),
            [&](const int p, Value& acc) {
              acc += conjugate_if(A.values(begin + p), conjugate) * vector_at(x, A.cols(begin + p), j);
            },
            part);
        sum += part;
        remaining -= length;
      }
      Kokkos::single(Kokkos::PerThread(member), [&]() {
        Value& out = vector_at(y, r, j);
        out = beta == Value(0) ? alpha * sum : alpha * sum + beta * out;
      });
    }
  }
};

template <class ExecSpace, class Value, class Device, class XView, class YView>
void launch_dcsr_rows(const ExecSpace& space, const DcsrView<Value, Device>& A, Value alpha, const XView& x,
                      Value beta, const YView& y, const Kokkos::View<const int*, Device>& row_list, int first,
                      int count, int lanes, bool conjugate) {
  if (count == 0) return;
  const auto teams = row_teams(space, count, lanes);
  DcsrRowProduct<Value, Device, XView, YView> f{A, x, y, alpha, beta, row_list, first, count, conjugate};
  light_weight_parallel_for("strata::dcsr::spmv", teams.policy(), f);
}

// y := alpha * op(A)^T-style scatter: every live entry (r, c) adds to y(c).
template <class ExecSpace, class Value, class Device, class XView, class YView>
struct DcsrScatterTransposed {
  DcsrView<Value, Device> A;
  Value alpha;
  XView x;
  YView y;
  bool conjugate;
  std::size_t columns;

  KOKKOS_INLINE_FUNCTION void operator()(const int r) const {
    int remaining = A.row_sizes(r);
    for (int s = 0; s < A.max_segments && remaining > 0; ++s) {
      const int begin = A.segment_begin(r, s);
      const int capacity = A.segment_end(r, s) - begin;
      const int length = capacity < remaining ? capacity : remaining;
      for (int p = 0; p < length; ++p) {
        const Value a = alpha * conjugate_if(A.values(begin + p), conjugate);
        for (std::size_t j = 0; j < columns; ++j) {
          atomic_add<ExecSpace>(&vector_at(y, A.cols(begin + p), j), a * vector_at(x, r, j));
        }
      }
      remaining -= length;
    }
  }
};

template <class ExecSpace, class Value, class Device, class XView, class YView>
void dcsr_scatter_transposed(const ExecSpace& space, const DcsrView<Value, Device>& A, Value alpha, const XView& x,
                             const YView& y, bool conjugate) {
  const std::size_t columns = column_count(y);
  Kokkos::parallel_for(
      "strata::dcsr::spmv_transposed", Kokkos::RangePolicy<ExecSpace>(space, 0, A.num_rows),
      DcsrScatterTransposed<ExecSpace, Value, Device, XView, YView>{A, alpha, x, y, conjugate, columns});
}

template <class ExecSpace, class Value, class Device>
struct SpmvFormat<ExecSpace, DcsrMatrix<Value, Device>> {
  static constexpr bool available = true;
  static constexpr const char* name = "DCSR";
  using matrix_type = DcsrMatrix<Value, Device>;
  using value_type = Value;

  static bool supports(SpmvAlgorithm a) {
    return a == SpmvAlgorithm::format_default || a == SpmvAlgorithm::row_vectors || a == SpmvAlgorithm::binned_rows;
  }
  static std::string algorithm_list() { return "row_vectors (default), binned_rows"; }
  static void check_settings(const SpmvSettings& s) {
    refuse_coo_options(name, s);
    // row_vectors is DCSR's default kernel.
    check_row_lanes(name, s, s.algorithm == SpmvAlgorithm::row_vectors || s.algorithm == SpmvAlgorithm::format_default);
  }
  static void check_mode(const SpmvSettings&, SpmvMode) {}
  static MatrixIdentity identity(const matrix_type& A) { return {A.identity_key(), 0, A.num_rows(), A.num_cols()}; }
  static index_type rows(const matrix_type& A) { return A.num_rows(); }
  static index_type cols(const matrix_type& A) { return A.num_cols(); }

  struct State {
    bool binned = false;
    int lanes = 1;                        // row_vectors
    Kokkos::View<int*, Device> bin_rows;  // binned_rows: rows listed bin after bin
    std::vector<index_type> bin_offsets;
    std::vector<ExecSpace> instances;
  };

  static void analyze(const ExecSpace& space, const SpmvSettings& s, const matrix_type& A, State& state) {
    state.binned = s.algorithm == SpmvAlgorithm::binned_rows;
    if (!state.binned) {
      state.lanes = row_lanes(s.lanes, A.nnz(), A.num_rows());
      return;
    }
    // Binned on the caller's instance, then fenced: the bin kernels run on other instances,
    // and a later product may come on another instance than this analysis.
    auto bins = dcsr_bin_rows(space, A.view().row_sizes);
    space.fence();
    state.bin_rows = bins.rows;
    state.bin_offsets = bins.offsets;
    int used = 0;
    for (int b = 0; b < dcsr_length_bin_count; ++b) used += state.bin_offsets[b + 1] > state.bin_offsets[b] ? 1 : 0;
    state.instances = compat::execution_space_instances<ExecSpace>(used > 0 ? used : 1);
  }

  template <class XView, class YView>
  static void apply(const ExecSpace& space, const SpmvSettings&, State& state, SpmvMode mode, Value alpha,
                    const matrix_type& A, const XView& x, Value beta, const YView& y) {
    const bool conjugate = is_conjugated(mode);
    if (is_transposed(mode)) {
      scale_output(space, beta, y);
      if (!(alpha == Value(0))) dcsr_scatter_transposed(space, A.view(), alpha, x, y, conjugate);
      return;
    }
    STRATA_REQUIRE(!state.binned || static_cast<index_type>(state.bin_rows.extent(0)) == A.num_rows(),
                   "strata::spmv (DCSR binned_rows): binned for " + std::to_string(state.bin_rows.extent(0)) +
                       " rows, the matrix has " + std::to_string(A.num_rows()));
    const Kokkos::View<const int*, Device> no_list;
    if (!state.binned) {
      launch_dcsr_rows(space, A.view(), alpha, x, beta, y, no_list, 0, A.num_rows(), state.lanes, conjugate);
      return;
    }
    // x and y come from work on `space`; the bins run on other instances.
    space.fence();
    std::size_t next = 0;
    for (int b = 0; b < dcsr_length_bin_count; ++b) {
      const int count = static_cast<int>(state.bin_offsets[b + 1] - state.bin_offsets[b]);
      if (count == 0) continue;
      launch_dcsr_rows(state.instances[next++], A.view(), alpha, x, beta, y,
                       Kokkos::View<const int*, Device>(state.bin_rows), static_cast<int>(state.bin_offsets[b]),
                       count, dcsr_bin_lanes(b), conjugate);
    }
    for (std::size_t i = 0; i < next; ++i) state.instances[i].fence();
  }

  static std::string describe(const SpmvSettings&, const State& state) {
    if (!state.binned) return "row_vectors(lanes=" + std::to_string(state.lanes) + ")";
    int used = 0;
    for (int b = 0; b < dcsr_length_bin_count; ++b) used += state.bin_offsets[b + 1] > state.bin_offsets[b] ? 1 : 0;
    return "binned_rows(" + std::to_string(used) + " bins)";
  }
};

}  // namespace strata::Impl
