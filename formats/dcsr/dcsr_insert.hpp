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

// Per touched row: how many new entries it gets, which existing entry each
// batch column sums into (sum policy), and the segment request it makes.
template <class Device>
struct DcsrInsertPlan {
  Kokkos::View<int*, Device> match;      // per grouped entry: pool index it sums into, or -1
  Kokkos::View<int*, Device> new_count;  // per active row
  Kokkos::View<int*, Device> request;    // per active row: slots of the new segment, 0 if none
  index_type total_request = 0;
  int blocked_rows = 0;                  // rows whose k segments are all in use
};

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
  Kokkos::View<int, Device> blocked;
  bool summing;
  int slack;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    const int a = member.league_rank();
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
      const int room = A.row_capacity(r) - size;
      if (fresh > room) {
        if (A.used_segments(r) < A.max_segments) {
          request(a) = fresh - room + slack;
        } else {
          Kokkos::atomic_add(&blocked(), 1);
        }
      }
    });
  }
};

template <class Value, class Device>
DcsrInsertPlan<Device> plan_insert(const DcsrView<Value, Device>& A, const DcsrBatchByRow<Device>& g,
                                   DuplicatePolicy policy, int slack) {
  using ExecSpace = typename Device::execution_space;
  DcsrInsertPlan<Device> plan;
  const int total = static_cast<int>(g.cols.extent(0));
  plan.match = Kokkos::View<int*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::dcsr::match"), total);
  Kokkos::deep_copy(plan.match, -1);
  plan.new_count = Kokkos::View<int*, Device>("strata::dcsr::new_count", g.num_active);
  plan.request = Kokkos::View<int*, Device>("strata::dcsr::request", g.num_active);
  Kokkos::View<int, Device> blocked("strata::dcsr::blocked");
  const auto match = plan.match;
  const auto new_count = plan.new_count;
  const auto request = plan.request;
  const auto offsets = g.offsets;
  const auto gcols = g.cols;
  const auto active = g.active_rows;
  const bool summing = policy == DuplicatePolicy::sum;
  light_weight_parallel_for(
      "strata::dcsr::insert_plan", row_team_policy<ExecSpace>(g.num_active, 32),
      DcsrPlanRowInsert<Value, Device>{A, offsets, gcols, active, match, new_count, request, blocked, summing, slack});
  Kokkos::parallel_reduce("strata::dcsr::insert_request", Kokkos::RangePolicy<ExecSpace>(0, g.num_active),
                          DcsrCountSum<Device>{request}, plan.total_request);
  Kokkos::deep_copy(plan.blocked_rows, blocked);
  return plan;
}

template <class Device>
struct DcsrSortBatchRow {
  using member_type = typename Kokkos::TeamPolicy<typename Device::execution_space>::member_type;

  Kokkos::View<int*, Device> offsets;
  Kokkos::View<int*, Device> gcols;
  Kokkos::View<int*, Device> source;
  Kokkos::View<int*, Device> active;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    const int r = active(member.league_rank());
    const int begin = offsets(r);
    compat::team_sort_by_key(member, gcols.data() + begin, source.data() + begin, offsets(r + 1) - begin);
  }
};

template <class Value, class Device>
void sort_batch_rows(const DcsrBatchByRow<Device>& g) {
  using ExecSpace = typename Device::execution_space;
  const auto offsets = g.offsets;
  const auto gcols = g.cols;
  const auto source = g.source;
  const auto active = g.active_rows;
  Kokkos::parallel_for("strata::dcsr::insert_sort_rows", row_team_policy<ExecSpace>(g.num_active, 64),
                       DcsrSortBatchRow<Device>{offsets, gcols, source, active});
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
  ValueView batch_values;
  bool summing;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    const int a = member.league_rank();
    const int r = active(a);
    const int begin = offsets(r);
    const int end = offsets(r + 1);
    const int size = A.row_sizes(r);
    Kokkos::single(Kokkos::PerTeam(member), [&]() {
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
void apply_insert(const DcsrView<Value, Device>& A, const DcsrBatchByRow<Device>& g, const DcsrInsertPlan<Device>& plan,
                  const ValueView& batch_values, DuplicatePolicy policy) {
  using ExecSpace = typename Device::execution_space;
  const auto offsets = g.offsets;
  const auto gcols = g.cols;
  const auto source = g.source;
  const auto active = g.active_rows;
  const auto match = plan.match;
  const auto new_count = plan.new_count;
  const auto request = plan.request;
  const bool summing = policy == DuplicatePolicy::sum;
  light_weight_parallel_for("strata::dcsr::insert", row_team_policy<ExecSpace>(g.num_active, 32),
                            DcsrApplyRowInsert<Value, Device, ValueView>{A, offsets, gcols, source, active, match,
                                                                         new_count, request, batch_values, summing});
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
void make_room(DcsrMatrix<Value, Device>& A, const DcsrBatchByRow<Device>& g, const DcsrInsertPlan<Device>& plan,
               int slack) {
  using ExecSpace = typename Device::execution_space;
  Kokkos::View<int*, Device> reserve("strata::dcsr::reserve", A.num_rows());
  const auto active = g.active_rows;
  const auto new_count = plan.new_count;
  Kokkos::parallel_for("strata::dcsr::insert_reserve", Kokkos::RangePolicy<ExecSpace>(0, g.num_active),
                       DcsrReserveTouchedRows<Device>{reserve, active, new_count, slack});
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
  const auto g = group_batch_by_row<Device>(A.num_rows(), A.num_cols(), rows, cols, "dcsr_insert");
  if (policy == DuplicatePolicy::sum) sort_batch_rows<Value, Device>(g);
  auto plan = plan_insert(A.view(), g, policy, slack);
  const index_type free_pool = static_cast<index_type>(A.capacity()) - A.allocated();
  if (plan.blocked_rows > 0 || plan.total_request > free_pool) {
    make_room(A, g, plan, slack);
    plan = plan_insert(A.view(), g, policy, slack);
    STRATA_REQUIRE(plan.blocked_rows == 0 && plan.total_request <= A.capacity() - A.allocated(),
                   "dcsr_insert: internal error: the rebuilt pool has no room for the batch");
  }
  apply_insert(A.view(), g, plan, values, policy);
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
