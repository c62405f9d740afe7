#pragma once
// HiSparse SpMV over the matrix's leaves, sorted once per handle into three bins by their work (entry
// count; d*d slots for a dense leaf) and multiplied by the threads that suit each bin: a thread per
// leaf of at most 8, a warp per leaf of at most 256, a block per leaf above. This is the scheduler's
// routing by entry count (hisparse_queues in hisparse_scheduled.hpp) done once, when the handle is
// analysed, instead of by a walk in every product; a product is then one launch for all bins, or a
// launch per bin for large ones (HiSparseLeafBinLaunchLimits), and in a large transposed product one more
// for the leaves read in column order. Before the bins, every leaf took a team of its
// own, so a tree of one-entry leaves (R-MAT at d = 128) spent a block per entry.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/algorithms/spmv/hisparse_entry.hpp>
#include <strata/algorithms/spmv/hisparse_leaf.hpp>
#include <strata/core/error.hpp>
#include <strata/core/key_bits.hpp>
#include <strata/core/light_weight_launch.hpp>
#include <strata/core/sort_keys.hpp>
#include <strata/formats/hisparse/hisparse_leaves.hpp>
#include <strata/scheduler/item_threads.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <string>

namespace strata::Impl {

// The most work a leaf of the thread bin and of the warp bin holds; the block bin takes the rest.
constexpr int hisparse_leaf_bin_count = 3;
constexpr std::uint32_t hisparse_thread_bin_most_work = 8, hisparse_warp_bin_most_work = 256;
// A column-order sort key: the leaf's slot in its bin above 8 bits of local column and 16 of entry index.
constexpr int column_order_slot_shift = 24;

// A thread-bin leaf in 16 bytes, one vector load: its node in units of the node alignment, its block
// origin (stored orientation) in units of d, and its node type and entry count. R-MAT 20's thread bin
// holds 12.9M leaves of about 1.25 entries; the 28 bytes of refs, origins and counts it kept per leaf
// before, in four loads, were as much as the leaf's 32-byte node.
struct alignas(16) HiSparseSmallLeaf {
  std::uint32_t node;
  std::uint32_t block_row, block_col;
  std::uint32_t type_and_count;  // the NodeType in the low 4 bits (hisparse::type_mask), the entry count above
};

// Whether a leaf's node and origin fit a HiSparseSmallLeaf: pools under 64 GiB and at most 2^32 blocks a
// side. A leaf that does not goes to the warp bin, which keeps whole refs and origins, so that any matrix
// the format holds has its product (a slower one for those leaves).
KOKKOS_INLINE_FUNCTION bool hisparse_small_leaf_fits(hisparse::offset_type ref, index_type row0, index_type col0,
                                                     int log2_block) {
  constexpr std::uint64_t most = 0xffffffffu;  // not numeric_limits: a host function (nvcc warning #20013)
  return hisparse::offset_of(ref) / hisparse::node_alignment <= most &&
         static_cast<std::uint64_t>(row0 >> log2_block) <= most &&
         static_cast<std::uint64_t>(col0 >> log2_block) <= most;
}

KOKKOS_INLINE_FUNCTION HiSparseSmallLeaf hisparse_small_leaf(hisparse::offset_type ref, index_type row0,
                                                             index_type col0, std::uint32_t count, int log2_block) {
  return {static_cast<std::uint32_t>(hisparse::offset_of(ref) / hisparse::node_alignment),
          static_cast<std::uint32_t>(row0 >> log2_block), static_cast<std::uint32_t>(col0 >> log2_block),
          static_cast<std::uint32_t>(hisparse::type_of(ref)) | count << 4};
}

KOKKOS_INLINE_FUNCTION hisparse::offset_type hisparse_ref_of(const HiSparseSmallLeaf& leaf) {
  return hisparse::make_ref(hisparse::offset_type(leaf.node) * hisparse::node_alignment,
                            static_cast<hisparse::NodeType>(leaf.type_and_count & hisparse::type_mask));
}

template <class Device>
struct HiSparseThreadBin {
  Kokkos::View<HiSparseSmallLeaf*, Device> leaves;
  index_type size = 0;
};

// The leaves of the warp bin or the block bin with their block origins (stored orientation) and entry
// counts: with the count at hand, a leaf's values load beside its coordinates instead of after its
// header. long_runs says which of a leaf's targets come in long runs (hisparse_leaf_long_runs). Where
// the warps read them (HiSparseLeafInWarps<ExecSpace>::reads_column_order), the leaves marked
// hisparse_columns_repeat have their entries' indices sorted by column (then row) in column_order,
// from column_order_start (-1 for the other leaves; both views empty elsewhere), and come last in the
// bin, from column_ordered_first on (hisparse_move_marked_leaves_last), so that a transposed product can
// give them a launch of their own.
template <class Device>
struct HiSparseLeafBin {
  Kokkos::View<hisparse::offset_type*, Device> refs;
  Kokkos::View<index_type*, Device> row0, col0;
  Kokkos::View<std::uint32_t*, Device> count;
  Kokkos::View<std::uint8_t*, Device> long_runs;
  Kokkos::View<index_type*, Device> column_order_start;
  Kokkos::View<std::uint16_t*, Device> column_order;  // a leaf holds at most d * d <= 65536 entries
  index_type size = 0;
  index_type column_ordered_first = 0;  // size where no leaf is read in column order
};

// A plain array, not std::array: the product's kernel indexes it on the device, where std::array's
// operator[] is a host function (nvcc warning #20013).
template <class Device>
struct HiSparseLeafBins {
  HiSparseThreadBin<Device> thread_bin;
  HiSparseLeafBin<Device> warp_bins[2];  // the warp bin, the block bin
  index_type leaves = 0;

  index_type size(int bin) const { return bin == 0 ? thread_bin.size : warp_bins[bin - 1].size; }
};

// What decides a leaf's bin: its entries, or every slot of a dense leaf (its threads read the whole mask).
template <class Value, class Device>
KOKKOS_INLINE_FUNCTION std::uint32_t hisparse_leaf_work(const hisparse::HiSparseRef<Value, Device>& R,
                                                        hisparse::offset_type ref) {
  return hisparse::is_dense(hisparse::type_of(ref)) ? 1u << (2 * R.log2_block) : R.count(ref);
}

// 0: a thread per leaf, 1: a warp, 2: a block.
template <class Value, class Device>
KOKKOS_INLINE_FUNCTION int hisparse_leaf_bin_of(const hisparse::HiSparseRef<Value, Device>& R,
                                                hisparse::offset_type ref, index_type row0, index_type col0) {
  const std::uint32_t w = hisparse_leaf_work(R, ref);
  if (w <= hisparse_thread_bin_most_work && hisparse_small_leaf_fits(ref, row0, col0, R.log2_block)) return 0;
  return w <= hisparse_warp_bin_most_work ? 1 : 2;
}

template <class Value, class Device>
struct MarkLongRuns {
  hisparse::HiSparseRef<Value, Device> R;
  HiSparseLeafBin<Device> bin;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i) const {
    bin.long_runs(i) = hisparse_leaf_long_runs(R, bin.refs(i), bin.count(i));
  }
};

KOKKOS_INLINE_FUNCTION bool hisparse_reads_column_order(std::uint8_t long_runs) {
  return (long_runs & hisparse_columns_repeat) != 0;
}

template <class Device>
struct CountColumnOrderedLeaves {
  Kokkos::View<std::uint8_t*, Device> long_runs;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i, index_type& n) const {
    if (hisparse_reads_column_order(long_runs(i))) ++n;
  }
};

// A stable partition of a bin: the leaves read as stored keep their order at the front, the marked ones
// theirs behind them, from `first`. The scan counts the leaves read as stored before each leaf. Only the
// Views it reads and writes (core/light_weight_launch.hpp: a functor over 512 bytes goes through
// constant memory).
template <class Device>
struct MoveMarkedLeavesLast {
  template <class T>
  using view = Kokkos::View<T*, Device>;
  view<hisparse::offset_type> refs, to_refs;
  view<index_type> row0, col0, to_row0, to_col0;
  view<std::uint32_t> count, to_count;
  view<std::uint8_t> long_runs, to_long_runs;
  index_type first;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i, index_type& stored_before, const bool final) const {
    const bool marked = hisparse_reads_column_order(long_runs(i));
    if (final) {
      const index_type to = marked ? first + (i - stored_before) : stored_before;
      to_refs(to) = refs(i);
      to_row0(to) = row0(i);
      to_col0(to) = col0(i);
      to_count(to) = count(i);
      to_long_runs(to) = long_runs(i);
    }
    if (!marked) ++stored_before;
  }
};

// Where each leaf's column order starts: an exclusive scan over the marked leaves' counts.
template <class Device>
struct PlaceColumnOrders {
  HiSparseLeafBin<Device> bin;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i, index_type& at, const bool final) const {
    const bool marked = hisparse_reads_column_order(bin.long_runs(i));
    if (final) bin.column_order_start(i) = marked ? at : -1;
    if (marked) at += bin.count(i);
  }
};

// A marked leaf's entries as sort keys (its slot in the bin, local column, entry index), from where its
// column order starts: sorted, the keys give each leaf's entries by column, then by row (entries are
// stored row by row), in the order the scan above placed the leaves. A team per leaf, its threads over
// the entries: a block-bin leaf holds up to d * d of them.
template <class Value, class Device, class KeyView>
struct ColumnOrderKeys {
  using team_member = typename Kokkos::TeamPolicy<typename KeyView::execution_space>::member_type;

  hisparse::HiSparseRef<Value, Device> R;
  Kokkos::View<hisparse::offset_type*, Device> refs;
  Kokkos::View<std::uint32_t*, Device> count;
  Kokkos::View<index_type*, Device> column_order_start;
  KeyView keys;

  KOKKOS_INLINE_FUNCTION void operator()(const team_member& team) const {
    const index_type i = team.league_rank();
    const index_type start = column_order_start(i);
    if (start < 0) return;
    const unsigned char* coordinates = R.bytes() + hisparse::offset_of(refs(i)) + hisparse::node_header_bytes;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, count(i)), [&](const std::uint32_t k) {
      const std::uint64_t column = coordinates[2 * k + 1];
      keys(start + k) = std::uint64_t(i) << column_order_slot_shift | column << 16 | k;
    });
  }
};

template <class KeyView>
struct ColumnOrderOfKeys {
  KeyView keys;
  Kokkos::View<std::uint16_t*, typename KeyView::device_type> column_order;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type j) const {
    column_order(j) = static_cast<std::uint16_t>(keys(j) & 0xffffu);
  }
};

template <class Value, class Device>
struct CountLeavesOfBin {
  hisparse::HiSparseRef<Value, Device> R;
  hisparse::LeafList<Device> leaves;
  int bin;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i, index_type& n) const {
    if (hisparse_leaf_bin_of(R, leaves.refs(i), leaves.row0(i), leaves.col0(i)) == bin) ++n;
  }
};

// Bin 0 fills the thread bin's small leaves, the others their whole records. It holds only the Views it
// writes: with every View of a HiSparseLeafBin it passed Kokkos's 512 bytes and went through constant
// memory, a host wait per launch (core/light_weight_launch.hpp; scripts/check_kernel_launches.sh).
template <class Value, class Device>
struct CopyLeavesOfBin {
  hisparse::HiSparseRef<Value, Device> R;
  hisparse::LeafList<Device> leaves;
  int bin;
  Kokkos::View<HiSparseSmallLeaf*, Device> small_leaves;
  Kokkos::View<hisparse::offset_type*, Device> refs;
  Kokkos::View<index_type*, Device> row0, col0;
  Kokkos::View<std::uint32_t*, Device> count;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i, index_type& at, const bool final) const {
    const hisparse::offset_type ref = leaves.refs(i);
    if (hisparse_leaf_bin_of(R, ref, leaves.row0(i), leaves.col0(i)) != bin) return;
    if (final) {
      if (bin == 0) {
        small_leaves(at) = hisparse_small_leaf(ref, leaves.row0(i), leaves.col0(i), R.count(ref), R.log2_block);
      } else {
        refs(at) = ref;
        row0(at) = leaves.row0(i);
        col0(at) = leaves.col0(i);
        count(at) = R.count(ref);
      }
    }
    ++at;
  }
};

// The marked leaves of a bin behind the others (MoveMarkedLeavesLast), with their stored order kept; the
// leaves of one parent stay side by side among each kind.
template <class ExecSpace, class Device>
void hisparse_move_marked_leaves_last(const ExecSpace& space, HiSparseLeafBin<Device>& bin) {
  using policy = Kokkos::RangePolicy<ExecSpace>;
  index_type marked = 0;
  Kokkos::parallel_reduce("strata::hisparse::count_column_ordered_leaves", policy(space, 0, bin.size),
                          CountColumnOrderedLeaves<Device>{bin.long_runs}, marked);
  bin.column_ordered_first = bin.size - marked;
  if (marked == 0) return;
  HiSparseLeafBin<Device> out;
  const auto alloc = [](const std::string& label) { return Kokkos::view_alloc(Kokkos::WithoutInitializing, label); };
  out.refs = Kokkos::View<hisparse::offset_type*, Device>(alloc("strata::hisparse::bin_refs"), bin.size);
  out.row0 = Kokkos::View<index_type*, Device>(alloc("strata::hisparse::bin_row0"), bin.size);
  out.col0 = Kokkos::View<index_type*, Device>(alloc("strata::hisparse::bin_col0"), bin.size);
  out.count = Kokkos::View<std::uint32_t*, Device>(alloc("strata::hisparse::bin_count"), bin.size);
  out.long_runs = Kokkos::View<std::uint8_t*, Device>(alloc("strata::hisparse::bin_long_runs"), bin.size);
  out.size = bin.size;
  out.column_ordered_first = bin.column_ordered_first;
  Kokkos::parallel_scan(
      "strata::hisparse::move_marked_leaves_last", policy(space, 0, bin.size),
      MoveMarkedLeavesLast<Device>{bin.refs, out.refs, bin.row0, bin.col0, out.row0, out.col0, bin.count, out.count,
                                   bin.long_runs, out.long_runs, bin.column_ordered_first});
  bin = out;
}

// The column orders of a bin's marked leaves (PlaceColumnOrders, then one sort of every marked entry's
// key; the sort of such keys is compiled once in the library: core/sort_keys_eti.cpp).
template <class ExecSpace, class Value, class Device>
void hisparse_place_column_orders(const ExecSpace& space, const hisparse::HiSparseRef<Value, Device>& R,
                                  HiSparseLeafBin<Device>& bin) {
  using key_view = Kokkos::View<std::uint64_t*, Device>;
  bin.column_order_start = Kokkos::View<index_type*, Device>("strata::hisparse::bin_column_order_start", bin.size);
  index_type entries = 0;
  Kokkos::parallel_scan("strata::hisparse::place_column_orders", Kokkos::RangePolicy<ExecSpace>(space, 0, bin.size),
                        PlaceColumnOrders<Device>{bin}, entries);
  bin.column_order = Kokkos::View<std::uint16_t*, Device>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hisparse::bin_column_order"), entries);
  if (entries == 0) return;
  const key_view keys(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hisparse::column_order_keys"), entries);
  // A team per leaf of the bin; the product's launch refuses more teams than an int league too.
  STRATA_REQUIRE(bin.size <= std::numeric_limits<int>::max(),
                 "HiSparse SpMV analysis: " + std::to_string(bin.size) + " leaves in one bin exceed one launch");
  Kokkos::parallel_for("strata::hisparse::column_order_keys",
                       Kokkos::TeamPolicy<ExecSpace>(space, static_cast<int>(bin.size), Kokkos::AUTO),
                       ColumnOrderKeys<Value, Device, key_view>{R, bin.refs, bin.count, bin.column_order_start, keys});
  const int slot_bits = bits_for(static_cast<std::uint64_t>(bin.size - 1));
  STRATA_REQUIRE(column_order_slot_shift + slot_bits <= 64, "HiSparse SpMV analysis: " + std::to_string(bin.size) +
                                                                " leaves in one bin exceed the column-order keys");
  sort_keys(space, keys, column_order_slot_shift + slot_bits);
  Kokkos::parallel_for("strata::hisparse::column_order_of_keys", Kokkos::RangePolicy<ExecSpace>(space, 0, entries),
                       ColumnOrderOfKeys<key_view>{keys, bin.column_order});
}

// The leaf list (built level by level on the device), then one count and one copying scan per bin, in
// the list's order, so that the leaves of one parent stay side by side.
template <class ExecSpace, class Value, class Device>
HiSparseLeafBins<Device> hisparse_leaf_bins(const ExecSpace& space, const HiSparseMatrix<Value, Device>& A) {
  using policy = Kokkos::RangePolicy<ExecSpace>;
  const hisparse::LeafList<Device> leaves = hisparse::collect_leaves(A);
  HiSparseLeafBins<Device> out;
  out.leaves = leaves.size;
  const auto R = A.ref();
  for (int k = 0; k < hisparse_leaf_bin_count; ++k) {
    index_type size = 0;
    Kokkos::parallel_reduce("strata::hisparse::count_leaves_of_bin", policy(space, 0, leaves.size),
                            CountLeavesOfBin<Value, Device>{R, leaves, k}, size);
    HiSparseThreadBin<Device> thread_bin;
    HiSparseLeafBin<Device> warp_bin;
    if (k == 0) {
      thread_bin.leaves = Kokkos::View<HiSparseSmallLeaf*, Device>("strata::hisparse::bin_small_leaves", size);
      thread_bin.size = size;
    } else {
      warp_bin.refs = Kokkos::View<hisparse::offset_type*, Device>("strata::hisparse::bin_refs", size);
      warp_bin.row0 = Kokkos::View<index_type*, Device>("strata::hisparse::bin_row0", size);
      warp_bin.col0 = Kokkos::View<index_type*, Device>("strata::hisparse::bin_col0", size);
      warp_bin.count = Kokkos::View<std::uint32_t*, Device>("strata::hisparse::bin_count", size);
      warp_bin.long_runs = Kokkos::View<std::uint8_t*, Device>("strata::hisparse::bin_long_runs", size);
      warp_bin.size = size;
      warp_bin.column_ordered_first = size;
    }
    Kokkos::parallel_scan("strata::hisparse::copy_leaves_of_bin", policy(space, 0, leaves.size),
                          CopyLeavesOfBin<Value, Device>{R, leaves, k, thread_bin.leaves, warp_bin.refs, warp_bin.row0,
                                                         warp_bin.col0, warp_bin.count});
    if (k == 0) {
      out.thread_bin = thread_bin;
      continue;
    }
    Kokkos::parallel_for("strata::hisparse::mark_long_runs", policy(space, 0, size),
                         MarkLongRuns<Value, Device>{R, warp_bin});
    if constexpr (HiSparseLeafInWarps<ExecSpace>::reads_column_order) {
      hisparse_move_marked_leaves_last(space, warp_bin);
      hisparse_place_column_orders(space, R, warp_bin);
    }
    out.warp_bins[k - 1] = warp_bin;
  }
  space.fence();
  return out;
}

// A leaf's threads when one thread takes the whole leaf (the first bin): its loops run in turn.
struct OneThreadPerLeaf {
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each(std::uint32_t n, const F& f) const {
    for (std::uint32_t i = 0; i < n; ++i) f(i);
  }
};

// Which leaves of the warp and block bins a launch takes: all of them, those read as stored, or those
// read in column order (the last of each bin: HiSparseLeafBin::column_ordered_first).
enum class HiSparseLeafRange { all, stored_order, column_order };

// The teams of the one launch that multiplies every bin, in teams of a warp's vector lanes: the first
// bin's teams take a leaf per thread (each team thread and vector lane), the second bin's a leaf per
// team thread (its vector lanes share the leaf), the last bin's a leaf per team. One launch, so that
// a product of a small matrix pays for one kernel, not one per bin.
struct HiSparseLeafBinTeams {
  index_type leaves_per_team[2] = {0, 0};  // the first two bins
  index_type teams[hisparse_leaf_bin_count] = {0, 0, 0};
  index_type first[2] = {0, 0}, last[2] = {0, 0};  // the leaves [first, last) of the warp and block bins

  template <class Device>
  static HiSparseLeafBinTeams of(const HiSparseLeafBins<Device>& bins, const scheduler::TeamShape& shape,
                                 HiSparseLeafRange range = HiSparseLeafRange::all) {
    HiSparseLeafBinTeams t;
    // A leaf per vector lane of each item of the shape (a thread of 256 on devices, 64 leaves in turn
    // on hosts), then a leaf per item.
    t.leaves_per_team[0] = index_type(shape.items_per_team) * shape.vector_length;
    t.leaves_per_team[1] = shape.items_per_team;
    t.teams[0] = (bins.size(0) + t.leaves_per_team[0] - 1) / t.leaves_per_team[0];
    for (int k = 0; k < 2; ++k) {
      const HiSparseLeafBin<Device>& bin = bins.warp_bins[k];
      t.first[k] = range == HiSparseLeafRange::column_order ? bin.column_ordered_first : 0;
      t.last[k] = range == HiSparseLeafRange::stored_order ? bin.column_ordered_first : bin.size;
    }
    t.teams[1] = (t.last[0] - t.first[0] + t.leaves_per_team[1] - 1) / t.leaves_per_team[1];
    t.teams[2] = t.last[1] - t.first[1];
    return t;
  }
  index_type total() const { return teams[0] + teams[1] + teams[2]; }
};

// Which bins a launch multiplies: all of them, or the thread bin and the two warp bins apart.
enum class HiSparseLeafBinLaunch { all, thread_bin, warp_bins };

// ReadsColumnOrders: the kernel for a transposed product of bins that keep column orders (on CUDA),
// whose marked leaves take the column-order path of HiSparseLeafInWarps. That path's code, compiled into
// the kernel, raises the registers and spills of every leaf's path (Poisson 160^3 in N 6% slower with it,
// R-MAT 20 in T 11%; H200, 2026-12-02), so the other products run the kernel without it, and a large
// transposed product runs it in a launch of its own for the marked leaves only.
template <class ExecSpace, class Value, class Device, class XView, class YView, HiSparseLeafBinLaunch Launch,
          bool ReadsColumnOrders>
struct HiSparseLeafBinProduct {
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  HiSparseLeafBins<Device> bins;
  HiSparseLeafBinTeams teams;
  hisparse::HiSparseRef<Value, Device> R;
  HiSparseEntryProduct<ExecSpace, Value, XView, YView> entry;

  // The team's share of bin Bin, its rank counted from the bin's first team.
  template <int Bin>
  KOKKOS_INLINE_FUNCTION void bin_team(const member_type& team, index_type rank) const {
    if constexpr (Bin == 0) {
      const HiSparseThreadBin<Device>& bin = bins.thread_bin;
      const index_type first = rank * teams.leaves_per_team[0];
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, static_cast<int>(teams.leaves_per_team[0])), [&](const int k) {
        const index_type i = first + k;
        if (i < bin.size) {
          const HiSparseSmallLeaf leaf = bin.leaves(i);
          const int b = R.log2_block;
          hisparse_leaf_product(R, entry, hisparse_ref_of(leaf), index_type(leaf.block_row) << b,
                                index_type(leaf.block_col) << b, leaf.type_and_count >> 4, OneThreadPerLeaf{});
        }
      });
    } else {
      // A leaf per warp (team thread), or the whole team's warps on one leaf.
      const HiSparseLeafBin<Device>& bin = bins.warp_bins[Bin - 1];
      const index_type first = teams.first[Bin - 1] + (Bin == 1 ? rank * teams.leaves_per_team[1] : rank);
      const index_type last = teams.last[Bin - 1];
      const scheduler::ItemThreads<member_type> threads{team, Bin == 2};
      const auto leaf = [&](const int k) {
        const index_type i = first + k;
        if (i < last) {
          const std::uint16_t* column_order = nullptr;
          if constexpr (ReadsColumnOrders) {
            const index_type start = bin.column_order_start(i);
            if (start >= 0) column_order = bin.column_order.data() + start;
          }
          HiSparseLeafInWarps<ExecSpace>::product(R, entry, bin.refs(i), bin.row0(i), bin.col0(i), bin.count(i),
                                                  bin.long_runs(i), column_order, threads);
        }
      };
      if constexpr (Bin == 1) {
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, static_cast<int>(teams.leaves_per_team[1])), leaf);
      } else {
        leaf(0);
      }
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    index_type rank = team.league_rank();
    if constexpr (Launch != HiSparseLeafBinLaunch::warp_bins) {
      if (Launch == HiSparseLeafBinLaunch::thread_bin || rank < teams.teams[0]) return bin_team<0>(team, rank);
      rank -= teams.teams[0];
    }
    if constexpr (Launch != HiSparseLeafBinLaunch::thread_bin) {
      if (rank < teams.teams[1]) return bin_team<1>(team, rank);
      bin_team<2>(team, rank - teams.teams[1]);
    }
  }
};

// When the bins get launches of their own instead of one launch for all of them (a launch more cost small
// products 4-10 us; H200, 2026-11-29):
// - warp_bins_own_launch_teams: from this many teams in the warp bins on, those bins run at the registers
//   their code needs (32-35 on the H200, every team resident) instead of the 40 that the thread bin's
//   staged groups take in a launch for all bins (6 of 8 teams per SM): Poisson 160^3, all in the warp
//   bins, 1.1x faster;
// - thread_bin_own_launch_teams: in a transposed product whose warp bins read column orders, from this
//   many teams in the thread bin on, the thread bin runs without the column-order path, whose registers
//   spill in the kernel for all bins. R-MAT 20 (12.9M thread-bin leaves, 50K teams) took 342 us in T
//   with that path in one launch, 291 us with its thread bin apart, 297 us in main (no carry); R-MAT 18
//   (8.6K teams) 86 us in one launch but 92 us with its thread bin apart, 82-84 us in main (H200,
//   2026-12-02). TSOPF_RS_b39_c30 (one team) keeps its one launch.
struct HiSparseLeafBinLaunchLimits {
  index_type warp_bins_own_launch_teams = 16384;
  index_type thread_bin_own_launch_teams = 16384;
};

// The kernel with the column-order path where `reads_column_orders`, else without it; the former is
// compiled only where the warps read column orders.
template <HiSparseLeafBinLaunch Launch, class ExecSpace, class Value, class Device, class XView, class YView,
          class Policy>
void hisparse_leaf_bin_launch(const Policy& policy, const HiSparseLeafBins<Device>& bins,
                              const HiSparseLeafBinTeams& teams, const hisparse::HiSparseRef<Value, Device>& R,
                              const HiSparseEntryProduct<ExecSpace, Value, XView, YView>& entry,
                              bool reads_column_orders = false) {
  if constexpr (HiSparseLeafInWarps<ExecSpace>::reads_column_order && Launch != HiSparseLeafBinLaunch::thread_bin) {
    if (reads_column_orders) {
      light_weight_parallel_for(
          "strata::hisparse::spmv_leaf_bins_column_ordered", policy,
          HiSparseLeafBinProduct<ExecSpace, Value, Device, XView, YView, Launch, true>{bins, teams, R, entry});
      return;
    }
  }
  light_weight_parallel_for(
      "strata::hisparse::spmv_leaf_bins", policy,
      HiSparseLeafBinProduct<ExecSpace, Value, Device, XView, YView, Launch, false>{bins, teams, R, entry});
}

// y += alpha * op(A) x (y already scaled by beta). The limits are the defaults but in tests, which take
// the large products' launches on small matrices.
template <class ExecSpace, class Value, class Device, class XView, class YView>
void hisparse_leaf_bin_products(const ExecSpace& space, const hisparse::HiSparseRef<Value, Device>& R,
                                const HiSparseLeafBins<Device>& bins, bool transpose, bool conjugate, Value alpha,
                                const XView& x, const YView& y,
                                const HiSparseLeafBinLaunchLimits& limits = HiSparseLeafBinLaunchLimits()) {
  // The second bin's shape: a warp of vector lanes per team thread on devices, one thread on hosts.
  const scheduler::TeamShape shape = scheduler::team_shape<ExecSpace>(32);
  const HiSparseLeafBinTeams teams = HiSparseLeafBinTeams::of(bins, shape);
  if (teams.total() == 0) return;
  if (teams.total() > std::numeric_limits<int>::max()) {
    throw Error("strata::spmv (HiSparse leaf_bins): " + std::to_string(bins.leaves) + " leaves need " +
                std::to_string(teams.total()) + " teams, more than one launch takes");
  }
  const HiSparseEntryProduct<ExecSpace, Value, XView, YView> entry{alpha, conjugate, transpose, x, y};
  // Column orders are read in transposed products only, of the bins' last leaves.
  const bool column_ordered = transpose && (bins.warp_bins[0].column_ordered_first < bins.warp_bins[0].size ||
                                            bins.warp_bins[1].column_ordered_first < bins.warp_bins[1].size);
  const index_type warp_teams = teams.teams[1] + teams.teams[2];
  const bool warp_bins_apart = warp_teams >= limits.warp_bins_own_launch_teams;
  if (!warp_bins_apart && !(column_ordered && teams.teams[0] >= limits.thread_bin_own_launch_teams)) {
    // The launch bounds hold the kernel for all bins at 40 registers (6 teams of 256 per SM) instead of 46.
    hisparse_leaf_bin_launch<HiSparseLeafBinLaunch::all>(
        Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<256, 6>>(space, static_cast<int>(teams.total()),
                                                                    shape.team_size, shape.vector_length),
        bins, teams, R, entry, column_ordered);
    return;
  }
  if (teams.teams[0] > 0) {
    hisparse_leaf_bin_launch<HiSparseLeafBinLaunch::thread_bin>(
        Kokkos::TeamPolicy<ExecSpace>(space, static_cast<int>(teams.teams[0]), shape.team_size, shape.vector_length),
        bins, teams, R, entry);
  }
  if (warp_teams == 0) return;
  // Launch bounds for every team resident: without them the scan's shuffles take the kernel to 44 registers.
  using warp_bins_policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::LaunchBounds<256, 8>>;
  if (!column_ordered || !warp_bins_apart) {
    // Few warp-bin teams: their leaves, marked or not, in one launch.
    hisparse_leaf_bin_launch<HiSparseLeafBinLaunch::warp_bins>(
        warp_bins_policy(space, static_cast<int>(warp_teams), shape.team_size, shape.vector_length), bins, teams, R,
        entry, column_ordered);
    return;
  }
  // The leaves read as stored, then the marked ones, in a launch of their own without launch bounds: the
  // column-order path spills at 32 registers (ptxas on sm_90: 24 bytes stored, 20 loaded).
  const HiSparseLeafBinTeams stored = HiSparseLeafBinTeams::of(bins, shape, HiSparseLeafRange::stored_order);
  const HiSparseLeafBinTeams ordered = HiSparseLeafBinTeams::of(bins, shape, HiSparseLeafRange::column_order);
  const index_type stored_teams = stored.teams[1] + stored.teams[2];
  const index_type ordered_teams = ordered.teams[1] + ordered.teams[2];
  if (stored_teams > 0) {
    hisparse_leaf_bin_launch<HiSparseLeafBinLaunch::warp_bins>(
        warp_bins_policy(space, static_cast<int>(stored_teams), shape.team_size, shape.vector_length), bins, stored, R,
        entry);
  }
  hisparse_leaf_bin_launch<HiSparseLeafBinLaunch::warp_bins>(
      Kokkos::TeamPolicy<ExecSpace>(space, static_cast<int>(ordered_teams), shape.team_size, shape.vector_length), bins,
      ordered, R, entry, true);
}

}  // namespace strata::Impl
