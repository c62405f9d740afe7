#pragma once
// The value types of the typed tests, in one place. By default all four (float, double,
// complex<float>, complex<double>: the types the library is instantiated for).
// STRATA_TEST_VALUE_TYPES=reduced (CMake) narrows them to double and complex<double>, one real and
// one complex type, the two widths of Kokkos' host atomics (8 bytes: native compare-and-swap, as
// float and complex<float> take; 16 bytes: the lock-based path). CI's cuda stage compiles the tests
// without running them (there is no GPU) and its openmp stage runs them under the sanitizers, where
// the other two types would add compile time and launches, not code paths; the debian stage and the
// GPU check run all four, and the library's own explicit instances cover all four everywhere
// (docs/BACKENDS.md, "Measured times"). The property tests draw random matrices and always run on
// double and complex<float>.
#include <Kokkos_Core.hpp>

#include <gtest/gtest.h>

namespace strata::test {

#if STRATA_TEST_REDUCED_VALUE_TYPES
using ValueTypes = ::testing::Types<double, Kokkos::complex<double>>;
#else
using ValueTypes = ::testing::Types<float, double, Kokkos::complex<float>, Kokkos::complex<double>>;
#endif
using PropertyValueTypes = ::testing::Types<double, Kokkos::complex<float>>;

}  // namespace strata::test
