#pragma once
// C = alpha op(A) + beta op(B) on HiSparse trees by a dual traversal (ICS'17
// Section 5): both trees are walked together, level by level from the roots,
// and every pair of nodes at the same position (either may be absent) becomes
// one node of C. No entry is sorted and no intermediate COO is built.
//
// Per level, one team per pair, twice:
//   plan   marks the children (inner level) or entries (leaf level) of both
//          nodes in a d*d-bit map in team scratch, in C's orientation (a
//          transposed term swaps its local coordinates), and counts the union:
//          C's node type and size follow from the count (choose_node_type);
//   scans  give every node its pool offset and every inner node the index of
//          its first child pair on the next level; the pool grows by the
//          level's exact size (no upper bound to exceed);
//   write  marks both maps again, ranks positions by a prefix popcount (the
//          row-major order C's sparse nodes keep), writes the node, its
//          reference into its parent's slot, and on inner levels the next
//          level's pairs with the byte offset of the slot each child fills.
// Leaf values: factor_a * a (conjugated with the mode), then + factor_b * b
// where both hold the position (after a team barrier, so every position has
// one writer per phase and the order of the two terms is fixed). A sum that
// cancels stays a stored zero: C's structure is the union of the terms'.
// A node present in one term only is copied through the same kernels (sharing
// it by reference when its transform allows is the next step, issue 10).
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/value_traits.hpp>
#include <strata/formats/hisparse/hisparse_matrix.hpp>

#include <cstdint>

namespace strata::hisparse::Impl {

// Where a node's reference goes: a byte offset in C's pool, or (the root) C's root cell.
constexpr offset_type add_root_slot = ~offset_type(0);

KOKKOS_INLINE_FUNCTION std::uint32_t popcount32(std::uint32_t x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  return (((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}

// 32-bit words of a d*d-bit map.
KOKKOS_INLINE_FUNCTION constexpr int position_words(int log2_block) { return ((1 << (2 * log2_block)) + 31) / 32; }

// One term as the traversal reads it: its tree, whether it is read transposed, whether its
// values are conjugated, and the factor they are multiplied by (alpha or beta times its scale,
// the scale conjugated with the values).
template <class Value, class Device>
struct AddTermRef {
  HiSparseRef<Value, Device> tree;
  bool transposed = false;
  bool conjugated = false;
  Value factor = Value(1);

  KOKKOS_INLINE_FUNCTION Value term_value(const Value& v) const { return factor * (conjugated ? conjugate(v) : v); }
};

// f(position in C's node, payload address) for every child or entry of the node behind ref
// (nothing for the null reference), spread over the team's threads.
template <class Value, class Device, class Member, class F>
KOKKOS_INLINE_FUNCTION void team_for_each_position(const Member& team, const AddTermRef<Value, Device>& term,
                                                   offset_type ref, int b, const F& f) {
  if (ref == 0) return;
  const NodeType t = type_of(ref);
  const unsigned char* node = term.tree.bytes() + offset_of(ref);
  const std::uint32_t count = *reinterpret_cast<const std::uint32_t*>(node);
  const bool leaf = is_leaf(t);
  const offset_type payload_size = payload_bytes(leaf, sizeof(Value));
  const unsigned char* payload = node + payload_offset(t, count, b, sizeof(Value));
  const std::uint32_t d = 1u << b;
  const bool transposed = term.transposed;
  if (is_dense(t)) {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, d * d), [&](const std::uint32_t slot) {
      const bool present = leaf ? ((node[dense_mask_offset() + slot / 8] >> (slot % 8)) & 1u) != 0
                                : *reinterpret_cast<const offset_type*>(payload + slot * 8) != 0;
      if (!present) return;
      const std::uint32_t r = slot / d, c = slot % d;
      f(transposed ? c * d + r : slot, payload + slot * payload_size);
    });
  } else {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](const std::uint32_t k) {
      const std::uint32_t r = node[node_header_bytes + 2 * k], c = node[node_header_bytes + 2 * k + 1];
      f(transposed ? c * d + r : r * d + c, payload + k * payload_size);
    });
  }
}

// Marks the positions of the node behind ref in bits (team scratch, cleared beforehand).
template <class Value, class Device, class Member>
KOKKOS_INLINE_FUNCTION void team_mark_positions(const Member& team, const AddTermRef<Value, Device>& term,
                                                offset_type ref, int b, std::uint32_t* bits) {
  team_for_each_position(team, term, ref, b, [&](const std::uint32_t pos, const unsigned char*) {
    Kokkos::atomic_or(&bits[pos / 32], 1u << (pos % 32));
  });
}

// The pairs of one level: the nodes of A and B at one position (0 where a term has none) and
// where C's reference to the node built from them goes.
template <class Device>
struct AddPairs {
  Kokkos::View<offset_type*, Device> a, b, slot;
  index_type size = 0;
};

// The team of one pair and its d*d-bit position maps in team scratch.
template <class Device>
struct AddTeam {
  using member_type = typename Kokkos::TeamPolicy<typename Device::execution_space>::member_type;
  using scratch_words = Kokkos::View<std::uint32_t*, typename Device::execution_space::scratch_memory_space,
                                     Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static std::size_t map_bytes(int log2_block) { return scratch_words::shmem_size(position_words(log2_block)); }
};

// Plan: the size of the union of each pair's positions, and C's node type and bytes for it.
template <class Value, class Device>
struct PlanAddNodes {
  using member_type = typename AddTeam<Device>::member_type;
  using scratch_words = typename AddTeam<Device>::scratch_words;
  AddTermRef<Value, Device> A, B;
  Kokkos::View<const offset_type*, Device> a, b;
  Kokkos::View<offset_type*, Device> count, type, bytes;
  int log2_block;
  bool leaf;

  static std::size_t scratch_bytes(int log2_block) { return AddTeam<Device>::map_bytes(log2_block); }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const index_type i = team.league_rank();
    const int words = position_words(log2_block);
    scratch_words bits(team.team_scratch(0), words);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, words), [&](const int w) { bits(w) = 0; });
    team.team_barrier();
    team_mark_positions(team, A, a(i), log2_block, bits.data());
    team_mark_positions(team, B, b(i), log2_block, bits.data());
    team.team_barrier();
    offset_type n = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, words), [&](const int w, offset_type& s) { s += popcount32(bits(w)); }, n);
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      const NodeType t = choose_node_type(leaf, n, log2_block, sizeof(Value));
      count(i) = n;
      type(i) = t;
      bytes(i) = node_bytes(t, n, log2_block, sizeof(Value));
    });
  }
};

// Exclusive scan of a level's node bytes (from `base`) into offsets.
template <class Device>
struct PlaceAddNodes {
  Kokkos::View<const offset_type*, Device> bytes;
  Kokkos::View<offset_type*, Device> offset;
  offset_type base;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i, offset_type& at, const bool final) const {
    if (final) offset(i) = base + at;
    at += bytes(i);
  }
};

// Exclusive scan of an inner level's child counts into the index of each node's first child pair.
template <class Device>
struct NumberAddChildren {
  Kokkos::View<const offset_type*, Device> count;
  Kokkos::View<offset_type*, Device> first;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i, offset_type& at, const bool final) const {
    if (final) first(i) = at;
    at += count(i);
  }
};

// Write: C's node of each pair, its reference, and on inner levels the next level's pairs.
template <class Value, class Device>
struct WriteAddNodes {
  using member_type = typename AddTeam<Device>::member_type;
  using scratch_words = typename AddTeam<Device>::scratch_words;
  AddTermRef<Value, Device> A, B;
  AddPairs<Device> pairs;
  Kokkos::View<const offset_type*, Device> count, first_child, type, offset;
  AddPairs<Device> next;  // inner levels
  Kokkos::View<std::uint64_t*, Device> pool;
  Kokkos::View<offset_type, Device> root;
  int log2_block;
  bool leaf;

  static std::size_t scratch_bytes(int log2_block) { return 3 * AddTeam<Device>::map_bytes(log2_block); }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const index_type i = team.league_rank();
    const int words = position_words(log2_block);
    scratch_words in_a(team.team_scratch(0), words), in_b(team.team_scratch(0), words);
    scratch_words before(team.team_scratch(0), words);  // positions of the union in earlier words
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, words), [&](const int w) {
      in_a(w) = 0;
      in_b(w) = 0;
    });
    team.team_barrier();
    team_mark_positions(team, A, pairs.a(i), log2_block, in_a.data());
    team_mark_positions(team, B, pairs.b(i), log2_block, in_b.data());
    team.team_barrier();
    Kokkos::parallel_scan(Kokkos::TeamThreadRange(team, words),
                          [&](const int w, std::uint32_t& partial, const bool final) {
                            if (final) before(w) = partial;
                            partial += popcount32(in_a(w) | in_b(w));
                          });
    team.team_barrier();

    const NodeType t = static_cast<NodeType>(type(i));
    const offset_type at = offset(i);
    const offset_type n = count(i);
    unsigned char* const node = reinterpret_cast<unsigned char*>(pool.data()) + at;
    const bool dense = is_dense(t);
    unsigned char* const payload = node + payload_offset(t, n, log2_block, sizeof(Value));
    const std::uint32_t d = 1u << log2_block;
    const auto rank = [&](const std::uint32_t pos) {
      const std::uint32_t w = pos / 32, below = (1u << (pos % 32)) - 1u;
      return before(w) + popcount32((in_a(w) | in_b(w)) & below);
    };
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      *reinterpret_cast<std::uint32_t*>(node) = static_cast<std::uint32_t>(n);
      const offset_type ref = make_ref(at, t);
      const offset_type slot = pairs.slot(i);
      if (slot == add_root_slot) {
        root() = ref;
      } else {
        *reinterpret_cast<offset_type*>(reinterpret_cast<unsigned char*>(pool.data()) + slot) = ref;
      }
    });
    if (dense && leaf) {
      // The occupancy mask is the union map itself (byte j of the mask is bits 8j..8j+7).
      std::uint32_t* const mask = reinterpret_cast<std::uint32_t*>(node + dense_mask_offset());
      const int mask_bytes = static_cast<int>((d * d + 7) / 8);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, words), [&](const int w) {
        const std::uint32_t u = in_a(w) | in_b(w);
        if (4 * w + 4 <= mask_bytes) {
          mask[w] = u;
        } else {
          for (int k = 0; 4 * w + k < mask_bytes; ++k) node[dense_mask_offset() + 4 * w + k] = (u >> (8 * k)) & 0xffu;
        }
      });
    }
    // Where position pos of this node goes, and its coordinates for sparse nodes.
    const auto place = [&](const std::uint32_t pos) {
      const std::uint32_t k = dense ? pos : rank(pos);
      if (!dense) {
        node[node_header_bytes + 2 * k] = static_cast<unsigned char>(pos / d);
        node[node_header_bytes + 2 * k + 1] = static_cast<unsigned char>(pos % d);
      }
      return k;
    };
    if (leaf) {
      Value* const values = reinterpret_cast<Value*>(payload);
      team_for_each_position(team, A, pairs.a(i), log2_block, [&](const std::uint32_t pos, const unsigned char* p) {
        values[place(pos)] = A.term_value(*reinterpret_cast<const Value*>(p));
      });
      team.team_barrier();
      team_for_each_position(team, B, pairs.b(i), log2_block, [&](const std::uint32_t pos, const unsigned char* p) {
        const Value v = B.term_value(*reinterpret_cast<const Value*>(p));
        if ((in_a(pos / 32) >> (pos % 32)) & 1u) {
          values[dense ? pos : rank(pos)] += v;
        } else {
          values[place(pos)] = v;
        }
      });
    } else {
      const index_type first = static_cast<index_type>(first_child(i));
      team_for_each_position(team, A, pairs.a(i), log2_block, [&](const std::uint32_t pos, const unsigned char* p) {
        const std::uint32_t k = place(pos);
        const index_type j = first + static_cast<index_type>(rank(pos));
        next.a(j) = *reinterpret_cast<const offset_type*>(p);
        next.slot(j) = at + static_cast<offset_type>(payload - node) + offset_type(k) * 8;
      });
      team.team_barrier();
      team_for_each_position(team, B, pairs.b(i), log2_block, [&](const std::uint32_t pos, const unsigned char* p) {
        const index_type j = first + static_cast<index_type>(rank(pos));
        next.b(j) = *reinterpret_cast<const offset_type*>(p);
        if (!((in_a(pos / 32) >> (pos % 32)) & 1u)) {
          const std::uint32_t k = place(pos);
          next.slot(j) = at + static_cast<offset_type>(payload - node) + offset_type(k) * 8;
        }
      });
    }
  }
};

}  // namespace strata::hisparse::Impl
