#pragma once
// The persistent launcher (every Kokkos backend; the "megakernel" Derler et al.
// argue against, built for the comparison): one launch of as many teams as run
// at once, each taking batches of items from any queue until no work is left.
//
// The queues, their slot flags and the count of outstanding items that ends
// the run are shared with the CUDA controller (publishing_queues.hpp): items
// are consumed while the run still emits, so queues are append-only for the
// run and must be sized beforehand (reserve()); an overflow is an error that
// grows the queue for the next run.
//
// The operation is the same functor as for the host-driven launcher
// (host_driven.hpp). Kernels are named functors, not extended lambdas: see
// docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/light_weight_launch.hpp>
#include <strata/scheduler/item_threads.hpp>
#include <strata/scheduler/publishing_queues.hpp>
#include <strata/scheduler/schedule_report.hpp>
#include <strata/scheduler/work_queues.hpp>

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace strata::scheduler {

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
      const std::uint32_t tail = out.published(q);
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

  KOKKOS_INLINE_FUNCTION void process(const member_type& team, int q, std::uint32_t first, std::uint32_t n) const {
    if (layout[q] == ItemLayout::team) {
      for (std::uint32_t k = 0; k < n; ++k) {
        const item_type item = out.wait_for(q, first + k);
        op(q, item, ItemThreads<member_type>{team, true}, out);
      }
    } else if (layout[q] == ItemLayout::thread) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const std::uint32_t k) {
        const item_type item = out.wait_for(q, first + k);
        op(q, item, ItemThreads<member_type>{team, false}, out);
      });
    } else {
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, n), [&](const std::uint32_t k) {
        const item_type item = out.wait_for(q, first + k);
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
  using Counts = typename PublishingQueues<Queues, Device>::Counts;

  explicit PersistentLauncher(const PersistentOptions& options = {})
      : options_(options),
        queues_(options.initial_capacity),
        heads_("strata::scheduler::persistent_heads", size) {}

  // Room for at least needed[q] items in queue q during one run.
  void reserve(const Counts& needed) { queues_.reserve(needed); }
  std::uint32_t capacity(int q) const { return queues_.capacity(q); }

  template <class Operation>
  ScheduleReport run(const ExecSpace& space, const std::vector<Seed<item_type>>& seeds, const Operation& op) {
    ScheduleReport report(size);
    if (seeds.empty()) return report;
    queues_.start_run(space, seeds);
    Kokkos::deep_copy(space, heads_, 0u);

    constexpr bool on_host =
        Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
    const int team_size = on_host ? 1 : 8;
    const int vector_length = on_host ? 1 : 32;
    int teams = options_.teams;
    if (teams <= 0) teams = std::max(1, space.concurrency() / (team_size * vector_length));
    PersistentWorker<Queues, ExecSpace, Operation> worker{
        queues_.ref(), heads_.data(), {}, static_cast<std::uint32_t>(teams), {}, {}, op};
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
    queues_.finish_run(space, report, "persistent");  // fences; throws if an item matched no bin or a queue overflowed
    return report;
  }

 private:
  PersistentOptions options_;
  PublishingQueues<Queues, Device> queues_;
  Kokkos::View<std::uint32_t*, Device> heads_;
};

}  // namespace strata::scheduler
