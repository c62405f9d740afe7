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
// each column's entries are a run for the scan, a warp's lines in one range, and a column's sum carried
// from line to line (ordered_lines). The COOx groups of the portable version gave each lane
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
    if (column_order != nullptr) {
      ordered_lines<Value>(entry, node, payload, row0, col0, count, column_order, warp, warps);
      return;
    }
    const std::uint32_t stride = 32u * static_cast<std::uint32_t>(warps);
    for (std::uint32_t base = 32u * static_cast<std::uint32_t>(warp); base < count; base += stride) {
      const std::uint32_t k = base + lane, e = k;
      const bool active = k < count;
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

  // A leaf read in column order (transposed, columns repeating): each warp takes a contiguous range of
  // lines, and a column's run that reaches the end of a line is carried into the next line instead of
  // going to y, so that a column gets one atomic per warp that holds it, not one per line (TSOPF_RS_b39_c30:
  // 236 atomics on each of its densest columns instead of 941; scripts/hisparse_atomic_targets.py). A
  // line's entry indices are looked up in the order during the line before, ahead of its atomics, which
  // the compiler may not move a load past: otherwise the order's load is one more step in every line's
  // chain of dependent loads (TSOPF_RS_b39_c30 in T, H200, 2026-11-29: kernel 28 us without, 25 us with).
  template <class Value, class Entry>
  __device__ static void ordered_lines(const Entry& entry, const unsigned char* node, hisparse::offset_type payload,
                                       index_type row0, index_type col0, std::uint32_t count,
                                       const std::uint16_t* column_order, int warp, int warps) {
    using namespace hisparse;
    constexpr std::uint32_t none = 0xffffffffu;
    const std::uint32_t lane = threadIdx.x & 31u;
    const std::uint32_t lines_total = (count + 31u) / 32u;
    const std::uint32_t w = static_cast<std::uint32_t>(warp), W = static_cast<std::uint32_t>(warps);
    const std::uint32_t first_line = lines_total * w / W, last_line = lines_total * (w + 1u) / W;
    std::uint32_t carried = none;  // the column whose sum runs on, the same in every lane
    Value carry{};
    std::uint32_t next_e = 32u * first_line + lane < count ? column_order[32u * first_line + lane] : 0u;
    for (std::uint32_t line = first_line; line < last_line; ++line) {
      const std::uint32_t k = 32u * line + lane;
      const bool active = k < count;
      const std::uint32_t e = next_e;
      const std::uint32_t k_next = k + 32u;
      next_e = line + 1u < last_line && k_next < count ? column_order[k_next] : 0u;
      std::uint32_t local = none;
      Value product{};
      if (active) {
        const std::uint32_t rc = *reinterpret_cast<const std::uint16_t*>(node + node_header_bytes + 2 * e);
        local = rc >> 8;
        product = entry.product(row0 + (rc & 0xffu), col0 + local,
                                *reinterpret_cast<const Value*>(node + payload + e * sizeof(Value)));
      }
      // The carried sum joins lane 0's run when it is the same column, else it goes to y now.
      const std::uint32_t first = __shfl_sync(cuda::full_warp_mask, local, 0);
      if (carried != none) {
        if (first == carried) {
          if (lane == 0u) product += carry;
        } else if (lane == 0u) {
          entry.add_to(col0 + carried, carry);
        }
      }
      const Value sum = cuda::segmented_inclusive_scan_lane(local, product);
      const std::uint32_t next = __shfl_down_sync(cuda::full_warp_mask, local, 1);
      // Runs that end inside the line go to y; the run at lane 31 is carried on.
      if (active && lane != 31u && next != local) entry.add_to(col0 + local, sum);
      carried = __shfl_sync(cuda::full_warp_mask, local, 31);
      carry = cuda::shuffle(sum, 31);
    }
    if (carried != none && lane == 0u) entry.add_to(col0 + carried, carry);
  }
};

}  // namespace strata::Impl
