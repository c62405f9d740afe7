#pragma once
// The scratch of one strata::add on HiSparse, allocated once per addition and
// reused level after level: each level's plan (six words per node pair) and the
// pair lists of the level and of the next (three words per pair each). On a GPU
// every allocation costs tens of microseconds and every release synchronises the
// device, and an addition of a small matrix was mostly made of them (the plan,
// the next pairs and the pool's growth on every level; docs/PERFORMANCE.md).
// The workspace grows, to at least twice its capacity, only when a level has
// more pairs than it holds; the lists still in use keep the old allocation alive
// (Kokkos subviews count references) until the caller drops them.
#include <strata/algorithms/add/hisparse_dual_traversal.hpp>

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
  static constexpr offset_type plan_words_per_pair = 6;
  static constexpr offset_type list_words_per_pair = 3;

  // Room for levels of up to `capacity` pairs (at least one).
  explicit AddWorkspace(offset_type capacity) { allocate(std::max<offset_type>(capacity, 1)); }

  offset_type capacity() const { return capacity_; }

  // The plan of a level of n pairs (n <= capacity(): the level's lists are here).
  words_type plan(offset_type n) const {
    return Kokkos::subview(words_, std::make_pair(offset_type(0), plan_words_per_pair * n));
  }

  // The first level: one pair, the two roots, C's reference going to the root slot (a
  // blocking copy: the three words are on the host's stack).
  AddPairs<Device> first_level(offset_type root_a, offset_type root_b) {
    current_ = 0;
    const offset_type host[list_words_per_pair] = {root_a, root_b, add_root_slot};
    Kokkos::deep_copy(Kokkos::subview(words_, std::make_pair(lists_at(0), lists_at(0) + list_words_per_pair)),
                      Kokkos::View<const offset_type*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                          host, list_words_per_pair));
    return lists(0, 1);
  }

  // The lists of the next level's n pairs, zeroed on `space` (a term without a node at a
  // position keeps 0; the writing launch fills the rest). They take the region the current
  // level's lists do not use, or a new allocation when n exceeds the capacity.
  template <class ExecSpace>
  AddPairs<Device> next_level(const ExecSpace& space, offset_type n) {
    if (n > capacity_) {
      allocate(std::max(n, 2 * capacity_));
      current_ = 0;
    } else {
      current_ = 1 - current_;
    }
    Kokkos::deep_copy(
        space, Kokkos::subview(words_, std::make_pair(lists_at(current_), lists_at(current_) + list_words_per_pair * n)),
        offset_type(0));
    return lists(current_, n);
  }

 private:
  void allocate(offset_type capacity) {
    capacity_ = capacity;
    words_ = words_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::add::workspace"),
                        (plan_words_per_pair + 2 * list_words_per_pair) * capacity);
  }

  offset_type lists_at(int region) const {
    return (plan_words_per_pair + list_words_per_pair * offset_type(region)) * capacity_;
  }

  AddPairs<Device> lists(int region, offset_type n) const {
    const offset_type at = lists_at(region);
    AddPairs<Device> p;
    p.a = Kokkos::subview(words_, std::make_pair(at, at + n));
    p.b = Kokkos::subview(words_, std::make_pair(at + n, at + 2 * n));
    p.slot = Kokkos::subview(words_, std::make_pair(at + 2 * n, at + 3 * n));
    p.size = static_cast<index_type>(n);
    return p;
  }

  words_type words_;
  offset_type capacity_ = 0;
  int current_ = 0;
};

}  // namespace strata::hisparse::Impl
