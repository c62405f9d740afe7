#pragma once
// Kokkos::Cuda specialisation of a HiSparse leaf's product by whole warps (the leaf bins' warp and block
// bins, algorithms/spmv/hisparse_leaf_bins.hpp); included only under KOKKOS_ENABLE_CUDA, by
// hisparse_leaf.hpp. The item's threads are one warp (vector length 32) or a team of such warps.
//
// Lane i of a warp takes entries i, i + 32, ... of a COOx leaf: each line of 32 entries loads 64
// contiguous bytes of coordinates and 32 contiguous values, and its atomics on y fall on neighbouring
// entries. Each entry adds to y with its own atomic, unless the leaf's targets come in long runs
// (hisparse_leaf_long_runs, decided when the handle is analysed: a hub's row): then a warp segmented
// scan over the line (core/cuda/warp_segmented_scan_cuda.hpp) sums each run, and its last lane adds the
// sum with one atomic. A transposed product of a leaf whose columns repeat out of runs (a few dense
// columns) reads the leaf through its column order (kept by the leaf bins: reads_column_order), so that
// each column's entries are a run for the scan. The COOx groups of the portable version gave each lane
// four consecutive entries instead, which spread a warp's atomics over more sectors: 17.8 per atomic
// instruction on Poisson 160^3 against 8.6 for consecutive entries (Nsight Compute, H200, 2026-11-29).
// Dense leaves keep the slot loop.
#include <strata/core/warp_segmented_scan.hpp>

#include <cstdint>

namespace strata::Impl {

template <>
struct HiSparseLeafInWarps<Kokkos::Cuda> {
  static constexpr bool reads_column_order = true;

  template <class Value, class Device, class Entry, class Threads>
  KOKKOS_INLINE_FUNCTION static void product(const hisparse::HiSparseRef<Value, Device>& R, const Entry& entry,
                                             hisparse::offset_type ref, index_type row0, index_type col0,
                                             std::uint32_t count, std::uint8_t long_runs,
                                             const std::uint16_t* column_order, const Threads& threads) {
    if (hisparse::type_of(ref) == hisparse::leaf_dense) {
      hisparse_leaf_product(R, entry, ref, row0, col0, count, threads);
      return;
    }
    // A team's warps take the leaf's lines in turn; a lone warp takes them all.
    const int warp = threads.whole_team ? threads.team.team_rank() : 0;
    const int warps = threads.whole_team ? threads.team.team_size() : 1;
    const bool sum_runs =
        column_order != nullptr ||
        (long_runs & (entry.transpose ? hisparse_columns_in_long_runs : hisparse_rows_in_long_runs)) != 0;
    KOKKOS_IF_ON_DEVICE((lines(R, entry, ref, row0, col0, count, sum_runs, column_order, warp, warps);))
    KOKKOS_IF_ON_HOST(((void)sum_runs; (void)warp; (void)warps;))
  }

 private:
  template <class Value, class Device, class Entry>
  __device__ static void lines(const hisparse::HiSparseRef<Value, Device>& R, const Entry& entry,
                               hisparse::offset_type ref, index_type row0, index_type col0, std::uint32_t count,
                               bool sum_runs, const std::uint16_t* column_order, int warp, int warps) {
    using namespace hisparse;
    constexpr std::uint32_t past_the_leaf = 0xffffffffu;  // no local coordinate: lanes past the last entry
    const unsigned char* node = R.bytes() + offset_of(ref);
    const offset_type payload = payload_offset(type_of(ref), count, R.log2_block, sizeof(Value));
    const std::uint32_t lane = threadIdx.x & 31u;
    const index_type target0 = entry.transpose ? col0 : row0;
    const std::uint32_t stride = 32u * static_cast<std::uint32_t>(warps);
    // The entry lane k reads: the k-th in column order, when the leaf is read so. A line's entries are
    // looked up in the order during the line before, ahead of its atomics, which the compiler may not
    // move a load past: otherwise the order's load is one more step in every line's chain of dependent
    // loads (TSOPF_RS_b39_c30 in T, H200, 2026-11-29: kernel 28 us, against 19 us in N).
    const auto entry_at = [&](std::uint32_t k) {
      return column_order != nullptr && k < count ? std::uint32_t(column_order[k]) : k;
    };
    std::uint32_t next_entry = entry_at(32u * static_cast<std::uint32_t>(warp) + lane);
    for (std::uint32_t base = 32u * static_cast<std::uint32_t>(warp); base < count; base += stride) {
      const std::uint32_t k = base + lane;
      const bool active = k < count;
      const std::uint32_t e = next_entry;
      next_entry = entry_at(k + stride);
      std::uint32_t local = past_the_leaf;
      Value product{};
      if (active) {
        // The entry's (row, column) bytes in one load; the row is the first byte.
        const std::uint32_t rc = *reinterpret_cast<const std::uint16_t*>(node + node_header_bytes + 2 * e);
        const std::uint32_t local_row = rc & 0xffu, local_col = rc >> 8;
        product = entry.product(row0 + local_row, col0 + local_col,
                                *reinterpret_cast<const Value*>(node + payload + e * sizeof(Value)));
        local = entry.transpose ? local_col : local_row;
      }
      if (!sum_runs) {
        if (active) entry.add_to(target0 + local, product);
        continue;
      }
      // Lanes past the leaf are a run of their own after the last entry's, so they change no sum.
      const Value sum = cuda::segmented_inclusive_scan_lane(local, product);
      const std::uint32_t next = __shfl_down_sync(cuda::full_warp_mask, local, 1);
      if (active && (lane == 31u || next != local)) entry.add_to(target0 + local, sum);
    }
  }
};

}  // namespace strata::Impl
