#pragma once
// Kokkos::Cuda specialisation of slot_flags; included only under KOKKOS_ENABLE_CUDA.
// The flag's store has release and its load acquire semantics at GPU scope
// (PTX memory model), so neither side fences: the release orders the item's
// stores before the flag, the acquire orders the item's loads after it. The
// item is read with ld.global.cg (cached at the L2, the point of coherence,
// never in a core's L1), in 16-byte loads where the item's size allows and
// 8- or 4-byte loads otherwise; queues are allocations of their own, so slot
// k sits at k * sizeof(Item) from an aligned base.
#include <cuda_runtime.h>

namespace strata::scheduler {

template <>
struct slot_flags<Kokkos::Cuda> {
  KOKKOS_FORCEINLINE_FUNCTION static void publish(std::uint32_t* flag, std::uint32_t epoch) {
    KOKKOS_IF_ON_DEVICE((asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flag), "r"(epoch) : "memory");))
    KOKKOS_IF_ON_HOST((Kokkos::memory_fence(); Kokkos::atomic_exchange(flag, epoch);))
  }

  template <class Item>
  KOKKOS_FORCEINLINE_FUNCTION static Item wait_for(const std::uint32_t* flag, std::uint32_t epoch, const Item* slot) {
    KOKKOS_IF_ON_DEVICE((return wait_on_device(flag, epoch, slot);))
    KOKKOS_IF_ON_HOST((return slot_flags<Kokkos::DefaultHostExecutionSpace>::wait_for(flag, epoch, slot);))
  }

 private:
  template <class Item>
  __device__ static Item wait_on_device(const std::uint32_t* flag, std::uint32_t epoch, const Item* slot) {
    std::uint32_t seen;
    do {
      asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(seen) : "l"(flag) : "memory");
    } while (seen != epoch);
    return load_on_device(slot);
  }

  template <class Item>
  __device__ static Item load_on_device(const Item* slot) {
    Item item;
    if constexpr (sizeof(Item) % 16 == 0) {
      load_chunks<int4>(&item, slot);
    } else if constexpr (sizeof(Item) % 8 == 0) {
      load_chunks<int2>(&item, slot);
    } else {
      static_assert(sizeof(Item) % 4 == 0, "scheduler: published work items must be a whole number of 32-bit words");
      load_chunks<int>(&item, slot);
    }
    return item;
  }

  template <class Chunk, class Item>
  __device__ static void load_chunks(Item* to, const Item* from) {
    constexpr int n = sizeof(Item) / sizeof(Chunk);
    Chunk c[n];
    const Chunk* source = reinterpret_cast<const Chunk*>(from);
    for (int i = 0; i < n; ++i) c[i] = __ldcg(source + i);
    memcpy(to, c, sizeof(Item));
  }
};

}  // namespace strata::scheduler
