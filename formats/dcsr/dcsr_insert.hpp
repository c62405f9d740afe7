#pragma once
// Batched in-place insertion into DCSR. The batch is grouped by row; a team
// per touched row fills the row's free slots and, when they run out, takes a
// new segment with one atomic bump of the pool pointer (and, for its second
// segment, a record from the records' bump pointer). A batch that does not
// fit (a row out of segments, the pool out of entries or records) first
// rebuilds the pool with room reserved for it, growing it if needed, so
// nothing is dropped; the check happens before any entry is written.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/kokkos_compat.hpp>
#include <strata/core/light_weight_launch.hpp>
#include <strata/core/runs_on_host.hpp>
#include <strata/formats/dcsr/dcsr_batch.hpp>
#include <strata/formats/dcsr/dcsr_defragment.hpp>
#include <strata/formats/dcsr/dcsr_rows.hpp>

#include <type_traits>

namespace strata {

enum class DuplicatePolicy {
  keep_separate,  // a repeated (row, col) becomes one more entry of the row
  sum             // a repeated (row, col) is added to the one entry of that coordinate
};
// Under `sum`, a row that already holds several entries of a column (left by
// keep_separate batches) gets the batch's sum added to one of them; which one
// depends on the order in which the device placed them, so the stored entries
// may differ from run to run while the matrix they mean (their sum) does not.

namespace Impl {

// Per touched row: how many new entries it gets (new_count), the segment it
// asks for (request), and, under the sum policy, which existing entry each
// batch column sums into (match), after sorting the row's batch columns (the
// matching is a binary search; sorting here saves a launch). Teams past the
// touched rows (the launch is sized before the host knows their number)
// return at once. The totals go to the control words with the pool's bump
// pointer, for the host's one read, and so do the rows whose length moves to
// another ADCSR bin (what a binned SpMV handle's refit looks at). Each touched row's new
// entries also go to the grouping's row counts (zero after the grouping): the reserve a pool
// rebuilt for the batch gives the row, zeroed again by the apply that writes the batch.
template <class Value, class Device>
struct DcsrPlanRowInsert {
  using member_type = typename Kokkos::TeamPolicy<typename Device::execution_space>::member_type;

  DcsrView<Value, Device> A;
  Kokkos::View<int*, Device> group_begin;
  Kokkos::View<int*, Device> group_end;
  Kokkos::View<int*, Device> gcols;
  Kokkos::View<int*, Device> source;
  Kokkos::View<int*, Device> active;
  Kokkos::View<int*, Device> match;
  Kokkos::View<int*, Device> new_count;
  Kokkos::View<int*, Device> request;
  Kokkos::View<int*, Device> reserve;  // per row: the grouping's counts
  Kokkos::View<dcsr_word*, Device> control;
  bool summing;
  int alpha;  // DcsrParameters::segment_slack

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    const int a = member.league_rank();
    if (a == 0) {
      Kokkos::single(Kokkos::PerTeam(member), [&]() {
        control(dcsr_allocated) = A.allocated();
        control(dcsr_records_used) = A.records_used();
      });
    }
    if (static_cast<dcsr_word>(a) >= control(dcsr_active_rows)) return;
    const int r = active(a);
    const int begin = group_begin(a);
    const int end = group_end(a);
    const int size = A.row_sizes(r);
    int fresh = end - begin;
    if (summing) {
      compat::team_sort_by_key(member, gcols.data() + begin, source.data() + begin, end - begin);
      member.team_barrier();
      // An existing entry claims the first batch entry of its column (one claim per column).
      Kokkos::parallel_for(Kokkos::TeamThreadRange(member, size), [&](const int p) {
        const int at = A.pool_index(r, p);
        const int c = A.cols(at);
        int lo = begin, hi = end;
        while (lo < hi) {
          const int mid = lo + (hi - lo) / 2;
          if (gcols(mid) < c) lo = mid + 1; else hi = mid;
        }
        if (lo < end && gcols(lo) == c) Kokkos::atomic_compare_exchange(&match(lo), -1, at);
      });
      member.team_barrier();
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(member, begin, end),
          [&](const int i, int& count) {
            const bool head = i == begin || gcols(i) != gcols(i - 1);
            if (head && match(i) < 0) ++count;
          },
          fresh);
    }
    Kokkos::single(Kokkos::PerTeam(member), [&]() {
      new_count(a) = fresh;
      reserve(r) = fresh;
      request(a) = 0;
      const int room = A.row_capacity(r) - size;
      if (fresh > room) {
        const int used = A.used_segments(r);
        if (used < A.max_segments) {
          request(a) = fresh - room + dcsr_segment_slack(alpha, size + fresh);
          dcsr_add_request(control.data(), static_cast<dcsr_word>(request(a)));
          if (used >= 1 && !A.has_record(r)) Kokkos::atomic_add(&control(dcsr_new_records), dcsr_word{1});
        } else {
          Kokkos::atomic_add(&control(dcsr_blocked_rows), dcsr_word{1});
        }
      }
      if (fresh > 0) Kokkos::atomic_add(&control(dcsr_fresh_entries), static_cast<dcsr_word>(fresh));
      if (dcsr_length_bin(size + fresh) != dcsr_length_bin(size)) {
        Kokkos::atomic_add(&control(dcsr_rows_changing_bin), dcsr_word{1});
        Kokkos::atomic_fetch_max(&control(dcsr_longest_moving_row), static_cast<dcsr_word>(size + fresh));
      }
    });
  }
};

template <class Value, class Device>
void plan_insert(const DcsrView<Value, Device>& A, const DcsrBatchByRow<Device>& g, DcsrBatchWorkspace<Device>& ws,
                 DuplicatePolicy policy, int alpha, int teams) {
  using ExecSpace = typename Device::execution_space;
  light_weight_parallel_for("strata::dcsr::insert_plan", row_team_policy<ExecSpace>(teams, 32),
                            DcsrPlanRowInsert<Value, Device>{
                                A, g.group_begin, g.group_end, g.cols, g.source, g.active_rows, ws.match, ws.new_count,
                                ws.request, ws.counts, ws.control, policy == DuplicatePolicy::sum, alpha});
}

template <class Value, class Device, class ValueView>
struct DcsrApplyRowInsert {
  using member_type = typename Kokkos::TeamPolicy<typename Device::execution_space>::member_type;

  DcsrView<Value, Device> A;
  Kokkos::View<int*, Device> group_begin;
  Kokkos::View<int*, Device> group_end;
  Kokkos::View<int*, Device> gcols;
  Kokkos::View<int*, Device> source;
  Kokkos::View<int*, Device> active;
  Kokkos::View<int*, Device> match;
  Kokkos::View<int*, Device> new_count;
  Kokkos::View<int*, Device> request;
  Kokkos::View<int*, Device> reserve;  // per row: the grouping's counts, which the plan set
  Kokkos::View<dcsr_word*, Device> control;
  Kokkos::View<dcsr_word*, compat::pinned_host_space> control_host;  // the plan's words, mirrored by team 0
  ValueView batch_values;
  bool summing;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    const int a = member.league_rank();
    if (a == 0) Kokkos::single(Kokkos::PerTeam(member), [&]() { mirror_control(control, control_host); });
    if (static_cast<dcsr_word>(a) >= control(dcsr_active_rows)) return;
    const int r = active(a);
    const int begin = group_begin(a);
    const int end = group_end(a);
    // Every team sees the same plan: nothing is written unless all of it fits. If it does not,
    // the pool is rebuilt with the row counts as the reserve and the plan runs again, from
    // entries without a match.
    if (!dcsr_plan_fits(control.data(), A.capacity, A.record_capacity)) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(member, begin, end), [&](const int i) { match(i) = -1; });
      return;
    }
    const int size = A.row_sizes(r);
    Kokkos::single(Kokkos::PerTeam(member), [&]() {
      if (request(a) > 0) {
        const int start = Kokkos::atomic_fetch_add(&A.allocated(), request(a));
        A.append_segment(r, start, start + request(a));
      }
    });
    member.team_barrier();
    if (summing) {
      Kokkos::parallel_scan(Kokkos::TeamThreadRange(member, begin, end), [&](const int i, int& slot, const bool final) {
        const bool head = i == begin || gcols(i) != gcols(i - 1);
        if (!head) return;
        if (final) {
          Value sum = batch_values(source(i));
          for (int j = i + 1; j < end && gcols(j) == gcols(i); ++j) sum += batch_values(source(j));
          if (match(i) >= 0) {
            A.values(match(i)) += sum;
          } else {
            const int at = A.pool_index(r, size + slot);
            A.cols(at) = gcols(i);
            A.values(at) = sum;
          }
        }
        if (match(i) < 0) ++slot;
      });
    } else {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(member, begin, end), [&](const int i) {
        const int at = A.pool_index(r, size + (i - begin));
        A.cols(at) = gcols(i);
        A.values(at) = batch_values(source(i));
      });
    }
    member.team_barrier();
    Kokkos::single(Kokkos::PerTeam(member), [&]() {
      A.row_sizes(r) = size + new_count(a);
      reserve(r) = 0;
    });
  }
};

// Writes the plan into the pool if it fits (dcsr_plan_fits, tested on the device: the launch is
// queued before the host has read the plan), for `teams` teams, at least the touched rows.
template <class Value, class Device, class ValueView>
void apply_insert(const DcsrView<Value, Device>& A, const DcsrBatchByRow<Device>& g, DcsrBatchWorkspace<Device>& ws,
                  const ValueView& batch_values, DuplicatePolicy policy, int teams) {
  using ExecSpace = typename Device::execution_space;
  light_weight_parallel_for(
      "strata::dcsr::insert", row_team_policy<ExecSpace>(teams, 32),
      DcsrApplyRowInsert<Value, Device, ValueView>{A, g.group_begin, g.group_end, g.cols, g.source, g.active_rows,
                                                   ws.match, ws.new_count, ws.request, ws.counts, ws.control,
                                                   ws.control_host, batch_values, policy == DuplicatePolicy::sum});
}

// Rebuilds the pool with room for exactly the batch's new entries in every touched row (the
// batch fills it: nothing is left over per row), growing it to the live entries, the batch and
// their spare room (DcsrParameters::memory_budget) when they exceed it. The spare room and the
// records that come with it are what later batches' new segments draw from. Nothing here waits
// for the device but the allocations: the batch's new entries are the plan's count, and the
// per-row reserve is in the grouping's row counts, where the plan put it (a batch that throws
// here leaves them set, and the workspace clears them before the next batch).
template <class Value, class Device>
void make_room(DcsrMatrix<Value, Device>& A, const DcsrBatchWorkspace<Device>& ws) {
  const index_type required = A.nnz() + ws.word(dcsr_fresh_entries);
  const DcsrParameters& p = A.parameters();
  STRATA_REQUIRE(p.max_capacity == 0 || required <= p.max_capacity,
                 "dcsr_insert: the matrix needs " + std::to_string(required) + " pool entries (" +
                     std::to_string(dcsr_storage_bytes(A.num_rows(), p.max_segments, required, 0, sizeof(Value))) +
                     " bytes) but max_capacity is " + std::to_string(p.max_capacity) + "; the matrix is unchanged");
  STRATA_REQUIRE(required <= INT_MAX, "dcsr_insert: the matrix needs " + std::to_string(required) +
                                          " pool entries, beyond 32-bit offsets; the matrix is unchanged");
  // A rebuild keeps the spare room whole, so that it is not followed by another a few batches on.
  const index_type spared = p.with_spare(required, A.num_rows(), sizeof(Value));
  const index_type capacity = spared > A.capacity() ? spared : A.capacity();
  // The plan left each touched row's new entries in the row counts: the reserve.
  const auto reserve = ws.counts;
  try {
    A.replace_storage(rebuild_dcsr_pool(A.view(), reserve, required, capacity, DcsrRowOrder::by_index, "dcsr_insert"));
  } catch (const Error&) {
    if (capacity == required) throw;
    // The spare room did not fit the device; the exact need may.
    A.replace_storage(rebuild_dcsr_pool(A.view(), reserve, required, required, DcsrRowOrder::by_index, "dcsr_insert"));
  }
}

// Kernels in the order they are queued, then the host's one wait:
//   count + check, reserve groups, scatter (the grouping), [sort +] plan, apply if it fits, READ.
// Everything after the count is launched for as many rows as the batch could
// touch; the apply writes nothing unless the plan fits (no entry outside the
// matrix, room in the pool and its records), so the read after it tells the
// host whether the batch is in. Without room (a row out of segments, the pool
// out of slots or records: once the spare room is used up) the pool is rebuilt
// and the plan and the apply run and are read again.
template <class Value, class Device, class RowView, class ColView, class ValueView>
void dcsr_insert(DcsrMatrix<Value, Device>& A, const RowView& rows, const ColView& cols, const ValueView& values,
                 DuplicatePolicy policy) {
  STRATA_REQUIRE(rows.extent(0) == cols.extent(0) && rows.extent(0) == values.extent(0),
                 "dcsr_insert: rows, cols and values have " + std::to_string(rows.extent(0)) + ", " +
                     std::to_string(cols.extent(0)) + " and " + std::to_string(values.extent(0)) + " entries");
  STRATA_REQUIRE(rows.extent(0) <= static_cast<std::size_t>(INT_MAX),
                 "dcsr_insert: a batch holds at most 2^31 - 1 entries, got " + std::to_string(rows.extent(0)));
  if (rows.extent(0) == 0 || A.num_rows() == 0) return;
  const int alpha = A.parameters().segment_slack;
  const int n = static_cast<int>(rows.extent(0));
  auto& ws = A.batch_workspace();
  ws.prepare(A.num_rows(), n);
  auto g = group_batch_by_touched_row<Device>(ws, A.num_rows(), A.num_cols(), rows, cols);
  plan_insert(A.view(), g, ws, policy, alpha, g.active_bound);
  apply_insert(A.view(), g, ws, values, policy, g.active_bound);
  ws.wait_for_control();
  ws.require_batch_inside(A.num_rows(), A.num_cols(), rows, cols, "dcsr_insert");
  g.num_active = static_cast<int>(ws.word(dcsr_active_rows));
  if (!ws.plan_fits(A.capacity(), A.record_capacity())) {
    // Nothing was written: rebuild the pool with room for the batch, then plan and apply again.
    make_room(A, ws);
    A.count_pool_rebuild();
    ws.reset_control(/*keep_active_rows=*/true);
    plan_insert(A.view(), g, ws, policy, alpha, g.num_active);
    apply_insert(A.view(), g, ws, values, policy, g.num_active);
    ws.wait_for_control();
    STRATA_REQUIRE(ws.plan_fits(A.capacity(), A.record_capacity()),
                   "dcsr_insert: internal error: the rebuilt pool has no room for the batch");
  }
  const index_type fresh = ws.word(dcsr_fresh_entries);
  const DcsrRowGrowth growth{ws.word(dcsr_rows_changing_bin), static_cast<int>(ws.word(dcsr_longest_moving_row))};
  ws.batch_completed();
  A.add_to_live_entries(fresh);
  A.add_row_growth(growth);
}

}  // namespace Impl

// Inserts the batch (rows(i), cols(i), values(i)), i < rows.extent(0), given
// in device-accessible Views. Throws strata::Error, leaving A unchanged, on an
// entry outside the matrix or when the pool cannot grow to hold the batch.
template <class Value, class Device, class RowView, class ColView, class ValueView>
void dcsr_insert(DcsrMatrix<Value, Device>& A, const RowView& rows, const ColView& cols, const ValueView& values,
                 DuplicatePolicy policy) {
  static_assert(Kokkos::is_view<RowView>::value && Kokkos::is_view<ColView>::value && Kokkos::is_view<ValueView>::value,
                "dcsr_insert: rows, cols and values must be Kokkos Views");
  static_assert(RowView::rank == 1 && ColView::rank == 1 && ValueView::rank == 1,
                "dcsr_insert: rows, cols and values must be rank-1 Views");
  static_assert(std::is_integral<typename RowView::non_const_value_type>::value &&
                    std::is_integral<typename ColView::non_const_value_type>::value,
                "dcsr_insert: row and column indices must be integers");
  static_assert(std::is_convertible<typename ValueView::non_const_value_type, Value>::value,
                "dcsr_insert: values must convert to the matrix value type");
  static_assert(Kokkos::SpaceAccessibility<typename Device::execution_space, typename RowView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<typename Device::execution_space, typename ColView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<typename Device::execution_space, typename ValueView::memory_space>::accessible,
                "dcsr_insert: the batch must be accessible from the matrix's execution space");
  Impl::dcsr_insert(A, rows, cols, values, policy);
}

}  // namespace strata
