#pragma once
// The device queues of a queue set: the owning container (WorkQueues) and the
// trivially copyable reference kernels emit into (WorkQueuesRef).
//
// Emitting reserves a slot on the queue's counter (queue_slots.hpp: one atomic
// per item, or per warp and queue on CUDA). The counter
// counts every attempt, also past the capacity, and an item that does not fit
// is not written: after a launch the counters say exactly how large each queue
// had to be, so a launcher grows the full queues and repeats the producing
// launch (producing items have no other side effect; see QueueRole). No item
// is lost and none is processed twice.
#include <strata/core/error.hpp>
#include <strata/scheduler/queue_set.hpp>
#include <strata/scheduler/queue_slots.hpp>
#include <strata/scheduler/schedule_report.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace strata::scheduler {

template <class Queues, class Device>
struct WorkQueuesRef {
  using item_type = typename Queues::item_type;
  static constexpr int size = Queues::size;
  // counts(q): items emitted into queue q (may exceed capacity[q]);
  // counts(size): items that matched no bin; counts(size + 1), counts(size + 2): type and count of one of them.
  Kokkos::View<std::uint32_t*, Device, Kokkos::MemoryTraits<Kokkos::Unmanaged>> counts;
  item_type* items[size] = {};
  std::uint32_t capacity[size] = {};

  KOKKOS_INLINE_FUNCTION void emit(const item_type& item, std::uint32_t type, std::uint32_t count) const {
    const int q = route(type, count);
    if (q < 0) return;
    const std::uint32_t slot = reserve(q);
    if (slot < capacity[q]) items[q][slot] = item;
  }

  // The queue of an item, or -1 after recording that it matched no bin.
  KOKKOS_INLINE_FUNCTION int route(std::uint32_t type, std::uint32_t count) const {
    const int q = Queues::route(type, count);
    if (q < 0 && Kokkos::atomic_fetch_add(&counts(size), 1u) == 0u) {
      counts(size + 1) = type;
      counts(size + 2) = count;
    }
    return q;
  }
  // A slot of queue q (not written if it is capacity[q] or more).
  KOKKOS_INLINE_FUNCTION std::uint32_t reserve(int q) const {
    return queue_slots<typename Device::execution_space>::reserve(&counts(q), q);
  }
};

// Seed items grouped by the queue their bins route them to (on the host, before a run).
template <class Queues>
std::vector<std::vector<typename Queues::item_type>> seeds_per_queue(
    const std::vector<Seed<typename Queues::item_type>>& seeds) {
  std::vector<std::vector<typename Queues::item_type>> per_queue(Queues::size);
  for (const auto& s : seeds) {
    const int q = Queues::route(s.type, s.count);
    STRATA_REQUIRE(q >= 0, "scheduler: a seed item of node type " + std::to_string(s.type) + " and entry count " +
                               std::to_string(s.count) + " matches no bin of the queue set");
    per_queue[q].push_back(s.item);
  }
  return per_queue;
}

template <class Queues, class Device>
class WorkQueues {
 public:
  using item_type = typename Queues::item_type;
  using ref_type = WorkQueuesRef<Queues, Device>;
  static constexpr int size = Queues::size;
  using Counts = std::array<std::uint32_t, size>;

  // Every queue starts with room for `initial_capacity` items (at least one).
  explicit WorkQueues(std::uint32_t initial_capacity = 1024)
      : counts_("strata::scheduler::queue_counts", size + 3) {
    for (int q = 0; q < size; ++q) allocate(q, initial_capacity == 0 ? 1 : initial_capacity);
  }

  std::uint32_t capacity(int q) const { return capacity_[q]; }
  const Kokkos::View<item_type*, Device>& items(int q) const { return items_[q]; }

  ref_type ref() const {
    ref_type r;
    r.counts = counts_;
    for (int q = 0; q < size; ++q) {
      r.items[q] = items_[q].data();
      r.capacity[q] = capacity_[q];
    }
    return r;
  }

  // Counts of every queue (fences `space`); throws if an item matched no bin.
  template <class ExecSpace>
  Counts read_counts(const ExecSpace& space) const {
    auto host = Kokkos::create_mirror_view(counts_);
    Kokkos::deep_copy(space, host, counts_);
    space.fence();
    STRATA_REQUIRE(host(size) == 0, "scheduler: " + std::to_string(host(size)) +
                                        " work items matched no bin of the queue set (one had node type " +
                                        std::to_string(host(size + 1)) + " and entry count " +
                                        std::to_string(host(size + 2)) + ")");
    Counts c{};
    for (int q = 0; q < size; ++q) c[q] = host(q);
    return c;
  }

  template <class ExecSpace>
  void clear(const ExecSpace& space) {
    Kokkos::deep_copy(space, counts_, 0u);
  }

  // Room for at least `needed` items in queue q; the queue's content is dropped.
  void grow(int q, std::uint64_t needed) {
    if (needed <= capacity_[q]) return;
    constexpr std::uint64_t limit = 0xfffffff0u;
    STRATA_REQUIRE(needed <= limit, "scheduler: queue " + std::to_string(q) + " would need " +
                                        std::to_string(needed) + " items, more than a queue holds (" +
                                        std::to_string(limit) + ")");
    const std::uint64_t larger = needed + needed / 2;
    allocate(q, static_cast<std::uint32_t>(larger < limit ? larger : limit));
  }

  // Puts host-side items into queue q (after clear), growing it as needed.
  template <class ExecSpace>
  void fill(const ExecSpace& space, int q, const std::vector<item_type>& host_items) {
    grow(q, host_items.size());
    if (host_items.empty()) return;
    Kokkos::View<const item_type*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> source(
        host_items.data(), host_items.size());
    Kokkos::deep_copy(space, Kokkos::subview(items_[q], std::make_pair(std::size_t(0), host_items.size())), source);
    auto count = Kokkos::subview(counts_, q);
    Kokkos::deep_copy(space, count, static_cast<std::uint32_t>(host_items.size()));
    space.fence();
  }

 private:
  void allocate(int q, std::uint32_t capacity) {
    items_[q] = Kokkos::View<item_type*, Device>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::scheduler::queue_" + std::to_string(q)), capacity);
    capacity_[q] = capacity;
  }

  Kokkos::View<std::uint32_t*, Device> counts_;
  std::array<Kokkos::View<item_type*, Device>, size> items_;
  std::array<std::uint32_t, size> capacity_{};
};

}  // namespace strata::scheduler
