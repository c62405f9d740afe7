#pragma once
// The ADCSR length bins (the team shape of the row kernels is core/row_teams.hpp).
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/index.hpp>
#include <strata/core/row_teams.hpp>

#include <Kokkos_Core.hpp>

#include <string>
#include <vector>

namespace strata {

// ADCSR length bins: 0-1, 2-3, 4-8, 9-16, 17-32, ..., bin b >= 3 holding
// lengths in (2^b, 2^(b+1)].
constexpr int dcsr_length_bin_count = 32;

KOKKOS_INLINE_FUNCTION int dcsr_length_bin(int length) {
  if (length <= 1) return 0;
  if (length <= 3) return 1;
  if (length <= 8) return 2;
  int bin = 3;
  long long upper = 16;
  while (length > upper) {
    ++bin;
    upper *= 2;
  }
  return bin;
}

// Lanes per row for a bin: the row kernels' rule (lanes_for_mean_length, core/row_teams.cpp) at
// the bin's typical length, 1.5 times its lower bound, so that ADCSR gives a row the lanes DCSR's
// row kernel gives rows of that length. A lane per entry (the rule before) made ADCSR 1.2-1.4x
// slower than DCSR on matrices of even rows (ch8-8-b3: 10 entries a row, 8 lanes against 4).
inline int dcsr_bin_lanes(int bin) {
  if (bin <= 0) return 1;
  const double typical = bin == 1 ? 2.5 : (bin == 2 ? 6.0 : 1.5 * static_cast<double>(1LL << bin));
  return lanes_for_mean_length(typical);
}

// Rows listed bin after bin, in index order within a bin; offsets[b] is the
// first position of bin b (dcsr_length_bin_count + 1 entries). counts is the
// binning's scratch, kept with the rows for the next binning.
template <class Device>
struct DcsrRowBins {
  Kokkos::View<int*, Device> rows;
  std::vector<index_type> offsets;
  Kokkos::View<int[dcsr_length_bin_count], Device> counts;
};

template <class Device>
struct DcsrCountBinRows {
  Kokkos::View<int[dcsr_length_bin_count], Device> counts;
  Kokkos::View<int*, Device> row_sizes;

  KOKKOS_INLINE_FUNCTION void operator()(const int r) const {
    Kokkos::atomic_add(&counts(dcsr_length_bin(row_sizes(r))), 1);
  }
};

// The rows of every used bin in one stable compaction: the scan runs over
// (bin slot, row) pairs, slot by slot, so a row's position counts the rows of
// earlier bins and the rows of its own bin before it. One launch whatever the
// number of bins (it was one scan per bin).
template <class Device>
struct DcsrCompactBinRows {
  Kokkos::View<int*, Device> row_sizes;
  Kokkos::View<int*, Device> rows;
  int bins[dcsr_length_bin_count];  // the used bins, ascending
  long long n;

  KOKKOS_INLINE_FUNCTION void operator()(const long long i, int& position, const bool final) const {
    const int slot = static_cast<int>(i / n);
    const int r = static_cast<int>(i - slot * n);
    if (dcsr_length_bin(row_sizes(r)) == bins[slot]) {
      if (final) rows(position) = r;
      ++position;
    }
  }
};

// Bins the rows into `bins`, reusing its storage where it fits (a handle's
// reanalysis after every update step allocates nothing). Every kernel runs on
// `space`, in order with the caller's work there: the rows are ready for work
// that `space` runs next or that waits on it. The host waits once, for the
// bins' counts.
template <class ExecSpace, class Device>
void dcsr_bin_rows(const ExecSpace& space, const Kokkos::View<int*, Device>& row_sizes, DcsrRowBins<Device>& bins) {
  const int n = static_cast<int>(row_sizes.extent(0));
  if (bins.counts.data() == nullptr) {
    bins.counts =
        Kokkos::View<int[dcsr_length_bin_count], Device>(Kokkos::view_alloc(space, "strata::dcsr::bin_counts"));
  } else {
    Kokkos::deep_copy(space, bins.counts, 0);
  }
  Kokkos::parallel_for("strata::dcsr::count_bins", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
                       DcsrCountBinRows<Device>{bins.counts, row_sizes});
  auto counts_h = Kokkos::create_mirror_view(Kokkos::HostSpace(), bins.counts);
  Kokkos::deep_copy(space, counts_h, bins.counts);
  space.fence();
  bins.offsets.assign(dcsr_length_bin_count + 1, 0);
  DcsrCompactBinRows<Device> compact{row_sizes, {}, {}, n};
  int used = 0;
  for (int b = 0; b < dcsr_length_bin_count; ++b) {
    bins.offsets[b + 1] = bins.offsets[b] + counts_h(b);
    if (counts_h(b) > 0) compact.bins[used++] = b;
  }
  if (static_cast<int>(bins.rows.extent(0)) != n) {
    bins.rows = Kokkos::View<int*, Device>(
        Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "strata::dcsr::binned_rows"), n);
  }
  compact.rows = bins.rows;
  if (used > 0) {
    Kokkos::parallel_scan("strata::dcsr::bin_rows",
                          Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<long long>>(space, 0, used * compact.n),
                          compact);
  }
}

template <class ExecSpace, class Device>
DcsrRowBins<Device> dcsr_bin_rows(const ExecSpace& space, const Kokkos::View<int*, Device>& row_sizes) {
  DcsrRowBins<Device> bins;
  dcsr_bin_rows(space, row_sizes, bins);
  return bins;
}

}  // namespace strata
