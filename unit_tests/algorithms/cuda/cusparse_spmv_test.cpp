#include "algorithms/spmv_baseline_cases.hpp"

#include <strata/algorithms/baseline/cusparse_spmv.hpp>

#include <gtest/gtest.h>

// Built only when STRATA_ENABLE_CUSPARSE: cuSPARSE exists for Kokkos::Cuda alone.
namespace strata {
namespace {

using test::Device;
using test::ExecSpace;

static_assert(baseline::cusparse_spmv_available<Kokkos::Cuda>::value,
              "this test is built only for CUDA builds with cuSPARSE");

template <class Value>
class CusparseSpmv : public ::testing::Test {};
using ValueTypes = ::testing::Types<float, double, Kokkos::complex<float>, Kokkos::complex<double>>;
TYPED_TEST_SUITE(CusparseSpmv, ValueTypes);

TYPED_TEST(CusparseSpmv, MatchesReference) {
  using Value = TypeParam;
  test::check_all<Value>(
      [](const DeviceCsr<Value, Device>& A) {
        return std::make_unique<baseline::CusparseCsrSpmv<Value, Kokkos::Cuda>>(A);
      },
      {"N", "T"});
}

}  // namespace
}  // namespace strata
