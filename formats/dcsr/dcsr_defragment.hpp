#pragma once
// Defragmentation: a prefix sum over row sizes gives every row one contiguous
// segment (no sort); rows may be placed grouped by length, which the ADCSR
// bins then read contiguously.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/light_weight_launch.hpp>
#include <strata/core/runs_on_host.hpp>
#include <strata/formats/dcsr/dcsr_matrix.hpp>
#include <strata/formats/dcsr/dcsr_rows.hpp>

namespace strata {

enum class DcsrRowOrder { by_index, by_length };

namespace Impl {

// `teams` teams (a touched row each, a block of rows each); host backends run teams of one thread.
template <class ExecSpace>
Kokkos::TeamPolicy<ExecSpace> row_team_policy(int teams, int device_team_size) {
  constexpr bool host = runs_on_host<ExecSpace>;
  return Kokkos::TeamPolicy<ExecSpace>(teams, host ? 1 : device_team_size);
}

// A team per block of rows in destination order, the team's threads over the block's
// destination slots: slot p belongs to the last row of the block that begins at or before p
// (a binary search), and is copied if it lies within that row's live entries (slots past them
// are a rebuilt row's reserve). A row per thread left a rebuild of rajat01 waiting 190 us on
// its one row of thousands of entries (H100 trace); here a long row is spread over the team.
template <class Value, class Device, class RowBegin>
struct DcsrGatherRows {
  using member_type = typename Kokkos::TeamPolicy<typename Device::execution_space>::member_type;
  static constexpr int rows_per_team = 256;

  DcsrView<Value, Device> A;
  RowBegin row_begin;                    // row_begin(r): where row r's entries go
  Kokkos::View<int*, Device> placement;  // destination order -> row; empty: index order
  Kokkos::View<int*, Device> cols;
  Kokkos::View<Value*, Device> values;
  int n;

  KOKKOS_INLINE_FUNCTION int row_at(const int i) const { return placement.extent(0) > 0 ? placement(i) : i; }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    const int first = member.league_rank() * rows_per_team;
    const int end = first + rows_per_team < n ? first + rows_per_team : n;
    const int last_row = row_at(end - 1);
    const int from = static_cast<int>(row_begin(row_at(first)));
    const int to = static_cast<int>(row_begin(last_row)) + A.row_sizes(last_row);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, from, to), [&](const int p) {
      int lo = first, hi = end - 1;
      while (lo < hi) {
        const int mid = lo + (hi - lo + 1) / 2;
        if (static_cast<int>(row_begin(row_at(mid))) <= p)
          lo = mid;
        else
          hi = mid - 1;
      }
      const int r = row_at(lo);
      const int q = p - static_cast<int>(row_begin(r));
      if (q < A.row_sizes(r)) {
        const int source = A.pool_index(r, q);
        cols(p) = A.cols(source);
        values(p) = A.values(source);
      }
    });
  }
};

// Copies the live entries of row r to cols/values from row_begin(r) on, in the row's order:
// the one kernel behind defragmentation, pool rebuilds and DCSR -> CSR. The rows' destinations
// follow `placement` (empty: index order) without gaps but the reserve.
template <class Value, class Device, class RowBegin>
void gather_dcsr_rows(const DcsrView<Value, Device>& A, const RowBegin& row_begin,
                      const Kokkos::View<int*, Device>& placement, const Kokkos::View<int*, Device>& cols,
                      const Kokkos::View<Value*, Device>& values) {
  using ExecSpace = typename Device::execution_space;
  using Gather = DcsrGatherRows<Value, Device, RowBegin>;
  const int n = A.num_rows;
  if (n == 0) return;
  const int teams = (n + Gather::rows_per_team - 1) / Gather::rows_per_team;
  light_weight_parallel_for("strata::dcsr::gather_rows", row_team_policy<ExecSpace>(teams, 256),
                            Gather{A, row_begin, placement, cols, values, n});
}

// Where a rebuilt row's one segment begins: its head.
template <class Device>
struct DcsrSingleSegmentBegin {
  Kokkos::View<int*, Device> heads;
  KOKKOS_INLINE_FUNCTION int operator()(const int r) const { return heads(2 * static_cast<std::size_t>(r)); }
};

// The i-th row in pool order gets the segment that starts where the rows before it end, and
// its live count; record i is cleared, and the last row sets the two bump pointers: the scan
// writes all of the new storage's int arrays, which are allocated without initialisation.
template <class Value, class Device>
struct DcsrPlaceRebuiltRows {
  DcsrView<Value, Device> fresh;
  Kokkos::View<int*, Device> sizes;
  Kokkos::View<int*, Device> reserve;
  Kokkos::View<int*, Device> placement;
  bool has_reserve;
  bool has_placement;

  KOKKOS_INLINE_FUNCTION void operator()(const int i, int& begin, const bool final) const {
    const int r = has_placement ? placement(i) : i;
    const int length = sizes(r) + (has_reserve ? reserve(r) : 0);
    if (final) {
      fresh.set_single_segment(r, begin, begin + length);
      fresh.row_sizes(r) = sizes(r);
      if (i < fresh.record_capacity) {
        for (int w = 0; w < 2 * fresh.max_segments; ++w) {
          fresh.records(static_cast<std::size_t>(i) * 2 * fresh.max_segments + w) = 0;
        }
      }
      if (i == fresh.num_rows - 1) {
        fresh.allocated() = begin + length;
        fresh.records_used() = 0;
      }
    }
    begin += length;
  }
};

// New storage in which row r holds one segment of row_sizes(r) + reserve(r) slots (reserve may
// be empty: no reserve) and no row a record, with records for the free slots left; `needed` is
// the total of those slots (the caller knows it: nothing is counted here, and nothing waits
// for the device but the allocations). The old storage is untouched, so a failed allocation
// leaves the matrix as it was.
template <class Value, class Device>
DcsrStorage<Value, Device> rebuild_dcsr_pool(const DcsrView<Value, Device>& old,
                                             const Kokkos::View<int*, Device>& reserve, index_type needed,
                                             index_type new_capacity, DcsrRowOrder order, const std::string& what) {
  using ExecSpace = typename Device::execution_space;
  const int n = old.num_rows;
  STRATA_REQUIRE(needed <= new_capacity, what + ": " + std::to_string(needed) +
                                             " entries do not fit the requested pool of " +
                                             std::to_string(new_capacity));
  Kokkos::View<int*, Device> placement;  // rows in pool order; empty means index order
  if (order == DcsrRowOrder::by_length) placement = dcsr_bin_rows(ExecSpace(), old.row_sizes).rows;
  // Without rows the scan writes nothing, and the zeroed storage is all there is.
  DcsrStorage<Value, Device> storage =
      allocate_dcsr<Value, Device>(n, old.num_cols, old.max_segments, new_capacity,
                                   dcsr_record_capacity(n, old.max_segments, new_capacity, needed), what, n == 0);
  const DcsrView<Value, Device>& fresh = storage.view;
  Kokkos::parallel_scan("strata::dcsr::rebuild_offsets", Kokkos::RangePolicy<ExecSpace>(0, n),
                        DcsrPlaceRebuiltRows<Value, Device>{fresh, old.row_sizes, reserve, placement,
                                                            reserve.extent(0) > 0, placement.extent(0) > 0});
  gather_dcsr_rows<Value, Device>(old, DcsrSingleSegmentBegin<Device>{fresh.heads}, placement, fresh.cols,
                                  fresh.values);
  return storage;
}

}  // namespace Impl

// Compacts every row into one contiguous segment in a pool of the same
// capacity; the matrix stays logically identical. by_length places rows of
// equal ADCSR bin together.
template <class Value, class Device>
void dcsr_defragment(DcsrMatrix<Value, Device>& A, DcsrRowOrder order = DcsrRowOrder::by_index) {
  A.replace_storage(
      Impl::rebuild_dcsr_pool(A.view(), Kokkos::View<int*, Device>(), A.nnz(), A.capacity(), order, "dcsr_defragment"));
}

}  // namespace strata
