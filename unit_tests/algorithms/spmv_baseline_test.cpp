#include "algorithms/spmv_baseline_cases.hpp"

#include <strata/algorithms/baseline/kokkos_kernels_spmv.hpp>
#include <strata/core/generators.hpp>

#include <gtest/gtest.h>

namespace strata {
namespace {

using test::check_all;
using test::Device;
using test::ExecSpace;

template <class Value>
class SpmvBaseline : public ::testing::Test {};
using ValueTypes = ::testing::Types<float, double, Kokkos::complex<float>, Kokkos::complex<double>>;
TYPED_TEST_SUITE(SpmvBaseline, ValueTypes);

TYPED_TEST(SpmvBaseline, KokkosKernelsNativeMatchesReference) {
  using Value = TypeParam;
  check_all<Value>(
      [](const DeviceCsr<Value, Device>& A) {
        return std::make_unique<baseline::KokkosKernelsCsrSpmv<Value, ExecSpace>>(A, compat::KkSpmvAlgorithm::native);
      },
      {"N", "T"});
}

TYPED_TEST(SpmvBaseline, KokkosKernelsMergePathMatchesReferenceWhereAvailable) {
  using Value = TypeParam;
  if constexpr (compat::kk_has_merge_path) {
    check_all<Value>(
        [](const DeviceCsr<Value, Device>& A) {
          return std::make_unique<baseline::KokkosKernelsCsrSpmv<Value, ExecSpace>>(
              A, compat::KkSpmvAlgorithm::merge_path);
        },
        {"N", "T"});
  } else {
    using Kernel = baseline::KokkosKernelsCsrSpmv<Value, ExecSpace>;
    const auto A = to_kokkos_crs<DeviceCsr<Value, Device>>(convert_values<Value>(gen::poisson2d_5pt(3)), "strata::t");
    EXPECT_THROW(Kernel(A, compat::KkSpmvAlgorithm::merge_path), std::runtime_error);
  }
}

TEST(SpmvBaselineHandChecked, TwoByThree) {
  // [1 0 2; 0 3 0] * [1 1 1]^T = [3 3], and transposed with [1 2]: [1 6 2].
  HostCoo<double> coo(2, 3);
  coo.push_back(0, 0, 1.0);
  coo.push_back(0, 2, 2.0);
  coo.push_back(1, 1, 3.0);
  const auto A = to_kokkos_crs<DeviceCsr<double, Device>>(to_csr(coo), "strata::two_by_three");
  baseline::KokkosKernelsCsrSpmv<double, ExecSpace> kk(A, compat::KkSpmvAlgorithm::native);
  Kokkos::View<double*, Device> x("x", 3), y("y", 2), xt("xt", 2), yt("yt", 3);
  Kokkos::deep_copy(x, 1.0);
  auto xt_h = Kokkos::create_mirror_view(xt);
  xt_h(0) = 1.0;
  xt_h(1) = 2.0;
  Kokkos::deep_copy(xt, xt_h);
  kk.apply(ExecSpace(), "N", 1.0, x, 0.0, y);
  kk.apply(ExecSpace(), "T", 1.0, xt, 0.0, yt);
  auto y_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  auto yt_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), yt);
  EXPECT_EQ(y_h(0), 3.0);
  EXPECT_EQ(y_h(1), 3.0);
  EXPECT_EQ(yt_h(0), 1.0);
  EXPECT_EQ(yt_h(1), 6.0);
  EXPECT_EQ(yt_h(2), 2.0);
}

}  // namespace
}  // namespace strata
