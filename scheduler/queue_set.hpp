#pragma once
// A queue set described at compile time: the work item every queue holds and
// the bins (node type x entry-count range) that route an item to its queue.
// An operation on a tree (HiSparse SpMV, A+B) becomes "one function per node
// type"; the bins make every launch uniform: items of one type and similar
// size, as many per block as fill it (Derler et al., ICS'17, Section 4).
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace strata::scheduler {

// What the items of a queue may do: `produces` items may emit new items (their
// only side effect, so that a launch can be repeated after a queue grew);
// `final` items never emit (leaf work: products, atomics on the output).
enum class QueueRole { produces, final };

inline constexpr std::uint32_t any_type = 0xffffffffu;
inline constexpr std::uint32_t any_count = 0xffffffffu;

// Items of node type `Type` (any_type: every type) whose entry count lies in
// [MinCount, MaxCount] go to this bin's queue. ThreadsPerItem threads (a power
// of two, at most 1024) work on one item together: with 256-thread blocks,
// 1 -> 256 items per block, 32 -> 8 items, 256 -> one item.
template <std::uint32_t Type, std::uint32_t MinCount, std::uint32_t MaxCount, int ThreadsPerItem, QueueRole Role>
struct Bin {
  static_assert(MinCount <= MaxCount, "scheduler::Bin: MinCount must not exceed MaxCount");
  static_assert(ThreadsPerItem >= 1 && ThreadsPerItem <= 1024 && (ThreadsPerItem & (ThreadsPerItem - 1)) == 0,
                "scheduler::Bin: ThreadsPerItem must be a power of two in [1, 1024]");
  static constexpr std::uint32_t type = Type;
  static constexpr std::uint32_t min_count = MinCount;
  static constexpr std::uint32_t max_count = MaxCount;
  static constexpr int threads_per_item = ThreadsPerItem;
  static constexpr QueueRole role = Role;

  KOKKOS_INLINE_FUNCTION static constexpr bool matches(std::uint32_t t, std::uint32_t count) {
    return (Type == any_type || t == Type) && count >= MinCount && count <= MaxCount;
  }
};

template <class Item, class... Bins>
struct QueueSet {
  static_assert(sizeof...(Bins) >= 1, "scheduler::QueueSet needs at least one bin");
  static_assert(std::is_trivially_copyable_v<Item>, "scheduler::QueueSet: work items must be trivially copyable");
  using item_type = Item;
  static constexpr int size = static_cast<int>(sizeof...(Bins));

  // The first bin that matches (bins are tried in order), or -1.
  KOKKOS_INLINE_FUNCTION static int route(std::uint32_t type, std::uint32_t count) {
    int queue = -1;
    int i = 0;
    ((queue < 0 && Bins::matches(type, count) ? (void)(queue = i) : (void)0, ++i), ...);
    return queue;
  }
  KOKKOS_INLINE_FUNCTION static constexpr int threads_per_item(int queue) {
    constexpr int threads[] = {Bins::threads_per_item...};
    return threads[queue];
  }
  KOKKOS_INLINE_FUNCTION static constexpr bool produces(int queue) {
    constexpr bool produce[] = {(Bins::role == QueueRole::produces)...};
    return produce[queue];
  }
};

}  // namespace strata::scheduler
