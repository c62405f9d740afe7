#pragma once
// Kokkos::Cuda specialisation of the COO SpMV chunk kernel; included only under
// KOKKOS_ENABLE_CUDA. One warp per chunk (TeamPolicy, vector length 32: the
// vector lanes of a team member are the lanes of a warp). Lane i reads entries
// i, i+32, ... so every load is coalesced; while a whole line of 32 products
// belongs to the row being accumulated (warp vote), lanes only add into
// registers; otherwise the warp sums the registers, runs the segmented scan
// over the line and flushes one sum per completed row segment.
#include <strata/core/light_weight_launch.hpp>
#include <strata/core/warp_segmented_scan.hpp>

namespace strata::Impl {

namespace cuda_detail {

template <class Value, class Coo, class XView, class Sink>
struct CooWarpChunks {
  Coo A;
  XView x;
  Sink sink;
  CooChunking chunking;
  bool conjugate_values;

  using member_type = typename Kokkos::TeamPolicy<Kokkos::Cuda, Kokkos::LaunchBounds<256, 6>>::member_type;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    KOKKOS_IF_ON_DEVICE((process_chunk(member);))
    KOKKOS_IF_ON_HOST(((void)member;))
  }

  __device__ void process_chunk(const member_type& member) const {
    const std::int64_t chunk =
        static_cast<std::int64_t>(member.league_rank()) * member.team_size() + member.team_rank();
    if (chunk >= chunking.num_chunks) return;
    const int lane = static_cast<int>(threadIdx.x);
    const std::int64_t b = chunking.begin(chunk);
    const std::int64_t e = chunking.end(chunk);
    const int last_row = A.rows(e - 1);
    int accumulated_row = A.rows(b);
    Value accumulated{};  // this lane's part of accumulated_row's sum
    // Warp-uniform: whether lanes other than 31 hold parts of the sum (after a
    // line that belonged entirely to the accumulated row); if not, lane 31 has it all.
    bool spread = false;
    // Lines are loaded lines_in_flight at a time, before any of them is
    // reduced, so each warp keeps several independent loads in flight.
    constexpr int lines_in_flight = 2;
    for (std::int64_t base = b; base < e; base += lines_in_flight * coo_line_entries) {
      int line_row[lines_in_flight];
      int line_col[lines_in_flight];
      Value line_value[lines_in_flight];
#pragma unroll
      for (int j = 0; j < lines_in_flight; ++j) {
        const std::int64_t k = base + j * coo_line_entries + lane;
        const bool active = k < e;
        // Lanes past the chunk's end extend its last row with zeros.
        line_row[j] = active ? A.rows(k) : last_row;
        line_col[j] = active ? A.cols(k) : -1;
        line_value[j] = active ? A.values(k) : Value{};
      }
      Value line_product[lines_in_flight];
#pragma unroll
      for (int j = 0; j < lines_in_flight; ++j) {
        line_product[j] =
            line_col[j] >= 0 ? conjugate_if(line_value[j], conjugate_values) * x(line_col[j]) : Value{};
      }
#pragma unroll
      for (int j = 0; j < lines_in_flight; ++j) {
        const int row = line_row[j];
        const Value product = line_product[j];
        if (__all_sync(cuda::full_warp_mask, row == accumulated_row)) {
          accumulated += product;
          spread = true;
          continue;
        }
        const Value carried = spread ? cuda::warp_sum(accumulated) : cuda::shuffle(accumulated, 31);
        Value sum = cuda::segmented_inclusive_scan_lane(row, product);
        const int next_row = __shfl_down_sync(cuda::full_warp_mask, row, 1);
        const int row_of_lane0 = __shfl_sync(cuda::full_warp_mask, row, 0);
        if (row_of_lane0 == accumulated_row) {
          // The line's first segment continues the accumulated row; only its tail needs the carry.
          if (row == accumulated_row) sum += carried;
        } else if (lane == 0) {
          sink.flush(chunk, accumulated_row, carried);
        }
        const bool tail = lane == 31 || next_row != row;
        if (tail && lane != 31) sink.flush(chunk, row, sum);
        // The line's last segment may continue in the next line: it becomes the accumulated row.
        accumulated_row = __shfl_sync(cuda::full_warp_mask, row, 31);
        accumulated = lane == 31 ? sum : Value{};
        spread = false;
      }
    }
    const Value carried = spread ? cuda::warp_sum(accumulated) : cuda::shuffle(accumulated, 31);
    if (lane == 0) sink.flush(chunk, accumulated_row, carried);
  }
};

}  // namespace cuda_detail

template <>
struct CooSpmvChunkKernel<Kokkos::Cuda> {
  static constexpr int warps_per_block = 8;

  template <class Value, class Coo, class XView, class Sink>
  static void run(const Kokkos::Cuda& space, const Coo& A, const XView& x, const Sink& sink,
                  const CooChunking& chunking, bool conjugate_values) {
    const int league = static_cast<int>((chunking.num_chunks + warps_per_block - 1) / warps_per_block);
    // At most 42 registers a thread: six 256-thread blocks per SM (75% occupancy);
    // the kernel is latency-bound, so resident warps matter more than registers.
    using Policy = Kokkos::TeamPolicy<Kokkos::Cuda, Kokkos::LaunchBounds<32 * warps_per_block, 6>>;
    light_weight_parallel_for(
        "strata::coo_spmv::warp_chunks", Policy(space, league, warps_per_block, 32),
        cuda_detail::CooWarpChunks<Value, Coo, XView, Sink>{A, x, sink, chunking, conjugate_values});
  }
};

}  // namespace strata::Impl
