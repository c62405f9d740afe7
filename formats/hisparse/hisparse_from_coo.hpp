#pragma once
// Device conversion COO / CSR -> HiSparse (ICS'17 Section 3): top-down binning
// of the entries into the nodes of each level (one sort per level on a packed
// key (parent node, child digit pair, position)), sizing of every node, one
// pool allocation, and bottom-up filling of leaves, then inner levels. Node
// placement is canonical (level by level, tree order), so the pool is byte for
// byte the one the host encoder (hisparse_host_codec.hpp) writes.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/explicit_instances.hpp>
#include <strata/core/host_coo.hpp>
#include <strata/core/key_bits.hpp>
#include <strata/core/kokkos_crs.hpp>
#include <strata/core/sort_keys.hpp>
#include <strata/formats/hisparse/hisparse_matrix.hpp>
#include <strata/formats/hisparse/hisparse_tree_shape.hpp>

#include <algorithm>
#include <vector>

namespace strata {
namespace hisparse::Impl {

template <class Device>
struct CountCoordinatesOutside {
  Kokkos::View<const index_type*, Device> rows, cols;
  index_type num_rows, num_cols;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i, index_type& bad) const {
    bad += (rows(i) < 0 || rows(i) >= num_rows || cols(i) < 0 || cols(i) >= num_cols) ? 1 : 0;
  }
};

template <class Device>
struct IdentityPermutation {
  Kokkos::View<index_type*, Device> perm;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i) const { perm(i) = i; }
};

template <class Device>
struct BinKeys {
  Kokkos::View<index_type*, Device> perm;
  Kokkos::View<const index_type*, Device> rows, cols;
  Kokkos::View<index_type*, Device> seg;
  Kokkos::View<std::uint64_t*, Device> keys;
  int shift, b, key_shift, idx_bits;
  index_type block_mask;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i) const {
    const index_type e = perm(i);
    const std::uint64_t dp = (static_cast<std::uint64_t>((rows(e) >> shift) & block_mask) << b) |
                             static_cast<std::uint64_t>((cols(e) >> shift) & block_mask);
    keys(i) = (static_cast<std::uint64_t>(seg(i)) << key_shift) | (dp << idx_bits) | static_cast<std::uint64_t>(i);
  }
};

template <class Device>
struct NumberChildren {
  Kokkos::View<std::uint64_t*, Device> keys;
  Kokkos::View<index_type*, Device> perm, perm_next, seg;
  int idx_bits;
  std::uint64_t idx_mask;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type j, index_type& id, const bool final) const {
    const bool first = j == 0 || (keys(j) >> idx_bits) != (keys(j - 1) >> idx_bits);
    if (first) ++id;
    if (final) {
      perm_next(j) = perm(static_cast<index_type>(keys(j) & idx_mask));
      seg(j) = id - 1;
    }
  }
};

template <class Device>
struct RecordChildren {
  Kokkos::View<std::uint64_t*, Device> keys;
  Kokkos::View<index_type*, Device> seg, parent, digit, count, first;
  int b, idx_bits, key_shift;
  std::uint64_t digit_mask;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type j) const {
    const bool starts = j == 0 || (keys(j) >> idx_bits) != (keys(j - 1) >> idx_bits);
    if (!starts) return;
    const std::uint64_t prefix = keys(j) >> idx_bits;
    const index_type p = static_cast<index_type>(prefix >> (2 * b));
    parent(seg(j)) = p;
    digit(seg(j)) = static_cast<index_type>(prefix & digit_mask);
    Kokkos::atomic_add(&count(p), index_type{1});
    const bool first_of_parent = j == 0 || (keys(j) >> key_shift) != (keys(j - 1) >> key_shift);
    if (first_of_parent) first(p) = seg(j);
  }
};

template <class Device>
struct RecordLeafEntries {
  Kokkos::View<std::uint64_t*, Device> keys;
  Kokkos::View<index_type*, Device> entry_leaf, entry_local, count, first;
  int idx_bits, key_shift;
  std::uint64_t digit_mask;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type j) const {
    const index_type leaf = static_cast<index_type>(keys(j) >> key_shift);
    entry_leaf(j) = leaf;
    entry_local(j) = static_cast<index_type>((keys(j) >> idx_bits) & digit_mask);
    Kokkos::atomic_add(&count(leaf), index_type{1});
    if (j == 0 || (keys(j) >> key_shift) != (keys(j - 1) >> key_shift)) first(leaf) = j;
  }
};

template <class Value, class Device>
struct SizeNodes {
  Kokkos::View<index_type*, Device> count;
  Kokkos::View<std::uint64_t*, Device> type, offset;
  bool leaf;
  int b;
  offset_type base;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type k, offset_type& at, const bool final) const {
    const NodeType t = choose_node_type(leaf, static_cast<offset_type>(count(k)), b, sizeof(Value));
    if (final) {
      type(k) = t;
      offset(k) = base + at;
    }
    at += node_bytes(t, static_cast<offset_type>(count(k)), b, sizeof(Value));
  }
};

template <class Device>
struct WriteRootRef {
  Kokkos::View<offset_type, Device> root_view;
  Kokkos::View<std::uint64_t*, Device> type, offset;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type) const {
    root_view() = make_ref(offset(0), static_cast<NodeType>(type(0)));
  }
};

template <class Device>
struct WriteNodeHeaders {
  unsigned char* pool;
  Kokkos::View<index_type*, Device> count;
  Kokkos::View<std::uint64_t*, Device> offset;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type k) const {
    *reinterpret_cast<std::uint32_t*>(pool + offset(k)) = static_cast<std::uint32_t>(count(k));
  }
};

template <class Value, class Device>
struct FillLeaves {
  unsigned char* pool;
  std::uint64_t* pool_words;
  Kokkos::View<index_type*, Device> leaf_of, local_of, first, count;
  Kokkos::View<std::uint64_t*, Device> type, offset;
  Kokkos::View<index_type*, Device> perm;
  Kokkos::View<const Value*, Device> vals;
  int b;
  index_type d;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type j) const {
    const index_type leaf = leaf_of(j);
    const index_type rank = j - first(leaf);
    const NodeType t = static_cast<NodeType>(type(leaf));
    const offset_type at = offset(leaf);
    const offset_type cnt = static_cast<offset_type>(count(leaf));
    const index_type local = local_of(j);
    const index_type lr = local >> b, lc = local & (d - 1);
    const offset_type payload = payload_offset(t, cnt, b, sizeof(Value));
    if (t == leaf_dense) {
      const offset_type slot = static_cast<offset_type>(lr * d + lc);
      const offset_type mask_byte = at + dense_mask_offset() + slot / 8;
      // Neighbouring slots share a mask word, and their entries are written by different threads.
      Kokkos::atomic_fetch_or(&pool_words[mask_byte / 8], std::uint64_t(1) << ((mask_byte % 8) * 8 + slot % 8));
      *reinterpret_cast<Value*>(pool + at + payload + slot * sizeof(Value)) = vals(perm(j));
    } else {
      pool[at + node_header_bytes + 2 * rank] = static_cast<unsigned char>(lr);
      pool[at + node_header_bytes + 2 * rank + 1] = static_cast<unsigned char>(lc);
      *reinterpret_cast<Value*>(pool + at + payload + rank * sizeof(Value)) = vals(perm(j));
    }
  }
};

template <class Value, class Device>
struct FillInnerNodes {
  unsigned char* pool;
  Kokkos::View<index_type*, Device> parent, digit, first, count;
  Kokkos::View<std::uint64_t*, Device> type, offset, child_type, child_offset;
  int b;
  index_type d;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type k) const {
    const index_type p = parent(k);
    const index_type rank = k - first(p);
    const NodeType t = static_cast<NodeType>(type(p));
    const offset_type at = offset(p);
    const offset_type ref = make_ref(child_offset(k), static_cast<NodeType>(child_type(k)));
    const index_type lr = digit(k) >> b, lc = digit(k) & (d - 1);
    const offset_type payload = payload_offset(t, static_cast<offset_type>(count(p)), b, sizeof(Value));
    if (t == inner_dense) {
      *reinterpret_cast<offset_type*>(pool + at + payload + static_cast<offset_type>(lr * d + lc) * 8) = ref;
    } else {
      pool[at + node_header_bytes + 2 * rank] = static_cast<unsigned char>(lr);
      pool[at + node_header_bytes + 2 * rank + 1] = static_cast<unsigned char>(lc);
      *reinterpret_cast<offset_type*>(pool + at + payload + rank * 8) = ref;
    }
  }
};

template <class Value, class Device>
struct FromCoo {
  using exec = typename Device::execution_space;
  using index_view = Kokkos::View<index_type*, Device>;
  using key_view = Kokkos::View<std::uint64_t*, Device>;
  using policy = Kokkos::RangePolicy<exec>;

  // Per level: for each node its parent, child digit pair, count, first child / entry, type and offset.
  struct Level {
    index_view parent, digit, count, first;
    key_view type, offset;
    index_view entry_leaf, entry_local;  // leaf level only: per sorted entry
    index_type size = 0;
  };

  static HiSparseMatrix<Value, Device> convert(const Kokkos::View<const index_type*, Device>& rows,
                                               const Kokkos::View<const index_type*, Device>& cols,
                                               const Kokkos::View<const Value*, Device>& vals, index_type num_rows,
                                               index_type num_cols, int b);

  template <class ExecSpace>
  static void write_header(const ExecSpace& space, const Kokkos::View<std::uint64_t*, Device>& words, int b) {
    const std::uint64_t word0 = static_cast<std::uint64_t>(pool_magic) | (static_cast<std::uint64_t>(b) << 32) |
                                (static_cast<std::uint64_t>(sizeof(Value)) << 40);
    Kokkos::deep_copy(space, Kokkos::subview(words, 0), word0);
  }

  // Bottom-up: leaves from the sorted entries, then each inner level from its children.
  static void fill(const Kokkos::View<std::uint64_t*, Device>& words, const std::vector<Level>& levels,
                   const index_view& perm, const Kokkos::View<const Value*, Device>& vals, int b) {
    const int L = static_cast<int>(levels.size());
    unsigned char* const pool = reinterpret_cast<unsigned char*>(words.data());
    std::uint64_t* const pool_words = words.data();
    const index_type d = index_type(1) << b;
    for (int l = L - 1; l >= 0; --l) {
      const Level& lv = levels[l];
      const index_view count = lv.count, first = lv.first;
      const key_view type = lv.type, offset = lv.offset;
      Kokkos::parallel_for("strata::hisparse::write_node_headers", policy(0, lv.size),
                           WriteNodeHeaders<Device>{pool, count, offset});
      if (l == L - 1) {
        const index_type n = static_cast<index_type>(perm.extent(0));
        const index_view leaf_of = lv.entry_leaf, local_of = lv.entry_local;
        Kokkos::parallel_for("strata::hisparse::fill_leaves", policy(0, n),
                             FillLeaves<Value, Device>{pool, pool_words, leaf_of, local_of, first, count, type, offset,
                                                       perm, vals, b, d});
      } else {
        const Level& next = levels[l + 1];
        const index_view parent = next.parent, digit = next.digit;
        const key_view child_type = next.type, child_offset = next.offset;
        Kokkos::parallel_for("strata::hisparse::fill_inner", policy(0, next.size),
                             FillInnerNodes<Value, Device>{pool, parent, digit, first, count, type, offset, child_type,
                                                           child_offset, b, d});
      }
    }
    exec().fence();
  }
};

// Out of the class and not inline, so that the library's explicit instances
// (declared below) are the only place the conversion's kernels are generated.
template <class Value, class Device>
HiSparseMatrix<Value, Device> FromCoo<Value, Device>::convert(const Kokkos::View<const index_type*, Device>& rows,
                                                              const Kokkos::View<const index_type*, Device>& cols,
                                                              const Kokkos::View<const Value*, Device>& vals,
                                                              index_type num_rows, index_type num_cols, int b) {
  check_hisparse_arguments(num_rows, num_cols, b);
  STRATA_REQUIRE(rows.extent(0) == vals.extent(0) && cols.extent(0) == vals.extent(0),
                 "to_hisparse: rows, cols and values differ in length");
  const index_type n = static_cast<index_type>(vals.extent(0));
  const int L = tree_levels(num_rows, num_cols, b);
  index_type outside = 0;
  Kokkos::parallel_reduce("strata::hisparse::check_coordinates", policy(0, n),
                          CountCoordinatesOutside<Device>{rows, cols, num_rows, num_cols}, outside);
  STRATA_REQUIRE(outside == 0, "to_hisparse: " + std::to_string(outside) + " entries lie outside " +
                                   std::to_string(num_rows) + " x " + std::to_string(num_cols));

  auto storage = std::make_shared<PoolStorage<Device>>();
  if (n == 0) {
    storage->allocate(pool_header_bytes / 8);
    write_header(exec(), storage->words, b);
    storage->used_bytes = pool_header_bytes;
    return HiSparseMatrix<Value, Device>(storage, 0, num_rows, num_cols, b, 0);
  }

  const int idx_bits = std::max(1, bits_for(static_cast<std::uint64_t>(n - 1)));
  const std::uint64_t idx_mask = (std::uint64_t(1) << idx_bits) - 1;
  const std::uint64_t digit_mask = (std::uint64_t(1) << (2 * b)) - 1;
  const index_type block_mask = (index_type(1) << b) - 1;

  index_view perm(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hisparse::perm"), n);
  index_view perm_next(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hisparse::perm_next"), n);
  index_view seg("strata::hisparse::segment", n);
  key_view keys(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hisparse::keys"), n);
  Kokkos::parallel_for("strata::hisparse::identity", policy(0, n), IdentityPermutation<Device>{perm});

  std::vector<Level> levels(static_cast<std::size_t>(L));
  levels[0].size = 1;
  levels[0].parent = index_view("strata::hisparse::parent", 1);
  levels[0].digit = index_view("strata::hisparse::digit", 1);
  for (int l = 0; l < L; ++l) {
    const int seg_bits = bits_for(static_cast<std::uint64_t>(levels[l].size - 1));
    STRATA_REQUIRE(seg_bits + 2 * b + idx_bits <= 63,
                   "to_hisparse: " + std::to_string(n) + " entries in " + std::to_string(levels[l].size) +
                       " nodes on level " + std::to_string(l) +
                       " exceed the 64-bit binning key (node bits + 2 log2 d + entry bits <= 63)");
    const int shift = b * (L - 1 - l);
    const int key_shift = 2 * b + idx_bits;
    Kokkos::parallel_for("strata::hisparse::bin_keys", policy(0, n),
                         BinKeys<Device>{perm, rows, cols, seg, keys, shift, b, key_shift, idx_bits, block_mask});
    sort_keys(exec(), keys, seg_bits + key_shift);
    // Nodes of the next level (or, on the leaf level, entries) are the distinct (parent, digit) prefixes.
    index_type distinct = 0;
    Kokkos::parallel_scan("strata::hisparse::number_children", policy(0, n),
                          NumberChildren<Device>{keys, perm, perm_next, seg, idx_bits, idx_mask}, distinct);
    Kokkos::deep_copy(perm, perm_next);
    Level& here = levels[l];
    here.count = index_view("strata::hisparse::count", here.size);
    here.first = index_view("strata::hisparse::first", here.size);
    const index_view count = here.count, first = here.first;
    if (l + 1 < L) {
      Level& next = levels[l + 1];
      next.size = distinct;
      next.parent = index_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hisparse::parent"), distinct);
      next.digit = index_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hisparse::digit"), distinct);
      const index_view parent = next.parent, digit = next.digit;
      Kokkos::parallel_for(
          "strata::hisparse::record_children", policy(0, n),
          RecordChildren<Device>{keys, seg, parent, digit, count, first, b, idx_bits, key_shift, digit_mask});
    } else {
      STRATA_REQUIRE(distinct == n, "to_hisparse: " + std::to_string(n - distinct) + " duplicate entries");
      here.entry_leaf = index_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hisparse::entry_leaf"), n);
      here.entry_local = index_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hisparse::entry_local"), n);
      const index_view entry_leaf = here.entry_leaf, entry_local = here.entry_local;
      Kokkos::parallel_for(
          "strata::hisparse::count_entries", policy(0, n),
          RecordLeafEntries<Device>{keys, entry_leaf, entry_local, count, first, idx_bits, key_shift, digit_mask});
    }
  }

  // Sizing: node types by size, offsets in canonical order, one allocation.
  offset_type total = pool_header_bytes;
  for (int l = 0; l < L; ++l) {
    Level& lv = levels[l];
    lv.type = key_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hisparse::type"), lv.size);
    lv.offset = key_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hisparse::offset"), lv.size);
    const key_view type = lv.type, offset = lv.offset;
    const index_view count = lv.count;
    const bool leaf = l == L - 1;
    const offset_type base = total;
    offset_type level_bytes = 0;
    Kokkos::parallel_scan("strata::hisparse::size_nodes", policy(0, lv.size),
                          SizeNodes<Value, Device>{count, type, offset, leaf, b, base}, level_bytes);
    total += level_bytes;
  }
  storage->allocate(total / 8);
  storage->used_bytes = total;
  write_header(exec(), storage->words, b);
  fill(storage->words, levels, perm, vals, b);

  offset_type root = 0;
  {
    const key_view type = levels[0].type, offset = levels[0].offset;
    Kokkos::View<offset_type, Device> root_view("strata::hisparse::root");
    Kokkos::parallel_for("strata::hisparse::root", policy(0, 1), WriteRootRef<Device>{root_view, type, offset});
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), root_view);
    root = h();
  }
  return HiSparseMatrix<Value, Device>(storage, root, num_rows, num_cols, b, n);
}

}  // namespace hisparse::Impl
}  // namespace strata

// The conversion on the default execution space, compiled once in the library
// (formats/hisparse/eti/from_coo_eti.cpp.in).
#define STRATA_HISPARSE_FROM_COO_ETI(EXTERN, VALUE) \
  EXTERN template struct ::strata::hisparse::Impl::FromCoo<VALUE, ::strata::Impl::eti::device>;
STRATA_FOR_EACH_VALUE(STRATA_HISPARSE_FROM_COO_ETI, extern)
