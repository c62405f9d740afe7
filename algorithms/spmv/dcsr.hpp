#pragma once
// strata::spmv's kernels on DcsrMatrix, fragmented or not (its checks: interface/dcsr.hpp).
// row_vectors: one vector of lanes per row, the lane count from the mean row
// length at analysis. binned_rows (ADCSR): rows binned by length (1, 2-3, 4-8,
// 9-16, ...) and multiplied in one launch: every warp takes one work item of
// one bin, 32 / lanes rows with the bin's lanes each, a team per row for the
// longest rows (DcsrBinnedProduct). Where binning would not pay (the rows'
// bins are as deep under the row kernel's one lane count: dcsr_binning_pays)
// ADCSR runs the row kernel and says so in describe(); SpmvSettings::bin_always
// keeps the binned launch. Both read the row lengths at product time, so
// results stay right after insertions; call SpmvHandle::reanalyze to refit
// lanes and bins. Rank-2 x/y: every row multiplies all columns in one launch.
// T and H scatter into y with atomics.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/algorithms/spmv/definitions.hpp>
#include <strata/algorithms/spmv/interface/dcsr.hpp>
#include <strata/algorithms/spmv/vectors.hpp>
#include <strata/core/atomic_add.hpp>
#include <strata/core/kokkos_compat.hpp>
#include <strata/core/light_weight_launch.hpp>
#include <strata/core/runs_on_host.hpp>
#include <strata/formats/dcsr/dcsr_matrix.hpp>
#include <strata/formats/dcsr/dcsr_rows.hpp>

#include <cmath>
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
      Value sum = Value(0);
      A.for_each_live_segment(r, [&](const int begin, const int length) {
        Value part = Value(0);
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(member, length),
            [&](const int p, Value& acc) {
              acc += conjugate_if(A.values(begin + p), conjugate) * vector_at(x, A.cols(begin + p), j);
            },
            part);
        sum += part;
      });
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
// row for bins of a warp), and for bins of team rows, team_size items per row,
// starting on a team boundary, so that a team's warps share the row. Built on
// the host at analysis from the bins' tallies, passed to the kernel by value.
struct DcsrBinItems {
  int team_size = 1;                               // warps per team of the launch (one thread on hosts)
  int used = 0;                                    // bins with rows
  int team_from = 0;                               // used bins from this one on take a team per row
  int lanes[dcsr_length_bin_count] = {};           // per used bin: lanes per row (a warp for team rows)
  int first_item[dcsr_length_bin_count + 1] = {};  // prefix of items over used bins
  int first_row[dcsr_length_bin_count + 1] = {};   // prefix of rows (positions in the row list)

  KOKKOS_INLINE_FUNCTION int items() const { return first_item[used]; }
};

// Lanes for a bin of rows of mean length `mean`: DCSR's row rule (lanes_for_mean_length) at the
// bin's measured mean, so that a bin gets the lanes DCSR's row kernel gives rows of that length
// (with the bin's typical length instead, ch8-8-b3's rows of 4 got 2 lanes against DCSR's 1).
// On devices, rows longer than four passes of four warps take a whole team (of eight warps
// then): one warp left a row of 1442 entries (rajat01) 45 dependent passes, and every product
// waited for it. Eight warps (256 threads) is a team any kernel can launch, whatever its
// registers.
struct DcsrBinLanes {
  int lanes = 1;  // per row within a warp; 32 for team rows
  bool team_rows = false;
};

constexpr int dcsr_binned_team_warps = 4;      // warps per team of the binned launch on devices
constexpr int dcsr_binned_team_row_warps = 8;  // ... when some rows take a team

inline DcsrBinLanes dcsr_bin_lanes(double mean_length, bool device) {
  constexpr int warp = 32;
  if (device && mean_length > 4.0 * warp * dcsr_binned_team_warps) return {warp, true};
  return {lanes_for_mean_length(mean_length), false};
}

inline DcsrBinItems dcsr_bin_items(const std::vector<index_type>& bin_offsets, const std::vector<index_type>& entries,
                                   bool device) {
  DcsrBinItems t;
  t.team_size = 1;
  if (device) {
    // A bin's mean grows with the bin: team rows, if any, are in the top bin.
    const int top = dcsr_top_bin(bin_offsets);
    const bool team_rows = bin_offsets[top + 1] > bin_offsets[top] &&
                           dcsr_bin_lanes(dcsr_bin_mean(bin_offsets, entries, top), true).team_rows;
    t.team_size = team_rows ? dcsr_binned_team_row_warps : dcsr_binned_team_warps;
  }
  const int warps_per_team = t.team_size;
  t.team_from = -1;
  for (int b = 0; b < dcsr_length_bin_count; ++b) {
    const int count = static_cast<int>(bin_offsets[b + 1] - bin_offsets[b]);
    if (count == 0) continue;
    const auto lanes = dcsr_bin_lanes(dcsr_bin_mean(bin_offsets, entries, b), device);
    int items = 0;
    if (lanes.team_rows) {
      // Means grow with the bin, so team bins come last; the first starts on a team boundary.
      if (t.team_from < 0) {
        t.team_from = t.used;
        const int first = t.first_item[t.used];
        t.first_item[t.used] = (first + warps_per_team - 1) / warps_per_team * warps_per_team;
      }
      items = count * warps_per_team;
    } else {
      const int rows_per_item = 32 / lanes.lanes;
      items = (count + rows_per_item - 1) / rows_per_item;
    }
    t.lanes[t.used] = lanes.lanes;
    t.first_row[t.used + 1] = t.first_row[t.used] + count;
    t.first_item[t.used + 1] = t.first_item[t.used] + items;
    ++t.used;
  }
  if (t.team_from < 0) t.team_from = t.used;
  return t;
}

// Whether ADCSR's binned launch can beat DCSR's row kernel with `row_lanes` lanes for every row.
// Both do the same work per entry; binning pays where one lane count leaves the longest rows
// many passes deep while their bin's lanes would not: the product waits for them. Measured
// (docs/PERFORMANCE.md, Dynamic CSR), the binned launch was up to 1.26x slower than the row
// kernel where all bins got the row kernel's lanes (sinc18), up to 1.1x where the longest rows
// were as deep either way (bcsstk13), 1.15x where they were 9 passes deep against 2 (cage11
// after insertions: the binned launch's own cost, its item lookup and barriers, is worth a few
// passes), and 0.77-0.90x where they were 13-34 passes deep against 2-4 (bayer10, ct2010,
// netscience) and 4-10x faster at 140-720 passes (HEP-th, adder_dcop_05, rajat01). The bar:
// the top bin 3x fewer passes deep and at least 8 passes fewer.
inline bool dcsr_binning_pays(const DcsrBinItems& items, const std::vector<index_type>& bin_offsets,
                              const std::vector<index_type>& entries, int row_lanes) {
  if (items.used == 0) return false;
  const double mean = dcsr_bin_mean(bin_offsets, entries, dcsr_top_bin(bin_offsets));
  const int slot = items.used - 1;
  const int bin_width = slot >= items.team_from ? 32 * items.team_size : items.lanes[slot];
  const double row_passes = std::ceil(mean / row_lanes);
  const double bin_passes = std::ceil(mean / bin_width);
  return row_passes >= 3.0 * bin_passes && row_passes - bin_passes >= 8.0;
}

// One launch for every bin. A team thread is a warp (32 vector lanes; host
// backends run the 32 lanes in turn) and takes one item: with L lanes per row,
// lane l works on row l / L of the item and entries l % L, l % L + L, ... of it,
// the partial sums meet in team scratch, and lane g adds the L partials of row
// g. Items of a warp's bin (L = 32, one row) reduce across the lanes instead,
// and the warps of a team row each reduce a slice and meet in scratch. The two
// barriers per column are reached by every thread of the team, whatever bin
// its item is in.
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
    A.for_each_live_segment(r, [&](const int begin, const int length) {
      for (int p = t; p < length; p += stride) {
        sum += conjugate_if(A.values(begin + p), conjugate) * vector_at(x, A.cols(begin + p), j);
      }
    });
    return sum;
  }

  KOKKOS_INLINE_FUNCTION void store(const int r, const std::size_t j, const Value& sum) const {
    Value& out = vector_at(y, r, j);
    out = beta == Value(0) ? alpha * sum : alpha * sum + beta * out;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    const int team_size = member.team_size();
    const int item = member.league_rank() * team_size + member.team_rank();
    int slot = 0;
    while (slot + 1 < items.used && item >= items.first_item[slot + 1]) ++slot;
    const bool in_range = item < items.items();
    const bool team_bin = in_range && slot >= items.team_from;
    const int lanes = in_range ? items.lanes[slot] : 1;
    const int rows_per_item = warp / lanes;
    const int offset = item - items.first_item[slot];
    const int first = !in_range ? 0 : items.first_row[slot] + (team_bin ? offset / team_size : offset * rows_per_item);
    const int end = in_range ? items.first_row[slot + 1] : 0;
    // Items past the last and the padding before the first team bin (counted in the bin before) are idle.
    const bool live = first < end;
    const bool team_row = live && team_bin;
    const scratch_view partial(member.team_scratch(0), team_size * warp);
    Value* mine = partial.data() + member.team_rank() * warp;
    const std::size_t columns = YView::rank == 1 ? 1 : y.extent(YView::rank - 1);
    for (std::size_t j = 0; j < columns; ++j) {
      if (team_row) {
        // Warp w of the team takes entries w * 32 + t, stepping by the team's width.
        const int r = rows(first);
        Value sum = Value(0);
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(member, warp),
            [&](const int t, Value& acc) { acc += row_part(r, member.team_rank() * warp + t, team_size * warp, j); },
            sum);
        Kokkos::single(Kokkos::PerThread(member), [&]() { mine[0] = sum; });
      } else if (live && lanes == warp) {
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
      if (team_row) {
        if (member.team_rank() == 0) {
          Kokkos::single(Kokkos::PerThread(member), [&]() {
            Value sum = Value(0);
            for (int w = 0; w < team_size; ++w) sum += partial(w * warp);
            store(rows(first), j, sum);
          });
        }
      } else if (live && lanes < warp) {
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
  const int team_size = items.team_size;
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
    A.for_each_live_segment(r, [&](const int begin, const int length) {
      for (int p = 0; p < length; ++p) {
        const Value a = alpha * conjugate_if(A.values(begin + p), conjugate);
        for (std::size_t j = 0; j < columns; ++j) {
          atomic_add<ExecSpace>(&vector_at(y, A.cols(begin + p), j), a * vector_at(x, r, j));
        }
      }
    });
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
struct SpmvState<ExecSpace, DcsrMatrix<Value, Device>> {
  bool binned = false;        // binned_rows asked for
  bool bins_used = false;     // binned_rows: the binned launch runs (else the row kernel, as binning would not pay)
  int lanes = 1;              // the row kernel's lanes
  DcsrRowBins<Device> bins;   // binned_rows: rows listed bin after bin
  DcsrBinItems items;         // binned_rows: the work items over the bins
  DcsrRowGrowth growth_seen;  // binned_rows: the matrix's row moves when it was binned
  int top_bin = 0;            // binned_rows: the longest rows' bin then
};

template <class ExecSpace, class Value, class Device>
struct SpmvKernels<ExecSpace, DcsrMatrix<Value, Device>> {
  using format = SpmvFormat<ExecSpace, DcsrMatrix<Value, Device>>;
  using matrix_type = typename format::matrix_type;
  using value_type = typename format::value_type;
  using State = SpmvState<ExecSpace, DcsrMatrix<Value, Device>>;
  static constexpr const char* name = format::name;

  static void analyze(const ExecSpace& space, const SpmvSettings& s, const matrix_type& A, State& state) {
    state.binned = s.algorithm == SpmvAlgorithm::binned_rows;
    state.lanes = row_lanes(state.binned ? 0 : s.lanes, A.nnz(), A.num_rows());
    if (!state.binned) return;
    // Binned on the caller's instance, in order with its work: the products come after it there.
    dcsr_bin_rows(space, A.view().row_sizes, state.bins);
    state.items = dcsr_bin_items(state.bins.offsets, state.bins.entries, !runs_on_host<ExecSpace>);
    state.bins_used =
        s.bin_always || dcsr_binning_pays(state.items, state.bins.offsets, state.bins.entries, state.lanes);
    state.growth_seen = A.row_growth();
    state.top_bin = state.bins.top_bin();
  }

  // SpmvHandle::reanalyze of the same matrix. The row kernel's lanes follow the mean row length;
  // the bins are kept while they still fit: fewer than 5% of the rows have changed bin since
  // the binning (counted only while the binned launch runs), and no row has grown past the
  // longest rows' bin. A row in an old bin is still multiplied, right, with its old bin's lanes
  // (the kernels read lengths at product time), lanes for lengths at most a bin off; a
  // product's time follows its deepest rows, which the second condition watches. Rebinning
  // costs a tally, a host wait and a compaction, a fifth of an update step of a small matrix
  // (docs/PERFORMANCE.md, Dynamic CSR).
  static void refit(const ExecSpace& space, const SpmvSettings& s, const matrix_type& A, State& state) {
    if (!state.binned || static_cast<index_type>(state.bins.rows.extent(0)) != A.num_rows()) {
      analyze(space, s, A, state);
      return;
    }
    const DcsrRowGrowth& now = A.row_growth();
    const index_type moved = now.rows_changing_bin - state.growth_seen.rows_changing_bin;
    const bool longer = dcsr_length_bin(now.longest_moving_row) > state.top_bin;
    // Unused bins (binning would not pay: the row kernel runs) are not read by the product, so
    // rows moving between them change nothing; a row outgrowing the top bin is what can make
    // binning pay. A rebinning is a refit of 70-230 us on the H100 against 2 us for one that
    // keeps the bins (the DCSR runner's profile_refit_us, 2026-11-28 02:59).
    const bool moved_enough = state.bins_used && moved * 20 >= A.num_rows();
    if (moved_enough || longer) {
      analyze(space, s, A, state);
      return;
    }
    state.lanes = row_lanes(0, A.nnz(), A.num_rows());
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
    if (!state.bins_used) {
      launch_dcsr_rows(space, A.view(), alpha, x, beta, y, state.lanes, conjugate);
      return;
    }
    launch_dcsr_binned(space, A.view(), Kokkos::View<const int*, Device>(state.bins.rows), state.items, alpha, x, beta,
                       y, conjugate);
  }

  static std::string describe(const SpmvSettings&, const State& state) {
    if (!state.binned) return "row_vectors(lanes=" + std::to_string(state.lanes) + ")";
    const std::string bins = std::to_string(state.items.used) + " bins";
    if (!state.bins_used) {
      return "binned_rows(" + bins + ", binning would not pay: row kernel, lanes=" + std::to_string(state.lanes) + ")";
    }
    const int team_bins = state.items.used - state.items.team_from;
    return "binned_rows(" + bins + (team_bins > 0 ? " (" + std::to_string(team_bins) + " of team rows)" : "") + ", " +
           std::to_string(state.items.items()) + " items, one launch)";
  }
};

}  // namespace strata::Impl
