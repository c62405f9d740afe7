#pragma once
// Publishing one item of a queue that is consumed while it fills
// (publishing_queues.hpp): the producer writes the item, then sets the slot's
// ready flag; the consumer waits for the flag, then reads the item.
//
// Portable version: a full memory fence on both sides, and the item read with
// volatile 32-bit loads (a plain load could be served from a core's
// non-coherent L1 line, filled when a neighbouring slot of the same line was
// read before this one was written). CUDA (cuda/slot_flags_cuda.hpp): the flag
// is stored with release and loaded with acquire semantics (no fence), and the
// item is read with 16- or 8-byte loads cached at the L2 only, where the
// volatile words took up to eight L2 reads per item.
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>

namespace strata::scheduler {

// Polls a counter or flag that other threads change with atomics. A volatile
// load, not an atomic read-modify-write: a thousand idle teams polling with
// atomics serialise on the counters at the L2 and starve the producers (the
// persistent launcher's first version did, and took 39 ms for a product the
// host-driven launcher runs in 0.36 ms).
KOKKOS_INLINE_FUNCTION std::uint32_t poll(const std::uint32_t* p) {
  return *reinterpret_cast<const volatile std::uint32_t*>(p);
}

template <class ExecSpace>
struct slot_flags {
  // After the item is written: every thread that sees the flag equal to `epoch` sees the item.
  KOKKOS_FORCEINLINE_FUNCTION static void publish(std::uint32_t* flag, std::uint32_t epoch) {
    Kokkos::memory_fence();
    Kokkos::atomic_exchange(flag, epoch);
  }

  // The item of `slot`, once its flag equals `epoch`.
  template <class Item>
  KOKKOS_FORCEINLINE_FUNCTION static Item wait_for(const std::uint32_t* flag, std::uint32_t epoch, const Item* slot) {
    while (poll(flag) != epoch) {
    }
    Kokkos::memory_fence();
    return load(slot);
  }

 private:
  template <class Item>
  KOKKOS_FORCEINLINE_FUNCTION static Item load(const Item* slot) {
    static_assert(sizeof(Item) % sizeof(std::uint32_t) == 0,
                  "scheduler: published work items must be a whole number of 32-bit words");
    constexpr int words = sizeof(Item) / sizeof(std::uint32_t);
    std::uint32_t w[words];
    const volatile std::uint32_t* source = reinterpret_cast<const volatile std::uint32_t*>(slot);
    for (int i = 0; i < words; ++i) w[i] = source[i];
    Item item;
    std::memcpy(&item, w, sizeof(Item));
    return item;
  }
};

}  // namespace strata::scheduler

#if defined(KOKKOS_ENABLE_CUDA)
#include <strata/scheduler/cuda/slot_flags_cuda.hpp>
#endif
