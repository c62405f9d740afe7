#pragma once
// One HiSparse leaf's part of a product, y += alpha * op(leaf) x, spread over the threads of the item
// that holds the leaf (scheduler/item_threads.hpp): what both the walk on the scheduler
// (hisparse_scheduled.hpp) and the leaf bins (hisparse_leaf_bins.hpp) do at a leaf.
#include <strata/algorithms/spmv/hisparse_entry.hpp>
#include <strata/formats/hisparse/hisparse_matrix.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace strata::Impl {

// A dense leaf gives each thread slots of its mask. A COOx leaf gives thread g the x consecutive
// entries of one vector load, and the thread sums those that add to the same y entry (consecutive
// entries of a row, untransposed) before one atomic. (row0, col0) is the leaf's block origin in the
// stored orientation, count its entry count, read from its header by whoever routed it.
template <class Value, class Device, class Entry, class Threads>
KOKKOS_INLINE_FUNCTION void hisparse_leaf_product(const hisparse::HiSparseRef<Value, Device>& R, const Entry& entry,
                                                  hisparse::offset_type ref, index_type row0, index_type col0,
                                                  std::uint32_t count, const Threads& threads) {
  using namespace hisparse;
  const NodeType t = type_of(ref);
  const unsigned char* node = R.bytes() + offset_of(ref);
  const int b = R.log2_block;
  const std::uint32_t d = 1u << b;
  const offset_type payload = payload_offset(t, count, b, sizeof(Value));
  if (t == leaf_dense) {
    threads.for_each(d * d, [&](const std::uint32_t slot) {
      if ((node[dense_mask_offset() + slot / 8] >> (slot % 8)) & 1u) {
        entry.add(row0 + slot / d, col0 + slot % d,
                  *reinterpret_cast<const Value*>(node + payload + slot * sizeof(Value)));
      }
    });
    return;
  }
  const std::uint32_t x_entries = static_cast<std::uint32_t>(granularity(t));
  const std::uint32_t groups = (count + x_entries - 1) / x_entries;
  threads.for_each(groups, [&](const std::uint32_t g) {
    // Every load of the group before the first atomic: the compiler may not move a load past an
    // atomic on y (they could alias), so a loop that alternated them waited for each entry in turn.
    constexpr std::uint32_t most = 4;
    static_assert(granularity(leaf_coo4) == most, "a COOx group holds at most 4 entries");
    const std::uint32_t first = g * x_entries;
    const std::uint32_t n = first + x_entries < count ? x_entries : count - first;
    index_type target[most] = {};
    Value product[most] = {};
    for (std::uint32_t k = 0; k < most; ++k) {
      if (k < n) {
        const index_type r = row0 + node[node_header_bytes + 2 * (first + k)];
        const index_type c = col0 + node[node_header_bytes + 2 * (first + k) + 1];
        target[k] = entry.target(r, c);
        product[k] = entry.product(r, c, *reinterpret_cast<const Value*>(node + payload + (first + k) * sizeof(Value)));
      }
    }
    // One atomic per run of equal targets. The run's target is a scalar so that the arrays are only
    // indexed by constants (the unrolled loops) and stay in registers: indexing them with n - 1 put
    // target in local memory, a store per group, 22M of Poisson 160^3's 74M L2 sectors (Nsight
    // Compute, H200, 2026-11-29).
    index_type current = target[0];
    Value sum = product[0];
    for (std::uint32_t k = 1; k < most; ++k) {
      if (k < n) {
        if (target[k] != current) {
          entry.add_to(current, sum);
          current = target[k];
          sum = Value(0);
        }
        sum += product[k];
      }
    }
    entry.add_to(current, sum);
  });
}

// Whether a COOx leaf's consecutive entries share their y entry often enough (at least 4 entries per
// run on average) that a warp should sum each run before one atomic (cuda/hisparse_leaf_cuda.hpp):
// hisparse_rows_in_long_runs for untransposed products, whose targets are rows, and
// hisparse_columns_in_long_runs for transposed ones. A hub's rows do; a shifted diagonal's (one entry per
// row) and a tridiagonal block's (three) do not, and there the scan's shuffles cost more than the
// atomics they save (Poisson 160^3 on the H200, 2026-11-29: the shifted diagonals' kernel 111 us with
// an atomic per entry, 140 with a vote per line for the scan; the tridiagonal blocks' 102 and 155).
// hisparse_columns_repeat marks a leaf whose columns hold at least 4 entries each on average but not in
// consecutive runs (entries are stored row by row): a few dense columns, whose transposed product sent
// every entry's atomic to the same few y entries (TSOPF_RS_b39_c30, columns of 30002 entries: SpMV^T
// 102 us against 24 us for SpMV, H200, 2026-11-29). Warps that can read such a leaf in column order
// (HiSparseLeafInWarps<ExecSpace>::reads_column_order) get its order from the leaf bins and sum each
// column's run before one atomic.
constexpr std::uint8_t hisparse_rows_in_long_runs = 1, hisparse_columns_in_long_runs = 2, hisparse_columns_repeat = 4;
constexpr std::uint32_t hisparse_long_run_entries = 4;

template <class Value, class Device>
KOKKOS_INLINE_FUNCTION std::uint8_t hisparse_leaf_long_runs(const hisparse::HiSparseRef<Value, Device>& R,
                                                            hisparse::offset_type ref, std::uint32_t count) {
  using namespace hisparse;
  if (type_of(ref) == leaf_dense || count == 0) return 0;
  const unsigned char* coordinates = R.bytes() + offset_of(ref) + node_header_bytes;
  std::uint32_t row_runs = 1, column_runs = 1, columns = 0;
  std::uint32_t seen[8] = {};  // a bit per local column (d <= 256)
  for (std::uint32_t k = 0; k < count; ++k) {
    const std::uint32_t c = coordinates[2 * k + 1];
    if (k > 0) {
      row_runs += coordinates[2 * k] != coordinates[2 * k - 2];
      column_runs += c != coordinates[2 * k - 1];
    }
    if (!(seen[c / 32] >> (c % 32) & 1u)) {
      seen[c / 32] |= 1u << (c % 32);
      ++columns;
    }
  }
  const bool columns_in_runs = count >= hisparse_long_run_entries * column_runs;
  return static_cast<std::uint8_t>(
      (count >= hisparse_long_run_entries * row_runs ? hisparse_rows_in_long_runs : 0) |
      (columns_in_runs ? hisparse_columns_in_long_runs : 0) |
      (!columns_in_runs && count >= hisparse_long_run_entries * columns ? hisparse_columns_repeat : 0));
}

// A leaf spread over whole warps: the leaf bins' warp and block bins (hisparse_leaf_bins.hpp), whose
// threads are one warp of 32 vector lanes or a team of such warps. This portable version runs the
// COOx groups above; on CUDA (cuda/hisparse_leaf_cuda.hpp) lane i takes entries i, i + 32, ..., so that
// loads and atomics are coalesced, and a warp segmented scan sums each run of one y entry where
// long_runs (hisparse_leaf_long_runs) says the leaf's runs are long, or where column_order (not null: a
// transposed product of a leaf marked hisparse_columns_repeat) gives its entries column by column.
// reads_column_order: whether the bins should keep that order (host atomics do not queue on one
// address as a GPU's L2 does, so the portable version does not read it).
template <class ExecSpace>
struct HiSparseLeafInWarps {
  static constexpr bool reads_column_order = false;

  template <class Value, class Device, class Entry, class Threads>
  KOKKOS_INLINE_FUNCTION static void product(const hisparse::HiSparseRef<Value, Device>& R, const Entry& entry,
                                             hisparse::offset_type ref, index_type row0, index_type col0,
                                             std::uint32_t count, std::uint8_t /*long_runs*/,
                                             const std::uint16_t* /*column_order*/, const Threads& threads) {
    hisparse_leaf_product(R, entry, ref, row0, col0, count, threads);
  }
};

}  // namespace strata::Impl

#if defined(KOKKOS_ENABLE_CUDA)
#include <strata/algorithms/spmv/cuda/hisparse_leaf_cuda.hpp>
#endif
