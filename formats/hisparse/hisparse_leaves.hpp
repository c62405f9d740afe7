#pragma once
// The flat list of leaves with their global block origins, computed level by
// level on the device (one expansion kernel per inner level): what the simple
// SpMV and the conversion back to COO iterate over.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/formats/hisparse/hisparse_matrix.hpp>

namespace strata::hisparse {

template <class Device>
struct LeafList {
  Kokkos::View<offset_type*, Device> refs;
  Kokkos::View<index_type*, Device> row0, col0;  // stored orientation
  Kokkos::View<index_type*, Device> entry_start;  // exclusive scan of entry counts, size + 1
  index_type size = 0;
  index_type entries = 0;
};

// Calls f(k, local_row, local_col, payload) for the k-th stored entry or child of a node.
template <class Payload, class F>
KOKKOS_INLINE_FUNCTION void for_each_in_node_sequential(const unsigned char* pool, offset_type ref, int b,
                                                        std::size_t value_bytes, const F& f) {
  const NodeType t = type_of(ref);
  const unsigned char* node = pool + offset_of(ref);
  const std::uint32_t count = *reinterpret_cast<const std::uint32_t*>(node);
  const offset_type payload = payload_offset(t, count, b, value_bytes);
  if (is_dense(t)) {
    const std::uint32_t d = 1u << b;
    std::uint32_t k = 0;
    for (std::uint32_t slot = 0; slot < d * d; ++slot) {
      const Payload p = *reinterpret_cast<const Payload*>(node + payload + slot * sizeof(Payload));
      const bool present = t == leaf_dense ? ((node[dense_mask_offset() + slot / 8] >> (slot % 8)) & 1u) != 0
                                           : *reinterpret_cast<const offset_type*>(node + payload + slot * 8) != 0;
      if (present) f(k++, slot / d, slot % d, p);
    }
  } else {
    for (std::uint32_t k = 0; k < count; ++k) {
      f(k, node[node_header_bytes + 2 * k], node[node_header_bytes + 2 * k + 1],
        *reinterpret_cast<const Payload*>(node + payload + k * sizeof(Payload)));
    }
  }
}

template <class Value, class Device>
struct CountChildren {
  HiSparseRef<Value, Device> R;
  Kokkos::View<offset_type*, Device> refs;
  Kokkos::View<index_type*, Device> start;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i, index_type& at, const bool final) const {
    if (final) start(i) = at;
    at += R.count(refs(i));
  }
};

template <class Value, class Device>
struct ExpandLevel {
  HiSparseRef<Value, Device> R;
  Kokkos::View<offset_type*, Device> refs;
  Kokkos::View<index_type*, Device> start, row0, col0;
  Kokkos::View<offset_type*, Device> nrefs;
  Kokkos::View<index_type*, Device> nrow0, ncol0;
  int b, shift;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i) const {
    const index_type base = start(i), r0 = row0(i), c0 = col0(i);
    for_each_in_node_sequential<offset_type>(
        R.bytes(), refs(i), b, sizeof(Value),
        [&](std::uint32_t k, std::uint32_t lr, std::uint32_t lc, offset_type child) {
          nrefs(base + k) = child;
          nrow0(base + k) = r0 + (index_type(lr) << shift);
          ncol0(base + k) = c0 + (index_type(lc) << shift);
        });
  }
};

// entry_start(0) stays 0 from the allocation; the scan writes the end of each leaf's entries.
template <class Value, class Device>
struct CountLeafEntries {
  HiSparseRef<Value, Device> R;
  Kokkos::View<offset_type*, Device> refs;
  Kokkos::View<index_type*, Device> entry_start;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i, index_type& at, const bool final) const {
    at += R.count(refs(i));
    if (final) entry_start(i + 1) = at;
  }
};

template <class Value, class Device>
LeafList<Device> collect_leaves(const HiSparseMatrix<Value, Device>& A) {
  using exec = typename Device::execution_space;
  using policy = Kokkos::RangePolicy<exec>;
  LeafList<Device> out;
  const auto R = A.ref();
  const int b = A.log2_block();
  const int L = A.levels();
  Kokkos::View<offset_type*, Device> refs("strata::hisparse::leaf_refs", A.root() ? 1 : 0);
  Kokkos::View<index_type*, Device> row0("strata::hisparse::leaf_row0", A.root() ? 1 : 0);
  Kokkos::View<index_type*, Device> col0("strata::hisparse::leaf_col0", A.root() ? 1 : 0);
  if (A.root()) Kokkos::deep_copy(refs, A.root());
  index_type size = A.root() ? 1 : 0;
  for (int l = 0; l + 1 < L && size > 0; ++l) {
    Kokkos::View<index_type*, Device> start("strata::hisparse::child_start", size);
    index_type next_size = 0;
    Kokkos::parallel_scan("strata::hisparse::count_children", policy(0, size),
                          CountChildren<Value, Device>{R, refs, start}, next_size);
    Kokkos::View<offset_type*, Device> nrefs("strata::hisparse::leaf_refs", next_size);
    Kokkos::View<index_type*, Device> nrow0("strata::hisparse::leaf_row0", next_size);
    Kokkos::View<index_type*, Device> ncol0("strata::hisparse::leaf_col0", next_size);
    const int shift = b * (L - 1 - l);
    Kokkos::parallel_for("strata::hisparse::expand_level", policy(0, size),
                         ExpandLevel<Value, Device>{R, refs, start, row0, col0, nrefs, nrow0, ncol0, b, shift});
    refs = nrefs;
    row0 = nrow0;
    col0 = ncol0;
    size = next_size;
  }
  Kokkos::View<index_type*, Device> entry_start("strata::hisparse::leaf_entry_start", size + 1);
  index_type entries = 0;
  Kokkos::parallel_scan("strata::hisparse::count_leaf_entries", policy(0, size),
                        CountLeafEntries<Value, Device>{R, refs, entry_start}, entries);
  out.refs = refs;
  out.row0 = row0;
  out.col0 = col0;
  out.entry_start = entry_start;
  out.size = size;
  out.entries = entries;
  return out;
}

}  // namespace strata::hisparse
