#pragma once
// The persistent launcher (every Kokkos backend; the "megakernel" Derler et al.
// argue against, built for the comparison): one launch of as many teams as run
// at once, each taking batches of items from any queue until no work is left.
//
// Queues are append-only for the whole run: a consumer takes slots [head, tail)
// of a queue with a compare-and-swap on its head, and waits for each slot's
// ready flag, which the producer sets after writing the item (the slot is
// reserved before it is written). A flag holds the run's epoch, so flags need
// no clearing between runs. A global count of outstanding items (emitted, not
// yet processed) ends the run when it reaches zero: an item is counted before
// it is published and uncounted after its own emissions, so the count cannot
// reach zero while work remains.
//
// Items keep their slots for the whole run, so a queue must hold every item
// the run puts in it: reserve() the sizes beforehand (a tree walk knows them
// from one counting walk). A run that overflows a queue cannot repeat a round
// as the host-driven launcher does (items of all levels are in flight at
// once): it stops with an error naming the queue and its need, and grows the
// queue for the next run; the operation's output is then incomplete.
//
// The operation is the same functor as for the host-driven launcher
// (host_driven.hpp). Kernels are named functors, not extended lambdas: see
// docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/error.hpp>
#include <strata/core/light_weight_launch.hpp>
#include <strata/scheduler/item_threads.hpp>
#include <strata/scheduler/schedule_report.hpp>
#include <strata/scheduler/work_queues.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace strata::scheduler {

// Reads an item another thread published. Volatile word loads: on a GPU a
// plain load could be served from a core's non-coherent L1 line, filled when a
// neighbouring slot of the same line was read before this one was written.
template <class Item>
KOKKOS_INLINE_FUNCTION Item load_published(const Item* slot) {
  static_assert(sizeof(Item) % sizeof(std::uint32_t) == 0,
                "scheduler: persistent work items must be a whole number of 32-bit words");
  constexpr int words = sizeof(Item) / sizeof(std::uint32_t);
  std::uint32_t w[words];
  const volatile std::uint32_t* source = reinterpret_cast<const volatile std::uint32_t*>(slot);
  for (int i = 0; i < words; ++i) w[i] = source[i];
  Item item;
  std::memcpy(&item, w, sizeof(Item));
  return item;
}

// Polls a counter or flag that other threads change with atomics. A volatile
// load, not an atomic read-modify-write: a thousand idle teams polling with
// atomics serialise on the counters at the L2 and starve the producers (the
// first version did, and took 39 ms for a product the host-driven launcher
// runs in 0.36 ms).
KOKKOS_INLINE_FUNCTION std::uint32_t poll(const std::uint32_t* p) {
  return *reinterpret_cast<const volatile std::uint32_t*>(p);
}

// Where emitted items go during a persistent run: the queues, plus the slot
// flags and the count of outstanding items.
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
    Kokkos::atomic_fetch_add(outstanding, 1u);
    const std::uint32_t slot = queues.reserve(q);
    if (slot < queues.capacity[q]) {
      queues.items[q][slot] = item;
      Kokkos::memory_fence();
      Kokkos::atomic_exchange(&ready[q][slot], epoch);
    } else {
      Kokkos::atomic_fetch_sub(outstanding, 1u);  // dropped: the launcher reports the overflow
    }
  }
};

// One thread works on the item alone (a lane of a device team, or a host team).
struct OneThread {
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each(std::uint32_t n, const F& f) const {
    for (std::uint32_t i = 0; i < n; ++i) f(i);
  }
  template <class F>
  KOKKOS_INLINE_FUNCTION void single(const F& f) const {
    f();
  }
};

// How a team works on a queue's items: one item per lane, per thread (its
// vector lanes) or per team.
enum class ItemLayout : int { lane, thread, team };

template <class Queues, class ExecSpace, class Operation>
struct PersistentWorker {
  using Device = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using item_type = typename Queues::item_type;
  static constexpr int size = Queues::size;
  static constexpr std::uint64_t nothing = 0;
  static constexpr std::uint64_t finished = ~std::uint64_t(0);

  PublishingQueuesRef<Queues, Device> out;
  std::uint32_t* heads = nullptr;
  std::uint32_t batch[size] = {};  // the fewest items a team takes from queue q
  std::uint32_t teams = 1;
  ItemLayout layout[size] = {};
  int order[size] = {};  // producing queues first: they expose parallelism
  Operation op;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    while (true) {
      std::uint64_t grab = nothing;
      Kokkos::single(
          Kokkos::PerTeam(team), [&](std::uint64_t& g) { g = try_grab(); }, grab);
      if (grab == finished) return;
      if (grab == nothing) {
        pause();
        continue;
      }
      const int q = static_cast<int>(grab & 0xffu) - 1;
      const std::uint32_t n = static_cast<std::uint32_t>((grab >> 8) & 0xffffffu);
      const std::uint32_t first = static_cast<std::uint32_t>(grab >> 32);
      process(team, q, first, n);
      team.team_barrier();
      Kokkos::single(Kokkos::PerTeam(team), [&] { Kokkos::atomic_fetch_sub(out.outstanding, n); });
    }
  }

 private:
  // Host teams may outnumber the cores (more OpenMP threads than cores): a team
  // with nothing to take gives its core to the one holding the outstanding work.
  KOKKOS_INLINE_FUNCTION static void pause() {
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible) {
      std::this_thread::yield();
    }
  }

  // (first << 32) | (n << 8) | (q + 1), nothing, or finished once no item is outstanding.
  KOKKOS_INLINE_FUNCTION std::uint64_t try_grab() const {
    for (int i = 0; i < size; ++i) {
      const int q = order[i];
      std::uint32_t head = poll(&heads[q]);
      const std::uint32_t emitted = poll(&out.queues.counts(q));
      const std::uint32_t tail = emitted < out.queues.capacity[q] ? emitted : out.queues.capacity[q];
      while (head < tail) {
        // Guided: a share of what the queue holds, at least a batch. Taking a fixed batch,
        // the teams serialised on the queue's head (10 ms for the 81,408 leaves of
        // poisson3d:128 taken 4 at a time, against 0.36 ms host-driven).
        const std::uint32_t available = tail - head;
        std::uint32_t n = available / (2u * teams);
        if (n < batch[q]) n = batch[q];
        if (n > available) n = available;
        if (n > 0xffffffu) n = 0xffffffu;
        const std::uint32_t seen = Kokkos::atomic_compare_exchange(&heads[q], head, head + n);
        if (seen == head) {
          return (std::uint64_t(head) << 32) | (std::uint64_t(n) << 8) | std::uint64_t(q + 1);
        }
        head = seen;
      }
    }
    return poll(out.outstanding) == 0u ? finished : nothing;
  }

  KOKKOS_INLINE_FUNCTION item_type wait_for(int q, std::uint32_t slot) const {
    while (poll(&out.ready[q][slot]) != out.epoch) {
    }
    Kokkos::memory_fence();
    return load_published(out.queues.items[q] + slot);
  }

  KOKKOS_INLINE_FUNCTION void process(const member_type& team, int q, std::uint32_t first, std::uint32_t n) const {
    if (layout[q] == ItemLayout::team) {
      for (std::uint32_t k = 0; k < n; ++k) {
        const item_type item = wait_for(q, first + k);
        op(q, item, ItemThreads<member_type>{team, true}, out);
      }
    } else if (layout[q] == ItemLayout::thread) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const std::uint32_t k) {
        const item_type item = wait_for(q, first + k);
        op(q, item, ItemThreads<member_type>{team, false}, out);
      });
    } else {
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, n), [&](const std::uint32_t k) {
        const item_type item = wait_for(q, first + k);
        op(q, item, OneThread{}, out);
      });
    }
  }
};

struct PersistentOptions {
  std::uint32_t initial_capacity = 1024;  // items per queue until reserve() or an overflow grows it
  int teams = 0;                          // 0: as many as the execution space runs at once
};

template <class Queues, class ExecSpace>
class PersistentLauncher {
 public:
  using Device = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  using item_type = typename Queues::item_type;
  static constexpr int size = Queues::size;
  using Counts = typename WorkQueues<Queues, Device>::Counts;

  explicit PersistentLauncher(const PersistentOptions& options = {})
      : options_(options),
        queues_(options.initial_capacity),
        heads_("strata::scheduler::persistent_heads", size),
        outstanding_("strata::scheduler::persistent_outstanding") {
    for (int q = 0; q < size; ++q) allocate_flags(q);
  }

  // Room for at least needed[q] items in queue q during one run.
  void reserve(const Counts& needed) {
    for (int q = 0; q < size; ++q) grow(q, needed[q]);
  }
  std::uint32_t capacity(int q) const { return queues_.capacity(q); }

  template <class Operation>
  ScheduleReport run(const ExecSpace& space, const std::vector<Seed<item_type>>& seeds, const Operation& op) {
    ScheduleReport report(size);
    if (seeds.empty()) return report;
    next_epoch(space);
    seed(space, seeds);

    constexpr bool on_host =
        Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
    const int team_size = on_host ? 1 : 8;
    const int vector_length = on_host ? 1 : 32;
    int teams = options_.teams;
    if (teams <= 0) teams = std::max(1, space.concurrency() / (team_size * vector_length));
    PersistentWorker<Queues, ExecSpace, Operation> worker{
        publishing_ref(), heads_.data(), {}, static_cast<std::uint32_t>(teams), {}, {}, op};
    int next = 0;
    for (const bool producing : {true, false}) {
      for (int q = 0; q < size; ++q) {
        if (Queues::produces(q) == producing) worker.order[next++] = q;
      }
    }
    for (int q = 0; q < size; ++q) {
      const int threads = Queues::threads_per_item(q);
      if (on_host || threads == 1) {
        worker.layout[q] = ItemLayout::lane;
        worker.batch[q] = static_cast<std::uint32_t>(on_host ? 64 : team_size * vector_length);
      } else if (threads <= vector_length) {
        worker.layout[q] = ItemLayout::thread;
        worker.batch[q] = static_cast<std::uint32_t>(team_size);
      } else {
        // A few items per take: one compare-and-swap per item would serialise the teams on
        // the head of a queue of many large items.
        worker.layout[q] = ItemLayout::team;
        worker.batch[q] = 4;
      }
    }
    strata::Impl::light_weight_parallel_for(
        "strata::scheduler::persistent", Kokkos::TeamPolicy<ExecSpace>(space, teams, team_size, vector_length), worker);
    ++report.launches;
    report.rounds = 1;

    const Counts emitted = queues_.read_counts(space);  // fences; throws if an item matched no bin
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
      STRATA_REQUIRE(false, "scheduler: a persistent run overflowed its queues, so items were dropped and the "
                            "operation's output is incomplete:" + overflow +
                                " the queues were grown for the next run (PersistentLauncher::reserve sizes them "
                                "beforehand)");
    }
    return report;
  }

 private:
  PublishingQueuesRef<Queues, Device> publishing_ref() const {
    PublishingQueuesRef<Queues, Device> r;
    r.queues = queues_.ref();
    for (int q = 0; q < size; ++q) r.ready[q] = ready_[q].data();
    r.outstanding = outstanding_.data();
    r.epoch = epoch_;
    return r;
  }

  // A queue and its flags, with room for at least `needed` items.
  void grow(int q, std::uint64_t needed) {
    if (needed <= queues_.capacity(q)) return;
    queues_.grow(q, needed);
    allocate_flags(q);
  }

  void allocate_flags(int q) {
    ready_[q] = Kokkos::View<std::uint32_t*, Device>("strata::scheduler::persistent_ready_" + std::to_string(q),
                                                     queues_.capacity(q));
  }

  // Flags equal to an earlier run's epoch read as "not ready"; after 2^32 - 1
  // runs the flags are cleared and the epochs start again.
  void next_epoch(const ExecSpace& space) {
    if (++epoch_ == 0) {
      for (int q = 0; q < size; ++q) Kokkos::deep_copy(space, ready_[q], 0u);
      epoch_ = 1;
    }
  }

  void seed(const ExecSpace& space, const std::vector<Seed<item_type>>& seeds) {
    queues_.clear(space);
    Kokkos::deep_copy(space, heads_, 0u);
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

  PersistentOptions options_;
  WorkQueues<Queues, Device> queues_;
  std::array<Kokkos::View<std::uint32_t*, Device>, size> ready_;
  Kokkos::View<std::uint32_t*, Device> heads_;
  Kokkos::View<std::uint32_t, Device> outstanding_;
  std::uint32_t epoch_ = 0;
};

}  // namespace strata::scheduler
