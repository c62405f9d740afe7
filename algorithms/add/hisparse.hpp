#pragma once
// strata::add on HiSparseMatrix: the dual traversal of both trees
// (hisparse_dual_traversal.hpp), one level at a time on the given execution
// space instance. The roots' pair takes one launch (AddFirstLevel: C's pool
// header, plan, place and write). Every other level: a planning launch for the
// short pairs (one thread each), which appends the others to their bins' lists, a planning launch
// per bin (teams of a warp or a block, looping over the bin's list), or, on a
// level of few pairs, one planning launch of block-sized teams for all pairs;
// one scan that places the level's nodes and numbers their children; one read
// of the level's totals on the host (to size the next level, to check the
// pool's room, and to size the writing launches: a bin without pairs is not
// launched); and the writing launches, per bin or one — a small leaf level's
// before that read, writing only where the pool has room. Where the root can
// have at most unread_level_pairs children, the host does not read the root
// either: the second level is planned and placed by one launch (the last team
// places it), written by the next, and the host reads both levels at once
// (add_second_level_unread); a two-level addition then waits for the device
// once, at its end. C's pool is allocated once per addition; the levels'
// scratch (hisparse_add_workspace.hpp) is the handle's, kept from one addition
// to the next. Transposing or conjugating a term costs nothing extra: the
// traversal reads the term's nodes with swapped local coordinates and
// conjugated values. The block size of C is A's; a B of another block size is
// first re-blocked by the conversion (its entries to COO, then a tree of A's
// block size), which is the one case that sorts.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/algorithms/add/add_format.hpp>
#include <strata/algorithms/add/hisparse_add_workspace.hpp>
#include <strata/algorithms/add/hisparse_dual_traversal.hpp>
#include <strata/algorithms/spmv/mode.hpp>
#include <strata/core/explicit_instances.hpp>
#include <strata/core/light_weight_launch.hpp>
#include <strata/core/runs_on_host.hpp>
#include <strata/formats/hisparse/hisparse_convert.hpp>

#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace strata::Impl {

// The bins of pairs that take a team: threads per team on devices, and at most how many teams
// a launch starts (each loops over its bin's list; the host does not read the bins' sizes). On
// the H200 a cap of the teams the device holds at once (its concurrency over the team's threads:
// 8448 warps, 1056 blocks) left Poisson 100^3 0.90x as fast in NN (docs/PERFORMANCE.md,
// 2026-11-29; not profiled: a team's share of the pairs is fixed by its rank, so fewer teams
// balance uneven pairs worse).
struct AddTeamBin {
  bool block;
  int threads;
  int max_teams;
};
inline constexpr AddTeamBin add_team_bins[2] = {{false, 32, 1 << 16}, {true, 256, 1 << 12}};

// The second level goes out before the host reads the root (add_second_level_unread) where the
// root can have at most this many children: d*d for trees of d = 128, the default, so every
// addition of such trees. On the H200 a bound of small_level_pairs (1024) left the two-level
// matrices of the suite with 1225-11449 possible children 1.12-1.28x slower (docs/PERFORMANCE.md,
// 2026-11-28). An addition of three or more levels saves a host wait and the placing scan's
// launch: 1.00-1.08x on the suite's eleven three-level additions in NN (2026-11-29).
inline constexpr hisparse::offset_type unread_level_pairs = hisparse::offset_type(1) << 14;

// The second level, sent before the host read the root: where it ends in C's pool, its
// children (C's entries where it is the leaf level) and, on inner levels, the third level's pairs.
template <class Device>
struct UnreadLevel {
  hisparse::offset_type end = 0, children = 0;
  hisparse::Impl::AddPairs<Device> next;
};

// A level's plan in the workspace (AddWorkspace::plan(n)), six words per pair: per pair its
// union count, C's node type, bytes and pool offset, (inner levels) the index of its first child
// pair, and the lists of the pairs that take a team.
template <class Device>
struct LevelPlan {
  using offset_type = hisparse::offset_type;
  Kokkos::View<offset_type*, Device> count, type, bytes, offset, first, team_pairs;
  LevelPlan(const Kokkos::View<offset_type*, Device>& words, offset_type n)
      : count(part(words, n, 0)),
        type(part(words, n, 1)),
        bytes(part(words, n, 2)),
        offset(part(words, n, 3)),
        first(part(words, n, 4)),
        team_pairs(part(words, n, 5)) {}

 private:
  static Kokkos::View<offset_type*, Device> part(const Kokkos::View<offset_type*, Device>& words, offset_type n,
                                                 offset_type k) {
    return Kokkos::subview(words, std::make_pair(k * n, (k + 1) * n));
  }
};

template <class ExecSpace, class Value, class Device>
struct AddFormat<ExecSpace, HiSparseMatrix<Value, Device>> {
  static constexpr bool available = true;
  static constexpr const char* name = "HiSparse";
  using matrix_type = HiSparseMatrix<Value, Device>;
  using value_type = Value;
  // What an AddHandle keeps between additions: the levels' scratch.
  using State = hisparse::Impl::AddWorkspace<Device>;
  // The kernels' teams and scratch are those of the matrices' execution space.
  static_assert(std::is_same_v<ExecSpace, typename Device::execution_space>,
                "strata::add: a HiSparseMatrix adds on its own execution space (Device::execution_space)");

  static matrix_type apply(const ExecSpace& space, State& workspace, SpmvMode mode_a, const Value& alpha,
                           const matrix_type& A, SpmvMode mode_b, const Value& beta, const matrix_type& B);

 private:
  // The control words (C's root cell, every level's totals) on the host, read whole: the
  // addition's host waits.
  static void read_control_words(const ExecSpace& space, const State& workspace) {
    Kokkos::deep_copy(space, workspace.control_on_host(), workspace.control());
    space.fence();
  }

  static UnreadLevel<Device> add_second_level_unread(const ExecSpace& space, State& workspace,
                                                      hisparse::PoolStorage<Device>& storage,
                                                      const hisparse::Impl::AddTermRef<Value, Device>& ta,
                                                      const hisparse::Impl::AddTermRef<Value, Device>& tb, int b,
                                                      hisparse::offset_type root_start,
                                                      hisparse::offset_type root_children, bool leaf);

  static hisparse::Impl::AddTermRef<Value, Device> term(const matrix_type& m, const Value& factor, bool conjugated) {
    hisparse::Impl::AddTermRef<Value, Device> t;
    t.tree = m.ref();
    t.transposed = m.transposed();
    t.conjugated = conjugated;
    const Value s = m.scale_factor();
    t.factor = factor * (conjugated ? conjugate(s) : s);
    return t;
  }

  // Teams for a level of `pairs` pairs: one thread each on host backends (their loops are
  // sequential), the bin's threads on devices (a warp for most pairs: a map of d*d bits costs
  // a warp d*d/1024 words per thread to clear and scan; a block for the largest); the position
  // maps in team scratch.
  static Kokkos::TeamPolicy<ExecSpace> team_policy(const ExecSpace& space, index_type pairs, const AddTeamBin& bin,
                                                   std::size_t scratch) {
    constexpr bool on_host = runs_on_host<ExecSpace>;
    const index_type teams = pairs < bin.max_teams ? pairs : bin.max_teams;
    return Kokkos::TeamPolicy<ExecSpace>(space, static_cast<int>(teams), on_host ? 1 : bin.threads)
        .set_scratch_size(0, Kokkos::PerTeam(scratch));
  }
};

// Out of the class and not inline, so that the library's explicit instances
// (declared below) are the only place the addition's kernels are generated.
template <class ExecSpace, class Value, class Device>
auto AddFormat<ExecSpace, HiSparseMatrix<Value, Device>>::apply(const ExecSpace& space, State& workspace,
                                                                SpmvMode mode_a, const Value& alpha,
                                                                const matrix_type& A, SpmvMode mode_b,
                                                                const Value& beta, const matrix_type& B)
    -> matrix_type {
  using namespace hisparse;
  using namespace hisparse::Impl;
  const int b = A.log2_block();
  matrix_type a = A, other = B;
  if (is_transposed(mode_a)) a.transpose();
  if (is_transposed(mode_b)) other.transpose();
  if (other.log2_block() != b) {
    // Re-blocked with its transform applied: the new tree is other's logical matrix. The
    // conversion runs on the default instance: work queued on `space` may still be writing the
    // term's pool. (Every other launch of the addition runs on `space`, after that work.)
    space.fence();
    other = to_hisparse(to_device_coo(other), b);
  }
  const index_type rows = a.num_rows(), cols = a.num_cols();
  const int L = a.levels();
  STRATA_REQUIRE(other.levels() == L, "strata::add: the terms' trees have " + std::to_string(L) + " and " +
                                          std::to_string(other.levels()) + " levels");
  const AddTermRef<Value, Device> ta = term(a, alpha, is_conjugated(mode_a));
  const AddTermRef<Value, Device> tb = term(other, beta, is_conjugated(mode_b));

  auto storage = std::make_shared<PoolStorage<Device>>();
  offset_type used = pool_header_bytes;
  // C's pool, allocated once: C's nodes are the unions of the terms' nodes, so the terms' bytes
  // hold C but for the COOx padding of a union that exceeds its parts' (then it grows). Bytes
  // past `used` stay zero (padding and absent slots rely on it). The first level's launch
  // writes C's root node before the host reads its size, so the pool holds at least the largest
  // a root can be (a dense node, 128 KiB for d = 128: the chosen type is never larger). C keeps
  // the spare capacity, at most the terms' bytes in all or that root's room, where local edits
  // append: copying C to its exact size cost 5-15% of the addition on matrices of 0.1-4M entries
  // (docs/PERFORMANCE.md). A device buffer (core/device_buffer.hpp): on CUDA neither its
  // allocation and clearing nor the release of the previous C waits for the device.
  const offset_type root_room = dense_node_bytes(L == 1, b, sizeof(Value));
  storage->allocate(std::max(a.pool_bytes() + other.pool_bytes(), pool_header_bytes + root_room) / 8,
                    "strata::add::pool");
  offset_type root_ref = 0;
  index_type nnz = 0;
  // Whether the host's last read of the control words came after the addition's last launch:
  // then C is finished, and a fence would only synchronise the stream again.
  bool read_after_last_launch = false;
  if (a.root() == 0 && other.root() == 0) {
    // An empty C is its pool's header (otherwise the first level's launch writes the header).
    FromCoo<Value, Device>::write_header(space, storage->words, b);
  } else {
    // The first level's launch also writes the second level's pairs before the host reads how
    // many: the workspace holds as many as a root has children at most.
    // A root has a child per block of d^(L-1) rows and columns holding an entry: at most the
    // blocks the matrix spans (at most d in each direction) and at most the terms' entries.
    const offset_type entries = static_cast<offset_type>(a.nnz()) + static_cast<offset_type>(other.nnz());
    const auto blocks = [&](index_type n) { return static_cast<offset_type>(((n - 1) >> (b * (L - 1))) + 1); };
    const offset_type root_children = L == 1 ? 1 : std::min(blocks(rows) * blocks(cols), entries);
    workspace.prepare(
        std::max(add_workspace_capacity(a.nnz(), other.nnz(), a.pool_bytes() + other.pool_bytes()), root_children), L);
    // The control words (C's root cell, every level's totals) on the host: read whole, once per level.
    const auto control = workspace.control();
    const auto control_on_host = workspace.control_on_host();
    const AddTeamBin& block_bin = add_team_bins[1];
    const auto pool_bytes = [&]() { return static_cast<offset_type>(storage->words.extent(0)) * 8; };
    AddPairs<Device> pairs = workspace.first_level();
    for (int l = 0; l < L; ++l) {
      const bool leaf = l == L - 1;
      const index_type n = pairs.size;
      STRATA_REQUIRE(n <= std::numeric_limits<int>::max() / 2,
                     "strata::add: " + std::to_string(n) + " node pairs on level " + std::to_string(l) +
                         " exceed one launch (at most " + std::to_string(std::numeric_limits<int>::max() / 2) + ")");
      const auto level = workspace.level_totals(l);
      const auto total = [&](LevelTotal t) { return control_on_host(AddWorkspace<Device>::level_total(l, t)); };
      // The level's plan: per pair its union count, C's node type, bytes and pool offset, (inner
      // levels) the index of its first child pair, and the lists of the pairs that take a team.
      const LevelPlan<Device> plan(workspace.plan(n), n);
      const auto &count = plan.count, &type = plan.type, &bytes = plan.bytes, &offset = plan.offset;
      const auto& first = plan.first;
      // A level of few pairs takes one launch of block-sized teams for every pair, to plan and to
      // write (TeamPairList::all_pairs); a larger one a launch for its short pairs and one per bin.
      const bool small = static_cast<offset_type>(n) <= small_level_pairs;
      const TeamPairList<Device> pair_list{plan.team_pairs, level, false, small ? static_cast<offset_type>(n) : 0, {}};
      PlanAddNodes<Value, Device> plan_nodes{ta, tb, pairs.a, pairs.b, count, type, bytes, pair_list, b, leaf};
      // The writing functor, for the pool as it is and the next level's lists. It carries the
      // pool's size and writes nothing where the level ends past it, so a launch may go out
      // before the host has read the level's size.
      const auto writer = [&](const AddPairs<Device>& next) {
        return WriteAddNodes<Value, Device>{ta,        tb,     pairs, count,          first,
                                            type,      offset, next,  storage->words, workspace.root_cell(),
                                            pair_list, b,      leaf,  pool_bytes()};
      };
      if (l == 0) {
        // The roots' pair: planned, placed at `used` and written in one launch, with the control
        // words cleared first (there was room for the root node from the start).
        light_weight_parallel_for(
            "strata::add::first_level",
            team_policy(space, 1, block_bin, AddFirstLevel<Value, Device>::scratch_bytes(b)),
            AddFirstLevel<Value, Device>{plan_nodes, writer(leaf ? AddPairs<Device>{} : workspace.next_room()), control,
                                         offset, first, a.root(), other.root(), used});
        // The second level of a root that can have at most unread_level_pairs children goes out
        // before the host reads the root: one host wait for both levels (a two-level addition's
        // one wait is its last).
        const bool second_unread = !leaf && root_children <= unread_level_pairs;
        UnreadLevel<Device> second;
        if (second_unread) {
          second = add_second_level_unread(space, workspace, *storage, ta, tb, b, used, root_children, L == 2);
        } else {
          read_control_words(space, workspace);  // (add_second_level_unread read it, after the level)
        }
        const offset_type root_bytes = total(level_bytes), children = total(level_children) - root_bytes;
        // (A leaf root's "children" are its entries: C's nnz.)
        STRATA_REQUIRE(root_bytes <= root_room && (leaf || children <= root_children),
                       "strata::add: C's root node (" + std::to_string(root_bytes) + " bytes, " +
                           std::to_string(children) + " children) exceeds the room made for it (" +
                           std::to_string(root_room) + " bytes, " + std::to_string(root_children) + " children)");
        root_ref = control_on_host(AddWorkspace<Device>::root_word);
        read_after_last_launch = leaf || (second_unread && L == 2);
        if (second_unread) {
          used = second.end;
          if (L == 2) {
            nnz = static_cast<index_type>(second.children);
            break;
          }
          pairs = second.next;
          l = 1;  // the loop goes on with the third level
          continue;
        }
        used += root_bytes;
        if (leaf) nnz = static_cast<index_type>(children);
        pairs = leaf ? AddPairs<Device>{} : workspace.next_level(children);
        continue;
      }
      if (small) {
        light_weight_parallel_for("strata::add::plan_nodes",
                                  team_policy(space, n, block_bin, PlanAddNodes<Value, Device>::scratch_bytes(b)),
                                  plan_nodes);
      } else {
        light_weight_parallel_for("strata::add::plan_short_nodes", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
                                  plan_nodes);
        for (const AddTeamBin& bin : add_team_bins) {
          plan_nodes.bin.block_bin = bin.block;
          light_weight_parallel_for("strata::add::plan_nodes",
                                    team_policy(space, n, bin, PlanAddNodes<Value, Device>::scratch_bytes(b)),
                                    plan_nodes);
        }
      }
      Kokkos::parallel_scan("strata::add::place_level", Kokkos::RangePolicy<ExecSpace>(space, 0, 2 * n),
                            PlaceAddLevel<Device>{bytes, count, offset, first, used, level, n});
      const auto write_small_level = [&](const WriteAddNodes<Value, Device>& write_nodes) {
        light_weight_parallel_for("strata::add::write_nodes",
                                  team_policy(space, n, block_bin, WriteAddNodes<Value, Device>::scratch_bytes(b)),
                                  write_nodes);
      };
      // The leaves of a small level are written before the host reads the level, which saves every
      // two-level addition a host wait. Where the pool lacks room for them (the terms' bytes hold C
      // but for unions padded beyond their parts) that launch writes nothing and goes again below,
      // once the pool has grown.
      const bool written_before_read = leaf && small;
      const offset_type pool_bytes_before_read = pool_bytes();
      if (written_before_read) write_small_level(writer(AddPairs<Device>{}));
      // The one read of the level on the host: its bytes, its children and its bins' sizes.
      read_control_words(space, workspace);
      const offset_type level_byte_count = total(level_bytes);
      const offset_type children = total(level_children) - level_byte_count;
      // The level's nodes go after `used` (the scan put them there): room before any is written.
      storage->used_bytes = used;
      reserve_pool(*storage, level_byte_count);
      used += level_byte_count;
      WriteAddNodes<Value, Device> write_nodes = writer(leaf ? AddPairs<Device>{} : workspace.next_level(children));
      if (small) {
        if (!written_before_read || used > pool_bytes_before_read) write_small_level(write_nodes);
      } else {
        // The bins' sizes came with the level's totals: an empty bin is not launched, the others
        // start one team per pair (up to the bin's cap).
        const offset_type packed = total(packed_bin_counts);
        const auto bin_size = [&](bool block) { return static_cast<index_type>(packed_bin_size(packed, block)); };
        if (bin_size(false) + bin_size(true) < n) {
          light_weight_parallel_for("strata::add::write_short_nodes", Kokkos::RangePolicy<ExecSpace>(space, 0, n),
                                    write_nodes);
        }
        for (const AddTeamBin& bin : add_team_bins) {
          const index_type bin_pairs = bin_size(bin.block);
          if (bin_pairs == 0) continue;
          write_nodes.bin.block_bin = bin.block;
          light_weight_parallel_for("strata::add::write_nodes",
                                    team_policy(space, bin_pairs, bin, WriteAddNodes<Value, Device>::scratch_bytes(b)),
                                    write_nodes);
        }
      }
      if (leaf) nnz = static_cast<index_type>(children);
      pairs = write_nodes.next;
    }
  }
  // The last writing launches (C's nodes, and the header where C is empty) finish before C is returned.
  if (!read_after_last_launch) space.fence();
  storage->used_bytes = used;
  return matrix_type(storage, root_ref, rows, cols, b, nnz);
}

// The second level, where the root can have at most unread_level_pairs children, sent right
// after the first level's launch, before the host has read the root: one launch plans and places
// the level (PlanAndPlaceLevel: the teams count the pairs from the root's totals, the last team
// places them after the root), one writes it (on an inner level, the third level's pairs into
// lists of the workspace's capacity), and then the host reads the control words once. Where the
// level ends past the pool (the terms' bytes hold C but for unions padded beyond their parts), or
// its children exceed the lists' room, the writing launch wrote nothing: the pool or the
// workspace grows and it goes again.
template <class ExecSpace, class Value, class Device>
UnreadLevel<Device> AddFormat<ExecSpace, HiSparseMatrix<Value, Device>>::add_second_level_unread(
    const ExecSpace& space, State& workspace, hisparse::PoolStorage<Device>& storage,
    const hisparse::Impl::AddTermRef<Value, Device>& ta, const hisparse::Impl::AddTermRef<Value, Device>& tb, int b,
    hisparse::offset_type root_start, hisparse::offset_type root_children, bool leaf) {
  using namespace hisparse;
  using namespace hisparse::Impl;
  // The first level's launch wrote the level's pairs (at most root_children) where next_level puts them.
  const AddPairs<Device> pairs = workspace.next_level(root_children);
  const LevelPlan<Device> plan(workspace.plan(root_children), root_children);
  const TeamPairList<Device> list{plan.team_pairs, workspace.level_totals(1), false, 0, workspace.level_totals(0)};
  const AddTeamBin& block_bin = add_team_bins[1];
  // At most small_level_pairs teams, each looping over the pairs: the bound may be d*d where the
  // root has a few children, and teams past the level's pairs would only start and stop.
  const index_type teams = static_cast<index_type>(std::min(root_children, small_level_pairs));
  light_weight_parallel_for(
      "strata::add::plan_and_place_level",
      team_policy(space, teams, block_bin, PlanAndPlaceLevel<Value, Device>::scratch_bytes(b)),
      PlanAndPlaceLevel<Value, Device>{
          PlanAddNodes<Value, Device>{ta, tb, pairs.a, pairs.b, plan.count, plan.type, plan.bytes, list, b, leaf},
          plan.offset, plan.first, root_start});
  const auto write_level = [&](const AddPairs<Device>& next) {
    const offset_type pool_bytes = static_cast<offset_type>(storage.words.extent(0)) * 8;
    light_weight_parallel_for("strata::add::write_nodes",
                              team_policy(space, teams, block_bin, WriteAddNodes<Value, Device>::scratch_bytes(b)),
                              WriteAddNodes<Value, Device>{ta, tb, pairs, plan.count, plan.first, plan.type,
                                                           plan.offset, next, storage.words, workspace.root_cell(),
                                                           list, b, leaf, pool_bytes});
    return pool_bytes;
  };
  const offset_type lists_room = leaf ? 0 : workspace.capacity();
  const offset_type pool_bytes_sent = write_level(leaf ? AddPairs<Device>{} : workspace.next_room());
  read_control_words(space, workspace);
  const auto total = [&](LevelTotal t) { return workspace.control_on_host()(State::level_total(1, t)); };
  UnreadLevel<Device> level;
  const offset_type level_byte_count = total(level_bytes);
  level.end = total(level_end);
  level.children = total(level_children) - level_byte_count;
  // next_level takes the region next_room() gave the launch, or a larger allocation.
  if (!leaf) level.next = workspace.next_level(level.children);
  if (level.end > pool_bytes_sent || (!leaf && level.children > lists_room)) {
    storage.used_bytes = level.end - level_byte_count;  // the root's end: the level goes after it
    reserve_pool(storage, level_byte_count);
    write_level(level.next);
    if (leaf) space.fence();  // the caller does not wait after a leaf level
  }
  return level;
}

}  // namespace strata::Impl

// The addition on the default execution space, compiled once in the library
// (algorithms/add/eti/add_eti.cpp.in).
#define STRATA_ADD_HISPARSE_ETI(EXTERN, VALUE)                                \
  EXTERN template struct ::strata::Impl::AddFormat<::strata::Impl::eti::exec, \
                                                   ::strata::HiSparseMatrix<VALUE, ::strata::Impl::eti::device>>;
STRATA_FOR_EACH_VALUE(STRATA_ADD_HISPARSE_ETI, extern)
