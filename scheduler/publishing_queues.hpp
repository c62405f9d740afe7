#pragma once
// Queues whose items are consumed while the run still emits into them: the
// persistent launcher (persistent.hpp) and the CUDA controller (controller.hpp)
// both hand out slots of a queue before every item of it exists.
//
// Queues are append-only for the whole run. A producer reserves a slot, writes
// the item, then sets the slot's ready flag to the run's epoch (so flags never
// need clearing between runs); a consumer waits for the flag before it reads
// the item (slot_flags.hpp: how, per backend). A count of outstanding items (emitted, not yet processed) ends the
// run when it reaches zero: an item is counted before it is published and
// uncounted after its own emissions, so the count cannot reach zero while
// work remains.
//
// Items keep their slots for the whole run, so a queue must hold every item
// the run puts in it: reserve() the sizes beforehand (a tree walk knows them
// from one counting walk). An overflow cannot be repaired by repeating a round
// (items of every level are in flight at once): the run ends, finish_run()
// reports an error naming the queue and its need, and grows the queue for the
// next run.
#include <strata/core/error.hpp>
#include <strata/scheduler/queue_slots.hpp>
#include <strata/scheduler/schedule_report.hpp>
#include <strata/scheduler/slot_flags.hpp>
#include <strata/scheduler/work_queues.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace strata::scheduler {

// Where emitted items go during a run: the queues, plus the slot flags and the
// count of outstanding items.
template <class Queues, class Device>
struct PublishingQueuesRef {
  using item_type = typename Queues::item_type;
  static constexpr int size = Queues::size;
  WorkQueuesRef<Queues, Device> queues;
  std::uint32_t* ready[size] = {};
  std::uint32_t* outstanding = nullptr;
  std::uint32_t epoch = 0;

  KOKKOS_INLINE_FUNCTION void emit(const item_type& item, std::uint32_t type, std::uint32_t count) const {
    const int q = queues.route(type, count);
    if (q < 0) return;
    // Every emission of a run counts on this one word: the lanes of a warp that emit at once count
    // with one atomic (queue_slots, all lanes in one group), as they reserve their slots.
    queue_slots<typename Device::execution_space>::reserve(outstanding, -1);
    const std::uint32_t slot = queues.reserve(q);
    if (slot < queues.capacity[q]) {
      queues.items[q][slot] = item;
      slot_flags<typename Device::execution_space>::publish(&ready[q][slot], epoch);
    } else {
      Kokkos::atomic_fetch_sub(outstanding, 1u);  // dropped: finish_run reports the overflow
    }
  }

  // Slots [0, published(q)) of queue q are reserved: every one holds, or soon
  // holds, an item (wait_for it).
  KOKKOS_INLINE_FUNCTION std::uint32_t published(int q) const {
    const std::uint32_t emitted = poll(&queues.counts(q));
    return emitted < queues.capacity[q] ? emitted : queues.capacity[q];
  }

  // The item of a reserved slot, once its producer has written it.
  KOKKOS_INLINE_FUNCTION item_type wait_for(int q, std::uint32_t slot) const {
    return slot_flags<typename Device::execution_space>::wait_for(&ready[q][slot], epoch, queues.items[q] + slot);
  }
};

// The owning side: the queues, their flags and the outstanding count.
template <class Queues, class Device>
class PublishingQueues {
 public:
  using item_type = typename Queues::item_type;
  static constexpr int size = Queues::size;
  using Counts = typename WorkQueues<Queues, Device>::Counts;

  explicit PublishingQueues(std::uint32_t initial_capacity)
      : queues_(initial_capacity), outstanding_("strata::scheduler::outstanding_items") {
    for (int q = 0; q < size; ++q) allocate_flags(q);
  }

  // Room for at least needed[q] items in queue q during one run.
  void reserve(const Counts& needed) {
    for (int q = 0; q < size; ++q) grow(q, needed[q]);
  }
  std::uint32_t capacity(int q) const { return queues_.capacity(q); }

  PublishingQueuesRef<Queues, Device> ref() const {
    PublishingQueuesRef<Queues, Device> r;
    r.queues = queues_.ref();
    for (int q = 0; q < size; ++q) r.ready[q] = ready_[q].data();
    r.outstanding = outstanding_.data();
    r.epoch = epoch_;
    return r;
  }

  // A new epoch, the seeds in their queues (published) and counted as outstanding.
  template <class ExecSpace>
  void start_run(const ExecSpace& space, const std::vector<Seed<item_type>>& seeds) {
    next_epoch(space);
    queues_.clear(space);
    const auto per_queue = seeds_per_queue<Queues>(seeds);
    for (int q = 0; q < size; ++q) {
      grow(q, per_queue[q].size());
      queues_.fill(space, q, per_queue[q]);
      if (!per_queue[q].empty()) {
        Kokkos::deep_copy(space, Kokkos::subview(ready_[q], std::make_pair(std::size_t(0), per_queue[q].size())),
                          epoch_);
      }
    }
    Kokkos::deep_copy(space, outstanding_, static_cast<std::uint32_t>(seeds.size()));
  }

  // After the run (fences `space`): the items of every queue into the report;
  // throws if an item matched no bin, or, after growing the queues for the next
  // run, if a queue overflowed.
  template <class ExecSpace>
  void finish_run(const ExecSpace& space, ScheduleReport& report, const char* launcher) {
    const Counts emitted = queues_.read_counts(space);
    std::string overflow;
    for (int q = 0; q < size; ++q) {
      report.items[q] = emitted[q];
      if (emitted[q] > queues_.capacity(q)) {
        overflow += " queue " + std::to_string(q) + " needed " + std::to_string(emitted[q]) + " slots, had " +
                    std::to_string(queues_.capacity(q)) + ";";
      }
    }
    if (!overflow.empty()) {
      reserve(emitted);
      STRATA_REQUIRE(false, std::string("scheduler: a ") + launcher +
                                " run overflowed its queues, so items were dropped and the operation's output is "
                                "incomplete:" +
                                overflow + " the queues were grown for the next run (reserve() sizes them beforehand)");
    }
  }

 private:
  // A queue and its flags, with room for at least `needed` items.
  void grow(int q, std::uint64_t needed) {
    if (needed <= queues_.capacity(q)) return;
    queues_.grow(q, needed);
    allocate_flags(q);
  }

  void allocate_flags(int q) {
    ready_[q] =
        Kokkos::View<std::uint32_t*, Device>("strata::scheduler::ready_" + std::to_string(q), queues_.capacity(q));
  }

  // Flags equal to an earlier run's epoch read as "not ready"; after 2^32 - 1
  // runs the flags are cleared and the epochs start again.
  template <class ExecSpace>
  void next_epoch(const ExecSpace& space) {
    if (++epoch_ == 0) {
      for (int q = 0; q < size; ++q) Kokkos::deep_copy(space, ready_[q], 0u);
      epoch_ = 1;
    }
  }

  WorkQueues<Queues, Device> queues_;
  std::array<Kokkos::View<std::uint32_t*, Device>, size> ready_;
  Kokkos::View<std::uint32_t, Device> outstanding_;
  std::uint32_t epoch_ = 0;
};

}  // namespace strata::scheduler
