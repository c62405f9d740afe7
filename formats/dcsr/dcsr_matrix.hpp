#pragma once
// Dynamic CSR (King, Gilray, Kirby, Might): each row owns up to k segments
// (start, end) of a shared column/value pool with slack, so entries can be
// inserted in place; a bump pointer hands out new segments. Rows are not
// sorted by column: insertion appends.
//
// What a row costs (issue 16: DCSR(k = 4) within 1.3x CSR's bytes): its live count and its one
// segment, 12 bytes, wherever it has one segment; a row that took more keeps its k segments in
// a record (8k bytes) from a table sized with the pool's spare room. The table of k segments for
// every row (4 + 8k bytes a row) took 36 of usroads-48's 51 bytes per nonzero at k = 4, and the
// slots handed to every row of a blank matrix most of the rest (docs/PERFORMANCE.md).
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/device_buffer.hpp>
#include <strata/core/error.hpp>
#include <strata/core/index.hpp>
#include <strata/core/value_traits.hpp>
#include <strata/formats/dcsr/dcsr_batch.hpp>

#include <Kokkos_Core.hpp>

#include <climits>
#include <cmath>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace strata {

// The storage model, said once: what allocate_dcsr allocates (and DcsrMatrix::memory_bytes
// reports), what the spare room is sized by (DcsrParameters::with_spare) and what an
// allocation error names. A row holds its live count and a (begin, end) head; a record holds k
// (begin, end) pairs; a pool slot a column and a value; two bump pointers.
inline constexpr std::size_t dcsr_row_bytes = 3 * sizeof(int);
inline constexpr std::size_t dcsr_counter_bytes = 2 * sizeof(int);
inline std::size_t dcsr_record_bytes(int max_segments) { return 2 * sizeof(int) * static_cast<std::size_t>(max_segments); }
inline std::size_t dcsr_slot_bytes(std::size_t value_bytes) { return sizeof(int) + value_bytes; }
inline std::size_t dcsr_storage_bytes(index_type rows, int max_segments, index_type capacity, index_type records,
                                      std::size_t value_bytes) {
  return static_cast<std::size_t>(rows) * dcsr_row_bytes +
         static_cast<std::size_t>(records) * dcsr_record_bytes(max_segments) +
         static_cast<std::size_t>(capacity) * dcsr_slot_bytes(value_bytes) + dcsr_counter_bytes;
}

// Records for the rows that take a second segment: one per dcsr_free_slots_per_record free
// slots of the pool (a new segment takes at least one entry and, by default, one slot of
// slack), at least one, at most one per row, none when k = 1.
inline constexpr index_type dcsr_free_slots_per_record = 2;
inline index_type dcsr_record_capacity(index_type rows, int max_segments, index_type capacity, index_type live) {
  if (max_segments <= 1 || rows == 0) return 0;
  const index_type free_slots = capacity > live ? capacity - live : 0;
  const index_type r = free_slots / dcsr_free_slots_per_record > 1 ? free_slots / dcsr_free_slots_per_record : 1;
  return r < rows ? r : rows;
}

struct DcsrParameters {
  int max_segments = 4;         // k: segments a row may own before the pool must be rebuilt
  int initial_row_slots = 0;    // mu: free slots per row of a blank matrix
  int segment_slack = -1;       // alpha: free slots added to every new segment; negative: a
                                // sixteenth of the row's new length, at least one (dcsr_segment_slack)
  index_type capacity = 0;      // pool entries; 0 means the live entries and their spare room
  index_type max_capacity = 0;  // growth limit in pool entries; 0 means only device memory limits it
  // A made, grown or rebuilt pool keeps spare room (free slots, and the segment records that
  // come with them) up to the bytes the budget leaves: the matrix then holds at most
  // memory_budget times the bytes of its entries in CSR with 32-bit indices. The spare room is
  // at least min_spare_fraction of the live entries, whatever the budget leaves; matrices of
  // short rows, whose row table takes most of the budget, get that much.
  double memory_budget = 1.25;
  double min_spare_fraction = 1.0 / 64;

  void validate() const {
    STRATA_REQUIRE(max_segments >= 1, "DcsrParameters: max_segments (k) must be at least 1, got " +
                                          std::to_string(max_segments));
    STRATA_REQUIRE(initial_row_slots >= 0, "DcsrParameters: initial_row_slots (mu) must not be negative, got " +
                                               std::to_string(initial_row_slots));
    STRATA_REQUIRE(memory_budget >= 1.0 && memory_budget <= 64.0,
                   "DcsrParameters: memory_budget must lie in [1, 64], got " + std::to_string(memory_budget));
    STRATA_REQUIRE(min_spare_fraction >= 0.0 && min_spare_fraction <= 16.0,
                   "DcsrParameters: min_spare_fraction must lie in [0, 16], got " + std::to_string(min_spare_fraction));
    STRATA_REQUIRE(capacity >= 0 && capacity <= INT_MAX,
                   "DcsrParameters: capacity " + std::to_string(capacity) + " is outside [0, 2^31)");
    STRATA_REQUIRE(max_capacity >= 0, "DcsrParameters: max_capacity must not be negative");
    STRATA_REQUIRE(max_capacity == 0 || capacity <= max_capacity,
                   "DcsrParameters: capacity " + std::to_string(capacity) + " exceeds max_capacity " +
                       std::to_string(max_capacity));
  }

  // `needed` slots in a matrix of `rows` rows and values of `value_bytes` bytes, and their spare
  // room, within max_capacity (but never below `needed`). Without spare room the matrix holds
  // dcsr_storage_bytes of `needed` slots; a spare slot adds its own bytes and its share of a
  // record (dcsr_record_capacity).
  index_type with_spare(index_type needed, index_type rows, std::size_t value_bytes) const {
    const double slot = static_cast<double>(dcsr_slot_bytes(value_bytes));
    const double csr = 4.0 * (static_cast<double>(rows) + 1.0) + slot * static_cast<double>(needed);
    const double held = static_cast<double>(dcsr_storage_bytes(rows, max_segments, needed, 0, value_bytes));
    const double per_spare_slot =
        slot + (max_segments > 1 ? static_cast<double>(dcsr_record_bytes(max_segments)) / dcsr_free_slots_per_record
                                 : 0.0);
    double spare = std::floor((memory_budget * csr - held) / per_spare_slot);
    const double least = std::ceil(min_spare_fraction * static_cast<double>(needed));
    if (!(spare >= least)) spare = least;
    if (spare > static_cast<double>(INT_MAX)) spare = static_cast<double>(INT_MAX);
    index_type c = needed + static_cast<index_type>(spare);
    if (c > INT_MAX) c = INT_MAX > needed ? INT_MAX : needed;
    if (max_capacity > 0 && c > max_capacity) c = max_capacity > needed ? max_capacity : needed;
    return c;
  }

  // The pool size for `live` entries when none is given.
  index_type capacity_for(index_type live, index_type rows, std::size_t value_bytes) const {
    if (capacity > 0) return capacity > live ? capacity : live;
    return with_spare(live, rows, value_bytes);
  }
};

// Free slots a new segment of a row reaching `new_length` entries gets: alpha, or for a
// negative alpha a sixteenth of the length (at least one), so that a growing row takes segments
// of growing size instead of running through its k. A quarter drew the spare room down too
// fast on rows of 50-60 entries (sinc18: 0.5 pool rebuilds per update step instead of 0.2, in a
// Serial run of the update benchmark with a spare room of 1/32 of the entries).
KOKKOS_INLINE_FUNCTION int dcsr_segment_slack(int alpha, int new_length) {
  if (alpha >= 0) return alpha;
  const int part = new_length / 16;
  return part > 1 ? part : 1;
}

// What kernels see: passed by value, refers to the matrix's Views.
template <class Value, class Device>
struct DcsrView {
  using value_type = Value;
  using ordinal_type = int;
  using offset_type = int;
  using device_type = Device;

  int num_rows = 0;
  int num_cols = 0;
  int max_segments = 1;
  offset_type capacity = 0;
  int record_capacity = 0;
  Kokkos::View<int*, Device> row_sizes;          // live entries per row
  // Per row a (begin, end) pair: the row's one segment (begin == end: none), or for a row with
  // more than one, (-1 - its record, 0).
  Kokkos::View<offset_type*, Device> heads;
  Kokkos::View<offset_type*, Device> records;    // record_capacity x max_segments (begin, end) pairs
  Kokkos::View<int*, Device> cols;               // pool of `capacity` column indices
  Kokkos::View<Value*, Device> values;           // pool of `capacity` values
  Kokkos::View<offset_type, Device> allocated;   // bump pointer into the pool
  Kokkos::View<int, Device> records_used;        // bump pointer into the records

  KOKKOS_INLINE_FUNCTION bool has_record(int row) const { return heads(2 * static_cast<std::size_t>(row)) < 0; }
  // The row's k (begin, end) pairs, for a row with a record. Segments with positive capacity
  // form a prefix; entries fill them in order.
  KOKKOS_INLINE_FUNCTION const offset_type* record_of(int row) const {
    const offset_type r = -1 - heads(2 * static_cast<std::size_t>(row));
    return records.data() + static_cast<std::size_t>(r) * 2 * max_segments;
  }

  // Row r's one segment, for a row without a record (building and rebuilding the pool).
  KOKKOS_INLINE_FUNCTION void set_single_segment(int row, offset_type begin, offset_type end) const {
    heads(2 * static_cast<std::size_t>(row)) = begin;
    heads(2 * static_cast<std::size_t>(row) + 1) = end;
  }

  KOKKOS_INLINE_FUNCTION int used_segments(int row) const {
    if (!has_record(row)) {
      return heads(2 * static_cast<std::size_t>(row) + 1) > heads(2 * static_cast<std::size_t>(row)) ? 1 : 0;
    }
    const offset_type* s = record_of(row);
    int used = 0;
    while (used < max_segments && s[2 * used + 1] > s[2 * used]) ++used;
    return used;
  }

  KOKKOS_INLINE_FUNCTION offset_type row_capacity(int row) const {
    if (!has_record(row))
      return heads(2 * static_cast<std::size_t>(row) + 1) - heads(2 * static_cast<std::size_t>(row));
    const offset_type* s = record_of(row);
    offset_type c = 0;
    for (int i = 0; i < max_segments; ++i) c += s[2 * i + 1] - s[2 * i];
    return c;
  }

  // Pool index of the row's p-th entry slot (p < row_capacity(row)).
  KOKKOS_INLINE_FUNCTION offset_type pool_index(int row, offset_type p) const {
    if (!has_record(row)) return heads(2 * static_cast<std::size_t>(row)) + p;
    const offset_type* s = record_of(row);
    for (int i = 0; i < max_segments; ++i) {
      const offset_type length = s[2 * i + 1] - s[2 * i];
      if (p < length) return s[2 * i] + p;
      p -= length;
    }
    return -1;
  }

  // Calls f(begin, length) for the live part of each of the row's segments, in order: the one
  // walk behind every product and copy of a row.
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_live_segment(int row, F&& f) const {
    int remaining = row_sizes(row);
    if (!has_record(row)) {
      if (remaining > 0) f(heads(2 * static_cast<std::size_t>(row)), remaining);
      return;
    }
    const offset_type* s = record_of(row);
    for (int i = 0; i < max_segments && remaining > 0; ++i) {
      const offset_type capacity_of_segment = s[2 * i + 1] - s[2 * i];
      const int length = capacity_of_segment < remaining ? capacity_of_segment : remaining;
      f(s[2 * i], length);
      remaining -= length;
    }
  }

  // Gives the row one more segment [begin, end). A row with one segment moves it and the new
  // one into a fresh record: the caller has made sure (dcsr_plan_fits) that the row has fewer
  // than k segments and that the records last. One thread per row.
  KOKKOS_INLINE_FUNCTION void append_segment(int row, offset_type begin, offset_type end) const {
    const std::size_t h = 2 * static_cast<std::size_t>(row);
    if (heads(h) >= 0 && heads(h + 1) == heads(h)) {
      set_single_segment(row, begin, end);
      return;
    }
    offset_type* s;
    int used;
    if (heads(h) >= 0) {
      const int r = Kokkos::atomic_fetch_add(&records_used(), 1);
      s = records.data() + static_cast<std::size_t>(r) * 2 * max_segments;
      s[0] = heads(h);
      s[1] = heads(h + 1);
      heads(h) = -1 - r;
      heads(h + 1) = 0;
      used = 1;
    } else {
      s = records.data() + static_cast<std::size_t>(-1 - heads(h)) * 2 * max_segments;
      used = 0;
      while (used < max_segments - 1 && s[2 * used + 1] > s[2 * used]) ++used;
    }
    s[2 * used] = begin;
    s[2 * used + 1] = end;
  }
};

// The sum of per-row int counts (live sizes, insertion requests, reserves) as
// index_type, so that a total beyond INT_MAX is seen rather than wrapped.
template <class Device>
struct DcsrCountSum {
  Kokkos::View<int*, Device> counts;

  KOKKOS_INLINE_FUNCTION void operator()(const int r, index_type& sum) const { sum += counts(r); }
};

// Storage as allocated: the Views kernels see, which do not own their memory, and the owner that
// does (core/device_buffer.hpp). Copies of a matrix hold the owner with the Views.
template <class Value, class Device>
struct DcsrStorage {
  DcsrView<Value, Device> view;
  std::shared_ptr<void> owner;
};

// The owning container. Construct with dcsr_blank / dcsr_from_csr /
// dcsr_from_coo (dcsr_convert.hpp); modify with dcsr_insert and
// dcsr_defragment.
// How row lengths have moved between the ADCSR length bins (formats/dcsr/dcsr_rows.hpp) since
// the matrix was made, as its insertions report them: the moves (a row moving twice counts
// twice) and the longest length a moving row reached. A binned SpMV handle compares this with
// what it saw when it binned the rows, to tell whether its bins still fit.
struct DcsrRowGrowth {
  index_type rows_changing_bin = 0;
  int longest_moving_row = 0;
};

template <class Value, class Device>
class DcsrMatrix {
 public:
  using value_type = Value;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;
  using view_type = DcsrView<Value, Device>;
  static_assert(is_supported_value<Value>::value, "DcsrMatrix: unsupported value type");

  DcsrMatrix() = default;
  using storage_type = DcsrStorage<Value, Device>;
  DcsrMatrix(storage_type storage, DcsrParameters parameters)
      : view_(std::move(storage.view)), storage_owner_(std::move(storage.owner)), parameters_(parameters) {}

  // Same for this matrix and its copies, through insertions, growth and
  // defragmentation (which replace the Views): what SpMV handles are tied to.
  const void* identity_key() const { return shared_.get(); }

  const view_type& view() const { return view_; }
  // The Views and their owner, for a matrix that shares this one's storage.
  storage_type storage() const { return {view_, storage_owner_}; }
  const DcsrParameters& parameters() const { return parameters_; }
  int num_rows() const { return view_.num_rows; }
  int num_cols() const { return view_.num_cols; }
  index_type capacity() const { return view_.capacity; }

  index_type allocated() const {
    typename view_type::offset_type a = 0;
    Kokkos::deep_copy(a, view_.allocated);
    return a;
  }

  // Rows' segment records: the table's size, and how many rows hold one.
  index_type record_capacity() const { return view_.record_capacity; }
  index_type records_used() const {
    int used = 0;
    Kokkos::deep_copy(used, view_.records_used);
    return used;
  }

  // Live entries: counted on the device the first time, then kept up to date
  // by insertions (which learn their count with the one value they read), so a
  // handle's reanalysis after an update step costs no device round trip.
  index_type nnz() const {
    if (shared_->live_entries < 0) {
      index_type total = 0;
      const auto sizes = view_.row_sizes;
      Kokkos::parallel_reduce("strata::dcsr::nnz", Kokkos::RangePolicy<execution_space>(0, view_.num_rows),
                              DcsrCountSum<Device>{sizes}, total);
      shared_->live_entries = total;
    }
    return shared_->live_entries;
  }

  // Device bytes the matrix holds.
  std::size_t memory_bytes() const {
    return view_.row_sizes.span() * sizeof(int) + view_.heads.span() * sizeof(int) +
           view_.records.span() * sizeof(int) + view_.cols.span() * sizeof(int) + view_.values.span() * sizeof(Value) +
           2 * sizeof(int);  // + the two bump pointers
  }

  // Installs storage built by a restructuring step that has fully succeeded and kept every
  // entry (defragmentation, a pool rebuilt for a batch): the live count stays.
  // The old storage is released once no copy of the matrix holds it.
  void replace_storage(storage_type storage) {
    view_ = std::move(storage.view);
    storage_owner_ = std::move(storage.owner);
  }

  // For dcsr_insert: the scratch its batches are grouped in, and the entries a batch added.
  Impl::DcsrBatchWorkspace<Device>& batch_workspace() { return shared_->batch_workspace; }
  void add_to_live_entries(index_type added) {
    if (shared_->live_entries >= 0) shared_->live_entries += added;
  }
  void add_row_growth(const DcsrRowGrowth& g) {
    shared_->row_growth.rows_changing_bin += g.rows_changing_bin;
    if (g.longest_moving_row > shared_->row_growth.longest_moving_row) {
      shared_->row_growth.longest_moving_row = g.longest_moving_row;
    }
  }

  // The row moves between length bins reported by insertions so far.
  const DcsrRowGrowth& row_growth() const { return shared_->row_growth; }

  // Insertions that had to rebuild the pool (a row out of segments, the pool out of slots or
  // records): the price of a small spare room, shown by the update benchmarks.
  index_type pool_rebuilds() const { return shared_->pool_rebuilds; }
  void count_pool_rebuild() { ++shared_->pool_rebuilds; }

 private:
  view_type view_;
  std::shared_ptr<void> storage_owner_;  // the memory of view_'s Views
  DcsrParameters parameters_;
  // What copies share besides the Views: the identity, the live count once known (-1: not
  // known), the row moves between length bins and the insertion scratch. Copies share one pool, so two of them must not
  // be updated at once, as with the Views themselves.
  struct Shared {
    index_type live_entries = -1;
    DcsrRowGrowth row_growth;
    index_type pool_rebuilds = 0;
    Impl::DcsrBatchWorkspace<Device> batch_workspace;
  };
  std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
};

namespace Impl {

// Allocates storage in one device buffer (core/device_buffer.hpp): the pool's columns, the live
// counts, heads, records and the two bump pointers, then the values, so that a pool rebuilt for a
// batch costs one allocation and the old one release. Through Kokkos each cost a round trip to
// the device (an Nsight Systems trace of a rebuild on the H100: 20-40 us for an allocation and
// its header copy, 5-25 us for a free, which waits for the device); on CUDA the buffer's neither
// waits. Zeroed: every row without a segment and no record used; otherwise the caller writes all
// of the int arrays (rebuild_dcsr_pool). An allocation the device cannot satisfy becomes a
// strata::Error naming the bytes requested, and nothing else is touched.
template <class Value, class Device>
DcsrStorage<Value, Device> allocate_dcsr(index_type rows, index_type cols, int max_segments, index_type capacity,
                                         index_type records, const std::string& what, bool zeroed = true) {
  STRATA_REQUIRE(rows >= 0 && rows <= INT_MAX && cols >= 0 && cols <= INT_MAX,
                 what + ": dimensions " + std::to_string(rows) + " x " + std::to_string(cols) +
                     " do not fit 32-bit indices");
  STRATA_REQUIRE(capacity >= 0 && capacity <= INT_MAX,
                 what + ": pool capacity " + std::to_string(capacity) + " entries does not fit 32-bit offsets");
  STRATA_REQUIRE(records >= 0 && records <= rows, what + ": internal error: " + std::to_string(records) +
                                                      " segment records for " + std::to_string(rows) + " rows");
  DcsrStorage<Value, Device> s;
  DcsrView<Value, Device>& v = s.view;
  v.num_rows = static_cast<int>(rows);
  v.num_cols = static_cast<int>(cols);
  v.max_segments = max_segments;
  v.capacity = static_cast<int>(capacity);
  v.record_capacity = static_cast<int>(records);
  using range = std::pair<std::size_t, std::size_t>;
  const std::size_t n = static_cast<std::size_t>(rows);
  const std::size_t record_ints = static_cast<std::size_t>(records) * 2 * max_segments;
  // The pool's columns come first, where the allocation is aligned: at the offset the row
  // arrays left them, DCSR's row kernel on R-MAT 20 took 4.08 ms instead of 3.37 (H100, four
  // lanes a row reading 16 bytes of columns at a time). The values start on the next 256 bytes.
  const std::size_t sizes_at = static_cast<std::size_t>(capacity);
  const std::size_t heads_at = sizes_at + n;
  const std::size_t records_at = heads_at + 2 * n;
  const std::size_t counters_at = records_at + record_ints;
  const std::size_t ints_size = counters_at + 2;
  constexpr std::size_t alignment = 256;
  const std::size_t values_at = (ints_size * sizeof(int) + alignment - 1) / alignment * alignment;
  const std::size_t total = values_at + static_cast<std::size_t>(capacity) * sizeof(Value);
  DeviceBuffer<unsigned char, Device> buffer;
  try {
    buffer = allocate_device_buffer<unsigned char, Device>(total, "strata::dcsr::storage", zeroed);
  } catch (const std::exception& e) {
    throw Error(what + ": device allocation of " +
                std::to_string(dcsr_storage_bytes(rows, max_segments, capacity, records, sizeof(Value))) + " bytes (" +
                std::to_string(capacity) + " pool entries) failed: " + e.what());
  }
  const Kokkos::View<int*, Device> ints(reinterpret_cast<int*>(buffer.view.data()), ints_size);
  v.cols = Kokkos::subview(ints, range(0, sizes_at));
  v.row_sizes = Kokkos::subview(ints, range(sizes_at, heads_at));
  v.heads = Kokkos::subview(ints, range(heads_at, records_at));
  v.records = Kokkos::subview(ints, range(records_at, counters_at));
  v.allocated = Kokkos::subview(ints, counters_at);
  v.records_used = Kokkos::subview(ints, counters_at + 1);
  v.values = Kokkos::View<Value*, Device>(reinterpret_cast<Value*>(buffer.view.data() + values_at), capacity);
  s.owner = std::move(buffer.owner);
  return s;
}

}  // namespace Impl
}  // namespace strata
