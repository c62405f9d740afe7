#pragma once
// Host encoding and decoding of single HiSparse nodes: what the host reference
// encoder, the local edits and the statistics share with the device kernels'
// layout (hisparse_layout.hpp).
#include <strata/core/error.hpp>
#include <strata/formats/hisparse/hisparse_layout.hpp>

#include <cstring>
#include <vector>

namespace strata::hisparse {

// Local coordinate of an entry or child inside its node, packed as row << 8 | col.
using local_coord = std::uint16_t;
inline local_coord pack_local(std::uint32_t r, std::uint32_t c) { return static_cast<local_coord>((r << 8) | c); }

// A node's content in host memory, coordinates strictly increasing (row-major).
template <class Payload>
struct NodeContent {
  std::vector<local_coord> coords;
  std::vector<Payload> payloads;
};

template <class Payload>
NodeType node_type_for(bool leaf, const NodeContent<Payload>& n, int log2_block, std::size_t value_bytes) {
  return choose_node_type(leaf, n.coords.size(), log2_block, value_bytes);
}

// Writes the node at dst (zeroed beforehand, node_bytes(type, ...) long).
template <class Payload>
void encode_node(NodeType type, const NodeContent<Payload>& n, int log2_block, std::size_t value_bytes,
                 unsigned char* dst) {
  const std::uint32_t count = static_cast<std::uint32_t>(n.coords.size());
  std::memcpy(dst, &count, sizeof(count));
  const offset_type payload_at = payload_offset(type, count, log2_block, value_bytes);
  const std::uint32_t d = 1u << log2_block;
  for (std::size_t k = 0; k < n.coords.size(); ++k) {
    const std::uint32_t r = n.coords[k] >> 8, c = n.coords[k] & 0xffu;
    if (is_dense(type)) {
      const std::uint32_t slot = r * d + c;
      if (type == leaf_dense) dst[dense_mask_offset() + slot / 8] |= static_cast<unsigned char>(1u << (slot % 8));
      std::memcpy(dst + payload_at + slot * sizeof(Payload), &n.payloads[k], sizeof(Payload));
    } else {
      dst[node_header_bytes + 2 * k] = static_cast<unsigned char>(r);
      dst[node_header_bytes + 2 * k + 1] = static_cast<unsigned char>(c);
      std::memcpy(dst + payload_at + k * sizeof(Payload), &n.payloads[k], sizeof(Payload));
    }
  }
}

// Reads the node behind ref; Payload is the value type for leaves, offset_type for inner nodes.
template <class Payload>
NodeContent<Payload> decode_node(const unsigned char* pool, offset_type ref, int log2_block, std::size_t value_bytes) {
  const NodeType type = type_of(ref);
  STRATA_REQUIRE(type != null_node && type < num_node_types,
                 "HiSparse: reference " + std::to_string(ref) + " has no valid node type");
  const unsigned char* node = pool + offset_of(ref);
  std::uint32_t count = 0;
  std::memcpy(&count, node, sizeof(count));
  const offset_type payload_at = payload_offset(type, count, log2_block, value_bytes);
  NodeContent<Payload> n;
  n.coords.reserve(count);
  n.payloads.reserve(count);
  const std::uint32_t d = 1u << log2_block;
  if (is_dense(type)) {
    for (std::uint32_t slot = 0; slot < d * d; ++slot) {
      Payload p;
      std::memcpy(&p, node + payload_at + slot * sizeof(Payload), sizeof(Payload));
      const bool present = type == leaf_dense ? ((node[dense_mask_offset() + slot / 8] >> (slot % 8)) & 1u) != 0
                                              : !(p == Payload{});
      if (present) {
        n.coords.push_back(pack_local(slot / d, slot % d));
        n.payloads.push_back(p);
      }
    }
    STRATA_REQUIRE(n.coords.size() == count, "HiSparse: dense node at offset " + std::to_string(offset_of(ref)) +
                                                 " holds " + std::to_string(n.coords.size()) +
                                                 " entries but its header says " + std::to_string(count));
  } else {
    for (std::uint32_t k = 0; k < count; ++k) {
      Payload p;
      std::memcpy(&p, node + payload_at + k * sizeof(Payload), sizeof(Payload));
      n.coords.push_back(pack_local(node[node_header_bytes + 2 * k], node[node_header_bytes + 2 * k + 1]));
      n.payloads.push_back(p);
    }
  }
  return n;
}

}  // namespace strata::hisparse
