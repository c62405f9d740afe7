#pragma once
// The HiSparse byte layout (docs/HISPARSE_LAYOUT.md), shared by the host codec
// and the device kernels: node types, references, and the size of every node.
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace strata::hisparse {

using offset_type = std::uint64_t;  // byte offset from the pool base, low 4 bits = node type

// The node type lives in the low 4 bits of a reference; 0 is the null reference.
enum NodeType : std::uint32_t {
  null_node = 0,
  leaf_dense = 1,
  leaf_coo1 = 2,
  leaf_coo2 = 3,
  leaf_coo4 = 4,
  inner_dense = 5,
  inner_coo1 = 6,
  inner_coo2 = 7,
  inner_coo4 = 8,
};
constexpr int num_node_types = 9;

constexpr offset_type node_alignment = 16;
constexpr offset_type type_mask = 15;
constexpr offset_type pool_header_bytes = 16;  // offset 0 holds the pool header, so no node has offset 0
constexpr offset_type node_header_bytes = 8;   // uint32 count, uint32 zero
constexpr int max_log2_block = 8;              // local coordinates are one byte each
constexpr int max_dimension_bits = 40;

KOKKOS_INLINE_FUNCTION constexpr offset_type round_up(offset_type x, offset_type a) { return (x + a - 1) / a * a; }
KOKKOS_INLINE_FUNCTION constexpr NodeType type_of(offset_type ref) { return static_cast<NodeType>(ref & type_mask); }
KOKKOS_INLINE_FUNCTION constexpr offset_type offset_of(offset_type ref) { return ref & ~type_mask; }
KOKKOS_INLINE_FUNCTION constexpr offset_type make_ref(offset_type offset, NodeType t) { return offset | t; }
KOKKOS_INLINE_FUNCTION constexpr bool is_leaf(NodeType t) { return t >= leaf_dense && t <= leaf_coo4; }
KOKKOS_INLINE_FUNCTION constexpr bool is_dense(NodeType t) { return t == leaf_dense || t == inner_dense; }

// Entries a thread loads with one vector load in a COOx node.
KOKKOS_INLINE_FUNCTION constexpr offset_type granularity(NodeType t) {
  return (t == leaf_coo4 || t == inner_coo4) ? 4 : (t == leaf_coo2 || t == inner_coo2) ? 2 : 1;
}

// The COOx rule: the largest x in {4, 2, 1} whose padding is at most an eighth
// of the entries (so 1 entry -> COO1, 2 -> COO2, 4 -> COO4, 6 -> COO2, 8+ -> mostly COO4).
KOKKOS_INLINE_FUNCTION constexpr offset_type coo_granularity_for(offset_type count) {
  return (round_up(count, 4) - count) * 8 <= count   ? 4
         : (round_up(count, 2) - count) * 8 <= count ? 2
                                                     : 1;
}

// Payload bytes per entry: the value size in leaves, a reference in inner nodes.
KOKKOS_INLINE_FUNCTION constexpr offset_type payload_bytes(bool leaf, offset_type value_bytes) {
  return leaf ? value_bytes : sizeof(offset_type);
}

// Sparse node: header, 2-byte (row, col) coordinates for the padded count,
// then the payloads aligned so that x of them are one (at most 16-byte) load.
KOKKOS_INLINE_FUNCTION constexpr offset_type sparse_payload_offset(offset_type count, offset_type x, offset_type s) {
  return round_up(node_header_bytes + 2 * round_up(count, x), (x * s < 16 ? x * s : 16));
}
KOKKOS_INLINE_FUNCTION constexpr offset_type sparse_node_bytes(offset_type count, offset_type x, offset_type s) {
  return round_up(sparse_payload_offset(count, x, s) + round_up(count, x) * s, node_alignment);
}

// Dense leaf: header, occupancy bitmask of d*d bits (so stored zeros survive), values row-major.
KOKKOS_INLINE_FUNCTION constexpr offset_type dense_mask_offset() { return node_header_bytes; }
KOKKOS_INLINE_FUNCTION constexpr offset_type dense_leaf_values_offset(int log2_block) {
  return round_up(node_header_bytes + ((offset_type(1) << (2 * log2_block)) + 7) / 8, 16);
}
// Dense inner: header, d*d references row-major (0 where a child is empty).
KOKKOS_INLINE_FUNCTION constexpr offset_type dense_inner_refs_offset() { return node_header_bytes; }

KOKKOS_INLINE_FUNCTION constexpr offset_type dense_node_bytes(bool leaf, int log2_block, offset_type value_bytes) {
  return leaf ? round_up(dense_leaf_values_offset(log2_block) + (offset_type(1) << (2 * log2_block)) * value_bytes,
                         node_alignment)
              : round_up(dense_inner_refs_offset() + (offset_type(1) << (2 * log2_block)) * sizeof(offset_type),
                         node_alignment);
}

// Dense where it stores fewer bytes than the sparse form, else COOx by the rule above.
KOKKOS_INLINE_FUNCTION constexpr NodeType choose_node_type(bool leaf, offset_type count, int log2_block,
                                                           offset_type value_bytes) {
  const offset_type s = payload_bytes(leaf, value_bytes);
  const offset_type x = coo_granularity_for(count);
  const offset_type sparse = sparse_node_bytes(count, x, s);
  if (dense_node_bytes(leaf, log2_block, value_bytes) < sparse) return leaf ? leaf_dense : inner_dense;
  const std::uint32_t base = leaf ? leaf_coo1 : inner_coo1;
  return static_cast<NodeType>(base + (x == 4 ? 2u : x == 2 ? 1u : 0u));
}

KOKKOS_INLINE_FUNCTION constexpr offset_type node_bytes(NodeType t, offset_type count, int log2_block,
                                                        offset_type value_bytes) {
  const bool leaf = is_leaf(t);
  return is_dense(t) ? dense_node_bytes(leaf, log2_block, value_bytes)
                     : sparse_node_bytes(count, granularity(t), payload_bytes(leaf, value_bytes));
}

// Where a node's payloads (values or references) start, relative to the node.
KOKKOS_INLINE_FUNCTION constexpr offset_type payload_offset(NodeType t, offset_type count, int log2_block,
                                                            offset_type value_bytes) {
  return t == leaf_dense    ? dense_leaf_values_offset(log2_block)
         : t == inner_dense ? dense_inner_refs_offset()
                            : sparse_payload_offset(count, granularity(t), payload_bytes(is_leaf(t), value_bytes));
}

// Tree depth: ceil(log_d(max(rows, cols))), at least one level.
inline int tree_levels(std::int64_t rows, std::int64_t cols, int log2_block) {
  const std::int64_t n = rows > cols ? rows : cols;
  int levels = 1;
  while (levels * log2_block < 63 && (std::int64_t(1) << (levels * log2_block)) < n) ++levels;
  return levels;
}

// The pool header at offset 0: "HSP1", log2 d, value bytes, then zeros.
constexpr std::uint32_t pool_magic = 0x31505348u;  // "HSP1" little-endian

}  // namespace strata::hisparse
