#pragma once
// Kokkos::Cuda specialisation of atomic_add_impl; included only under KOKKOS_ENABLE_CUDA.
// Complex values are added component-wise: each component's atomic is exact,
// and the sum of a complex number does not need both components to change together.

namespace strata {

template <>
struct atomic_add_impl<Kokkos::Cuda> {
  KOKKOS_FORCEINLINE_FUNCTION static void apply(float* target, float value) {
    KOKKOS_IF_ON_DEVICE((atomicAdd(target, value);))
    KOKKOS_IF_ON_HOST((Kokkos::atomic_add(target, value);))
  }
  KOKKOS_FORCEINLINE_FUNCTION static void apply(double* target, double value) {
    KOKKOS_IF_ON_DEVICE((atomicAdd(target, value);))
    KOKKOS_IF_ON_HOST((Kokkos::atomic_add(target, value);))
  }
  KOKKOS_FORCEINLINE_FUNCTION static void apply(Kokkos::complex<float>* target, const Kokkos::complex<float>& value) {
    KOKKOS_IF_ON_DEVICE((add_complex_float(target, value);))
    KOKKOS_IF_ON_HOST((Kokkos::atomic_add(target, value);))
  }
  KOKKOS_FORCEINLINE_FUNCTION static void apply(Kokkos::complex<double>* target,
                                                const Kokkos::complex<double>& value) {
    KOKKOS_IF_ON_DEVICE((atomicAdd(reinterpret_cast<double*>(target), value.real());
                         atomicAdd(reinterpret_cast<double*>(target) + 1, value.imag());))
    KOKKOS_IF_ON_HOST((Kokkos::atomic_add(target, value);))
  }

 private:
  __device__ static void add_complex_float(Kokkos::complex<float>* target, const Kokkos::complex<float>& value) {
#if __CUDA_ARCH__ >= 900
    // One 8-byte vector atomic instead of two (Kokkos::complex<float> is 8-byte aligned).
    atomicAdd(reinterpret_cast<float2*>(target), make_float2(value.real(), value.imag()));
#else
    atomicAdd(reinterpret_cast<float*>(target), value.real());
    atomicAdd(reinterpret_cast<float*>(target) + 1, value.imag());
#endif
  }
};

}  // namespace strata
