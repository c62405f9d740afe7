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
    Value sum = product[0];
    for (std::uint32_t k = 1; k < most; ++k) {
      if (k < n) {
        if (target[k] != target[k - 1]) {
          entry.add_to(target[k - 1], sum);
          sum = Value(0);
        }
        sum += product[k];
      }
    }
    entry.add_to(target[n - 1], sum);
  });
}

}  // namespace strata::Impl
