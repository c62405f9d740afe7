#pragma once
// Local edits of a HiSparse matrix with copy-on-write sharing: a batch of
// insertions and removals rewrites only the nodes on the paths to the touched
// leaves; the new nodes are appended to the shared pool, every untouched
// sub-tree keeps its offset, and the original matrix is never modified.
//
// The structural rewrite runs on the host over a copy of the pool (the pool is
// append-only, so the device only receives the new nodes in one copy).
// Policies: inserting at an existing entry overwrites its value (counted in
// EditReport::overwritten); removing an entry that does not exist, a coordinate
// outside the matrix, and a coordinate named twice in one batch are errors, and
// nothing is appended then.
#include <strata/core/host_coo.hpp>
#include <strata/formats/hisparse/hisparse_host_codec.hpp>
#include <strata/formats/hisparse/hisparse_matrix.hpp>

#include <algorithm>
#include <map>
#include <vector>

namespace strata {

// Coordinates and values are logical: in A's orientation after its transpose
// flag, values before its scale factor (stored as value / scale).
template <class Value>
struct HiSparseEdits {
  HostCoo<Value> insert;                      // entries to insert or overwrite
  std::vector<std::pair<index_type, index_type>> remove;  // (row, col) of entries to remove
};

struct HiSparseEditReport {
  index_type inserted = 0;
  index_type overwritten = 0;
  index_type removed = 0;
  index_type nodes_written = 0;
  hisparse::offset_type bytes_appended = 0;
};

namespace hisparse::Impl {

template <class Value>
struct EditOp {
  index_type row, col;  // stored orientation
  bool remove;
  Value value;
};

template <class Value>
class TreeRewriter {
 public:
  TreeRewriter(const unsigned char* pool, offset_type base, int levels, int log2_block)
      : pool_(pool), base_(base), levels_(levels), b_(log2_block) {}

  // Returns the new reference of the sub-tree (0 when it became empty).
  offset_type rewrite(offset_type ref, int level, const EditOp<Value>* lo, const EditOp<Value>* hi,
                      HiSparseEditReport& report) {
    const index_type mask = (index_type(1) << b_) - 1;
    if (level == levels_ - 1) {
      std::map<local_coord, Value> entries;
      if (ref) {
        const auto n = decode_node<Value>(pool_, ref, b_, sizeof(Value));
        for (std::size_t k = 0; k < n.coords.size(); ++k) entries.emplace(n.coords[k], n.payloads[k]);
      }
      for (const auto* e = lo; e != hi; ++e) {
        const local_coord c = pack_local(static_cast<std::uint32_t>(e->row & mask), static_cast<std::uint32_t>(e->col & mask));
        const auto it = entries.find(c);
        if (e->remove) {
          STRATA_REQUIRE(it != entries.end(), "hisparse_edit: cannot remove (" + std::to_string(e->row) + ", " +
                                                   std::to_string(e->col) + "): no such entry");
          entries.erase(it);
          ++report.removed;
        } else if (it != entries.end()) {
          it->second = e->value;
          ++report.overwritten;
        } else {
          entries.emplace(c, e->value);
          ++report.inserted;
        }
      }
      NodeContent<Value> content;
      for (const auto& [c, v] : entries) {
        content.coords.push_back(c);
        content.payloads.push_back(v);
      }
      return append(true, content, report);
    }
    std::map<local_coord, offset_type> children;
    if (ref) {
      const auto n = decode_node<offset_type>(pool_, ref, b_, sizeof(Value));
      for (std::size_t k = 0; k < n.coords.size(); ++k) children.emplace(n.coords[k], n.payloads[k]);
    }
    const int shift = b_ * (levels_ - 1 - level);
    auto digit = [&](const EditOp<Value>& e) {
      return pack_local(static_cast<std::uint32_t>((e.row >> shift) & mask), static_cast<std::uint32_t>((e.col >> shift) & mask));
    };
    for (const auto* g = lo; g != hi;) {
      const local_coord c = digit(*g);
      const auto* end = g;
      while (end != hi && digit(*end) == c) ++end;
      const auto it = children.find(c);
      const offset_type child = rewrite(it == children.end() ? 0 : it->second, level + 1, g, end, report);
      if (child) {
        children[c] = child;
      } else if (it != children.end()) {
        children.erase(it);
      }
      g = end;
    }
    NodeContent<offset_type> content;
    for (const auto& [c, r] : children) {
      content.coords.push_back(c);
      content.payloads.push_back(r);
    }
    return append(false, content, report);
  }

  const std::vector<std::uint64_t>& appended() const { return appended_; }

 private:
  template <class Payload>
  offset_type append(bool leaf, const NodeContent<Payload>& content, HiSparseEditReport& report) {
    if (content.coords.empty()) return 0;
    const NodeType t = choose_node_type(leaf, content.coords.size(), b_, sizeof(Value));
    const offset_type bytes = node_bytes(t, content.coords.size(), b_, sizeof(Value));
    const offset_type at = appended_.size() * 8;
    appended_.resize(static_cast<std::size_t>((at + bytes) / 8), 0);
    encode_node(t, content, b_, sizeof(Value), reinterpret_cast<unsigned char*>(appended_.data()) + at);
    ++report.nodes_written;
    report.bytes_appended += bytes;
    return make_ref(base_ + at, t);
  }

  const unsigned char* pool_;
  offset_type base_;
  int levels_;
  int b_;
  std::vector<std::uint64_t> appended_;
};

}  // namespace hisparse::Impl

template <class Value, class Device>
HiSparseMatrix<Value, Device> hisparse_edit(const HiSparseMatrix<Value, Device>& A, const HiSparseEdits<Value>& edits,
                                            HiSparseEditReport* report_out = nullptr) {
  using namespace hisparse;
  static_assert(is_supported_value<Value>::value, "hisparse_edit: unsupported value type");
  STRATA_REQUIRE(A.storage() != nullptr, "hisparse_edit: the matrix has no pool");
  const Value zero = value_from<Value>(0.0, 0.0);
  STRATA_REQUIRE(!(A.scale_factor() == zero) || edits.insert.nnz() == 0,
                 "hisparse_edit: cannot insert into a matrix whose scale factor is 0");
  STRATA_REQUIRE(edits.insert.rows.size() == edits.insert.values.size() &&
                     edits.insert.cols.size() == edits.insert.values.size(),
                 "hisparse_edit: insert arrays differ in length");
  std::vector<hisparse::Impl::EditOp<Value>> ops;
  auto add = [&](index_type r, index_type c, bool remove, const Value& v) {
    STRATA_REQUIRE(r >= 0 && r < A.num_rows() && c >= 0 && c < A.num_cols(),
                   "hisparse_edit: (" + std::to_string(r) + ", " + std::to_string(c) + ") is outside " +
                       std::to_string(A.num_rows()) + " x " + std::to_string(A.num_cols()));
    using Op = hisparse::Impl::EditOp<Value>;
    ops.push_back(A.transposed() ? Op{c, r, remove, v} : Op{r, c, remove, v});
  };
  for (index_type k = 0; k < edits.insert.nnz(); ++k) {
    add(edits.insert.rows[k], edits.insert.cols[k], false, edits.insert.values[k] / A.scale_factor());
  }
  for (const auto& [r, c] : edits.remove) add(r, c, true, zero);
  const int L = A.levels(), b = A.log2_block();
  std::sort(ops.begin(), ops.end(), [&](const auto& x, const auto& y) { return tree_less(x.row, x.col, y.row, y.col, L, b); });
  for (std::size_t k = 1; k < ops.size(); ++k) {
    STRATA_REQUIRE(ops[k - 1].row != ops[k].row || ops[k - 1].col != ops[k].col,
                   "hisparse_edit: stored coordinate (" + std::to_string(ops[k].row) + ", " + std::to_string(ops[k].col) +
                       ") is named twice in one batch");
  }
  HiSparseEditReport report;
  if (ops.empty()) {
    if (report_out) *report_out = report;
    return A;
  }
  auto& storage = *A.storage();
  std::vector<std::uint64_t> pool(static_cast<std::size_t>(storage.used_bytes / 8));
  Kokkos::deep_copy(Kokkos::View<std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(pool.data(), pool.size()),
                    Kokkos::subview(storage.words, std::make_pair(std::size_t(0), pool.size())));
  hisparse::Impl::TreeRewriter<Value> rewriter(reinterpret_cast<const unsigned char*>(pool.data()), storage.used_bytes,
                                               L, b);
  const offset_type root = rewriter.rewrite(A.root(), 0, ops.data(), ops.data() + ops.size(), report);

  const auto& bytes = rewriter.appended();
  hisparse::reserve_pool(storage, bytes.size() * 8);
  const std::size_t at = static_cast<std::size_t>(storage.used_bytes / 8);
  Kokkos::deep_copy(Kokkos::subview(storage.words, std::make_pair(at, at + bytes.size())),
                    Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                        bytes.data(), bytes.size()));
  storage.used_bytes += bytes.size() * 8;

  HiSparseMatrix<Value, Device> out(A.storage(), root, A.stored_rows(), A.stored_cols(), b,
                                    A.nnz() + report.inserted - report.removed);
  if (A.transposed()) out.transpose();
  out.scale(A.scale_factor());
  if (report_out) *report_out = report;
  return out;
}

}  // namespace strata
