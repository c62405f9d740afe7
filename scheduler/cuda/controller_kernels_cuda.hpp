#pragma once
// The kernels of the CUDA controller (controller_cuda.hpp): the controller warp
// and the child kernel of a queue. Included only by units compiled with
// relocatable device code (__CUDACC_RDC__; cmake/StrataDeviceLink.cmake),
// through controller_cuda.hpp, after the types they use.
#include <cuda_runtime.h>

#include <cstdint>
#include <utility>

namespace strata::scheduler::cuda_controller {

__device__ inline std::uint64_t global_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// What one child launch covers: items [first, first + n) of queue q.
template <class Queues, class Device, class Operation>
struct ChildLaunch {
  const RunArgs<Queues, Device, Operation>* args;
  int q;
  std::uint32_t first;
  std::uint32_t n;
};

template <int T, class Queues, class Device, class Operation>
__global__ void __launch_bounds__(block_threads<T>) process_queue(const ChildLaunch<Queues, Device, Operation> launch) {
  // The arguments live in global memory: a restrict pointer says the operation's stores (atomics on
  // y) do not change them, and the operation is copied to registers, so that its fields are not read
  // again after every store (a Kokkos launch has them in the constant bank). (A restrict qualifier on
  // a cast's type, as this was first written, is ignored: nvcc warning 191.)
  const RunArgs<Queues, Device, Operation>* __restrict__ const args = launch.args;
  const RunArgs<Queues, Device, Operation>& a = *args;
  const std::uint32_t n = launch.n;
  if (threadIdx.x == 0) atomicAdd(&a.counters->blocks_started, 1u);
  // A launch starts at most RunArgs::child_blocks blocks, and each takes every gridDim.x-th group of
  // items: the block's end (a barrier, a fence, two atomics on counters every block shares) is paid
  // once per block, not once per group of items (docs/PERFORMANCE.md: 10-15% of a product on R-MAT,
  // whose millions of one-entry leaves filled as many blocks).
  constexpr std::uint32_t per_block = items_per_block<T>;
  const Operation op = a.op;
  std::uint32_t mine = 0;
  for (std::uint32_t begin = blockIdx.x * per_block; begin < n; begin += gridDim.x * per_block) {
    const std::uint32_t k = begin + threadIdx.x / T;
    if (k < n) {
      const auto item = a.out.wait_for(launch.q, launch.first + k);
      op(launch.q, item, GroupThreads<T>{threadIdx.x % T}, a.out);
    }
    mine += n - begin < per_block ? n - begin : per_block;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    // After every emission of the block's items: they were counted before they were published.
    __threadfence();
    atomicSub(a.out.outstanding, mine);
    atomicAdd(&a.counters->blocks_finished, 1u);
  }
}

// The launch through the device runtime's own calls (what <<<>>> compiles to for CUDA >= 12), with
// the check <<<>>> leaves out: when the runtime has no room for another pending launch,
// cudaGetParameterBufferV2 returns null, nothing is launched and the caller retries. The <<<>>> form
// wrote the arguments through that null buffer (compute-sanitizer memcheck: an invalid write in the
// controller under a pending-launch limit of 1).
template <int T, class Queues, class Device, class Operation>
__device__ cudaError_t launch_items(const RunArgs<Queues, Device, Operation>* args, int q, std::uint32_t first,
                                    std::uint32_t n, std::uint32_t& blocks) {
  using Launch = ChildLaunch<Queues, Device, Operation>;
  blocks = (n + items_per_block<T> - 1) / items_per_block<T>;
  if (blocks > args->child_blocks) blocks = args->child_blocks;
  void* kernel = reinterpret_cast<void*>(&process_queue<T, Queues, Device, Operation>);
  void* parameters = cudaGetParameterBufferV2(kernel, dim3(blocks), dim3(block_threads<T>), 0);
  if (parameters == nullptr) return cudaErrorLaunchPendingCountExceeded;
  *static_cast<Launch*>(parameters) = Launch{args, q, first, n};
  return cudaLaunchDeviceV2(parameters, cudaStreamFireAndForget);
}

// The child kernel of queue q: one instance per distinct threads-per-item.
template <class Queues, class Device, class Operation, std::size_t... Q>
__device__ cudaError_t launch_queue(const RunArgs<Queues, Device, Operation>* args, int q, std::uint32_t first,
                                    std::uint32_t n, std::uint32_t& blocks, std::index_sequence<Q...>) {
  cudaError_t result = cudaErrorInvalidValue;
  ((q == static_cast<int>(Q)
        ? (void)(result = launch_items<Queues::threads_per_item(static_cast<int>(Q))>(args, q, first, n, blocks))
        : (void)0),
   ...);
  return result;
}

template <class Queues, class Device, class Operation>
__global__ void __launch_bounds__(32) control(const RunArgs<Queues, Device, Operation>* const args) {
  const RunArgs<Queues, Device, Operation>& a = *args;
  constexpr unsigned warp = 0xffffffffu;
  // Launches larger than this go out in parts: a grid has fewer than 2^31 blocks.
  constexpr std::uint32_t max_items_per_launch = 1u << 30;
  const int lane = static_cast<int>(threadIdx.x);
  const bool watches = lane < Queues::size;
  const std::uint32_t per_block = watches ? queue_items_per_block<Queues>(lane) : 1u;
  std::uint32_t head = 0, my_blocks = 0, my_launches = 0, my_deferred = 0, passes = 0;
  const std::uint64_t start = global_ns();
  std::uint64_t last = start, idle = 0;
  bool was_idle = false;
  while (true) {
    const std::uint32_t outstanding = __shfl_sync(warp, poll(a.out.outstanding), 0);
    if (outstanding == 0) break;
    const std::uint32_t finished = __shfl_sync(warp, poll(&a.counters->blocks_finished), 0);
    const std::uint32_t started = __shfl_sync(warp, poll(&a.counters->blocks_started), 0);
    const std::uint32_t in_flight = __reduce_add_sync(warp, my_blocks) - finished;
    const std::uint64_t now = global_ns();
    if (was_idle) idle += now - last;
    last = now;
    was_idle = started == finished;
    bool launched = false;
    cudaError_t failure = cudaSuccess;
    if (watches) {
      const std::uint32_t tail = a.out.published(lane);
      if (tail > head) {
        std::uint32_t n = tail - head;
        if (n > max_items_per_launch) n = max_items_per_launch;
        if (std::uint64_t(n) >= std::uint64_t(a.full_blocks) * per_block || in_flight < a.dry_blocks) {
          std::uint32_t blocks = 0;
          const cudaError_t result =
              launch_queue(args, lane, head, n, blocks, std::make_index_sequence<Queues::size>());
          if (result == cudaSuccess) {
            head += n;
            my_blocks += blocks;
            ++my_launches;
            launched = true;
          } else if (result == cudaErrorLaunchPendingCountExceeded) {
            ++my_deferred;  // tried again on the next pass, once launches have started
          } else {
            failure = result;
          }
        }
      }
    }
    if (__any_sync(warp, launched)) ++passes;
    // A launch that failed otherwise will not succeed later: stop (the launched children still run
    // to their end) and report it, rather than wait for items nobody will process.
    const unsigned failed = __ballot_sync(warp, failure != cudaSuccess);
    if (failed != 0) {
      if (lane == __ffs(failed) - 1) a.counters->launch_error = static_cast<std::uint32_t>(failure);
      break;
    }
  }
  const std::uint32_t launches = __reduce_add_sync(warp, my_launches);
  const std::uint32_t deferred = __reduce_add_sync(warp, my_deferred);
  if (lane == 0) {
    a.counters->launches = launches;
    a.counters->launch_passes = passes;
    a.counters->deferred = deferred;
    a.counters->device_ns = global_ns() - start;
    a.counters->idle_ns = idle;
  }
}

}  // namespace strata::scheduler::cuda_controller
