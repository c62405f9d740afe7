#pragma once
// A batch of (row, col, value) entries on the device, checked against the
// matrix bounds and grouped by row, as DCSR insertion and the CSR-rebuild
// baseline consume it: a counting sort (count, place the rows' groups,
// scatter). The baseline needs the groups in row order with an offset for
// every row (a prefix sum over the rows: two launches over the whole matrix);
// DCSR only needs each touched row's group somewhere, so the touched rows
// reserve theirs with one atomic each (one launch over the touched rows).
//
// The grouping runs in scratch kept from one batch to the next
// (DcsrBatchWorkspace) and sends nothing back to the host: the entry found
// outside the matrix and the number of touched rows land in control words
// that the caller reads once, with whatever else it needs from the device.
// The last kernel the caller queues copies the words into pinned host memory
// (mirror_control), so reading them is a wait for the stream, not a copy
// after it: the host's wait returned a median 10.9 us after the kernel with a
// copy queued behind it, 2.9 us with the kernel writing the words itself
// (Nsight Systems traces, docs/BACKENDS.md).
// A batch of a small matrix used to cost a dozen allocations and four host
// waits, most of an update step (docs/PERFORMANCE.md, Dynamic CSR).
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/error.hpp>
#include <strata/core/index.hpp>
#include <strata/core/kokkos_compat.hpp>
#include <strata/core/light_weight_launch.hpp>
#include <strata/core/runs_on_host.hpp>

#include <Kokkos_Core.hpp>

#include <climits>
#include <string>
#include <utility>

namespace strata::Impl {

// The words a grouping and an insertion plan leave for the host, read in one copy. 32-bit:
// thousands of rows add to the same word, and with Kokkos 4.6's CUDA atomics a 64-bit addition
// to one address is serialised (2160 of them took 1.1 ms on an H100, 32000 took 103 ms; 32-bit:
// 10-12 us; docs/PERFORMANCE.md, Dynamic CSR). The requested slots may pass 2^32 in a huge batch:
// they carry into a second word.
using dcsr_word = unsigned int;
enum DcsrControlWord : int {
  dcsr_first_bad_entry = 0,  // least batch index outside the matrix; UINT_MAX when none
  dcsr_active_rows,          // rows the batch touches (counted as they are listed)
  dcsr_total_request,        // pool slots the new segments ask for, low 32 bits
  dcsr_total_request_high,   // ... and the carries out of them
  dcsr_blocked_rows,         // touched rows whose segments are all in use
  dcsr_allocated,            // the pool's bump pointer when the plan ran
  dcsr_fresh_entries,        // entries the batch adds (the rest sum into existing ones)
  dcsr_grouped_entries,      // entries whose group is placed: the touched rows' reservation cursor
  dcsr_rows_changing_bin,    // touched rows whose length moves to another ADCSR length bin
  dcsr_longest_moving_row,   // the longest of their new lengths
  dcsr_new_records,          // touched rows taking their second segment, each needing a segment record
  dcsr_records_used,         // the records' bump pointer when the plan ran
  dcsr_control_words
};

// Adds to the two-word count of requested slots without losing a carry.
KOKKOS_INLINE_FUNCTION void dcsr_add_request(dcsr_word* words, dcsr_word slots) {
  const dcsr_word before = Kokkos::atomic_fetch_add(&words[dcsr_total_request], slots);
  if (before > ~dcsr_word{0} - slots) Kokkos::atomic_add(&words[dcsr_total_request_high], dcsr_word{1});
}

// Whether a plan left in `w` fits the pool of `capacity` entries and `records` segment records:
// no entry outside the matrix, no touched row out of segments, the requested slots within what
// the pool's bump pointer had left, and the rows taking a second segment within the records
// left. The insertion's apply kernel tests it on the device, the host after its one read.
KOKKOS_INLINE_FUNCTION bool dcsr_plan_fits(const dcsr_word* w, long long capacity, long long records) {
  const unsigned long long request =
      (static_cast<unsigned long long>(w[dcsr_total_request_high]) << 32) | w[dcsr_total_request];
  return w[dcsr_first_bad_entry] == UINT_MAX && w[dcsr_blocked_rows] == 0 &&
         static_cast<long long>(request) <= capacity - static_cast<long long>(w[dcsr_allocated]) &&
         static_cast<long long>(w[dcsr_new_records]) <= records - static_cast<long long>(w[dcsr_records_used]);
}

// The words as they stand, into the host's pinned copy (from one thread).
template <class Device>
KOKKOS_INLINE_FUNCTION void mirror_control(const Kokkos::View<dcsr_word*, Device>& control,
                                           const Kokkos::View<dcsr_word*, compat::pinned_host_space>& host) {
  for (int w = 0; w < dcsr_control_words; ++w) host(w) = control(w);
}

// Sets the accumulated control words to their state between batches; with
// keep_active_rows, the touched rows' count stays (a plan run again for them).
template <class Device>
struct DcsrResetControl {
  Kokkos::View<dcsr_word*, Device> control;
  bool keep_active_rows;

  KOKKOS_INLINE_FUNCTION void operator()(const int) const {
    control(dcsr_first_bad_entry) = UINT_MAX;
    if (!keep_active_rows) control(dcsr_active_rows) = 0;
    control(dcsr_total_request) = 0;
    control(dcsr_total_request_high) = 0;
    control(dcsr_blocked_rows) = 0;
    control(dcsr_fresh_entries) = 0;
    control(dcsr_grouped_entries) = 0;
    control(dcsr_rows_changing_bin) = 0;
    control(dcsr_longest_moving_row) = 0;
    control(dcsr_new_records) = 0;
  }
};

// Throws strata::Error naming batch entry `first_bad`, which lies outside the matrix.
template <class RowView, class ColView>
[[noreturn]] void throw_batch_entry_outside(int num_rows, int num_cols, const RowView& rows, const ColView& cols,
                                            long long first_bad, const char* who) {
  auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(rows, first_bad));
  auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(cols, first_bad));
  throw Error(std::string(who) + ": batch entry " + std::to_string(first_bad) + " at (" + std::to_string(r()) + ", " +
              std::to_string(c()) + ") is outside the " + std::to_string(num_rows) + " x " + std::to_string(num_cols) +
              " matrix");
}

// Scratch for grouping batches of one matrix, grown when a batch or the matrix
// needs more and otherwise reused. Invariant between batches: counts are zero,
// and so are the accumulated control words of the current set (first_bad_entry:
// UINT_MAX). There are two sets, used by alternate batches: a batch's first
// kernel clears the set the next batch will use, so that the host reads a
// batch's words after its last kernel and nothing has to clear them after.
template <class Device>
struct DcsrBatchWorkspace {
  using ExecSpace = typename Device::execution_space;
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, compat::pinned_host_space>::accessible,
                "DcsrBatchWorkspace: the kernels write the control words into pinned host memory");
  Kokkos::View<int*, Device> counts;       // per row; zero between batches
  Kokkos::View<int*, Device> offsets;      // num_rows + 1: where each row's group starts
  Kokkos::View<int*, Device> active_rows;  // num_rows: the touched rows, in no particular order
  Kokkos::View<int*, Device> group_begin;  // num_rows, per touched row: its group in cols/source
  Kokkos::View<int*, Device> group_end;
  Kokkos::View<int*, Device> cols;         // batch capacity: columns grouped by row
  Kokkos::View<int*, Device> source;       // batch capacity: batch index of each grouped entry
  Kokkos::View<int*, Device> match;        // batch capacity: pool index a grouped entry sums into, or -1
  Kokkos::View<int*, Device> new_count;    // per touched row
  Kokkos::View<int*, Device> request;      // per touched row: slots of its new segment, 0 if none
  Kokkos::View<dcsr_word*, Device> control;                          // this batch's set
  Kokkos::View<dcsr_word*, Device> next_control;                     // the next batch's, cleared by this batch
  Kokkos::View<dcsr_word*, compat::pinned_host_space> control_host;  // written by the device: mirror_control

  // Room for a batch of `entries` entries into `rows` rows.
  void prepare(int rows, int entries) {
    if (static_cast<int>(counts.extent(0)) != rows) {
      counts = Kokkos::View<int*, Device>("strata::dcsr::batch_counts", rows);
      offsets =
          Kokkos::View<int*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::dcsr::batch_offsets"),
                                     static_cast<std::size_t>(rows) + 1);
      const auto per_row = [rows](const std::string& label) {
        return Kokkos::View<int*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), rows);
      };
      active_rows = per_row("strata::dcsr::active_rows");
      group_begin = per_row("strata::dcsr::group_begin");
      group_end = per_row("strata::dcsr::group_end");
      invariant_holds = false;
    }
    if (static_cast<int>(cols.extent(0)) < entries) {
      const auto alloc = [](const std::string& label, int n) {
        return Kokkos::View<int*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), n);
      };
      cols = alloc("strata::dcsr::batch_cols", entries);
      source = alloc("strata::dcsr::batch_source", entries);
      match = alloc("strata::dcsr::batch_match", entries);
      new_count = alloc("strata::dcsr::new_count", entries);
      request = alloc("strata::dcsr::request", entries);
    }
    if (control.extent(0) == 0) {
      control = Kokkos::View<dcsr_word*, Device>("strata::dcsr::control", dcsr_control_words);
      next_control = Kokkos::View<dcsr_word*, Device>("strata::dcsr::next_control", dcsr_control_words);
      control_host =
          Kokkos::View<dcsr_word*, compat::pinned_host_space>("strata::dcsr::control_host", dcsr_control_words);
      invariant_holds = false;
    }
    if (!invariant_holds) {
      Kokkos::deep_copy(counts, 0);
      reset_control();
    }
    invariant_holds = false;  // until the batch completes
  }

  // The accumulated words back to their state between batches, queued on the device.
  void reset_control(bool keep_active_rows = false) {
    Kokkos::parallel_for("strata::dcsr::reset_control", Kokkos::RangePolicy<ExecSpace>(0, 1),
                         DcsrResetControl<Device>{control, keep_active_rows});
  }

  // The one host wait of a batch: the work queued so far (on the default instance, where the
  // batch's kernels run), whose last kernel mirrored the current words to control_host.
  void wait_for_control() const { ExecSpace().fence(); }

  // What the last kernel before wait_for_control() mirrored.
  index_type word(DcsrControlWord w) const { return static_cast<index_type>(control_host(w)); }
  bool plan_fits(index_type capacity, index_type records) const {
    return dcsr_plan_fits(control_host.data(), capacity, records);
  }

  // Throws strata::Error naming the batch's first entry outside the matrix, if the grouping found one.
  template <class RowView, class ColView>
  void require_batch_inside(int num_rows, int num_cols, const RowView& rows, const ColView& cols,
                            const char* who) const {
    if (control_host(dcsr_first_bad_entry) < static_cast<dcsr_word>(rows.extent(0))) {
      throw_batch_entry_outside(num_rows, num_cols, rows, cols, word(dcsr_first_bad_entry), who);
    }
  }

  // The batch went through: the counts are back at zero, and the next set of words (cleared by
  // the batch's count kernel) becomes the current one.
  void batch_completed() {
    std::swap(control, next_control);
    invariant_holds = true;
  }

 private:
  bool invariant_holds = false;  // false until set up, and after a batch that stopped half way
};

template <class Device>
struct DcsrBatchByRow {
  Kokkos::View<int*, Device> cols;         // batch columns grouped by row
  Kokkos::View<int*, Device> source;       // batch index of each grouped entry
  Kokkos::View<int*, Device> active_rows;  // rows with at least one batch entry
  // Grouped in row order: a row map (num_rows + 1). Grouped by touched row: empty.
  Kokkos::View<int*, Device> offsets;
  // Grouped by touched row: touched row a's group is [group_begin(a), group_end(a)). In row order: empty.
  Kokkos::View<int*, Device> group_begin;
  Kokkos::View<int*, Device> group_end;
  Kokkos::View<dcsr_word*, Device> control;
  int num_active = 0;    // known on the host once the control words are read
  int active_bound = 0;  // what num_active cannot exceed: launches before the read use it
};

template <class RowView, class ColView>
KOKKOS_INLINE_FUNCTION bool dcsr_batch_entry_inside(const RowView& rows, const ColView& cols, int i, int num_rows,
                                                    int num_cols) {
  return rows(i) >= 0 && rows(i) < num_rows && cols(i) >= 0 && cols(i) < num_cols;
}

template <class RowView, class ColView>
struct DcsrBatchFirstOutOfRange {
  RowView rows;
  ColView cols;
  int num_rows;
  int num_cols;

  KOKKOS_INLINE_FUNCTION void operator()(const int i, int& bad) const {
    if (!dcsr_batch_entry_inside(rows, cols, i, num_rows, num_cols) && i < bad) bad = i;
  }
};

// Throws strata::Error naming the first batch entry outside the matrix (HYB's
// insertion, which keeps no workspace, checks the batch with it up front).
template <class ExecSpace, class RowView, class ColView>
void require_batch_in_range(int num_rows, int num_cols, const RowView& rows, const ColView& cols, const char* who) {
  const int n = static_cast<int>(rows.extent(0));
  int first_bad = n;
  Kokkos::parallel_reduce("strata::dcsr::insert_validate", Kokkos::RangePolicy<ExecSpace>(0, n),
                          DcsrBatchFirstOutOfRange<RowView, ColView>{rows, cols, num_rows, num_cols},
                          Kokkos::Min<int>(first_bad));
  if (first_bad < n) throw_batch_entry_outside(num_rows, num_cols, rows, cols, first_bad, who);
}

// Counts row r's entries in counts(r), lists the rows the batch touches (the
// first entry of a row appends it: in no particular order, which changes no
// result, only which team works on which row), and keeps the least index of an
// entry outside the matrix.
template <class Device, class RowView, class ColView>
struct DcsrBatchCountRows {
  Kokkos::View<int*, Device> counts;
  Kokkos::View<int*, Device> active;
  Kokkos::View<dcsr_word*, Device> control;
  Kokkos::View<dcsr_word*, Device> next_control;  // cleared by entry 0 for the next batch
  RowView rows;
  ColView cols;
  int num_rows;
  int num_cols;

  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    if (i == 0) DcsrResetControl<Device>{next_control, false}(0);
    if (dcsr_batch_entry_inside(rows, cols, i, num_rows, num_cols)) {
      const int r = static_cast<int>(rows(i));
      if (Kokkos::atomic_fetch_add(&counts(r), 1) == 0) {
        active(static_cast<int>(Kokkos::atomic_fetch_add(&control(dcsr_active_rows), dcsr_word{1}))) = r;
      }
    } else {
      Kokkos::atomic_fetch_min(&control(dcsr_first_bad_entry), static_cast<dcsr_word>(i));
    }
  }
};

// offsets(r) = entries of the rows before r; row num_rows's offset is the total.
template <class Device>
struct DcsrBatchRowOffsets {
  Kokkos::View<int*, Device> counts;
  Kokkos::View<int*, Device> offsets;
  int num_rows;

  KOKKOS_INLINE_FUNCTION void operator()(const int r, int& prefix, const bool final) const {
    if (final) offsets(r) = prefix;
    if (r < num_rows) prefix += counts(r);
  }
};

// The touched row a reserves its group: one atomic on the reservation cursor, no pass over the
// untouched rows. Threads past the touched rows (the launch is sized before the host knows
// their number) return at once.
template <class Device>
struct DcsrBatchReserveGroups {
  Kokkos::View<int*, Device> counts;
  Kokkos::View<int*, Device> active;
  Kokkos::View<int*, Device> offsets;
  Kokkos::View<int*, Device> group_begin;
  Kokkos::View<int*, Device> group_end;
  Kokkos::View<dcsr_word*, Device> control;

  KOKKOS_INLINE_FUNCTION void operator()(const int a) const {
    if (static_cast<dcsr_word>(a) >= control(dcsr_active_rows)) return;
    const int r = active(a);
    const int count = counts(r);
    const int begin =
        static_cast<int>(Kokkos::atomic_fetch_add(&control(dcsr_grouped_entries), static_cast<dcsr_word>(count)));
    offsets(r) = begin;
    group_begin(a) = begin;
    group_end(a) = begin + count;
  }
};

// Places each entry inside the matrix in its row's range, counting the row's count back down to
// zero (the workspace's invariant); an entry starts without a match.
template <class Device, class RowView, class ColView>
struct DcsrBatchScatter {
  RowView rows;
  ColView cols;
  Kokkos::View<int*, Device> counts;
  Kokkos::View<int*, Device> offsets;
  Kokkos::View<int*, Device> grouped_cols;
  Kokkos::View<int*, Device> source;
  Kokkos::View<int*, Device> match;
  Kokkos::View<dcsr_word*, Device> control;  // mirrored by entry 0: the grouping's words are final
  Kokkos::View<dcsr_word*, compat::pinned_host_space> control_host;
  int num_rows;
  int num_cols;

  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    if (i == 0) mirror_control(control, control_host);
    if (!dcsr_batch_entry_inside(rows, cols, i, num_rows, num_cols)) return;
    const int r = static_cast<int>(rows(i));
    const int at = offsets(r) + Kokkos::atomic_fetch_add(&counts(r), -1) - 1;
    grouped_cols(at) = static_cast<int>(cols(i));
    source(at) = i;
    match(at) = -1;
  }
};

template <class Device, class RowView, class ColView>
DcsrBatchCountRows<Device, RowView, ColView> batch_count_kernel(const DcsrBatchWorkspace<Device>& ws, int num_rows,
                                                                int num_cols, const RowView& rows,
                                                                const ColView& cols) {
  return {ws.counts, ws.active_rows, ws.control, ws.next_control, rows, cols, num_rows, num_cols};
}

template <class Device, class RowView, class ColView>
DcsrBatchScatter<Device, RowView, ColView> batch_scatter_kernel(const DcsrBatchWorkspace<Device>& ws, int num_rows,
                                                                int num_cols, const RowView& rows,
                                                                const ColView& cols) {
  return {rows,     cols,       ws.counts,       ws.offsets, ws.cols, ws.source,
          ws.match, ws.control, ws.control_host, num_rows,   num_cols};
}

// The grouping in `ws` of a batch of n entries, once its kernels are queued.
template <class Device>
DcsrBatchByRow<Device> batch_grouped_by_row(const DcsrBatchWorkspace<Device>& ws, int num_rows, int n) {
  DcsrBatchByRow<Device> g;
  g.cols = Kokkos::subview(ws.cols, std::make_pair(0, n));
  g.source = Kokkos::subview(ws.source, std::make_pair(0, n));
  g.active_rows = ws.active_rows;
  g.control = ws.control;
  g.active_bound = n < num_rows ? n : num_rows;
  return g;
}

// Groups the batch by row in `ws` (prepared for it) in row order: offsets(r)
// for every row, offsets(num_rows) the total, as a CSR row map (the CSR-rebuild
// baseline). Four launches (Kokkos's scan takes two) and no host wait; entries
// outside the matrix are left out and the least such index is left in
// control(dcsr_first_bad_entry): the caller reads it before using the grouping.
template <class Device, class RowView, class ColView>
DcsrBatchByRow<Device> group_batch_in_row_order(DcsrBatchWorkspace<Device>& ws, int num_rows, int num_cols,
                                                const RowView& rows, const ColView& cols) {
  using ExecSpace = typename Device::execution_space;
  const int n = static_cast<int>(rows.extent(0));
  Kokkos::parallel_for("strata::dcsr::batch_count", Kokkos::RangePolicy<ExecSpace>(0, n),
                       batch_count_kernel(ws, num_rows, num_cols, rows, cols));
  Kokkos::parallel_scan("strata::dcsr::batch_offsets", Kokkos::RangePolicy<ExecSpace>(0, num_rows + 1),
                        DcsrBatchRowOffsets<Device>{ws.counts, ws.offsets, num_rows});
  Kokkos::parallel_for("strata::dcsr::batch_scatter", Kokkos::RangePolicy<ExecSpace>(0, n),
                       batch_scatter_kernel(ws, num_rows, num_cols, rows, cols));
  auto g = batch_grouped_by_row(ws, num_rows, n);
  g.offsets = ws.offsets;
  return g;
}

// A small batch grouped by one team in one launch: the count, the reservation
// and the scatter, each a loop over the team's threads, with a team barrier
// between them. A barrier orders the team's memory accesses, so each phase sees
// the one before as it would across launches; on a device, three launches cost
// a batch of a few hundred entries more than its work (docs/PERFORMANCE.md,
// Dynamic CSR).
template <class Device, class RowView, class ColView>
struct DcsrBatchGroupInOneTeam {
  using member_type = typename Kokkos::TeamPolicy<typename Device::execution_space>::member_type;
  DcsrBatchCountRows<Device, RowView, ColView> count;
  DcsrBatchReserveGroups<Device> reserve;
  DcsrBatchScatter<Device, RowView, ColView> scatter;
  int entries;
  int active_bound;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, entries), [&](const int i) { count(i); });
    member.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, active_bound), [&](const int a) { reserve(a); });
    member.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(member, entries), [&](const int i) { scatter(i); });
  }
};

// Batches up to this many entries are grouped by one team of dcsr_one_team_threads on devices.
constexpr int dcsr_one_team_batch = 1024;
constexpr int dcsr_one_team_threads = 256;

// Groups the batch by touched row in `ws` (prepared for it): touched row a's
// entries are [group_begin(a), group_end(a)), the groups in no particular
// order, and offsets(r) is meaningful for touched rows only. Three launches,
// none of them over the untouched rows (one for a small batch on a device),
// and no host wait; entries outside the matrix are handled as by
// group_batch_in_row_order.
template <class Device, class RowView, class ColView>
DcsrBatchByRow<Device> group_batch_by_touched_row(DcsrBatchWorkspace<Device>& ws, int num_rows, int num_cols,
                                                  const RowView& rows, const ColView& cols) {
  using ExecSpace = typename Device::execution_space;
  const int n = static_cast<int>(rows.extent(0));
  const int active_bound = n < num_rows ? n : num_rows;
  const auto count = batch_count_kernel(ws, num_rows, num_cols, rows, cols);
  const DcsrBatchReserveGroups<Device> reserve{ws.counts,      ws.active_rows, ws.offsets,
                                               ws.group_begin, ws.group_end,   ws.control};
  const auto scatter = batch_scatter_kernel(ws, num_rows, num_cols, rows, cols);
  if (!runs_on_host<ExecSpace> && n <= dcsr_one_team_batch) {
    light_weight_parallel_for(
        "strata::dcsr::batch_group_one_team", Kokkos::TeamPolicy<ExecSpace>(1, dcsr_one_team_threads),
        DcsrBatchGroupInOneTeam<Device, RowView, ColView>{count, reserve, scatter, n, active_bound});
  } else {
    Kokkos::parallel_for("strata::dcsr::batch_count", Kokkos::RangePolicy<ExecSpace>(0, n), count);
    Kokkos::parallel_for("strata::dcsr::batch_reserve_groups", Kokkos::RangePolicy<ExecSpace>(0, active_bound),
                         reserve);
    Kokkos::parallel_for("strata::dcsr::batch_scatter", Kokkos::RangePolicy<ExecSpace>(0, n), scatter);
  }
  auto g = batch_grouped_by_row(ws, num_rows, n);
  g.group_begin = ws.group_begin;
  g.group_end = ws.group_end;
  return g;
}

}  // namespace strata::Impl
