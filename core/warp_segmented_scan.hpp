#pragma once
// Inclusive segmented scan over the (key, value) pairs of one warp: a segment is
// a maximal run of adjacent lanes with equal keys, and each lane ends with the
// sum of the values from its segment's first lane up to itself. This is what
// lets a warp turn 32 products of consecutive COO entries into one sum per row.
//
// The portable implementation works on pairs a team member keeps in scratch
// memory (one thread scans them in order); the CUDA specialisation
// (core/cuda/warp_segmented_scan_cuda.hpp) keeps them in registers and uses
// __ballot_sync and __shfl_up_sync, and also offers a register-level entry
// point for kernels written for Kokkos::Cuda.
#include <strata/core/value_traits.hpp>

#include <Kokkos_Core.hpp>

namespace strata {

template <class ExecSpace>
struct warp_segmented_scan_impl {
  // keys[0..n) and values[0..n) are shared by the vector lanes of `member`;
  // on return values[i] holds the segmented inclusive sum. n <= member.team_size() * vector length is not
  // required: the portable version accepts any n.
  template <class Member, class Key, class Value>
  KOKKOS_INLINE_FUNCTION static void inclusive(const Member& member, const Key* keys, Value* values, int n) {
    Kokkos::single(Kokkos::PerThread(member), [&]() {
      for (int i = 1; i < n; ++i) {
        if (keys[i] == keys[i - 1]) values[i] += values[i - 1];
      }
    });
  }
};

template <class ExecSpace, class Member, class Key, class Value>
KOKKOS_INLINE_FUNCTION void warp_segmented_inclusive_scan(const Member& member, const Key* keys, Value* values,
                                                          int n) {
  warp_segmented_scan_impl<ExecSpace>::inclusive(member, keys, values, n);
}

}  // namespace strata

#if defined(KOKKOS_ENABLE_CUDA)
#include <strata/core/cuda/warp_segmented_scan_cuda.hpp>
#endif
