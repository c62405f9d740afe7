#pragma once
// Memory accounting of HiSparse for `strata info` (the ICS'17 paper's Figure 2
// and Figure 4 statistics): pool bytes per nonzero in float and double, node
// counts by type and level, and mean entries (or children) per node. Computed
// on the host from the tree shape, so it needs no device.
#include <strata/core/host_csr.hpp>
#include <strata/formats/hisparse/hisparse_tree_shape.hpp>

#include <array>
#include <cstdio>
#include <sstream>
#include <string>

namespace strata::hisparse {

inline const char* node_type_name(NodeType t) {
  static const char* names[num_node_types] = {"null",  "leaf_dense", "leaf_coo1", "leaf_coo2", "leaf_coo4",
                                              "inner_dense", "inner_coo1", "inner_coo2", "inner_coo4"};
  return names[t];
}

struct LevelStatistics {
  index_type nodes = 0;
  index_type stored = 0;  // entries (leaf level) or child references (inner levels)
  std::array<index_type, num_node_types> by_type{};  // with double values
  double mean_per_node() const { return nodes ? static_cast<double>(stored) / static_cast<double>(nodes) : 0.0; }
};

struct HiSparseStatistics {
  int log2_block = 7;
  int levels = 1;
  index_type nnz = 0;
  offset_type pool_bytes_float = 0;
  offset_type pool_bytes_double = 0;
  std::vector<LevelStatistics> per_level;  // level 0 is the root
  double bytes_per_nnz(offset_type bytes) const {
    return static_cast<double>(bytes) / static_cast<double>(nnz > 0 ? nnz : 1);
  }
};

template <class Value>
HiSparseStatistics compute_hisparse_statistics(const HostCsr<Value>& A, int log2_block = 7) {
  const TreeShape shape = build_tree_shape(to_coo(A), log2_block);
  const ShapeLayout as_float = layout_shape(shape, sizeof(float));
  const ShapeLayout as_double = layout_shape(shape, sizeof(double));
  HiSparseStatistics s;
  s.log2_block = log2_block;
  s.levels = shape.levels;
  s.nnz = A.nnz();
  s.pool_bytes_float = as_float.pool_bytes;
  s.pool_bytes_double = as_double.pool_bytes;
  s.per_level.resize(shape.nodes.size());
  for (std::size_t l = 0; l < shape.nodes.size(); ++l) {
    auto& st = s.per_level[l];
    st.nodes = static_cast<index_type>(shape.nodes[l].size());
    for (std::size_t k = 0; k < shape.nodes[l].size(); ++k) {
      st.stored += shape.nodes[l][k].num_children;
      ++st.by_type[as_double.types[l][k]];
    }
  }
  return s;
}

inline std::string hisparse_statistics_json(const HiSparseStatistics& s) {
  std::ostringstream o;
  o << "{\"block\":" << (1 << s.log2_block) << ",\"levels\":" << s.levels << ",\"pool_bytes\":{\"float\":"
    << s.pool_bytes_float << ",\"double\":" << s.pool_bytes_double << "},\"bytes_per_nnz\":{\"float\":"
    << s.bytes_per_nnz(s.pool_bytes_float) << ",\"double\":" << s.bytes_per_nnz(s.pool_bytes_double)
    << "},\"levels_detail\":[";
  for (std::size_t l = 0; l < s.per_level.size(); ++l) {
    const auto& st = s.per_level[l];
    o << (l ? "," : "") << "{\"level\":" << l << ",\"nodes\":" << st.nodes << ",\"mean_per_node\":" << st.mean_per_node()
      << ",\"types_double\":{";
    bool first = true;
    for (int t = 1; t < num_node_types; ++t) {
      if (!st.by_type[t]) continue;
      o << (first ? "" : ",") << "\"" << node_type_name(static_cast<NodeType>(t)) << "\":" << st.by_type[t];
      first = false;
    }
    o << "}}";
  }
  o << "]}";
  return o.str();
}

// The text block of `strata info`; csr_double is CSR's bytes per nonzero in double for the ratio.
inline void print_hisparse_statistics(const HiSparseStatistics& s, double csr_float, double csr_double) {
  const double f = s.bytes_per_nnz(s.pool_bytes_float), d = s.bytes_per_nnz(s.pool_bytes_double);
  std::printf("  %-8s %8.3f %8.3f   (d = %d, %d levels; %.3f x CSR in float, %.3f x CSR in double)\n", "hisparse", f, d,
              1 << s.log2_block, s.levels, csr_float > 0 ? f / csr_float : 0.0, csr_double > 0 ? d / csr_double : 0.0);
  std::printf("hisparse nodes (types with double values):\n");
  for (std::size_t l = 0; l < s.per_level.size(); ++l) {
    const auto& st = s.per_level[l];
    std::printf("  level %zu  %lld nodes, %.2f %s per node:", l, static_cast<long long>(st.nodes), st.mean_per_node(),
                l + 1 == s.per_level.size() ? "entries" : "children");
    for (int t = 1; t < num_node_types; ++t) {
      if (st.by_type[t]) std::printf(" %s %lld", node_type_name(static_cast<NodeType>(t)), static_cast<long long>(st.by_type[t]));
    }
    std::printf("\n");
  }
}

}  // namespace strata::hisparse
