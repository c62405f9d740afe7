#pragma once
// Kokkos::Cuda specialisation of the controller launcher (../controller.hpp);
// included only under KOKKOS_ENABLE_CUDA && STRATA_ENABLE_CUDA_CONTROLLER.
//
// The host starts the controller kernel (one warp) on the execution space's
// stream. Lane q watches queue q: the slots [head, published) are items nobody
// has taken; it launches `process_queue` over them into
// cudaStreamFireAndForget (CUDA >= 12 device launches, which run beside the
// controller) and moves its head. A launch starts at most `child_blocks`
// blocks, which loop over its items. Child blocks count themselves started and
// finished (the block counter), wait for each item's ready flag, run the
// operation on the item's threads, then uncount their items. The controller
// returns when no item is outstanding; the host's stream waits for it and its
// children. A launch the device runtime refuses (its pending-launch limit) is
// counted and retried on the next pass, never dropped; any other launch error
// stops the run and is reported.
//
// Timing on the device clock (%globaltimer): the controller's run time, and
// its idle time: passes of its loop that saw no child block running while
// items were outstanding (launch latency, and the controller's own pace).
#include <strata/core/device_info.hpp>
#include <strata/core/error.hpp>
#include <strata/scheduler/publishing_queues.hpp>

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace strata::scheduler {

namespace cuda_controller {

// What the child blocks count and the controller reports, in device memory.
struct Counters {
  std::uint32_t blocks_started = 0;
  std::uint32_t blocks_finished = 0;
  std::uint32_t launches = 0;
  std::uint32_t launch_passes = 0;  // passes of the controller's loop that launched something
  std::uint32_t deferred = 0;
  std::uint32_t launch_error = 0;  // a cudaError_t other than the pending-launch limit: the run stopped
  std::uint64_t device_ns = 0;
  std::uint64_t idle_ns = 0;
};

// The T threads of one item: consecutive threads of a block.
template <int T>
struct GroupThreads {
  std::uint32_t rank;
  template <class F>
  __device__ void for_each(std::uint32_t n, const F& f) const {
    for (std::uint32_t i = rank; i < n; i += T) f(i);
  }
  template <class F>
  __device__ void single(const F& f) const {
    if (rank == 0) f();
  }
};

// Blocks of 256 threads hold 256 / T items; larger items take a block each.
template <int T>
inline constexpr int block_threads = T < 256 ? 256 : T;
template <int T>
inline constexpr int items_per_block = block_threads<T> / T;

template <class Queues>
__host__ __device__ constexpr std::uint32_t queue_items_per_block(int q) {
  const int t = Queues::threads_per_item(q);
  return static_cast<std::uint32_t>((t < 256 ? 256 : t) / t);
}

// Everything a run's kernels read, copied once to device memory: device-side
// launches take trivially copyable arguments only, and operations hold Views.
template <class Queues, class Device, class Operation>
struct RunArgs {
  PublishingQueuesRef<Queues, Device> out;
  Operation op;
  Counters* counters;
  std::uint32_t full_blocks;
  std::uint32_t dry_blocks;
  std::uint32_t child_blocks;  // blocks a child launch starts at most; its blocks loop over the items
};

}  // namespace cuda_controller
}  // namespace strata::scheduler

// The kernels launch kernels: only units with relocatable device code see them, so that other
// units neither compile them nor are rebuilt when they change.
#if defined(__CUDACC_RDC__)
#include <strata/scheduler/cuda/controller_kernels_cuda.hpp>
#endif

namespace strata::scheduler {

template <class Queues>
class ControllerLauncher<Queues, Kokkos::Cuda> {
 public:
  using ExecSpace = Kokkos::Cuda;
  using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;
  using item_type = typename Queues::item_type;
  static constexpr int size = Queues::size;
  using Counts = typename PublishingQueues<Queues, Device>::Counts;
  static_assert(size <= 32,
                "scheduler::ControllerLauncher: a lane of the controller warp watches each queue, so a "
                "queue set has at most 32 queues");

  explicit ControllerLauncher(const ControllerOptions& options = {})
      : queues_(options.initial_capacity),
        counters_(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::scheduler::controller_counters")) {
    const int units = execution_units<ExecSpace>::count(ExecSpace());
    full_blocks_ = static_cast<std::uint32_t>(options.full_blocks > 0 ? options.full_blocks : 2 * units);
    dry_blocks_ = static_cast<std::uint32_t>(options.dry_blocks > 0 ? options.dry_blocks : units);
    child_blocks_ = static_cast<std::uint32_t>(options.child_blocks > 0 ? options.child_blocks : 16 * units);
  }

  // Room for at least needed[q] items in queue q during one run.
  void reserve(const Counts& needed) { queues_.reserve(needed); }
  std::uint32_t capacity(int q) const { return queues_.capacity(q); }

#if defined(__CUDACC_RDC__)
  template <class Operation>
  ScheduleReport run(const ExecSpace& space, const std::vector<Seed<item_type>>& seeds, const Operation& op) {
    using Args = cuda_controller::RunArgs<Queues, Device, Operation>;
    ScheduleReport report(size);
    if (seeds.empty()) return report;
    queues_.start_run(space, seeds);
    cudaStream_t stream = space.cuda_stream();
    STRATA_REQUIRE(cudaMemsetAsync(counters_.data(), 0, sizeof(cuda_controller::Counters), stream) == cudaSuccess,
                   "scheduler: could not clear the controller's counters");
    // The host copy keeps the operation's Views alive until the run has ended (finish_run fences).
    const Args args{queues_.ref(), op, counters_.data(), full_blocks_, dry_blocks_, child_blocks_};
    if (args_.extent(0) < sizeof(Args)) {
      args_ = Kokkos::View<unsigned char*, Device>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::scheduler::controller_arguments"), sizeof(Args));
    }
    STRATA_REQUIRE(cudaMemcpyAsync(args_.data(), &args, sizeof(Args), cudaMemcpyHostToDevice, stream) == cudaSuccess,
                   "scheduler: could not copy the controller's arguments to the device");
    cuda_controller::control<Queues, Device, Operation>
        <<<1, 32, 0, stream>>>(reinterpret_cast<const Args*>(args_.data()));
    const cudaError_t started = cudaGetLastError();
    STRATA_REQUIRE(started == cudaSuccess,
                   std::string("scheduler: the CUDA controller kernel did not start: ") + cudaGetErrorString(started));
    cuda_controller::Counters counters;
    STRATA_REQUIRE(
        cudaMemcpyAsync(&counters, counters_.data(), sizeof(counters), cudaMemcpyDeviceToHost, stream) == cudaSuccess,
        "scheduler: could not read the controller's counters");
    space.fence();
    STRATA_REQUIRE(counters.launch_error == 0,
                   std::string("scheduler: the CUDA controller could not launch a child kernel (") +
                       cudaGetErrorString(static_cast<cudaError_t>(counters.launch_error)) +
                       "), so the run stopped and the operation's output is incomplete");
    queues_.finish_run(space, report, "controller");  // throws if an item matched no bin or a queue overflowed
    report.launches = counters.launches;
    report.rounds = static_cast<int>(counters.launch_passes);
    report.deferred_launches = counters.deferred;
    report.device_ns = static_cast<std::int64_t>(counters.device_ns);
    report.idle_ns = static_cast<std::int64_t>(counters.idle_ns);
    return report;
  }
#else
  // Defined only where the caller compiles with relocatable device code (cmake/StrataDeviceLink.cmake).
  template <class Operation>
  ScheduleReport run(const ExecSpace&, const std::vector<Seed<item_type>>&, const Operation&) {
    static_assert(sizeof(Operation) == 0,
                  "scheduler::ControllerLauncher::run launches kernels from the device: compile this translation "
                  "unit with relocatable device code (strata_device_linked_unit in cmake/StrataDeviceLink.cmake)");
    return ScheduleReport(size);
  }
#endif

 private:
  PublishingQueues<Queues, Device> queues_;
  Kokkos::View<cuda_controller::Counters, Device> counters_;
  Kokkos::View<unsigned char*, Device> args_;  // the last run's RunArgs
  std::uint32_t full_blocks_ = 0;
  std::uint32_t dry_blocks_ = 0;
  std::uint32_t child_blocks_ = 0;
};

}  // namespace strata::scheduler
