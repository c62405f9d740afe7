#pragma once
// The controller launcher (Derler et al., ICS'17, Section 5): one controller
// warp, started once, whose lanes each watch a queue and launch child kernels
// from the device (CUDA dynamic parallelism) over the items the queue holds:
// a kernel of full blocks once a queue fills `full_blocks` of them, or whatever
// the queue holds when the block counter says the GPU is running dry (fewer
// than `dry_blocks` blocks launched and not finished). Items are consumed
// while the run still emits, on the publishing queues the persistent launcher
// uses too (publishing_queues.hpp): size them beforehand with reserve(). The
// run ends when no item is outstanding.
//
// Only Kokkos::Cuda has it, in builds with STRATA_ENABLE_CUDA_CONTROLLER
// (cuda/controller_cuda.hpp); controller_available tells generic code whether
// it may instantiate it. Launching from the device needs relocatable device
// code, so a run compiles only in the translation units CMake builds with
// -rdc=true (cmake/StrataDeviceLink.cmake); everywhere else the launcher can be
// made, reserved and passed around, and run() is declared only.
//
// The operation is the same functor as for the other launchers
// (host_driven.hpp); its threads are `for_each` / `single` over the item's
// lanes of a block.
#include <strata/scheduler/controller_available.hpp>
#include <strata/scheduler/publishing_queues.hpp>
#include <strata_config.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace strata::scheduler {

struct ControllerOptions {
  std::uint32_t initial_capacity = 1024;  // items per queue until reserve() or an overflow grows it
  int full_blocks = 0;  // blocks of items that make a queue worth a launch (0: two per multiprocessor)
  int dry_blocks = 0;   // below this many blocks in flight, any item is launched (0: one per multiprocessor)
  // Blocks a child launch starts at most (0: sixteen per multiprocessor, two waves of 256-thread
  // blocks); with more items, each block takes every child_blocks-th group of them.
  int child_blocks = 0;
};

template <class Queues, class ExecSpace>
class ControllerLauncher {
  static_assert(controller_available<ExecSpace>::value,
                "scheduler::ControllerLauncher exists only for Kokkos::Cuda in builds with "
                "STRATA_ENABLE_CUDA_CONTROLLER=ON; other backends use HostDrivenLauncher or PersistentLauncher");
};

}  // namespace strata::scheduler

#if defined(KOKKOS_ENABLE_CUDA) && STRATA_ENABLE_CUDA_CONTROLLER
#include <strata/scheduler/cuda/controller_cuda.hpp>
#endif
