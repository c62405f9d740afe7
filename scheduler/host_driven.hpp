#pragma once
// The portable launcher (every Kokkos backend): a host loop that reads the fill
// level of every queue and launches one kernel per non-empty queue, round by
// round, with two queue sets that swap roles (the items of round r emit into
// the set that round r + 1 processes).
//
// A round launches the producing queues, then the final ones, then reads the
// counters once. If a queue of the next set overflowed, the counters say how
// many items it needed: the launcher grows it and repeats only the producing
// launches of that round (their only side effect is emission), so nothing is
// lost or processed twice.
//
// The operation is a functor with
//   template <class Threads, class Out>
//   KOKKOS_INLINE_FUNCTION void operator()(int queue, const Item& item, const Threads& threads, const Out& out) const;
// called on every thread of the item (item_threads.hpp); out.emit(item, type, count) routes a new item.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/light_weight_launch.hpp>
#include <strata/scheduler/item_threads.hpp>
#include <strata/scheduler/schedule_report.hpp>
#include <strata/scheduler/work_queues.hpp>

#include <string>
#include <utility>
#include <vector>

namespace strata::scheduler {

template <class Queues, class ExecSpace, class Operation>
struct ProcessQueue {
  using Device = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using item_type = typename Queues::item_type;

  const item_type* items;
  std::uint32_t n;
  int queue;
  int items_per_team;
  bool whole_team;
  Operation op;
  WorkQueuesRef<Queues, Device> out;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const std::uint32_t first = static_cast<std::uint32_t>(team.league_rank()) * items_per_team;
    const ItemThreads<member_type> threads{team, whole_team};
    if (whole_team) {
      op(queue, items[first], threads, out);
      return;
    }
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, items_per_team), [&](const int k) {
      const std::uint32_t i = first + static_cast<std::uint32_t>(k);
      if (i < n) op(queue, items[i], threads, out);
    });
  }
};

struct HostDrivenOptions {
  std::uint32_t initial_capacity = 1024;  // items per queue before the first growth
  int max_rounds = 1 << 16;               // a safety net against operations that never stop emitting
};

template <class Queues, class ExecSpace>
class HostDrivenLauncher {
 public:
  using Device = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  using item_type = typename Queues::item_type;
  static constexpr int size = Queues::size;

  explicit HostDrivenLauncher(const HostDrivenOptions& options = {})
      : options_(options), sets_{WorkQueues<Queues, Device>(options.initial_capacity),
                                 WorkQueues<Queues, Device>(options.initial_capacity)} {}

  // Runs `op` from the seed items until every queue is empty. Seeds are
  // routed on the host with the same bins as emitted items.
  template <class Operation>
  ScheduleReport run(const ExecSpace& space, const std::vector<Seed<item_type>>& seeds, const Operation& op) {
    ScheduleReport report(size);
    auto* current = &sets_[0];
    auto* next = &sets_[1];
    seed(space, *current, seeds);
    auto counts = current->read_counts(space);
    while (any(counts)) {
      STRATA_REQUIRE(report.rounds < options_.max_rounds,
                     "scheduler: the operation still emitted work after " + std::to_string(options_.max_rounds) +
                         " rounds (HostDrivenOptions::max_rounds)");
      ++report.rounds;
      next->clear(space);
      launch_role(space, *current, counts, *next, op, true, report);
      launch_role(space, *current, counts, *next, op, false, report);
      auto emitted = next->read_counts(space);
      if (grow_full(*next, emitted)) {
        ++report.repeated_rounds;
        next->clear(space);
        launch_role(space, *current, counts, *next, op, true, report);
        emitted = next->read_counts(space);
        STRATA_REQUIRE(!grow_full(*next, emitted),
                       "scheduler: a producing operation emitted a different number of items when repeated; "
                       "producing items must only emit (QueueRole::produces)");
      }
      for (int q = 0; q < size; ++q) report.items[q] += counts[q];
      std::swap(current, next);
      counts = emitted;
    }
    return report;
  }

  std::uint32_t capacity(int set, int q) const { return sets_[set].capacity(q); }

 private:
  static bool any(const typename WorkQueues<Queues, Device>::Counts& c) {
    for (auto n : c) {
      if (n != 0) return true;
    }
    return false;
  }

  // Grows every queue whose emitted count exceeded its capacity; true if any did.
  static bool grow_full(WorkQueues<Queues, Device>& set, const typename WorkQueues<Queues, Device>::Counts& emitted) {
    bool grew = false;
    for (int q = 0; q < size; ++q) {
      if (emitted[q] > set.capacity(q)) {
        set.grow(q, emitted[q]);
        grew = true;
      }
    }
    return grew;
  }

  void seed(const ExecSpace& space, WorkQueues<Queues, Device>& set, const std::vector<Seed<item_type>>& seeds) {
    set.clear(space);
    const auto per_queue = seeds_per_queue<Queues>(seeds);
    for (int q = 0; q < size; ++q) set.fill(space, q, per_queue[q]);
  }

  template <class Operation>
  void launch_role(const ExecSpace& space, const WorkQueues<Queues, Device>& from,
                   const typename WorkQueues<Queues, Device>::Counts& counts, const WorkQueues<Queues, Device>& to,
                   const Operation& op, bool producing, ScheduleReport& report) {
    for (int q = 0; q < size; ++q) {
      if (counts[q] == 0 || Queues::produces(q) != producing) continue;
      const TeamShape shape = team_shape<ExecSpace>(Queues::threads_per_item(q));
      const std::uint32_t teams = (counts[q] + shape.items_per_team - 1) / shape.items_per_team;
      const Kokkos::TeamPolicy<ExecSpace> policy(space, static_cast<int>(teams), shape.team_size,
                                                 shape.vector_length);
      strata::Impl::light_weight_parallel_for(
          "strata::scheduler::host_driven_queue", policy,
          ProcessQueue<Queues, ExecSpace, Operation>{from.items(q).data(), counts[q], q, shape.items_per_team,
                                                     shape.whole_team, op, to.ref()});
      ++report.launches;
    }
  }

  HostDrivenOptions options_;
  WorkQueues<Queues, Device> sets_[2];
};

}  // namespace strata::scheduler
