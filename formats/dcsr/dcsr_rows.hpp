#pragma once
// Row-level scheduling shared by the DCSR kernels: the ADCSR length bins and
// the team shape that gives each row a vector of lanes.
#include <strata/core/index.hpp>

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

// Lanes per row for rows of mean length `mean`: the power of two at or below
// it, between 1 and 32.
inline int dcsr_lanes_for_mean_length(double mean) {
  int lanes = 1;
  while (lanes < 32 && 2.0 * lanes <= mean) lanes *= 2;
  return lanes;
}

// Rows listed bin after bin, in index order within a bin; offsets[b] is the
// first position of bin b (dcsr_length_bin_count + 1 entries).
template <class Device>
struct DcsrRowBins {
  Kokkos::View<int*, Device> rows;
  std::vector<index_type> offsets;
};

template <class Device>
DcsrRowBins<Device> dcsr_bin_rows(const Kokkos::View<int*, Device>& row_sizes) {
  using ExecSpace = typename Device::execution_space;
  const int n = static_cast<int>(row_sizes.extent(0));
  Kokkos::View<int[dcsr_length_bin_count], Device> counts("strata::dcsr::bin_counts");
  Kokkos::parallel_for(
      "strata::dcsr::count_bins", Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const int r) { Kokkos::atomic_add(&counts(dcsr_length_bin(row_sizes(r))), 1); });
  auto counts_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counts);
  DcsrRowBins<Device> bins;
  bins.offsets.assign(dcsr_length_bin_count + 1, 0);
  for (int b = 0; b < dcsr_length_bin_count; ++b) bins.offsets[b + 1] = bins.offsets[b] + counts_h(b);
  bins.rows = Kokkos::View<int*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::dcsr::binned_rows"), n);
  const auto rows = bins.rows;
  for (int b = 0; b < dcsr_length_bin_count; ++b) {
    if (counts_h(b) == 0) continue;
    const int first = static_cast<int>(bins.offsets[b]);
    // One stable compaction per non-empty bin keeps rows of a bin in index order.
    Kokkos::parallel_scan(
        "strata::dcsr::bin_rows", Kokkos::RangePolicy<ExecSpace>(0, n),
        KOKKOS_LAMBDA(const int r, int& position, const bool final) {
          if (dcsr_length_bin(row_sizes(r)) == b) {
            if (final) rows(first + position) = r;
            ++position;
          }
        });
  }
  return bins;
}

// A team policy in which every team thread owns one row and `lanes` vector
// lanes work on its entries. Host backends get one row per team and one lane.
template <class ExecSpace>
struct DcsrRowTeams {
  ExecSpace space;
  int league = 0;
  int rows_per_team = 1;
  int lanes = 1;
  Kokkos::TeamPolicy<ExecSpace> policy() const {
    return Kokkos::TeamPolicy<ExecSpace>(space, league, rows_per_team, lanes);
  }
};

template <class ExecSpace>
DcsrRowTeams<ExecSpace> dcsr_row_teams(const ExecSpace& space, index_type rows, int lanes) {
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  DcsrRowTeams<ExecSpace> t;
  t.lanes = host ? 1 : lanes;
  t.rows_per_team = host ? 1 : (128 / t.lanes > 1 ? 128 / t.lanes : 1);
  t.space = space;
  t.league = static_cast<int>((rows + t.rows_per_team - 1) / t.rows_per_team);
  return t;
}

}  // namespace strata
