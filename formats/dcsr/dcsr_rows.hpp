#pragma once
// The ADCSR length bins: which bin a row length falls in, and the rows listed bin by bin
// (the lanes a bin gets are the SpMV's choice: algorithms/spmv/dcsr.hpp).
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/index.hpp>
#include <strata/core/kokkos_compat.hpp>
#include <strata/core/runs_on_host.hpp>

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

// The highest bin with rows, given the bins' first positions (0 when no bin above 0 has rows).
inline int dcsr_top_bin(const std::vector<index_type>& offsets) {
  int top = dcsr_length_bin_count - 1;
  while (top > 0 && offsets[top + 1] == offsets[top]) --top;
  return top;
}

// The mean length of bin b's rows, given the bins' first positions and entries (b has rows).
inline double dcsr_bin_mean(const std::vector<index_type>& offsets, const std::vector<index_type>& entries, int b) {
  return static_cast<double>(entries[b]) / static_cast<double>(offsets[b + 1] - offsets[b]);
}

// Rows listed bin after bin, in index order within a bin; offsets[b] is the
// first position of bin b (dcsr_length_bin_count + 1 entries) and entries[b]
// the entries its rows hold. tallies and tallies_host are the binning's
// scratch, kept with the rows for the next binning.
template <class Device>
struct DcsrRowBins {
  Kokkos::View<int*, Device> rows;
  std::vector<index_type> offsets;
  std::vector<index_type> entries;
  Kokkos::View<int[2 * dcsr_length_bin_count], Device> tallies;  // rows per bin, then entries per bin
  Kokkos::View<int[2 * dcsr_length_bin_count], compat::pinned_host_space> tallies_host;

  index_type rows_in(int bin) const { return offsets[bin + 1] - offsets[bin]; }
  int top_bin() const { return dcsr_top_bin(offsets); }
};

// Rows and entries per bin. A team tallies a block of rows in team scratch and adds its tallies
// to the global ones once: one global atomic per row would put every row of a bin on one
// address (a million rows of R-MAT 20, most of them in two bins). Lengths fit 32 bits: a DCSR
// pool has 32-bit offsets.
template <class Device>
struct DcsrTallyBins {
  using execution_space = typename Device::execution_space;
  using member_type = typename Kokkos::TeamPolicy<execution_space>::member_type;
  using scratch_view =
      Kokkos::View<int*, typename execution_space::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static constexpr int words = 2 * dcsr_length_bin_count;
  static constexpr int rows_per_team = 1024;  // four per thread: small matrices get several teams
  Kokkos::View<int[words], Device> tallies;
  Kokkos::View<int*, Device> row_sizes;
  int num_rows;

  static std::size_t scratch_bytes() { return scratch_view::shmem_size(words); }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    const scratch_view local(member.team_scratch(0), words);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, words), [&](const int w) { local(w) = 0; });
    member.team_barrier();
    const int begin = member.league_rank() * rows_per_team;
    const int end = begin + rows_per_team < num_rows ? begin + rows_per_team : num_rows;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, begin, end), [&](const int r) {
      const int length = row_sizes(r);
      const int bin = dcsr_length_bin(length);
      Kokkos::atomic_add(&local(bin), 1);
      Kokkos::atomic_add(&local(dcsr_length_bin_count + bin), length);
    });
    member.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, words), [&](const int w) {
      if (local(w) != 0) Kokkos::atomic_add(&tallies(w), local(w));
    });
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
// refit allocates nothing). Every kernel runs on `space`, in order with the
// caller's work there: the rows are ready for work that `space` runs next or
// that waits on it. The host waits once, for the bins' tallies.
template <class ExecSpace, class Device>
void dcsr_bin_rows(const ExecSpace& space, const Kokkos::View<int*, Device>& row_sizes, DcsrRowBins<Device>& bins) {
  using Tally = DcsrTallyBins<Device>;
  const int n = static_cast<int>(row_sizes.extent(0));
  if (bins.tallies.data() == nullptr) {
    bins.tallies = decltype(bins.tallies)(Kokkos::view_alloc(space, "strata::dcsr::bin_tallies"));
    bins.tallies_host = decltype(bins.tallies_host)("strata::dcsr::bin_tallies_host");
  } else {
    Kokkos::deep_copy(space, bins.tallies, 0);
  }
  if (n > 0) {
    constexpr bool host = runs_on_host<ExecSpace>;
    const int league = (n + Tally::rows_per_team - 1) / Tally::rows_per_team;
    Kokkos::parallel_for("strata::dcsr::tally_bins",
                         Kokkos::TeamPolicy<ExecSpace>(space, league, host ? 1 : 256)
                             .set_scratch_size(0, Kokkos::PerTeam(Tally::scratch_bytes())),
                         Tally{bins.tallies, row_sizes, n});
  }
  Kokkos::deep_copy(space, bins.tallies_host, bins.tallies);
  space.fence();
  bins.offsets.assign(dcsr_length_bin_count + 1, 0);
  bins.entries.assign(dcsr_length_bin_count, 0);
  DcsrCompactBinRows<Device> compact{row_sizes, {}, {}, n};
  int used = 0;
  for (int b = 0; b < dcsr_length_bin_count; ++b) {
    const int count = bins.tallies_host(b);
    bins.offsets[b + 1] = bins.offsets[b] + count;
    bins.entries[b] = bins.tallies_host(dcsr_length_bin_count + b);
    if (count > 0) compact.bins[used++] = b;
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
