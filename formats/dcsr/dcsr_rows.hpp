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

// Lanes per row for a bin: about one lane per entry, at most a warp.
inline int dcsr_bin_lanes(int bin) { return bin <= 0 ? 1 : (bin >= 5 ? 32 : (1 << bin)); }

// Rows listed bin after bin, in index order within a bin; offsets[b] is the
// first position of bin b (dcsr_length_bin_count + 1 entries).
template <class Device>
struct DcsrRowBins {
  Kokkos::View<int*, Device> rows;
  std::vector<index_type> offsets;
};

template <class Device>
struct DcsrCountBinRows {
  Kokkos::View<int[dcsr_length_bin_count], Device> counts;
  Kokkos::View<int*, Device> row_sizes;

  KOKKOS_INLINE_FUNCTION void operator()(const int r) const {
    Kokkos::atomic_add(&counts(dcsr_length_bin(row_sizes(r))), 1);
  }
};

template <class Device>
struct DcsrCompactBinRows {
  Kokkos::View<int*, Device> row_sizes;
  Kokkos::View<int*, Device> rows;
  int bin;
  int first;

  KOKKOS_INLINE_FUNCTION void operator()(const int r, int& position, const bool final) const {
    if (dcsr_length_bin(row_sizes(r)) == bin) {
      if (final) rows(first + position) = r;
      ++position;
    }
  }
};

// Every kernel runs on `space`, in order with the caller's work there: the
// rows are ready for work that `space` runs next or that waits on it.
template <class ExecSpace, class Device>
DcsrRowBins<Device> dcsr_bin_rows(const ExecSpace& space, const Kokkos::View<int*, Device>& row_sizes) {
  const int n = static_cast<int>(row_sizes.extent(0));
  Kokkos::View<int[dcsr_length_bin_count], Device> counts(Kokkos::view_alloc(space, "strata::dcsr::bin_counts"));
  Kokkos::parallel_for("strata::dcsr::count_bins", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
                       DcsrCountBinRows<Device>{counts, row_sizes});
  auto counts_h = Kokkos::create_mirror_view(Kokkos::HostSpace(), counts);
  Kokkos::deep_copy(space, counts_h, counts);
  space.fence();
  DcsrRowBins<Device> bins;
  bins.offsets.assign(dcsr_length_bin_count + 1, 0);
  for (int b = 0; b < dcsr_length_bin_count; ++b) bins.offsets[b + 1] = bins.offsets[b] + counts_h(b);
  bins.rows = Kokkos::View<int*, Device>(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "strata::dcsr::binned_rows"), n);
  const auto rows = bins.rows;
  for (int b = 0; b < dcsr_length_bin_count; ++b) {
    if (counts_h(b) == 0) continue;
    const int first = static_cast<int>(bins.offsets[b]);
    // One stable compaction per non-empty bin keeps rows of a bin in index order.
    Kokkos::parallel_scan("strata::dcsr::bin_rows", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
                          DcsrCompactBinRows<Device>{row_sizes, rows, b, first});
  }
  return bins;
}

}  // namespace strata
