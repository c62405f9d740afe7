#pragma once
// C = alpha op(A) + beta op(B) on HiSparse trees by a dual traversal (ICS'17
// Section 5): both trees are walked together, level by level from the roots,
// and every pair of nodes at the same position (either may be absent) becomes
// one node of C. There is no global sort and no intermediate COO.
//
// Short pairs (both nodes sparse or absent, at most short_pair_entries entries
// together: most pairs of irregular matrices, whose leaves hold one or two
// entries) take one thread each and merge the two nodes' sorted position lists,
// with no map (a transposed term's list is insertion-sorted first); the merge
// order is the rank. Every other pair takes a team (a warp, or a block for
// pairs of more than large_pair_entries entries or with a dense node), per
// level twice:
//   plan   marks the children (inner level) or entries (leaf level) of both
//          nodes in a d*d-bit map in team scratch, in C's orientation (a
//          transposed term swaps its local coordinates), and counts the union:
//          C's node type and size follow from the count (choose_node_type);
//   place  one scan gives every node its pool offset and every inner node
//          the index of its first child pair on the next level (on a level
//          whose size the host has not read, the planning launch's last team
//          does: PlanAndPlaceLevel); the host checks that the pool holds the
//          level (it grows if not: no bound to exceed);
//   write  marks both maps again, ranks positions by a prefix popcount (the
//          row-major order C's sparse nodes keep), writes the node, its
//          reference into its parent's slot, and on inner levels the next
//          level's pairs with the byte offset of the slot each child fills
//          (and 0 for a term without a node there: the lists are not cleared
//          beforehand).
// A team's pair of two sparse nodes (or one) of at most large_pair_entries
// entries whose terms are not read transposed takes no map: both position
// lists are sorted as they lie in the pool, so plan counts the union by binary
// searches and write ranks each entry by one, over the lists' keys staged in
// team scratch (merged_by_search).
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
  // The position in C's node (row-major, d = 2^b) of the term's local coordinates (r, c).
  KOKKOS_INLINE_FUNCTION std::uint32_t position(std::uint32_t r, std::uint32_t c, int b) const {
    return transposed ? (c << b) | r : (r << b) | c;
  }
};

// Writes entry k's local coordinates in a sparse node of C from its position.
KOKKOS_INLINE_FUNCTION void write_coordinates(unsigned char* node, std::uint32_t k, std::uint32_t pos, int b) {
  node[node_header_bytes + 2 * k] = static_cast<unsigned char>(pos >> b);
  node[node_header_bytes + 2 * k + 1] = static_cast<unsigned char>(pos & ((1u << b) - 1u));
}

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
  if (is_dense(t)) {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, d * d), [&](const std::uint32_t slot) {
      const bool present = leaf ? ((node[dense_mask_offset() + slot / 8] >> (slot % 8)) & 1u) != 0
                                : *reinterpret_cast<const offset_type*>(payload + slot * 8) != 0;
      if (!present) return;
      f(term.position(slot >> b, slot & (d - 1), b), payload + slot * payload_size);
    });
  } else {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count), [&](const std::uint32_t k) {
      f(term.position(node[node_header_bytes + 2 * k], node[node_header_bytes + 2 * k + 1], b),
        payload + k * payload_size);
    });
  }
}

// Whether position pos is set in a d*d-bit map.
KOKKOS_INLINE_FUNCTION bool marked(const std::uint32_t* bits, std::uint32_t pos) {
  return ((bits[pos / 32] >> (pos % 32)) & 1u) != 0;
}

// Marks the positions of the node behind ref in bits (team scratch, cleared beforehand).
template <class Value, class Device, class Member>
KOKKOS_INLINE_FUNCTION void team_mark_positions(const Member& team, const AddTermRef<Value, Device>& term,
                                                offset_type ref, int b, std::uint32_t* bits) {
  team_for_each_position(team, term, ref, b, [&](const std::uint32_t pos, const unsigned char*) {
    Kokkos::atomic_or(&bits[pos / 32], 1u << (pos % 32));
  });
}

// The bins of node pairs. Short: both nodes sparse (or absent), at most short_pair_entries
// entries together; one thread merges them (the position lists fit in registers and local
// memory), where a team with a d*d-bit map for a pair of two one-entry leaves spent its time
// clearing and scanning the map. Large: more than large_pair_entries entries, or a dense node
// (d*d slots to visit); a block of threads, where a warp alone took a millisecond for the few
// inner nodes of thousands of children that every tree of d = 128 has on its second level.
// Every other pair: a warp.
constexpr std::uint32_t short_pair_entries = 16;
constexpr std::uint32_t large_pair_entries = 1024;
enum class PairBin : std::uint32_t { short_pair = 0, warp_pair = 1, block_pair = 2 };

// Entries (or children) of the node behind ref; 0 for the null reference.
template <class Value, class Device>
KOKKOS_INLINE_FUNCTION std::uint32_t node_entries(const AddTermRef<Value, Device>& term, offset_type ref) {
  return ref == 0 ? 0u : term.tree.count(ref);
}

template <class Value, class Device>
KOKKOS_INLINE_FUNCTION PairBin pair_bin(const AddTermRef<Value, Device>& A, offset_type a,
                                        const AddTermRef<Value, Device>& B, offset_type b) {
  const bool dense = (a != 0 && is_dense(type_of(a))) || (b != 0 && is_dense(type_of(b)));
  const std::uint32_t entries = node_entries(A, a) + node_entries(B, b);
  if (dense || entries > large_pair_entries) return PairBin::block_pair;
  return entries <= short_pair_entries ? PairBin::short_pair : PairBin::warp_pair;
}

// A sparse node's positions in C's orientation, ascending, each with the index of its entry.
struct SortedPositions {
  std::uint32_t size = 0;
  std::uint32_t position[short_pair_entries];
  std::uint8_t entry[short_pair_entries];
  const unsigned char* payload = nullptr;
};

// Reads the node behind ref (sparse, at most short_pair_entries entries) into s. Its entries are
// stored row-major, so positions arrive in order unless the term is transposed; the insertion
// sort costs one comparison per entry then.
template <class Value, class Device>
KOKKOS_INLINE_FUNCTION void load_sorted_positions(const AddTermRef<Value, Device>& term, offset_type ref, int b,
                                                  SortedPositions& s) {
  s.size = 0;
  if (ref == 0) return;
  const NodeType t = type_of(ref);
  const unsigned char* node = term.tree.bytes() + offset_of(ref);
  const std::uint32_t count = *reinterpret_cast<const std::uint32_t*>(node);
  s.payload = node + payload_offset(t, count, b, sizeof(Value));
  for (std::uint32_t k = 0; k < count; ++k) {
    const std::uint32_t pos = term.position(node[node_header_bytes + 2 * k], node[node_header_bytes + 2 * k + 1], b);
    std::uint32_t j = k;
    for (; j > 0 && s.position[j - 1] > pos; --j) {
      s.position[j] = s.position[j - 1];
      s.entry[j] = s.entry[j - 1];
    }
    s.position[j] = pos;
    s.entry[j] = static_cast<std::uint8_t>(k);
  }
  s.size = count;
}

// f(k, position, entry in a or -1, entry in b or -1) for the k-th position of the union, in order.
template <class F>
KOKKOS_INLINE_FUNCTION std::uint32_t merge_positions(const SortedPositions& a, const SortedPositions& b, const F& f) {
  std::uint32_t i = 0, j = 0, k = 0;
  while (i < a.size || j < b.size) {
    if (j == b.size || (i < a.size && a.position[i] < b.position[j])) {
      f(k, a.position[i], int(a.entry[i]), -1);
      ++i;
    } else if (i == a.size || b.position[j] < a.position[i]) {
      f(k, b.position[j], -1, int(b.entry[j]));
      ++j;
    } else {
      f(k, a.position[i], int(a.entry[i]), int(b.entry[j]));
      ++i;
      ++j;
    }
    ++k;
  }
  return k;
}

// Pairs a team merges by binary search instead of d*d-bit maps: both nodes sparse (or absent),
// neither term read transposed (a sparse node's entries lie in the pool row-major, strictly
// increasing: docs/HISPARSE_LAYOUT.md, so both lists are sorted in C's orientation as they
// are), at most large_pair_entries entries together. A team then spends a few lookups per
// entry where the maps cost it d*d/32 words to clear and scan per pair whatever its size: on
// ct2010 the warp pairs' writing launch took 110 us for 13444 pairs. Measured on an H200
// (docs/PERFORMANCE.md, 2026-11-28): ct2010, HEP-th and the hubs 1.28-1.45x faster in NN, but 18
// of the 25 additions up to 21% slower (the small two-level ones 0.84-0.97x) while the lookups
// read the pool (about nine dependent reads from L2 each, three per entry of A). Both lists'
// keys are now staged in team scratch first (team_stage_pair: one read of each node's
// coordinates), so a lookup reads scratch: NN 1.06x on the geometric mean of the 25 additions
// against the lookups in the pool, same run (H200, docs/PERFORMANCE.md, 2026-11-29).
template <class Value, class Device>
KOKKOS_INLINE_FUNCTION bool merged_by_search(const AddTermRef<Value, Device>& A, offset_type a,
                                             const AddTermRef<Value, Device>& B, offset_type b) {
  // Every pair but the block bin's (a dense node, or more than large_pair_entries entries).
  return !A.transposed && !B.transposed && pair_bin(A, a, B, b) != PairBin::block_pair;
}

// A sparse node's entries as the sorted list they are, their keys staged in team scratch
// (team_stage_entries): key(k) orders them as their positions do (local row, then column, each
// below 256), so a lookup reads scratch, not the pool; payload points at their values or
// children in the pool.
struct SortedEntries {
  const std::uint16_t* keys = nullptr;
  const unsigned char* payload = nullptr;
  std::uint32_t size = 0;

  KOKKOS_INLINE_FUNCTION std::uint32_t key(std::uint32_t k) const { return keys[k]; }
  KOKKOS_INLINE_FUNCTION std::uint32_t row(std::uint32_t k) const { return key(k) >> 8; }
  KOKKOS_INLINE_FUNCTION std::uint32_t col(std::uint32_t k) const { return key(k) & 0xffu; }
  // The number of entries whose key is below `key`.
  KOKKOS_INLINE_FUNCTION std::uint32_t lower_bound(std::uint32_t key) const {
    std::uint32_t lo = 0, hi = size;
    while (lo < hi) {
      const std::uint32_t mid = (lo + hi) / 2;
      if (this->key(mid) < key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
  // Whether entry j (a lower bound) holds `key`.
  KOKKOS_INLINE_FUNCTION bool holds_at(std::uint32_t j, std::uint32_t key) const {
    return j < size && this->key(j) == key;
  }
};

// The entries of the sparse node behind ref (none for the null reference), their keys written
// to `keys` (team scratch) by the team: one read of the node's coordinates, spread over the
// team. The caller puts a team barrier between this and the first lookup.
template <class Value, class Device, class Member>
KOKKOS_INLINE_FUNCTION SortedEntries team_stage_entries(const Member& team, const AddTermRef<Value, Device>& term,
                                                        offset_type ref, int b, std::uint16_t* keys) {
  SortedEntries s;
  s.keys = keys;
  if (ref == 0) return s;
  const unsigned char* node = term.tree.bytes() + offset_of(ref);
  s.size = *reinterpret_cast<const std::uint32_t*>(node);
  s.payload = node + payload_offset(type_of(ref), s.size, b, sizeof(Value));
  const unsigned char* const coordinates = node + node_header_bytes;
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, s.size), [&](const std::uint32_t k) {
    keys[k] = static_cast<std::uint16_t>((std::uint32_t(coordinates[2 * k]) << 8) | coordinates[2 * k + 1]);
  });
  return s;
}

// The keys of both nodes of a pair merged by search, staged in team scratch one after the
// other (A's, then B's: at most large_pair_entries in all), and what follows them.
struct StagedPair {
  SortedEntries a, b;
  std::uint16_t* after = nullptr;
};

template <class Value, class Device, class Member>
KOKKOS_INLINE_FUNCTION StagedPair team_stage_pair(const Member& team, const AddTermRef<Value, Device>& A,
                                                  offset_type a, const AddTermRef<Value, Device>& B, offset_type b,
                                                  int log2_block, std::uint16_t* scratch) {
  StagedPair p;
  p.a = team_stage_entries(team, A, a, log2_block, scratch);
  p.b = team_stage_entries(team, B, b, log2_block, scratch + p.a.size);
  p.after = scratch + p.a.size + p.b.size;
  team.team_barrier();
  return p;
}

// Scratch words for a pair merged by search: both nodes' keys (16 bits each, at most
// min(2 d*d, large_pair_entries)), and with `both_before` the entries of both before each of
// A's (16 bits each, at most min(d*d, large_pair_entries) + 1).
KOKKOS_INLINE_FUNCTION constexpr std::size_t merge_scratch_words(int log2_block, bool both_before) {
  const std::size_t positions = std::size_t(1) << (2 * log2_block);
  const std::size_t keys = 2 * positions < large_pair_entries ? 2 * positions : large_pair_entries;
  const std::size_t counts = both_before ? (positions < large_pair_entries ? positions : large_pair_entries) + 1 : 0;
  return (keys + counts + 1) / 2;
}

// The size of the union of two sorted lists, over a team: both sizes less the keys of `a`
// that `b` holds too.
template <class Member>
KOKKOS_INLINE_FUNCTION offset_type team_union_size(const Member& team, const SortedEntries& a, const SortedEntries& b) {
  offset_type both = 0;
  Kokkos::parallel_reduce(
      Kokkos::TeamThreadRange(team, a.size),
      [&](const std::uint32_t k, offset_type& s) {
        const std::uint32_t key = a.key(k);
        if (b.holds_at(b.lower_bound(key), key)) ++s;
      },
      both);
  return offset_type(a.size) + offset_type(b.size) - both;
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

// C's node type and bytes for a pair's union count.
template <class Value, class Device>
KOKKOS_INLINE_FUNCTION void plan_node(const Kokkos::View<offset_type*, Device>& count,
                                      const Kokkos::View<offset_type*, Device>& type,
                                      const Kokkos::View<offset_type*, Device>& bytes, index_type i, offset_type n,
                                      int log2_block, bool leaf) {
  const NodeType t = choose_node_type(leaf, n, log2_block, sizeof(Value));
  count(i) = n;
  type(i) = t;
  bytes(i) = node_bytes(t, n, log2_block, sizeof(Value));
}

// A level's totals, written on the device (the bins' counts by the planning launch's atomics,
// the bytes, children and end by whatever places the level) and read by the host once per
// level. level_end is the pool offset past the level's last node (a writing launch compares it
// with the pool's size); teams_done counts the teams of a planning launch that have finished
// (the last one places the level: PlanAndPlaceLevel). Every level has its own, zeroed when the
// addition starts, so that no launch clears them.
enum LevelTotal : int {
  packed_bin_counts = 0,
  level_bytes = 1,
  level_children = 2,
  level_end = 3,
  teams_done = 4,
  level_total_slots = 5
};

// The two team bins' counts packed in one word, so that one atomic appends a pair to either
// bin: warp pairs in the low 32 bits, block pairs in the high 32 bits (a level has fewer than
// 2^31 pairs). A pair counts packed_bin_unit(its bin); packed_bin_size reads one bin's count
// back (on the device and, from the level's totals, on the host).
KOKKOS_INLINE_FUNCTION constexpr offset_type packed_bin_unit(bool block_bin) {
  return block_bin ? offset_type(1) << 32 : offset_type(1);
}
KOKKOS_INLINE_FUNCTION constexpr offset_type packed_bin_size(offset_type packed, bool block_bin) {
  return block_bin ? packed >> 32 : packed & 0xffffffffu;
}

// The level's pairs that take a team: warp pairs from the front of `list`, block pairs from its
// back (the list has a word per pair of the level), in the order the planning launch appended
// them; their counts packed in level(packed_bin_counts). Or, on a level of at most
// small_level_pairs pairs, every pair [0, all_pairs): there one launch of block-sized teams plans
// (and one writes) every pair, where a launch per bin and one for the short pairs cost the host
// a launch each (4.5-6.5 us) for a few pairs. Or every pair of a level whose size the host has
// not read (`parent` set: as many as the level above has children), so that its launches go out
// without a host wait.
constexpr offset_type small_level_pairs = 1024;

template <class Device>
struct TeamPairList {
  Kokkos::View<offset_type*, Device> list;
  Kokkos::View<offset_type*, Device> level;  // the level's totals
  bool block_bin = false;
  offset_type all_pairs = 0;                   // nonzero: the list is every pair of the level
  Kokkos::View<offset_type*, Device> parent;  // set: the list is every pair, the level above's totals count them

  KOKKOS_INLINE_FUNCTION bool every_pair() const { return all_pairs != 0 || parent.data() != nullptr; }
  KOKKOS_INLINE_FUNCTION void append(const index_type i, const bool block) const {
    const offset_type before = Kokkos::atomic_fetch_add(&level(packed_bin_counts), packed_bin_unit(block));
    const offset_type k = packed_bin_size(before, block);
    list(block ? list.extent(0) - 1 - k : k) = static_cast<offset_type>(i);
  }
  KOKKOS_INLINE_FUNCTION offset_type size() const {
    if (parent.data() != nullptr) {
      // At most the list's words, the room the host made: more would be a tree whose nodes hold
      // more children than entries, which the host reports once it reads the level above.
      const offset_type pairs = parent(level_children) - parent(level_bytes);
      return pairs < list.extent(0) ? pairs : static_cast<offset_type>(list.extent(0));
    }
    return all_pairs != 0 ? all_pairs : packed_bin_size(level(packed_bin_counts), block_bin);
  }
  KOKKOS_INLINE_FUNCTION index_type operator[](const offset_type k) const {
    if (every_pair()) return static_cast<index_type>(k);
    return static_cast<index_type>(block_bin ? list(list.extent(0) - 1 - k) : list(k));
  }
};

// Plan: the size of the union of each pair's positions, and C's node type and bytes for it.
// On a level of bins: a range over all pairs plans the short ones (one thread each) and appends
// every other pair to its bin's list, then teams plan the pairs of each bin. On a small level
// (TeamPairList::all_pairs) one team launch plans every pair. (AddFirstLevel counts its pair itself,
// from the maps its write uses.)
template <class Value, class Device>
struct PlanAddNodes {
  using member_type = typename AddTeam<Device>::member_type;
  using scratch_words = typename AddTeam<Device>::scratch_words;
  AddTermRef<Value, Device> A, B;
  Kokkos::View<const offset_type*, Device> a, b;
  Kokkos::View<offset_type*, Device> count, type, bytes;
  TeamPairList<Device> bin;  // the range launch appends to both bins; a team launch plans one
  int log2_block;
  bool leaf;

  // A d*d-bit map, or a merged pair's keys, in the same words.
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_words_per_team(int log2_block) {
    const std::size_t words = static_cast<std::size_t>(position_words(log2_block));
    const std::size_t merge = merge_scratch_words(log2_block, false);
    return words > merge ? words : merge;
  }
  static std::size_t scratch_bytes(int log2_block) {
    return scratch_words::shmem_size(scratch_words_per_team(log2_block));
  }

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i) const {
    const PairBin kind = pair_bin(A, a(i), B, b(i));
    if (kind != PairBin::short_pair) {
      bin.append(i, kind == PairBin::block_pair);
      return;
    }
    SortedPositions pa, pb;
    load_sorted_positions(A, a(i), log2_block, pa);
    load_sorted_positions(B, b(i), log2_block, pb);
    const std::uint32_t n = merge_positions(pa, pb, [](std::uint32_t, std::uint32_t, int, int) {});
    plan_node<Value>(count, type, bytes, i, n, log2_block, leaf);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    // Team scratch is handed out once per team (each view advances its allocator).
    scratch_words bits(team.team_scratch(0), scratch_words_per_team(log2_block));
    const offset_type size = bin.size();
    for (offset_type k = team.league_rank(); k < size; k += team.league_size()) {
      plan(team, bin[k], bits);
      team.team_barrier();  // the scratch is reused for the next pair
    }
  }

  KOKKOS_INLINE_FUNCTION void plan(const member_type& team, const index_type i, const scratch_words& bits) const {
    if (merged_by_search(A, a(i), B, b(i))) {
      const StagedPair p =
          team_stage_pair(team, A, a(i), B, b(i), log2_block, reinterpret_cast<std::uint16_t*>(bits.data()));
      const offset_type n = team_union_size(team, p.a, p.b);
      Kokkos::single(Kokkos::PerTeam(team), [&]() { plan_node<Value>(count, type, bytes, i, n, log2_block, leaf); });
      return;
    }
    const int words = position_words(log2_block);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, words), [&](const int w) { bits(w) = 0; });
    team.team_barrier();
    team_mark_positions(team, A, a(i), log2_block, bits.data());
    team_mark_positions(team, B, b(i), log2_block, bits.data());
    team.team_barrier();
    offset_type n = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, words), [&](const int w, offset_type& s) { s += popcount32(bits(w)); }, n);
    Kokkos::single(Kokkos::PerTeam(team), [&]() { plan_node<Value>(count, type, bytes, i, n, log2_block, leaf); });
  }
};

// Places a level of n pairs in one scan of 2n iterations: the first n give every node its pool
// offset (from `base`), the next n every node the index of its first child pair on the next
// level (one scan where there were two: each costs the host a launch and the device two
// kernels). The second half's prefixes start at the level's bytes: first_child() takes them off.
// level(level_bytes) := the level's bytes, level(level_children) := its bytes plus its children.
template <class Device>
struct PlaceAddLevel {
  Kokkos::View<const offset_type*, Device> bytes, count;
  Kokkos::View<offset_type*, Device> offset, first;
  offset_type base;
  Kokkos::View<offset_type*, Device> level;
  index_type n;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i, offset_type& at, const bool final) const {
    if (i < n) {
      if (final) offset(i) = base + at;
      at += bytes(i);
      if (final && i == n - 1) {
        level(level_bytes) = at;
        level(level_end) = base + at;
      }
    } else {
      if (final) first(i - n) = at;
      at += count(i - n);
      if (final && i == 2 * n - 1) level(level_children) = at;
    }
  }
};

// The index on the next level of pair i's first child, from PlaceAddLevel's second half.
template <class Device>
KOKKOS_INLINE_FUNCTION index_type first_child(const Kokkos::View<const offset_type*, Device>& first,
                                              const Kokkos::View<offset_type*, Device>& level, index_type i) {
  return static_cast<index_type>(first(i) - level(level_bytes));
}

// A level whose size the host has not read (its TeamPairList counts the pairs from the level
// above's totals), planned and placed in one launch: the teams plan every pair, a team at a
// time, and the last team to finish places the level as PlaceAddLevel does, its nodes after the
// level above's. That saves the host the scan's launch and the read of the level above before
// it: a two-level addition then waits for the device once, at its end. The placing team adds a
// stretch of the 2n terms per thread and places the stretches by one team scan; the levels
// planned this way are a two-level addition's leaves, at most d*d pairs (128 terms per thread of
// a block for d = 128).
template <class Value, class Device>
struct PlanAndPlaceLevel {
  using member_type = typename AddTeam<Device>::member_type;
  PlanAddNodes<Value, Device> planner;  // its list: every pair of the level, counted by bin.parent
  Kokkos::View<offset_type*, Device> offset, first;
  offset_type parent_start;  // the pool offset of the level above's first node

  static std::size_t scratch_bytes(int log2_block) { return PlanAddNodes<Value, Device>::scratch_bytes(log2_block); }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    planner(team);
    // Each thread's plan is visible on the device before its team is counted as done; the team
    // that counts last sees every team's.
    Kokkos::memory_fence();
    team.team_barrier();
    int last = 0;
    Kokkos::single(
        Kokkos::PerTeam(team),
        [&](int& is_last) {
          const offset_type done = Kokkos::atomic_fetch_add(&planner.bin.level(teams_done), offset_type(1));
          is_last = done + 1 == static_cast<offset_type>(team.league_size()) ? 1 : 0;
        },
        last);
    if (last == 0) return;
    Kokkos::memory_fence();
    place(team);
  }

  KOKKOS_INLINE_FUNCTION void place(const member_type& team) const {
    const auto& level = planner.bin.level;
    const offset_type n = planner.bin.size();
    const offset_type base = parent_start + planner.bin.parent(level_bytes);
    // Written by other teams of this launch: read past this multiprocessor's L1.
    const volatile offset_type* const bytes = planner.bytes.data();
    const volatile offset_type* const count = planner.count.data();
    const auto term = [&](const offset_type i) -> offset_type { return i < n ? bytes[i] : count[i - n]; };
    const offset_type terms = 2 * n, threads = static_cast<offset_type>(team.team_size());
    const offset_type stretch = (terms + threads - 1) / threads;
    const offset_type rank = static_cast<offset_type>(team.team_rank());
    const offset_type lo = rank * stretch < terms ? rank * stretch : terms;
    const offset_type hi = lo + stretch < terms ? lo + stretch : terms;
    offset_type sum = 0;
    for (offset_type i = lo; i < hi; ++i) sum += term(i);
    offset_type at = team.team_scan(sum);
    // The same prefixes as PlaceAddLevel: offsets from `base` over the bytes, then the first
    // children over the counts, starting at the level's bytes.
    for (offset_type i = lo; i < hi; ++i) {
      if (i < n) {
        offset(i) = base + at;
      } else {
        first(i - n) = at;
      }
      at += term(i);
      if (i == n - 1) {
        level(level_bytes) = at;
        level(level_end) = base + at;
      }
      if (i == terms - 1) level(level_children) = at;
    }
    if (n == 0) Kokkos::single(Kokkos::PerTeam(team), [&]() { level(level_end) = base; });
  }
};

// C's node header (its count) and its reference, in its parent's slot or C's root cell (root(0)).
template <class Device>
KOKKOS_INLINE_FUNCTION void write_node_header(const Kokkos::View<std::uint64_t*, Device>& pool,
                                              const Kokkos::View<offset_type*, Device>& root, offset_type at,
                                              NodeType t, offset_type n, offset_type slot) {
  unsigned char* const base = reinterpret_cast<unsigned char*>(pool.data());
  *reinterpret_cast<std::uint32_t*>(base + at) = static_cast<std::uint32_t>(n);
  const offset_type ref = make_ref(at, t);
  if (slot == add_root_slot) {
    root(0) = ref;
  } else {
    *reinterpret_cast<offset_type*>(base + slot) = ref;
  }
}

// Write: C's node of each pair, its reference, and on inner levels the next level's pairs.
// Two launches per level, as for the plan: a range over all pairs writes the short ones, one
// thread each (the merge in position order gives every entry its rank, so a sparse node is
// written in order, a dense one from small blocks by position); then teams write each bin's.
template <class Value, class Device>
struct WriteAddNodes {
  using member_type = typename AddTeam<Device>::member_type;
  using scratch_words = typename AddTeam<Device>::scratch_words;
  AddTermRef<Value, Device> A, B;
  AddPairs<Device> pairs;
  Kokkos::View<const offset_type*, Device> count, first, type, offset;
  AddPairs<Device> next;  // inner levels
  Kokkos::View<std::uint64_t*, Device> pool;
  Kokkos::View<offset_type*, Device> root;  // C's root cell
  TeamPairList<Device> bin;                 // the level's totals; a team launch's pairs, a team at a time
  int log2_block;
  bool leaf;
  // The pool's bytes: a launch writes nothing where the level ends past them, or (inner levels)
  // where its children exceed the next level's lists. Only one the host sends before it has read
  // the level's size can meet that (the host then grows the pool or the workspace and sends it
  // again).
  offset_type pool_bytes;

  // A team's scratch: three d*d-bit maps (A's positions, B's, the union's before each word), or
  // for a pair merged by search both nodes' keys and the entries of both before each of A's
  // (merge_scratch_words), in the same words.
  struct Scratch {
    scratch_words in_a, in_b, before, all;
  };
  KOKKOS_INLINE_FUNCTION static std::size_t scratch_words_per_team(int log2_block) {
    const std::size_t words = static_cast<std::size_t>(position_words(log2_block));
    const std::size_t merge = merge_scratch_words(log2_block, true);
    return 3 * words > merge ? 3 * words : merge;
  }
  static std::size_t scratch_bytes(int log2_block) {
    return scratch_words::shmem_size(scratch_words_per_team(log2_block));
  }
  KOKKOS_INLINE_FUNCTION static Scratch team_scratch(const member_type& team, int log2_block) {
    const int words = position_words(log2_block);
    scratch_words all(team.team_scratch(0), scratch_words_per_team(log2_block));
    std::uint32_t* const p = all.data();
    return {scratch_words(p, words), scratch_words(p + words, words), scratch_words(p + 2 * words, words), all};
  }

  KOKKOS_INLINE_FUNCTION bool level_fits() const {
    return bin.level(level_end) <= pool_bytes &&
           (leaf || bin.level(level_children) - bin.level(level_bytes) <= static_cast<offset_type>(next.a.extent(0)));
  }

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i) const {
    if (!level_fits() || pair_bin(A, pairs.a(i), B, pairs.b(i)) != PairBin::short_pair) return;
    SortedPositions pa, pb;
    load_sorted_positions(A, pairs.a(i), log2_block, pa);
    load_sorted_positions(B, pairs.b(i), log2_block, pb);
    const NodeType t = static_cast<NodeType>(type(i));
    const offset_type at = offset(i), n = count(i);
    write_node_header(pool, root, at, t, n, pairs.slot(i));
    unsigned char* const node = reinterpret_cast<unsigned char*>(pool.data()) + at;
    const offset_type payload_at = payload_offset(t, n, log2_block, sizeof(Value));
    const bool dense = is_dense(t);
    const index_type first_pair = leaf ? 0 : first_child(first, bin.level, i);
    merge_positions(pa, pb, [&](const std::uint32_t k, const std::uint32_t pos, const int ia, const int ib) {
      const std::uint32_t slot = dense ? pos : k;
      if (!dense) write_coordinates(node, k, pos, log2_block);
      if (leaf) {
        // The order of the team path: alpha a, then + beta b.
        Value v = ia >= 0 ? A.term_value(reinterpret_cast<const Value*>(pa.payload)[ia]) : Value(0);
        if (ib >= 0) {
          const Value w = B.term_value(reinterpret_cast<const Value*>(pb.payload)[ib]);
          v = ia >= 0 ? v + w : w;
        }
        reinterpret_cast<Value*>(node + payload_at)[slot] = v;
        if (dense) node[dense_mask_offset() + pos / 8] |= static_cast<unsigned char>(1u << (pos % 8));
      } else {
        const index_type j = first_pair + static_cast<index_type>(k);
        next.a(j) = ia >= 0 ? reinterpret_cast<const offset_type*>(pa.payload)[ia] : offset_type(0);
        next.b(j) = ib >= 0 ? reinterpret_cast<const offset_type*>(pb.payload)[ib] : offset_type(0);
        next.slot(j) = at + payload_at + offset_type(slot) * 8;
      }
    });
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const Scratch scratch = team_scratch(team, log2_block);
    // The whole team returns or none: every thread reads the same word.
    if (!level_fits()) return;
    const offset_type size = bin.size();
    for (offset_type k = team.league_rank(); k < size; k += team.league_size()) {
      write(team, bin[k], scratch);
      team.team_barrier();  // the scratch is reused for the next pair
    }
  }

  KOKKOS_INLINE_FUNCTION void write(const member_type& team, const index_type i, const Scratch& scratch) const {
    if (merged_by_search(A, pairs.a(i), B, pairs.b(i)) && !is_dense(static_cast<NodeType>(type(i)))) {
      write_merged(team, i, reinterpret_cast<std::uint16_t*>(scratch.all.data()));
      return;
    }
    mark(team, i, scratch.in_a, scratch.in_b);
    write_marked(team, i, scratch.in_a, scratch.in_b, scratch.before);
  }

  // Writes pair i merged by search (merged_by_search; C's node sparse): the rank of A's entry k
  // in C is k, plus B's entries before it, less the entries of both before it; the rank of B's
  // entry k at a position A lacks is k, plus A's j entries before it, less the entries of both
  // among those j. One team scan over A's entries counts the entries of both before each. Both
  // nodes' keys and those counts are in team scratch (merge_scratch_words).
  KOKKOS_INLINE_FUNCTION void write_merged(const member_type& team, const index_type i,
                                           std::uint16_t* const scratch) const {
    const StagedPair p = team_stage_pair(team, A, pairs.a(i), B, pairs.b(i), log2_block, scratch);
    const SortedEntries &la = p.a, &lb = p.b;
    std::uint16_t* const both_before = p.after;
    Kokkos::parallel_scan(Kokkos::TeamThreadRange(team, la.size + 1),
                          [&](const std::uint32_t k, std::uint32_t& partial, const bool final) {
                            if (final) both_before[k] = static_cast<std::uint16_t>(partial);
                            if (k < la.size && lb.holds_at(lb.lower_bound(la.key(k)), la.key(k))) ++partial;
                          });
    team.team_barrier();
    const NodeType t = static_cast<NodeType>(type(i));
    const offset_type at = offset(i), n = count(i);
    unsigned char* const node = reinterpret_cast<unsigned char*>(pool.data()) + at;
    const offset_type payload_at = payload_offset(t, n, log2_block, sizeof(Value));
    const index_type first_pair = leaf ? 0 : first_child(first, bin.level, i);
    Kokkos::single(Kokkos::PerTeam(team), [&]() { write_node_header(pool, root, at, t, n, pairs.slot(i)); });
    // One entry of C at rank from term entry k of `from` (A's or B's), and B's entry jb where both
    // hold it (-1 where not).
    const auto emit = [&](const std::uint32_t rank, const SortedEntries& from, const std::uint32_t k, const bool from_a,
                          const int jb) {
      write_coordinates(node, rank, (from.row(k) << log2_block) | from.col(k), log2_block);
      if (leaf) {
        // The order of the other paths: alpha a, then + beta b.
        const Value v = (from_a ? A : B).term_value(reinterpret_cast<const Value*>(from.payload)[k]);
        reinterpret_cast<Value*>(node + payload_at)[rank] =
            jb >= 0 ? v + B.term_value(reinterpret_cast<const Value*>(lb.payload)[jb]) : v;
      } else {
        const index_type j = first_pair + static_cast<index_type>(rank);
        const offset_type child = reinterpret_cast<const offset_type*>(from.payload)[k];
        next.a(j) = from_a ? child : offset_type(0);
        next.b(j) = from_a ? (jb >= 0 ? reinterpret_cast<const offset_type*>(lb.payload)[jb] : offset_type(0)) : child;
        next.slot(j) = at + payload_at + offset_type(rank) * 8;
      }
    };
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, la.size), [&](const std::uint32_t k) {
      const std::uint32_t key = la.key(k), j = lb.lower_bound(key);
      emit(k + j - both_before[k], la, k, true, lb.holds_at(j, key) ? static_cast<int>(j) : -1);
    });
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, lb.size), [&](const std::uint32_t k) {
      const std::uint32_t key = lb.key(k), j = la.lower_bound(key);
      if (!la.holds_at(j, key)) emit(k + j - both_before[j], lb, k, false, -1);
    });
  }

  // Pair i's positions in A's node in in_a, in B's in in_b (both cleared first).
  KOKKOS_INLINE_FUNCTION void mark(const member_type& team, const index_type i, const scratch_words& in_a,
                                   const scratch_words& in_b) const {
    const int words = position_words(log2_block);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, words), [&](const int w) {
      in_a(w) = 0;
      in_b(w) = 0;
    });
    team.team_barrier();
    team_mark_positions(team, A, pairs.a(i), log2_block, in_a.data());
    team_mark_positions(team, B, pairs.b(i), log2_block, in_b.data());
    team.team_barrier();
  }

  // Writes pair i from its marked positions (mark) and its plan.
  KOKKOS_INLINE_FUNCTION void write_marked(const member_type& team, const index_type i, const scratch_words& in_a,
                                           const scratch_words& in_b, const scratch_words& before) const {
    const int words = position_words(log2_block);
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
    Kokkos::single(Kokkos::PerTeam(team), [&]() { write_node_header(pool, root, at, t, n, pairs.slot(i)); });
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
      if (!dense) write_coordinates(node, k, pos, log2_block);
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
        if (marked(in_a.data(), pos)) {
          values[dense ? pos : rank(pos)] += v;
        } else {
          values[place(pos)] = v;
        }
      });
    } else {
      const index_type first_pair = first_child(first, bin.level, i);
      team_for_each_position(team, A, pairs.a(i), log2_block, [&](const std::uint32_t pos, const unsigned char* p) {
        const std::uint32_t k = place(pos);
        const index_type j = first_pair + static_cast<index_type>(rank(pos));
        next.a(j) = *reinterpret_cast<const offset_type*>(p);
        if (!marked(in_b.data(), pos)) next.b(j) = 0;
        next.slot(j) = at + static_cast<offset_type>(payload - node) + offset_type(k) * 8;
      });
      team.team_barrier();
      team_for_each_position(team, B, pairs.b(i), log2_block, [&](const std::uint32_t pos, const unsigned char* p) {
        const index_type j = first_pair + static_cast<index_type>(rank(pos));
        next.b(j) = *reinterpret_cast<const offset_type*>(p);
        if (!marked(in_a.data(), pos)) {
          next.a(j) = 0;
          const std::uint32_t k = place(pos);
          next.slot(j) = at + static_cast<offset_type>(payload - node) + offset_type(k) * 8;
        }
      });
    }
  }
};

// The first level, the roots' pair, in one launch of one team (a block on devices), where the
// levels' path took seven launches for it: writes C's pool header (a launch of its own cost
// every addition 5-8 us on an H200), clears the control words (C's root cell, every level's
// totals), plans the pair, places C's root node at `base` (the caller made room for the largest
// node a root can be), and writes it, its reference into the root cell and the next level's
// pairs (into lists with room for every child a root can have).
template <class Value, class Device>
struct AddFirstLevel {
  using member_type = typename AddTeam<Device>::member_type;
  using scratch_words = typename AddTeam<Device>::scratch_words;
  PlanAddNodes<Value, Device> plan;    // its lists: the first pair; its plan: one pair's
  WriteAddNodes<Value, Device> write;  // the same pair, plan and level
  Kokkos::View<offset_type*, Device> control;
  Kokkos::View<offset_type*, Device> offset, first;  // the pair's pool offset and first child
  offset_type root_a, root_b, base;

  static std::size_t scratch_bytes(int log2_block) { return WriteAddNodes<Value, Device>::scratch_bytes(log2_block); }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int words = position_words(plan.log2_block);
    const auto scratch = WriteAddNodes<Value, Device>::team_scratch(team, plan.log2_block);
    const auto &in_a = scratch.in_a, &in_b = scratch.in_b;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, control.extent(0)),
                         [&](const offset_type k) { control(k) = 0; });
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      write.pool(0) = plan.A.tree.pool(0);  // C's pool header is A's: its block size, its value type
      write.pairs.a(0) = root_a;
      write.pairs.b(0) = root_b;
      write.pairs.slot(0) = add_root_slot;
    });
    team.team_barrier();
    // The union's size by search (merged_by_search), or from the two maps, marked once for the
    // plan and the write.
    const bool merged = merged_by_search(plan.A, root_a, plan.B, root_b);
    offset_type n = 0;
    if (merged) {
      const StagedPair p = team_stage_pair(team, plan.A, root_a, plan.B, root_b, plan.log2_block,
                                           reinterpret_cast<std::uint16_t*>(scratch.all.data()));
      n = team_union_size(team, p.a, p.b);
      team.team_barrier();  // write() stages the keys again
    } else {
      write.mark(team, 0, in_a, in_b);
      Kokkos::parallel_reduce(
          Kokkos::TeamThreadRange(team, words),
          [&](const int w, offset_type& s) { s += popcount32(in_a(w) | in_b(w)); }, n);
    }
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      plan_node<Value>(plan.count, plan.type, plan.bytes, 0, n, plan.log2_block, plan.leaf);
      offset(0) = base;
      first(0) = plan.bytes(0);  // PlaceAddLevel's convention: first_child() takes the level's bytes off
      write.bin.level(level_bytes) = plan.bytes(0);
      write.bin.level(level_children) = plan.bytes(0) + plan.count(0);
      write.bin.level(level_end) = base + plan.bytes(0);
    });
    team.team_barrier();
    if (merged) {
      write.write(team, 0, scratch);  // by search, or by the maps where C's root is dense
    } else {
      write.write_marked(team, 0, in_a, in_b, scratch.before);
    }
  }
};

}  // namespace strata::hisparse::Impl
