#pragma once
// The scratch of strata::add on HiSparse, reused level after level and, held
// by an AddHandle, addition after addition: C's root cell and every level's
// totals (the control words, read by the host once per level, with their host
// copy), each level's plan (six words per node pair) and the pair lists of the
// level and of the next (three words per pair each, a list every `capacity`
// words, so that a launch can fill a level whose size the host does not know
// yet). On a GPU every allocation costs tens of microseconds and every release
// synchronises the device; an addition of a small matrix was mostly made of
// them (docs/PERFORMANCE.md): one allocation holds everything, and a handle
// keeps it. Nothing here is cleared: the first level's launch clears the
// control words (AddFirstLevel) and the writing launches fill every word of
// the lists.
// The workspace grows, to at least twice its capacity, only when a level has
// more pairs than it holds; the new allocation takes the plan and the lists, the
// control words stay; the lists still in use keep the old allocation alive
// (Kokkos subviews count references) until the caller drops them.
#include <strata/algorithms/add/hisparse_dual_traversal.hpp>
#include <strata/core/kokkos_compat.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <utility>

namespace strata::hisparse::Impl {

// The workspace's pairs per level for terms of nnz_a and nnz_b entries in pools of pool_bytes
// together: no level has more than nnz_a + nnz_b pairs (a pair has an entry of a term below
// it, and the pairs of one level have disjoint entries), but for large terms the workspace is
// held to about their pools' size (twelve words per pair) and grows on the level that needs
// more, usually the leaves.
inline offset_type add_workspace_capacity(index_type nnz_a, index_type nnz_b, offset_type pool_bytes) {
  const offset_type entries = static_cast<offset_type>(nnz_a) + static_cast<offset_type>(nnz_b);
  const offset_type by_bytes = std::max<offset_type>(pool_bytes / (12 * sizeof(offset_type)), 1024);
  return std::max<offset_type>(1, std::min(entries, by_bytes));
}

template <class Device>
class AddWorkspace {
 public:
  using words_type = Kokkos::View<offset_type*, Device>;
  using host_words_type = Kokkos::View<offset_type*, compat::pinned_host_space>;
  static constexpr offset_type plan_words_per_pair = 6;
  static constexpr offset_type list_words_per_pair = 3;
  // The control words: C's root cell, then level_total_slots per level.
  static constexpr offset_type root_word = 0;
  static offset_type control_words(int levels) { return 1 + level_total_slots * offset_type(levels); }
  static offset_type level_total(int level, LevelTotal t) { return 1 + level_total_slots * offset_type(level) + t; }

  AddWorkspace() = default;
  // Room for levels of up to `capacity` pairs (at least one) of an addition of `levels` levels.
  AddWorkspace(offset_type capacity, int levels) { prepare(capacity, levels); }

  // Room for the next addition, of `levels` levels and levels of up to `capacity` pairs: the
  // allocation is kept where it has that room, else replaced by one with the room of both.
  void prepare(offset_type capacity, int levels) {
    const offset_type head = control_words(levels);
    if (capacity <= capacity_ && head <= control_.extent(0)) return;
    const offset_type head_room = std::max<offset_type>(head, control_.extent(0));
    capacity_ = std::max<offset_type>({capacity, capacity_, 1});
    const words_type all = allocate(head_room);
    control_ = Kokkos::subview(all, std::make_pair(offset_type(0), head_room));
    control_on_host_ = Kokkos::create_mirror_view(compat::pinned_host_space(), control_);
    words_ = Kokkos::subview(all, std::make_pair(head_room, all.extent(0)));
  }

  offset_type capacity() const { return capacity_; }
  // The control words, at least control_words(levels) of them, and their copy on the host (the
  // same view where the device is the host), page-locked where the backend has it: the read is
  // then one copy on the addition's stream and one wait for it, where a copy into pageable
  // memory waited for the device and synchronised the stream twice.
  const words_type& control() const { return control_; }
  const host_words_type& control_on_host() const { return control_on_host_; }
  // Level l's totals (LevelTotal), and C's root cell: one word each in control().
  words_type level_totals(int level) const {
    const offset_type at = level_total(level, LevelTotal(0));
    return Kokkos::subview(control_, std::make_pair(at, at + level_total_slots));
  }
  words_type root_cell() const { return Kokkos::subview(control_, std::make_pair(root_word, root_word + 1)); }

  // The plan of a level of n pairs (n <= capacity(): the level's lists are here).
  words_type plan(offset_type n) const {
    return Kokkos::subview(words_, std::make_pair(offset_type(0), plan_words_per_pair * n));
  }

  // The first level: one pair, in the lists of the first region (the first level's launch writes it).
  AddPairs<Device> first_level() {
    current_ = 0;
    return lists(0, 1);
  }

  // The lists next_level(n) returns for any n <= capacity(), at their full capacity: where a
  // launch writes a level whose size the host reads afterwards.
  AddPairs<Device> next_room() const { return lists(1 - current_, capacity_); }

  // The lists of the next level's n pairs, not cleared: the writing launches fill every word
  // (0 for a term without a node at a position). They take the region the current level's
  // lists do not use, or a new allocation when n exceeds the capacity.
  AddPairs<Device> next_level(offset_type n) {
    if (n > capacity_) {
      capacity_ = std::max(n, 2 * capacity_);
      words_ = allocate(0);
      current_ = 0;
    } else {
      current_ = 1 - current_;
    }
    return lists(current_, n);
  }

 private:
  // `head` words, then the plan and both regions of lists for capacity_ pairs; not cleared.
  words_type allocate(offset_type head) const {
    return words_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::add::workspace"),
                      head + (plan_words_per_pair + 2 * list_words_per_pair) * capacity_);
  }

  offset_type lists_at(int region) const {
    return (plan_words_per_pair + list_words_per_pair * offset_type(region)) * capacity_;
  }

  AddPairs<Device> lists(int region, offset_type n) const {
    const offset_type at = lists_at(region), c = capacity_;
    AddPairs<Device> p;
    p.a = Kokkos::subview(words_, std::make_pair(at, at + n));
    p.b = Kokkos::subview(words_, std::make_pair(at + c, at + c + n));
    p.slot = Kokkos::subview(words_, std::make_pair(at + 2 * c, at + 2 * c + n));
    p.size = static_cast<index_type>(n);
    return p;
  }

  words_type control_;
  host_words_type control_on_host_;
  words_type words_;
  offset_type capacity_ = 0;
  int current_ = 0;
};

}  // namespace strata::hisparse::Impl
