#pragma once
// Dynamic CSR (King, Gilray, Kirby, Might): each row owns up to k segments
// (start, end) of a shared column/value pool with slack, so entries can be
// inserted in place; a bump pointer hands out new segments. Rows are not
// sorted by column: insertion appends.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/error.hpp>
#include <strata/core/index.hpp>
#include <strata/core/value_traits.hpp>
#include <strata/formats/dcsr/dcsr_batch.hpp>

#include <Kokkos_Core.hpp>

#include <climits>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>

namespace strata {

struct DcsrParameters {
  int max_segments = 4;        // k: segments a row may own before it must be defragmented
  int initial_row_slots = 4;   // mu: free slots per row of a blank matrix
  int segment_slack = -1;      // alpha: free slots added to every new segment; negative means mu
  index_type capacity = 0;     // pool entries; 0 means live entries + max(half of them, rows * alpha)
  index_type max_capacity = 0; // growth limit in pool entries; 0 means only device memory limits it
  double growth_factor = 1.5;  // pool growth when an insertion does not fit

  int slack() const { return segment_slack < 0 ? initial_row_slots : segment_slack; }

  void validate() const {
    STRATA_REQUIRE(max_segments >= 1, "DcsrParameters: max_segments (k) must be at least 1, got " +
                                          std::to_string(max_segments));
    STRATA_REQUIRE(initial_row_slots >= 0, "DcsrParameters: initial_row_slots (mu) must not be negative, got " +
                                               std::to_string(initial_row_slots));
    STRATA_REQUIRE(growth_factor >= 1.0,
                   "DcsrParameters: growth_factor must be at least 1, got " + std::to_string(growth_factor));
    STRATA_REQUIRE(capacity >= 0 && capacity <= INT_MAX,
                   "DcsrParameters: capacity " + std::to_string(capacity) + " is outside [0, 2^31)");
    STRATA_REQUIRE(max_capacity >= 0, "DcsrParameters: max_capacity must not be negative");
    STRATA_REQUIRE(max_capacity == 0 || capacity <= max_capacity,
                   "DcsrParameters: capacity " + std::to_string(capacity) + " exceeds max_capacity " +
                       std::to_string(max_capacity));
  }

  // The pool size for `live` entries in `rows` rows when none is given.
  index_type capacity_for(index_type live, index_type rows) const {
    if (capacity > 0) return capacity > live ? capacity : live;
    const index_type extra = live / 2 > rows * slack() ? live / 2 : rows * slack();
    index_type c = live + extra;
    if (max_capacity > 0 && c > max_capacity) c = max_capacity > live ? max_capacity : live;
    return c;
  }
};

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
  Kokkos::View<int*, Device> row_sizes;          // live entries per row
  Kokkos::View<offset_type*, Device> segments;   // per row, max_segments (begin, end) pairs (pitch 2k)
  Kokkos::View<int*, Device> cols;               // pool of `capacity` column indices
  Kokkos::View<Value*, Device> values;           // pool of `capacity` values
  Kokkos::View<offset_type, Device> allocated;   // bump pointer into the pool

  // Segments with positive capacity form a prefix; entries fill them in order.
  KOKKOS_INLINE_FUNCTION offset_type segment_begin(int row, int s) const {
    return segments(static_cast<std::size_t>(row) * 2 * max_segments + 2 * s);
  }
  KOKKOS_INLINE_FUNCTION offset_type segment_end(int row, int s) const {
    return segments(static_cast<std::size_t>(row) * 2 * max_segments + 2 * s + 1);
  }
  KOKKOS_INLINE_FUNCTION void set_segment(int row, int s, offset_type begin, offset_type end) const {
    segments(static_cast<std::size_t>(row) * 2 * max_segments + 2 * s) = begin;
    segments(static_cast<std::size_t>(row) * 2 * max_segments + 2 * s + 1) = end;
  }
  KOKKOS_INLINE_FUNCTION int used_segments(int row) const {
    int s = 0;
    while (s < max_segments && segment_end(row, s) > segment_begin(row, s)) ++s;
    return s;
  }
  KOKKOS_INLINE_FUNCTION offset_type row_capacity(int row) const {
    offset_type c = 0;
    for (int s = 0; s < max_segments; ++s) c += segment_end(row, s) - segment_begin(row, s);
    return c;
  }
  // Pool index of the row's p-th entry slot (p < row_capacity(row)).
  KOKKOS_INLINE_FUNCTION offset_type pool_index(int row, offset_type p) const {
    for (int s = 0; s < max_segments; ++s) {
      const offset_type begin = segment_begin(row, s);
      const offset_type length = segment_end(row, s) - begin;
      if (p < length) return begin + p;
      p -= length;
    }
    return -1;
  }
};

// The sum of per-row int counts (live sizes, insertion requests, reserves) as
// index_type, so that a total beyond INT_MAX is seen rather than wrapped.
template <class Device>
struct DcsrCountSum {
  Kokkos::View<int*, Device> counts;

  KOKKOS_INLINE_FUNCTION void operator()(const int r, index_type& sum) const { sum += counts(r); }
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
  DcsrMatrix(view_type view, DcsrParameters parameters) : view_(std::move(view)), parameters_(parameters) {}

  // Same for this matrix and its copies, through insertions, growth and
  // defragmentation (which replace the Views): what SpMV handles are tied to.
  const void* identity_key() const { return shared_.get(); }

  const view_type& view() const { return view_; }
  const DcsrParameters& parameters() const { return parameters_; }
  int num_rows() const { return view_.num_rows; }
  int num_cols() const { return view_.num_cols; }
  index_type capacity() const { return view_.capacity; }

  index_type allocated() const {
    typename view_type::offset_type a = 0;
    Kokkos::deep_copy(a, view_.allocated);
    return a;
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
    return view_.row_sizes.span() * sizeof(int) + view_.segments.span() * sizeof(int) +
           view_.cols.span() * sizeof(int) + view_.values.span() * sizeof(Value) + sizeof(int);
  }

  // Installs storage built by a restructuring step that has fully succeeded.
  // Its live entries are counted again when next asked.
  void replace_storage(view_type view) {
    view_ = std::move(view);
    shared_->live_entries = -1;
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

 private:
  view_type view_;
  DcsrParameters parameters_;
  // What copies share besides the Views: the identity, the live count once known (-1: not
  // known), the row moves between length bins and the insertion scratch. Copies share one pool, so two of them must not
  // be updated at once, as with the Views themselves.
  struct Shared {
    index_type live_entries = -1;
    DcsrRowGrowth row_growth;
    Impl::DcsrBatchWorkspace<Device> batch_workspace;
  };
  std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
};

namespace Impl {

template <class Value>
std::size_t dcsr_bytes(index_type rows, int max_segments, index_type capacity) {
  return static_cast<std::size_t>(rows) * (sizeof(int) + 2 * sizeof(int) * max_segments) +
         static_cast<std::size_t>(capacity) * (sizeof(int) + sizeof(Value));
}

// Allocates zeroed storage; an allocation the device cannot satisfy becomes
// a strata::Error naming the bytes requested, and nothing else is touched.
template <class Value, class Device>
DcsrView<Value, Device> allocate_dcsr(index_type rows, index_type cols, int max_segments, index_type capacity,
                                      const std::string& what) {
  STRATA_REQUIRE(rows >= 0 && rows <= INT_MAX && cols >= 0 && cols <= INT_MAX,
                 what + ": dimensions " + std::to_string(rows) + " x " + std::to_string(cols) +
                     " do not fit 32-bit indices");
  STRATA_REQUIRE(capacity >= 0 && capacity <= INT_MAX,
                 what + ": pool capacity " + std::to_string(capacity) + " entries does not fit 32-bit offsets");
  DcsrView<Value, Device> v;
  v.num_rows = static_cast<int>(rows);
  v.num_cols = static_cast<int>(cols);
  v.max_segments = max_segments;
  v.capacity = static_cast<int>(capacity);
  try {
    v.row_sizes = Kokkos::View<int*, Device>("strata::dcsr::row_sizes", rows);
    v.segments = Kokkos::View<int*, Device>("strata::dcsr::segments", static_cast<std::size_t>(rows) * 2 * max_segments);
    v.cols = Kokkos::View<int*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::dcsr::cols"), capacity);
    v.values = Kokkos::View<Value*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::dcsr::values"),
                                            capacity);
    v.allocated = Kokkos::View<int, Device>("strata::dcsr::allocated");
  } catch (const std::exception& e) {
    throw Error(what + ": device allocation of " + std::to_string(dcsr_bytes<Value>(rows, max_segments, capacity)) +
                " bytes (" + std::to_string(capacity) + " pool entries) failed: " + e.what());
  }
  return v;
}

}  // namespace Impl
}  // namespace strata
