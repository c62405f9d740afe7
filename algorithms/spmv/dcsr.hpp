#pragma once
// strata::spmv on DcsrMatrix, fragmented or not.
// row_vectors: one vector of lanes per row, the lane count from the mean row
// length at analysis. binned_rows (ADCSR): rows binned by length (1, 2-3, 4-8,
// 9-16, ...) and multiplied in one launch: every warp takes one work item of
// one bin, 32 / lanes rows with the bin's lanes each (DcsrBinnedProduct). Both
// read the row lengths at product time, so results stay right after
// insertions; call SpmvHandle::reanalyze to refit lanes and bins. Rank-2 x/y:
// every row multiplies all columns in one launch. T and H scatter into y with atomics.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/algorithms/spmv/handle.hpp>
#include <strata/algorithms/spmv/vectors.hpp>
#include <strata/core/atomic_add.hpp>
#include <strata/core/kokkos_compat.hpp>
#include <strata/core/light_weight_launch.hpp>
#include <strata/core/runs_on_host.hpp>
#include <strata/formats/dcsr/dcsr_matrix.hpp>
#include <strata/formats/dcsr/dcsr_rows.hpp>

#include <string>
#include <vector>

namespace strata::Impl {

// Thread per row, ThreadVectorRange over each segment's live entries, every
// column of x in turn.
template <class Value, class Device, class XView, class YView>
struct DcsrRowProduct {
  using member_type = typename Kokkos::TeamPolicy<typename Device::execution_space>::member_type;
  DcsrView<Value, Device> A;
  XView x;
  YView y;
  Value alpha, beta;
  int count = 0;
  bool conjugate = false;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    const int r = member.league_rank() * member.team_size() + member.team_rank();
    if (r >= count) return;
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
void launch_dcsr_rows(const ExecSpace& space, const DcsrView<Value, Device>& A, Value alpha, const XView& x, Value beta,
                      const YView& y, int lanes, bool conjugate) {
  if (A.num_rows == 0) return;
  const auto teams = row_teams(space, A.num_rows, lanes);
  DcsrRowProduct<Value, Device, XView, YView> f{A, x, y, alpha, beta, A.num_rows, conjugate};
  light_weight_parallel_for("strata::dcsr::spmv", teams.policy(), f);
}

// ADCSR's work items: bin after bin, each item 32 / lanes rows of one bin (one
// row for bins of a warp). Built on the host at analysis from the bins' counts,
// passed to the kernel by value.
struct DcsrBinItems {
  int used = 0;                                    // bins with rows
  int lanes[dcsr_length_bin_count] = {};           // per used bin
  int first_item[dcsr_length_bin_count + 1] = {};  // prefix of items over used bins
  int first_row[dcsr_length_bin_count + 1] = {};   // prefix of rows (positions in the row list)

  KOKKOS_INLINE_FUNCTION int items() const { return first_item[used]; }
};

inline DcsrBinItems dcsr_bin_items(const std::vector<index_type>& bin_offsets) {
  DcsrBinItems t;
  for (int b = 0; b < dcsr_length_bin_count; ++b) {
    const int count = static_cast<int>(bin_offsets[b + 1] - bin_offsets[b]);
    if (count == 0) continue;
    const int lanes = dcsr_bin_lanes(b);
    const int rows_per_item = 32 / lanes;
    t.lanes[t.used] = lanes;
    t.first_row[t.used + 1] = t.first_row[t.used] + count;
    t.first_item[t.used + 1] = t.first_item[t.used] + (count + rows_per_item - 1) / rows_per_item;
    ++t.used;
  }
  return t;
}

// One launch for every bin. A team thread is a warp (32 vector lanes; host
// backends run the 32 lanes in turn) and takes one item: with L lanes per row,
// lane l works on row l / L of the item and entries l % L, l % L + L, ... of it,
// the partial sums meet in team scratch, and lane g adds the L partials of row
// g. Items of a warp's bin (L = 32, one row) reduce across the lanes instead.
// The two barriers per column are reached by every thread of the team, whatever
// bin its item is in.
template <class Value, class Device, class XView, class YView>
struct DcsrBinnedProduct {
  using execution_space = typename Device::execution_space;
  using member_type = typename Kokkos::TeamPolicy<execution_space>::member_type;
  using scratch_view =
      Kokkos::View<Value*, typename execution_space::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static constexpr int warp = 32;
  DcsrView<Value, Device> A;
  Kokkos::View<const int*, Device> rows;  // the row list, bin after bin
  DcsrBinItems items;
  XView x;
  YView y;
  Value alpha, beta;
  bool conjugate = false;

  static std::size_t scratch_bytes(int team_size) { return scratch_view::shmem_size(team_size * warp); }

  // Row r's entries t, t + stride, ... times column j of x.
  KOKKOS_INLINE_FUNCTION Value row_part(const int r, const int t, const int stride, const std::size_t j) const {
    Value sum = Value(0);
    int remaining = A.row_sizes(r);
    for (int s = 0; s < A.max_segments && remaining > 0; ++s) {
      const int begin = A.segment_begin(r, s);
      const int capacity = A.segment_end(r, s) - begin;
      const int length = capacity < remaining ? capacity : remaining;
      for (int p = t; p < length; p += stride) {
        sum += conjugate_if(A.values(begin + p), conjugate) * vector_at(x, A.cols(begin + p), j);
      }
      remaining -= length;
    }
    return sum;
  }

  KOKKOS_INLINE_FUNCTION void store(const int r, const std::size_t j, const Value& sum) const {
    Value& out = vector_at(y, r, j);
    out = beta == Value(0) ? alpha * sum : alpha * sum + beta * out;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    const int item = member.league_rank() * member.team_size() + member.team_rank();
    const bool live = item < items.items();
    int slot = 0;
    while (live && slot + 1 < items.used && item >= items.first_item[slot + 1]) ++slot;
    const int lanes = live ? items.lanes[slot] : 1;
    const int rows_per_item = warp / lanes;
    const int first = live ? items.first_row[slot] + (item - items.first_item[slot]) * rows_per_item : 0;
    const int end = live ? items.first_row[slot + 1] : 0;
    const scratch_view partial(member.team_scratch(0), member.team_size() * warp);
    Value* mine = partial.data() + member.team_rank() * warp;
    const std::size_t columns = YView::rank == 1 ? 1 : y.extent(YView::rank - 1);
    for (std::size_t j = 0; j < columns; ++j) {
      if (live && lanes == warp) {
        const int r = rows(first);
        Value sum = Value(0);
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(member, warp), [&](const int t, Value& acc) { acc += row_part(r, t, warp, j); },
            sum);
        Kokkos::single(Kokkos::PerThread(member), [&]() { store(r, j, sum); });
      } else if (live) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, warp), [&](const int lane) {
          const int position = first + lane / lanes;
          mine[lane] = position < end ? row_part(rows(position), lane % lanes, lanes, j) : Value(0);
        });
      }
      member.team_barrier();
      if (live && lanes < warp) {
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, rows_per_item), [&](const int g) {
          const int position = first + g;
          if (position >= end) return;
          Value sum = Value(0);
          for (int t = 0; t < lanes; ++t) sum += mine[g * lanes + t];
          store(rows(position), j, sum);
        });
      }
      member.team_barrier();
    }
  }
};

template <class ExecSpace, class Value, class Device, class XView, class YView>
void launch_dcsr_binned(const ExecSpace& space, const DcsrView<Value, Device>& A,
                        const Kokkos::View<const int*, Device>& rows, const DcsrBinItems& items, Value alpha,
                        const XView& x, Value beta, const YView& y, bool conjugate) {
  if (items.items() == 0) return;
  using Functor = DcsrBinnedProduct<Value, Device, XView, YView>;
  constexpr bool host = runs_on_host<ExecSpace>;
  const int team_size = host ? 1 : 4;  // warps per team on devices
  const int league = (items.items() + team_size - 1) / team_size;
  const auto policy = Kokkos::TeamPolicy<ExecSpace>(space, league, team_size, host ? 1 : Functor::warp)
                          .set_scratch_size(0, Kokkos::PerTeam(Functor::scratch_bytes(team_size)));
  light_weight_parallel_for("strata::dcsr::spmv_binned", policy, Functor{A, rows, items, x, y, alpha, beta, conjugate});
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
    DcsrRowBins<Device> bins;             // binned_rows: rows listed bin after bin
    DcsrBinItems items;                   // binned_rows: the work items over the bins
  };

  static void analyze(const ExecSpace& space, const SpmvSettings& s, const matrix_type& A, State& state) {
    state.binned = s.algorithm == SpmvAlgorithm::binned_rows;
    if (!state.binned) {
      state.lanes = row_lanes(s.lanes, A.nnz(), A.num_rows());
      return;
    }
    // Binned on the caller's instance, in order with its work: the products come after it there.
    dcsr_bin_rows(space, A.view().row_sizes, state.bins);
    state.items = dcsr_bin_items(state.bins.offsets);
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
    STRATA_REQUIRE(!state.binned || static_cast<index_type>(state.bins.rows.extent(0)) == A.num_rows(),
                   "strata::spmv (DCSR binned_rows): binned for " + std::to_string(state.bins.rows.extent(0)) +
                       " rows, the matrix has " + std::to_string(A.num_rows()));
    if (!state.binned) {
      launch_dcsr_rows(space, A.view(), alpha, x, beta, y, state.lanes, conjugate);
      return;
    }
    launch_dcsr_binned(space, A.view(), Kokkos::View<const int*, Device>(state.bins.rows), state.items, alpha, x, beta,
                       y, conjugate);
  }

  static std::string describe(const SpmvSettings&, const State& state) {
    if (!state.binned) return "row_vectors(lanes=" + std::to_string(state.lanes) + ")";
    return "binned_rows(" + std::to_string(state.items.used) + " bins, " + std::to_string(state.items.items()) +
           " items, one launch)";
  }
};

}  // namespace strata::Impl
