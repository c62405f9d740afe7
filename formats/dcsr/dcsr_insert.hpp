#pragma once
// Batched in-place insertion into DCSR. The batch is grouped by row; a team
// per touched row fills the row's free slots and, when they run out, takes a
// new segment with one atomic bump of the pool pointer. A batch that does not
// fit (a row out of segments, the pool out of entries) first rebuilds the
// pool with room reserved for it, growing it if needed, so nothing is dropped;
// the check happens before any entry is written.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/kokkos_compat.hpp>
#include <strata/core/light_weight_launch.hpp>
#include <strata/core/runs_on_host.hpp>
#include <strata/formats/dcsr/dcsr_batch.hpp>
#include <strata/formats/dcsr/dcsr_defragment.hpp>

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

// One team per touched row; host backends run teams of one thread.
template <class ExecSpace>
Kokkos::TeamPolicy<ExecSpace> row_team_policy(int rows, int device_team_size) {
  constexpr bool host = runs_on_host<ExecSpace>;
  return Kokkos::TeamPolicy<ExecSpace>(rows, host ? 1 : device_team_size);
}

// Per touched row: how many new entries it gets (new_count), the segment it
// asks for (request), and, under the sum policy, which existing entry each
// batch column sums into (match). Teams past the touched rows (the launch is
// sized before the host knows their number) return at once. The totals go to
// the control words with the pool's bump pointer, for the host's one read.
template <class Value, class Device>
struct DcsrPlanRowInsert {
  using member_type = typename Kokkos::TeamPolicy<typename Device::execution_space>::member_type;

  DcsrView<Value, Device> A;
  Kokkos::View<int*, Device> offsets;
  Kokkos::View<int*, Device> gcols;
  Kokkos::View<int*, Device> active;
  Kokkos::View<int*, Device> match;
  Kokkos::View<int*, Device> new_count;
  Kokkos::View<int*, Device> request;
  Kokkos::View<dcsr_word*, Device> control;
  bool summing;
  int slack;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    const int a = member.league_rank();
    if (a == 0) Kokkos::single(Kokkos::PerTeam(member), [&]() { control(dcsr_allocated) = A.allocated(); });
    if (static_cast<dcsr_word>(a) >= control(dcsr_active_rows)) return;
    const int r = active(a);
    const int begin = offsets(r);
    const int end = offsets(r + 1);
    const int size = A.row_sizes(r);
    int fresh = end - begin;
    if (summing) {
      // Columns are sorted within the row's batch; an existing entry claims
      // the first batch entry of its column (one claim per column).
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
      request(a) = 0;
      const int room = A.row_capacity(r) - size;
      if (fresh > room) {
        if (A.used_segments(r) < A.max_segments) {
          request(a) = fresh - room + slack;
          dcsr_add_request(control.data(), static_cast<dcsr_word>(request(a)));
        } else {
          Kokkos::atomic_add(&control(dcsr_blocked_rows), dcsr_word{1});
        }
      }
      if (fresh > 0) Kokkos::atomic_add(&control(dcsr_fresh_entries), static_cast<dcsr_word>(fresh));
    });
  }
};

template <class Value, class Device>
void plan_insert(const DcsrView<Value, Device>& A, const DcsrBatchByRow<Device>& g, DcsrBatchWorkspace<Device>& ws,
                 DuplicatePolicy policy, int slack, int teams) {
  using ExecSpace = typename Device::execution_space;
  light_weight_parallel_for(
      "strata::dcsr::insert_plan", row_team_policy<ExecSpace>(teams, 32),
      DcsrPlanRowInsert<Value, Device>{A, g.offsets, g.cols, g.active_rows, ws.match, ws.new_count, ws.request,
                                       ws.control, policy == DuplicatePolicy::sum, slack});
}

template <class Device>
struct DcsrSortBatchRow {
  using member_type = typename Kokkos::TeamPolicy<typename Device::execution_space>::member_type;

  Kokkos::View<int*, Device> offsets;
  Kokkos::View<int*, Device> gcols;
  Kokkos::View<int*, Device> source;
  Kokkos::View<int*, Device> active;
  Kokkos::View<dcsr_word*, Device> control;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    if (static_cast<dcsr_word>(member.league_rank()) >= control(dcsr_active_rows)) return;
    const int r = active(member.league_rank());
    const int begin = offsets(r);
    compat::team_sort_by_key(member, gcols.data() + begin, source.data() + begin, offsets(r + 1) - begin);
  }
};

// Sorts every touched row's batch columns (the sum policy matches them by binary search).
template <class Device>
void sort_batch_rows(const DcsrBatchByRow<Device>& g) {
  using ExecSpace = typename Device::execution_space;
  Kokkos::parallel_for("strata::dcsr::insert_sort_rows", row_team_policy<ExecSpace>(g.active_bound, 64),
                       DcsrSortBatchRow<Device>{g.offsets, g.cols, g.source, g.active_rows, g.control});
}

template <class Value, class Device, class ValueView>
struct DcsrApplyRowInsert {
  using member_type = typename Kokkos::TeamPolicy<typename Device::execution_space>::member_type;

  DcsrView<Value, Device> A;
  Kokkos::View<int*, Device> offsets;
  Kokkos::View<int*, Device> gcols;
  Kokkos::View<int*, Device> source;
  Kokkos::View<int*, Device> active;
  Kokkos::View<int*, Device> match;
  Kokkos::View<int*, Device> new_count;
  Kokkos::View<int*, Device> request;
  Kokkos::View<dcsr_word*, Device> control;
  ValueView batch_values;
  bool summing;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    const int a = member.league_rank();
    const int r = active(a);
    const int begin = offsets(r);
    const int end = offsets(r + 1);
    const int size = A.row_sizes(r);
    Kokkos::single(Kokkos::PerTeam(member), [&]() {
      if (a == 0) {
        // The host has read the control words: back to their state between batches.
        DcsrResetControl<Device>{control, false}(0);
      }
      if (request(a) > 0) {
        const int s = A.used_segments(r);
        const int start = Kokkos::atomic_fetch_add(&A.allocated(), request(a));
        A.set_segment(r, s, start, start + request(a));
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
    Kokkos::single(Kokkos::PerTeam(member), [&]() { A.row_sizes(r) = size + new_count(a); });
  }
};

template <class Value, class Device, class ValueView>
void apply_insert(const DcsrView<Value, Device>& A, const DcsrBatchByRow<Device>& g, DcsrBatchWorkspace<Device>& ws,
                  const ValueView& batch_values, DuplicatePolicy policy) {
  using ExecSpace = typename Device::execution_space;
  light_weight_parallel_for("strata::dcsr::insert", row_team_policy<ExecSpace>(g.num_active, 32),
                            DcsrApplyRowInsert<Value, Device, ValueView>{A, g.offsets, g.cols, g.source, g.active_rows,
                                                                         ws.match, ws.new_count, ws.request, ws.control,
                                                                         batch_values, policy == DuplicatePolicy::sum});
}

template <class Value, class Device>
index_type grown_capacity(const DcsrMatrix<Value, Device>& A, index_type required) {
  const DcsrParameters& p = A.parameters();
  index_type grown = static_cast<index_type>(static_cast<double>(A.capacity()) * p.growth_factor);
  if (grown < required) grown = required;
  if (grown > INT_MAX) grown = INT_MAX;
  if (p.max_capacity > 0 && grown > p.max_capacity) grown = p.max_capacity;
  return grown;
}

template <class Device>
struct DcsrReserveTouchedRows {
  Kokkos::View<int*, Device> reserve;
  Kokkos::View<int*, Device> active;
  Kokkos::View<int*, Device> new_count;
  int slack;

  KOKKOS_INLINE_FUNCTION void operator()(const int a) const {
    if (new_count(a) > 0) reserve(active(a)) = new_count(a) + slack;
  }
};

// Reserves new_count + slack slots in every touched row, growing the pool
// when the live entries and reserves exceed it.
template <class Value, class Device>
void make_room(DcsrMatrix<Value, Device>& A, const DcsrBatchByRow<Device>& g, const DcsrBatchWorkspace<Device>& ws,
               int slack) {
  using ExecSpace = typename Device::execution_space;
  Kokkos::View<int*, Device> reserve("strata::dcsr::reserve", A.num_rows());
  Kokkos::parallel_for("strata::dcsr::insert_reserve", Kokkos::RangePolicy<ExecSpace>(0, g.num_active),
                       DcsrReserveTouchedRows<Device>{reserve, g.active_rows, ws.new_count, slack});
  index_type reserved = 0;
  Kokkos::parallel_reduce("strata::dcsr::insert_reserved", Kokkos::RangePolicy<ExecSpace>(0, A.num_rows()),
                          DcsrCountSum<Device>{reserve}, reserved);
  const index_type required = A.nnz() + reserved;
  const DcsrParameters& p = A.parameters();
  STRATA_REQUIRE(p.max_capacity == 0 || required <= p.max_capacity,
                 "dcsr_insert: the matrix needs " + std::to_string(required) + " pool entries (" +
                     std::to_string(dcsr_bytes<Value>(A.num_rows(), p.max_segments, required)) +
                     " bytes) but max_capacity is " + std::to_string(p.max_capacity) +
                     "; the matrix is unchanged");
  STRATA_REQUIRE(required <= INT_MAX, "dcsr_insert: the matrix needs " + std::to_string(required) +
                                          " pool entries, beyond 32-bit offsets; the matrix is unchanged");
  const index_type capacity = required <= A.capacity() ? A.capacity() : grown_capacity(A, required);
  try {
    A.replace_storage(rebuild_dcsr_pool(A.view(), reserve, capacity, DcsrRowOrder::by_index, "dcsr_insert"));
  } catch (const Error&) {
    if (capacity == required) throw;
    // The generous growth did not fit the device; the exact need may.
    A.replace_storage(rebuild_dcsr_pool(A.view(), reserve, required, DcsrRowOrder::by_index, "dcsr_insert"));
  }
}

// Kernels in the order they are queued, with the host's one wait where it falls:
//   count + check, row offsets, scatter (the grouping), [sort rows,] plan, READ, apply.
// The plan and the sort are launched for as many rows as the batch could touch;
// the read gives the host the number it does touch, the entry outside the
// matrix if any, and whether the pool has room. Without room (rare: a row out
// of segments, the pool out of slots) the pool is rebuilt and the plan run
// and read again.
template <class Value, class Device, class RowView, class ColView, class ValueView>
void dcsr_insert(DcsrMatrix<Value, Device>& A, const RowView& rows, const ColView& cols, const ValueView& values,
                 DuplicatePolicy policy) {
  STRATA_REQUIRE(rows.extent(0) == cols.extent(0) && rows.extent(0) == values.extent(0),
                 "dcsr_insert: rows, cols and values have " + std::to_string(rows.extent(0)) + ", " +
                     std::to_string(cols.extent(0)) + " and " + std::to_string(values.extent(0)) + " entries");
  STRATA_REQUIRE(rows.extent(0) <= static_cast<std::size_t>(INT_MAX),
                 "dcsr_insert: a batch holds at most 2^31 - 1 entries, got " + std::to_string(rows.extent(0)));
  if (rows.extent(0) == 0 || A.num_rows() == 0) return;
  const int slack = A.parameters().slack();
  const int n = static_cast<int>(rows.extent(0));
  auto& ws = A.batch_workspace();
  ws.prepare(A.num_rows(), n);
  auto g = group_batch_by_row<Device>(ws, A.num_rows(), A.num_cols(), rows, cols);
  if (policy == DuplicatePolicy::sum) sort_batch_rows(g);
  plan_insert(A.view(), g, ws, policy, slack, g.active_bound);
  ws.read_control();
  ws.require_batch_inside(A.num_rows(), A.num_cols(), rows, cols, "dcsr_insert");
  g.num_active = static_cast<int>(ws.word(dcsr_active_rows));
  const auto room_for_plan = [&]() {
    return ws.word(dcsr_blocked_rows) == 0 && ws.total_request() <= A.capacity() - ws.word(dcsr_allocated);
  };
  if (!room_for_plan()) {
    make_room(A, g, ws, slack);
    // The first plan's matches point into the old pool.
    Kokkos::deep_copy(Kokkos::subview(ws.match, std::make_pair(0, n)), -1);
    ws.reset_control(/*keep_active_rows=*/true);
    plan_insert(A.view(), g, ws, policy, slack, g.num_active);
    ws.read_control();
    STRATA_REQUIRE(room_for_plan(), "dcsr_insert: internal error: the rebuilt pool has no room for the batch");
  }
  const index_type fresh = ws.word(dcsr_fresh_entries);
  if (g.num_active > 0) {
    apply_insert(A.view(), g, ws, values, policy);  // also resets the control words
  } else {
    ws.reset_control();
  }
  ws.batch_completed();
  A.add_to_live_entries(fresh);
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
