#pragma once
// The value-independent structure of a HiSparse tree built from a coordinate
// list on the host: which nodes exist on which level, in canonical order (level
// by level from the root, tree order within a level). The host encoder, the
// statistics of `strata info` and the tests' byte-exact comparison with the
// device conversion all start from it.
#include <strata/core/host_coo.hpp>
#include <strata/formats/hisparse/hisparse_node_codec.hpp>

#include <algorithm>
#include <numeric>
#include <vector>

namespace strata::hisparse {

struct ShapeNode {
  index_type first_entry = 0;  // into TreeShape::order
  index_type num_entries = 0;  // in the whole sub-tree
  index_type first_child = 0;  // index on the next level (inner nodes)
  index_type num_children = 0; // children (inner) or entries (leaf)
  local_coord coord_in_parent = 0;
};

struct TreeShape {
  index_type num_rows = 0;
  index_type num_cols = 0;
  int log2_block = 7;
  int levels = 1;
  std::vector<index_type> order;               // entries in tree order (indices into the input)
  std::vector<std::vector<ShapeNode>> nodes;   // nodes[level], empty when the matrix is
};

inline void check_hisparse_arguments(index_type rows, index_type cols, int log2_block) {
  STRATA_REQUIRE(log2_block >= 1 && log2_block <= max_log2_block,
                 "HiSparse: block size 2^" + std::to_string(log2_block) + " is not a power of two in [2, 256]");
  STRATA_REQUIRE(rows >= 0 && cols >= 0 && rows <= (index_type(1) << max_dimension_bits) &&
                     cols <= (index_type(1) << max_dimension_bits),
                 "HiSparse: dimensions " + std::to_string(rows) + " x " + std::to_string(cols) +
                     " are outside [0, 2^40]");
}

// Compares two coordinates in tree order: digit pairs (row digit, column digit) from the root down.
inline bool tree_less(index_type r1, index_type c1, index_type r2, index_type c2, int levels, int log2_block) {
  const index_type mask = (index_type(1) << log2_block) - 1;
  for (int l = 0; l < levels; ++l) {
    const int shift = log2_block * (levels - 1 - l);
    const index_type a = (r1 >> shift) & mask, b = (r2 >> shift) & mask;
    if (a != b) return a < b;
    const index_type x = (c1 >> shift) & mask, y = (c2 >> shift) & mask;
    if (x != y) return x < y;
  }
  return false;
}

// Throws strata::Error on entries outside the matrix and on duplicate coordinates.
template <class Value>
TreeShape build_tree_shape(const HostCoo<Value>& coo, int log2_block) {
  check_hisparse_arguments(coo.num_rows, coo.num_cols, log2_block);
  coo.validate();
  TreeShape s;
  s.num_rows = coo.num_rows;
  s.num_cols = coo.num_cols;
  s.log2_block = log2_block;
  s.levels = tree_levels(coo.num_rows, coo.num_cols, log2_block);
  s.nodes.resize(static_cast<std::size_t>(s.levels));
  s.order.resize(static_cast<std::size_t>(coo.nnz()));
  std::iota(s.order.begin(), s.order.end(), index_type{0});
  const int L = s.levels, b = log2_block;
  std::sort(s.order.begin(), s.order.end(), [&](index_type x, index_type y) {
    return tree_less(coo.rows[x], coo.cols[x], coo.rows[y], coo.cols[y], L, b);
  });
  for (std::size_t k = 1; k < s.order.size(); ++k) {
    const index_type x = s.order[k - 1], y = s.order[k];
    STRATA_REQUIRE(coo.rows[x] != coo.rows[y] || coo.cols[x] != coo.cols[y],
                   "HiSparse: duplicate entry at (" + std::to_string(coo.rows[x]) + ", " +
                       std::to_string(coo.cols[x]) + ")");
  }
  if (s.order.empty()) return s;
  const index_type mask = (index_type(1) << b) - 1;
  // A node on level l is the set of entries sharing (row, col) >> b * (L - l): contiguous in tree order.
  for (int l = 0; l < L; ++l) {
    const int shift = b * (L - l);
    auto& level = s.nodes[static_cast<std::size_t>(l)];
    for (std::size_t k = 0; k < s.order.size(); ++k) {
      const index_type e = s.order[k];
      const index_type prev = k ? s.order[k - 1] : -1;
      const bool starts = k == 0 || (shift < 63 && ((coo.rows[e] >> shift) != (coo.rows[prev] >> shift) ||
                                                    (coo.cols[e] >> shift) != (coo.cols[prev] >> shift)));
      if (starts) {
        ShapeNode n;
        n.first_entry = static_cast<index_type>(k);
        if (l > 0) {
          n.coord_in_parent = pack_local(static_cast<std::uint32_t>((coo.rows[e] >> (shift)) & mask),
                                         static_cast<std::uint32_t>((coo.cols[e] >> (shift)) & mask));
        }
        level.push_back(n);
      }
      ++level.back().num_entries;
    }
  }
  // Children: the next level's nodes whose first entry lies in this node's range.
  for (int l = 0; l < L; ++l) {
    auto& level = s.nodes[static_cast<std::size_t>(l)];
    if (l == L - 1) {
      for (auto& n : level) n.num_children = n.num_entries;
      continue;
    }
    const auto& next = s.nodes[static_cast<std::size_t>(l + 1)];
    std::size_t child = 0;
    for (auto& n : level) {
      n.first_child = static_cast<index_type>(child);
      while (child < next.size() && next[child].first_entry < n.first_entry + n.num_entries) ++child;
      n.num_children = static_cast<index_type>(child) - n.first_child;
    }
  }
  return s;
}

// Node types and offsets of a shape for one value size, in canonical placement.
struct ShapeLayout {
  std::vector<std::vector<NodeType>> types;
  std::vector<std::vector<offset_type>> offsets;
  offset_type pool_bytes = pool_header_bytes;
  offset_type root = 0;
};

inline ShapeLayout layout_shape(const TreeShape& s, std::size_t value_bytes) {
  ShapeLayout out;
  out.types.resize(s.nodes.size());
  out.offsets.resize(s.nodes.size());
  offset_type at = pool_header_bytes;
  for (std::size_t l = 0; l < s.nodes.size(); ++l) {
    const bool leaf = l + 1 == s.nodes.size();
    for (const auto& n : s.nodes[l]) {
      const NodeType t =
          choose_node_type(leaf, static_cast<offset_type>(n.num_children), s.log2_block, value_bytes);
      out.types[l].push_back(t);
      out.offsets[l].push_back(at);
      at += node_bytes(t, static_cast<offset_type>(n.num_children), s.log2_block, value_bytes);
    }
  }
  out.pool_bytes = at;
  if (!s.nodes.empty() && !s.nodes[0].empty()) out.root = make_ref(out.offsets[0][0], out.types[0][0]);
  return out;
}

}  // namespace strata::hisparse
