#pragma once
// HiSparse SpMV as a tree walk on the CUDA controller (scheduler/controller.hpp):
// the walk of hisparse_scheduled.hpp, its child kernels launched from the
// device. A run needs relocatable device code, so the product is compiled in
// a unit of its own (algorithms/spmv/eti/hisparse_controlled_eti.cpp, built by
// cmake/StrataDeviceLink.cmake) for x and y as strided vectors, into which the
// caller's vectors convert without a copy; every other unit sees the
// declaration and the library's instances.
#include <strata/algorithms/spmv/hisparse_scheduled.hpp>
#include <strata/core/explicit_instances.hpp>
#include <strata/scheduler/controller.hpp>

#include <cstdint>

namespace strata::Impl {

template <class ExecSpace>
using HiSparseControllerLauncher = scheduler::ControllerLauncher<hisparse_queues::SpmvQueues, ExecSpace>;

template <class Value, class Device>
using ControlledX = Kokkos::View<const Value*, Kokkos::LayoutStride, Device, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
template <class Value, class Device>
using ControlledY = Kokkos::View<Value*, Kokkos::LayoutStride, Device, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

template <class ExecSpace, class Value, class Device>
scheduler::ScheduleReport hisparse_controlled_product(const ExecSpace& space,
                                                      HiSparseControllerLauncher<ExecSpace>& launcher,
                                                      const HiSparseMatrix<Value, Device>& A, std::uint32_t root_count,
                                                      bool transpose, bool conjugate, Value alpha,
                                                      const ControlledX<Value, Device>& x,
                                                      const ControlledY<Value, Device>& y)
#if defined(__CUDACC_RDC__)
{
  return hisparse_scheduled_product(space, launcher, A, root_count, transpose, conjugate, alpha, x, y);
}
#else
    ;
#endif

// Any rank-1 vector as the strided view the compiled product takes, of `Value` (const for x: a
// strided x reaches here as its caller's view, which may be writable).
template <class Value, class View>
auto controlled_vector(const View& v) {
  using device = typename View::device_type;
  using Strided = Kokkos::View<Value*, Kokkos::LayoutStride, device, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  return Strided(v.data(), Kokkos::LayoutStride(v.extent(0), v.stride(0)));
}

}  // namespace strata::Impl

#if defined(KOKKOS_ENABLE_CUDA) && STRATA_ENABLE_CUDA_CONTROLLER
// EXTERN is `extern` (a declaration, here) or empty (the definition, in the library's units).
#define STRATA_HISPARSE_CONTROLLED_ETI(EXTERN, VALUE)                                                           \
  EXTERN template ::strata::scheduler::ScheduleReport                                                           \
  strata::Impl::hisparse_controlled_product<::strata::Impl::eti::exec, VALUE, ::strata::Impl::eti::device>(     \
      const ::strata::Impl::eti::exec&, ::strata::Impl::HiSparseControllerLauncher<::strata::Impl::eti::exec>&, \
      const ::strata::HiSparseMatrix<VALUE, ::strata::Impl::eti::device>&, std::uint32_t, bool, bool, VALUE,    \
      const ::strata::Impl::ControlledX<VALUE, ::strata::Impl::eti::device>&,                                   \
      const ::strata::Impl::ControlledY<VALUE, ::strata::Impl::eti::device>&);
STRATA_FOR_EACH_VALUE(STRATA_HISPARSE_CONTROLLED_ETI, extern)
#endif
