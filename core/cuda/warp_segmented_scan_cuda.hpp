#pragma once
// Kokkos::Cuda specialisation of the warp segmented scan; included only under
// KOKKOS_ENABLE_CUDA. Requires a TeamPolicy with vector length 32, so that the
// vector lanes of a team member are the 32 lanes of one warp (threadIdx.x).

namespace strata {

namespace cuda {

constexpr unsigned full_warp_mask = 0xffffffffu;

template <class T>
__device__ inline T shuffle_up(T value, int offset) {
  return __shfl_up_sync(full_warp_mask, value, offset);
}
template <class R>
__device__ inline Kokkos::complex<R> shuffle_up(const Kokkos::complex<R>& value, int offset) {
  return Kokkos::complex<R>(__shfl_up_sync(full_warp_mask, value.real(), offset),
                            __shfl_up_sync(full_warp_mask, value.imag(), offset));
}
template <class T>
__device__ inline T shuffle(T value, int source_lane) {
  return __shfl_sync(full_warp_mask, value, source_lane);
}
template <class R>
__device__ inline Kokkos::complex<R> shuffle(const Kokkos::complex<R>& value, int source_lane) {
  return Kokkos::complex<R>(__shfl_sync(full_warp_mask, value.real(), source_lane),
                            __shfl_sync(full_warp_mask, value.imag(), source_lane));
}

// Called by all 32 lanes of a converged warp: every lane gets the sum of all 32 values.
template <class Value>
__device__ inline Value warp_sum(Value v) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    if constexpr (value_traits<Value>::is_complex) {
      v += Value(__shfl_xor_sync(full_warp_mask, v.real(), offset), __shfl_xor_sync(full_warp_mask, v.imag(), offset));
    } else {
      v += __shfl_xor_sync(full_warp_mask, v, offset);
    }
  }
  return v;
}

// Called by all 32 lanes of a converged warp with their own (key, value):
// returns the lane's segmented inclusive sum. Segment heads come from one
// ballot, so equal keys separated by another key are different segments.
template <class Key, class Value>
__device__ inline Value segmented_inclusive_scan_lane(const Key& key, Value value) {
  const int lane = static_cast<int>(threadIdx.x & 31u);
  const Key previous_key = __shfl_up_sync(full_warp_mask, key, 1);
  const unsigned heads = __ballot_sync(full_warp_mask, lane == 0 || previous_key != key);
  // First lane of this lane's segment: the highest head at or below it.
  const int segment_start = 31 - __clz(heads & (0xffffffffu >> (31 - lane)));
  for (int offset = 1; offset < 32; offset <<= 1) {
    const Value other = shuffle_up(value, offset);
    if (lane - offset >= segment_start) value += other;
  }
  return value;
}

}  // namespace cuda

template <>
struct warp_segmented_scan_impl<Kokkos::Cuda> {
  template <class Member, class Key, class Value>
  KOKKOS_INLINE_FUNCTION static void inclusive(const Member& member, const Key* keys, Value* values, int n) {
    KOKKOS_IF_ON_DEVICE((scan_in_warps(member, keys, values, n);))
    KOKKOS_IF_ON_HOST(((void)member; (void)keys; (void)values; (void)n;))
  }

 private:
  // Whole warps of 32 pairs are scanned in registers; a segment crossing a
  // 32-pair boundary continues with the carry of the previous warp-width block.
  template <class Member, class Key, class Value>
  __device__ static void scan_in_warps(const Member& member, const Key* keys, Value* values, int n) {
    (void)member;
    const int lane = static_cast<int>(threadIdx.x & 31u);
    Key carry_key{};
    Value carry_value{};
    bool has_carry = false;
    for (int base = 0; base < n; base += 32) {
      const int i = base + lane;
      const bool active = i < n;
      // Inactive lanes repeat the last key with a zero value: they extend the
      // last segment without changing any sum.
      const Key key = keys[active ? i : n - 1];
      Value value = active ? values[i] : Value{};
      value = cuda::segmented_inclusive_scan_lane(key, value);
      const Key first_key = cuda::shuffle(key, 0);
      const Key previous_key = __shfl_up_sync(cuda::full_warp_mask, key, 1);
      const unsigned later_heads = __ballot_sync(cuda::full_warp_mask, lane > 0 && previous_key != key);
      const int first_segment_end = later_heads ? __ffs(later_heads) - 1 : 32;
      // The block's first segment continues the previous block's last one when their keys are equal.
      if (has_carry && carry_key == first_key && lane < first_segment_end) value += carry_value;
      if (active) values[i] = value;
      carry_key = cuda::shuffle(key, 31);
      carry_value = cuda::shuffle(value, 31);
      has_carry = true;
      __syncwarp();
    }
  }
};

}  // namespace strata
