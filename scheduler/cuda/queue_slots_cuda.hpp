#pragma once
// Kokkos::Cuda specialisation of queue_slots; included only under KOKKOS_ENABLE_CUDA.
// Warp-aggregated reservation: the active lanes that emit into the same queue
// (__match_any_sync on the queue index) elect the lowest lane, which adds their
// number to the counter once and hands every peer its slot (base + its rank
// among the peers). Lanes emitting into other queues form their own groups.

namespace strata::scheduler {

template <>
struct queue_slots<Kokkos::Cuda> {
  KOKKOS_FORCEINLINE_FUNCTION static std::uint32_t reserve(std::uint32_t* counter, int queue) {
    KOKKOS_IF_ON_DEVICE((return reserve_on_device(counter, queue);))
    KOKKOS_IF_ON_HOST((return Kokkos::atomic_fetch_add(counter, 1u);))
  }

 private:
  __device__ static std::uint32_t reserve_on_device(std::uint32_t* counter, int queue) {
    const unsigned active = __activemask();
    const unsigned peers = __match_any_sync(active, queue);
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    const int leader = __ffs(peers) - 1;
    std::uint32_t base = 0;
    if (static_cast<int>(lane) == leader) base = atomicAdd(counter, static_cast<std::uint32_t>(__popc(peers)));
    base = __shfl_sync(peers, base, leader);
    return base + static_cast<std::uint32_t>(__popc(peers & ((1u << lane) - 1u)));
  }
};

}  // namespace strata::scheduler
