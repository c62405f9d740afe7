#pragma once
// Row sums over lines of 32 entries, for a warp walking a run of entries in row
// order (lane i holds entry i of each line): what the load-balanced COO kernel
// and the nonzero-balanced CSR kernel do with their chunks
// (algorithms/spmv/cuda/coo_kernels_cuda.hpp, csr_balanced_cuda.hpp). Included
// only under KOKKOS_ENABLE_CUDA, by those kernels.
//
// While a whole line belongs to the row being accumulated (a warp vote), lanes
// only add into registers. Otherwise the warp sums those registers, runs the
// segmented scan over the line, and hands each row that ends in the line to the
// caller's `finished(row, sum)`, from one lane. A line's last row may go on in
// the next line: it becomes the accumulated row, and `carried()` gives its sum
// once the run ends.
#include <strata/core/warp_segmented_scan.hpp>

#include <type_traits>

namespace strata::cuda {

// For callers whose rows have no gaps to fill (COO: a row without entries is never seen).
struct IgnoreRowStarts {
  __device__ void operator()(int, int) const {}
};

template <class Value>
class WarpRowSums {
 public:
  // `accumulated_row`: the row the run's first entries continue, if they are in it.
  __device__ explicit WarpRowSums(int accumulated_row) : accumulated_row_(accumulated_row) {}

  // All 32 lanes, each with its entry's row and product (rows nondecreasing over
  // the lanes and from line to line). finished(row, sum): a row that ended, with
  // its whole sum, from one lane. row_starts(previous_row, row): from the lane
  // holding a row's first entry in this line, with the row before it in the run,
  // so that a caller can store the rows between them, which have no entries.
  template <class Finished, class RowStarts = IgnoreRowStarts>
  __device__ void add_line(int row, const Value& product, const Finished& finished,
                           const RowStarts& row_starts = IgnoreRowStarts{}) {
    const int lane = static_cast<int>(threadIdx.x & 31u);
    if (__all_sync(full_warp_mask, row == accumulated_row_)) {
      accumulated_ += product;
      spread_ = true;
      return;
    }
    const Value carried_sum = carried();
    Value sum = segmented_inclusive_scan_lane(row, product);
    const int next_row = __shfl_down_sync(full_warp_mask, row, 1);
    const int row_of_lane0 = __shfl_sync(full_warp_mask, row, 0);
    if (row_of_lane0 == accumulated_row_) {
      // The line's first segment continues the accumulated row; only its tail needs the carry.
      if (row == accumulated_row_) sum += carried_sum;
    } else if (lane == 0) {
      // The accumulated row ended before this line.
      finished(accumulated_row_, carried_sum);
      row_starts(accumulated_row_, row);
    }
    if constexpr (!std::is_same_v<RowStarts, IgnoreRowStarts>) {
      const int previous_row = __shfl_up_sync(full_warp_mask, row, 1);
      if (lane > 0 && previous_row != row) row_starts(previous_row, row);
    }
    const bool tail = lane == 31 || next_row != row;
    if (tail && lane != 31) finished(row, sum);
    // The line's last segment may continue in the next line: it becomes the accumulated row.
    accumulated_row_ = __shfl_sync(full_warp_mask, row, 31);
    accumulated_ = lane == 31 ? sum : Value{};
    spread_ = false;
  }

  // All 32 lanes: the row that may go on past the last line, and its sum so far (in every lane).
  __device__ int accumulated_row() const { return accumulated_row_; }
  __device__ Value carried() const { return spread_ ? warp_sum(accumulated_) : shuffle(accumulated_, 31); }

 private:
  int accumulated_row_;
  Value accumulated_{};  // this lane's part of the accumulated row's sum
  // Warp-uniform: whether lanes other than 31 hold parts of the sum (after a line
  // that belonged entirely to the accumulated row); if not, lane 31 has it all.
  bool spread_ = false;
};

}  // namespace strata::cuda
