#pragma once
// Sequential host encoder and decoder of a whole HiSparse pool: the reference
// the device conversion is compared with byte for byte, and the reader the
// layout document describes.
#include <strata/formats/hisparse/hisparse_tree_shape.hpp>

#include <cstring>
#include <functional>

namespace strata::hisparse {

struct HostPool {
  std::vector<std::uint64_t> words;  // pool bytes, little-endian, zero padded
  offset_type bytes = 0;
  offset_type root = 0;
  int levels = 1;
};

inline void write_pool_header(unsigned char* pool, int log2_block, std::size_t value_bytes) {
  const std::uint32_t magic = pool_magic;
  std::memcpy(pool, &magic, sizeof(magic));
  pool[4] = static_cast<unsigned char>(log2_block);
  pool[5] = static_cast<unsigned char>(value_bytes);
}

template <class Value>
HostPool encode_host(const HostCoo<Value>& coo, int log2_block) {
  const TreeShape s = build_tree_shape(coo, log2_block);
  const ShapeLayout layout = layout_shape(s, sizeof(Value));
  HostPool out;
  out.bytes = layout.pool_bytes;
  out.root = layout.root;
  out.levels = s.levels;
  out.words.assign(static_cast<std::size_t>(out.bytes / 8), 0);
  auto* pool = reinterpret_cast<unsigned char*>(out.words.data());
  write_pool_header(pool, log2_block, sizeof(Value));
  const index_type mask = (index_type(1) << log2_block) - 1;
  for (std::size_t l = 0; l < s.nodes.size(); ++l) {
    const bool leaf = l + 1 == s.nodes.size();
    for (std::size_t k = 0; k < s.nodes[l].size(); ++k) {
      const ShapeNode& n = s.nodes[l][k];
      unsigned char* dst = pool + layout.offsets[l][k];
      if (leaf) {
        NodeContent<Value> content;
        for (index_type e = n.first_entry; e < n.first_entry + n.num_entries; ++e) {
          const index_type i = s.order[static_cast<std::size_t>(e)];
          content.coords.push_back(pack_local(static_cast<std::uint32_t>(coo.rows[i] & mask),
                                              static_cast<std::uint32_t>(coo.cols[i] & mask)));
          content.payloads.push_back(coo.values[i]);
        }
        encode_node(layout.types[l][k], content, log2_block, sizeof(Value), dst);
      } else {
        NodeContent<offset_type> content;
        for (index_type c = n.first_child; c < n.first_child + n.num_children; ++c) {
          content.coords.push_back(s.nodes[l + 1][static_cast<std::size_t>(c)].coord_in_parent);
          content.payloads.push_back(make_ref(layout.offsets[l + 1][static_cast<std::size_t>(c)],
                                              layout.types[l + 1][static_cast<std::size_t>(c)]));
        }
        encode_node(layout.types[l][k], content, log2_block, sizeof(Value), dst);
      }
    }
  }
  return out;
}

// Walks the tree below root and calls visit(row, col, value) for each stored
// entry in tree order, in the stored (untransposed) orientation.
template <class Value, class Visit>
void visit_host_entries(const unsigned char* pool, offset_type root, int levels, int log2_block, Visit&& visit) {
  if (root == 0) return;
  std::function<void(offset_type, int, index_type, index_type)> walk = [&](offset_type ref, int level,
                                                                           index_type r0, index_type c0) {
    const int shift = log2_block * (levels - 1 - level);
    if (is_leaf(type_of(ref))) {
      STRATA_REQUIRE(level == levels - 1, "HiSparse: leaf node on inner level " + std::to_string(level));
      const auto n = decode_node<Value>(pool, ref, log2_block, sizeof(Value));
      for (std::size_t k = 0; k < n.coords.size(); ++k) {
        visit(r0 + (n.coords[k] >> 8), c0 + (n.coords[k] & 0xff), n.payloads[k]);
      }
      return;
    }
    STRATA_REQUIRE(level < levels - 1, "HiSparse: inner node on the leaf level");
    const auto n = decode_node<offset_type>(pool, ref, log2_block, sizeof(Value));
    for (std::size_t k = 0; k < n.coords.size(); ++k) {
      walk(n.payloads[k], level + 1, r0 + (index_type(n.coords[k] >> 8) << shift),
           c0 + (index_type(n.coords[k] & 0xff) << shift));
    }
  };
  walk(root, 0, 0, 0);
}

template <class Value>
HostCoo<Value> decode_host(const unsigned char* pool, offset_type root, index_type rows, index_type cols,
                           int log2_block) {
  HostCoo<Value> coo(rows, cols);
  visit_host_entries<Value>(pool, root, tree_levels(rows, cols, log2_block), log2_block,
                            [&](index_type r, index_type c, const Value& v) { coo.push_back(r, c, v); });
  return coo;
}

}  // namespace strata::hisparse
