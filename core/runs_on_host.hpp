#pragma once
// Whether an execution space runs on the host (Serial, OpenMP, Threads): the
// one test behind every host specialisation (no vector lanes to share a row or
// a node, sorting on the host, one thread per team). A space runs on the host
// when the host can read its memory space.
#include <Kokkos_Core.hpp>

namespace strata {

template <class ExecSpace>
inline constexpr bool runs_on_host =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;

}  // namespace strata
