#pragma once
// Where the library's compiled instances run: the default execution space on
// its memory space, the four value types. Each operation compiled once in the
// library declares its instances `extern` in its own header
// (STRATA_FOR_EACH_VALUE below spells the list once), so that the other
// translation units parse its kernels but do not generate them again; the
// library defines them in one generated file per value type
// (cmake/StrataInstances.cmake). Other spaces and types compile where they are
// used, from the same definitions.
#include <Kokkos_Core.hpp>

namespace strata::Impl::eti {

using exec = Kokkos::DefaultExecutionSpace;
using device = Kokkos::Device<exec, exec::memory_space>;

}  // namespace strata::Impl::eti

// MACRO(ARG, VALUE) for each value type the library compiles, in the order of
// cmake/StrataInstances.cmake.
#define STRATA_FOR_EACH_VALUE(MACRO, ARG) \
  MACRO(ARG, float)                       \
  MACRO(ARG, double)                      \
  MACRO(ARG, Kokkos::complex<float>)      \
  MACRO(ARG, Kokkos::complex<double>)

