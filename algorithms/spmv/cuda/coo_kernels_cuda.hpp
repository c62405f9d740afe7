#pragma once
// Kokkos::Cuda specialisation of the COO SpMV chunk kernel; included only under
// KOKKOS_ENABLE_CUDA. One warp per chunk (TeamPolicy, vector length 32: the
// vector lanes of a team member are the lanes of a warp). Lane i reads entries
// i, i+32, ... so every load is coalesced, and the lines of 32 products become
// row sums by cuda::WarpRowSums (core/cuda/warp_row_sums_cuda.hpp), which the
// sink flushes. The entries are streaming loads (core/streaming_load.hpp): on the
// H100 that took 18% off the hubs and 9% off R-MAT 22 and Poisson 160 in double,
// 1-5% off the hubs and R-MAT 22 in float, and made Poisson 160 in float 9% slower
// (2026-11-28 00:27, docs/PERFORMANCE.md); irregular matrices are COO's use.
#include <strata/core/light_weight_launch.hpp>
#include <strata/core/streaming_load.hpp>
#include <strata/core/cuda/warp_row_sums_cuda.hpp>

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
    cuda::WarpRowSums<Value> rows(A.rows(b));
    const auto flush = [&](int row, const Value& sum) { sink.flush(chunk, row, sum); };
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
        line_row[j] = active ? streaming_load<Kokkos::Cuda>(&A.rows(k)) : last_row;
        line_col[j] = active ? streaming_load<Kokkos::Cuda>(&A.cols(k)) : -1;
        line_value[j] = active ? streaming_load<Kokkos::Cuda>(&A.values(k)) : Value{};
      }
      Value line_product[lines_in_flight];
#pragma unroll
      for (int j = 0; j < lines_in_flight; ++j) {
        line_product[j] =
            line_col[j] >= 0 ? conjugate_if(line_value[j], conjugate_values) * x(line_col[j]) : Value{};
      }
#pragma unroll
      for (int j = 0; j < lines_in_flight; ++j) rows.add_line(line_row[j], line_product[j], flush);
    }
    const Value carried = rows.carried();
    if (lane == 0) sink.flush(chunk, rows.accumulated_row(), carried);
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
