#pragma once
// Reserving a slot in a queue: the counter of the queue is incremented once per
// emitted item. Portable version: one atomic per item. CUDA (cuda/queue_slots_cuda.hpp):
// the lanes of a warp that emit into the same queue at the same time reserve
// their slots with one atomic, issued by one of them, so that a launch emitting
// millions of items into one queue does not serialise on its counter.
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace strata::scheduler {

template <class ExecSpace>
struct queue_slots {
  KOKKOS_FORCEINLINE_FUNCTION static std::uint32_t reserve(std::uint32_t* counter, int /*queue*/) {
    return Kokkos::atomic_fetch_add(counter, 1u);
  }
};

}  // namespace strata::scheduler

#if defined(KOKKOS_ENABLE_CUDA)
#include <strata/scheduler/cuda/queue_slots_cuda.hpp>
#endif
