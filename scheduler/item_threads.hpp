#pragma once
// The threads that work on one queue item together, and how a launch lays
// items out in teams. An operation's item function runs on every thread of its
// item; it spreads work with `for_each` and puts single-thread side effects
// (emitting one item, one store) inside `single`.
#include <strata/core/runs_on_host.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace strata::scheduler {

// Team layout of a launch for items of `threads_per_item` threads. Host
// backends run an item on one thread (its loops are sequential) and give a
// team many items; device backends use 256-thread teams, several items per
// team up to 32 threads per item (the vector lanes), one item per team above.
struct TeamShape {
  int team_size = 1;
  int vector_length = 1;
  int items_per_team = 1;
  bool whole_team = false;  // the item's threads are the whole team
};

template <class ExecSpace>
TeamShape team_shape(int threads_per_item) {
  constexpr bool on_host = runs_on_host<ExecSpace>;
  TeamShape s;
  if constexpr (on_host) {
    s.items_per_team = 64;
  } else {
    constexpr int team_threads = 256;
    if (threads_per_item <= 32) {
      s.vector_length = threads_per_item;
      s.team_size = team_threads / threads_per_item;
      s.items_per_team = s.team_size;
    } else {
      s.vector_length = 32;
      s.team_size = threads_per_item / 32;
      s.whole_team = true;
    }
  }
  return s;
}

template <class Member>
struct ItemThreads {
  const Member& team;
  bool whole_team;

  // f(i) for i in [0, n), spread over the item's threads.
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each(std::uint32_t n, const F& f) const {
    if (whole_team) {
      Kokkos::parallel_for(Kokkos::TeamVectorRange(team, n), f);
    } else {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, n), f);
    }
  }
  // f() once for the item.
  template <class F>
  KOKKOS_INLINE_FUNCTION void single(const F& f) const {
    if (whole_team) {
      Kokkos::single(Kokkos::PerTeam(team), f);
    } else {
      Kokkos::single(Kokkos::PerThread(team), f);
    }
  }
};

}  // namespace strata::scheduler
