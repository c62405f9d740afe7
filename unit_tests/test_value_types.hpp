#pragma once
// The value types of the typed tests, in one place. Every build that runs the tests uses all four
// (float, double, complex<float>, complex<double>: the types the library is instantiated for).
// STRATA_TEST_VALUE_TYPES=reduced (CMake) narrows them to double and complex<float>, one real and
// one complex type of different widths: CI's cuda stage compiles the tests without running them
// (there is no GPU), and the library's own explicit instances still cover all four types there
// (docs/BACKENDS.md, "Measured times"). The property tests draw random matrices and always run on
// the two types of the reduced set.
#include <Kokkos_Core.hpp>

#include <gtest/gtest.h>

namespace strata::test {

#if STRATA_TEST_REDUCED_VALUE_TYPES
using ValueTypes = ::testing::Types<double, Kokkos::complex<float>>;
#else
using ValueTypes = ::testing::Types<float, double, Kokkos::complex<float>, Kokkos::complex<double>>;
#endif
using PropertyValueTypes = ::testing::Types<double, Kokkos::complex<float>>;

}  // namespace strata::test
