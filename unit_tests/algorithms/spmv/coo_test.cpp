// strata::spmv on CooMatrix: the load-balanced kernel with every omega class,
// deterministic mode, autotuning, and cuSPARSE's COO where the build has it.
#include "algorithms/spmv/spmv_api_cases.hpp"

// The internals of this format's kernels, tested below (strata::spmv itself needs none).
#include <strata/algorithms/spmv/coo.hpp>

#include <algorithm>

namespace strata {
namespace {

using test::Device;
using test::ExecSpace;

template <class Value>
class CooSpmv : public ::testing::Test {};
TYPED_TEST_SUITE(CooSpmv, test::ValueTypes);

template <class Value>
CooMatrix<Value, Device> make_coo(const HostCsr<Value>& host) {
  return coo_from_host<Value, Device>(host, "strata::test_coo");
}

TYPED_TEST(CooSpmv, LoadBalancedMatchesReferenceEverywhere) {
  test::check_every_case<TypeParam, CooMatrix<TypeParam, Device>>(make_coo<TypeParam>);
}

TYPED_TEST(CooSpmv, EveryOmegaAndDeterministicModeMatchReference) {
  for (int omega : {1, 3, 256}) {
    for (bool deterministic : {false, true}) {
      SCOPED_TRACE("omega " + std::to_string(omega) + (deterministic ? " deterministic" : ""));
      SpmvSettings s;
      s.omega = omega;
      s.deterministic = deterministic;
      test::check_every_case<TypeParam, CooMatrix<TypeParam, Device>>(
          make_coo<TypeParam>, s, deterministic ? std::vector<std::string>{"N", "C"} : test::all_modes());
    }
  }
}

TYPED_TEST(CooSpmv, CusparseMatchesReferenceWhereAvailable) {
  if constexpr (Impl::cusparse_spmv_available<ExecSpace>::value) {
    SpmvSettings s;
    s.algorithm = SpmvAlgorithm::cusparse;
    test::check_every_case<TypeParam, CooMatrix<TypeParam, Device>>(make_coo<TypeParam>, s);
  } else {
    EXPECT_THROW((SpmvHandle<ExecSpace, CooMatrix<TypeParam, Device>>(SpmvAlgorithm::cusparse)), Error);
  }
}

TYPED_TEST(CooSpmv, DeterministicModeIsBitwiseReproducible) {
  using Value = TypeParam;
  const auto host = test::test_values<Value>(gen::rmat({13, 16, 0.57, 0.19, 0.19, 4}));
  const auto A = make_coo(host);
  const auto x_host = test::test_vector<Value>(host.num_cols, 3);
  Kokkos::View<Value*, Device> x("x", host.num_cols), y1("y1", host.num_rows), y2("y2", host.num_rows);
  auto x_m = Kokkos::create_mirror_view(x);
  for (index_type i = 0; i < host.num_cols; ++i) x_m(i) = x_host[i];
  Kokkos::deep_copy(x, x_m);
  SpmvHandle<ExecSpace, CooMatrix<Value, Device>> handle;
  handle.set_deterministic(true);
  handle.set_omega(64);
  spmv(ExecSpace(), handle, "N", Value(1), A, x, Value(0), y1);
  auto first = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y1);
  for (int run = 0; run < 5; ++run) {
    // A fresh handle each time as well: the result must not depend on it.
    SpmvHandle<ExecSpace, CooMatrix<Value, Device>> fresh;
    fresh.set_deterministic(true);
    fresh.set_omega(64);
    spmv(ExecSpace(), run % 2 ? handle : fresh, "N", Value(1), A, x, Value(0), y2);
    auto again = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y2);
    for (index_type i = 0; i < host.num_rows; ++i) {
      ASSERT_EQ(real_part(again(i)), real_part(first(i))) << "run " << run << " row " << i;
      ASSERT_EQ(imag_part(again(i)), imag_part(first(i))) << "run " << run << " row " << i;
    }
  }
}

TEST(CooSpmvHandChecked, ThreeByFour) {
  // [1 0 2 0; 0 0 0 0; 3 4 0 5] * [1 2 3 4] = [7 0 31]; transposed with [1 1 1]: [4 4 2 5].
  HostCoo<double> host(3, 4);
  host.push_back(0, 0, 1);
  host.push_back(0, 2, 2);
  host.push_back(2, 0, 3);
  host.push_back(2, 1, 4);
  host.push_back(2, 3, 5);
  const auto A = coo_from_host<double, Device>(host, "strata::hand");
  Kokkos::View<double*, Device> x("x", 4), y("y", 3), xt("xt", 3), yt("yt", 4);
  auto x_h = Kokkos::create_mirror_view(x);
  for (int i = 0; i < 4; ++i) x_h(i) = i + 1;
  Kokkos::deep_copy(x, x_h);
  Kokkos::deep_copy(xt, 1.0);
  Kokkos::deep_copy(y, std::numeric_limits<double>::quiet_NaN());
  spmv(ExecSpace(), "N", 1.0, A, x, 0.0, y);
  spmv(ExecSpace(), "T", 1.0, A, xt, 0.0, yt);
  auto y_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  auto yt_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), yt);
  EXPECT_EQ(y_h(0), 7.0);
  EXPECT_EQ(y_h(1), 0.0);
  EXPECT_EQ(y_h(2), 31.0);
  EXPECT_EQ(yt_h(0), 4.0);
  EXPECT_EQ(yt_h(1), 4.0);
  EXPECT_EQ(yt_h(2), 2.0);
  EXPECT_EQ(yt_h(3), 5.0);
}

TEST(CooSpmvAutotune, PicksAnOmegaOfTheLadderKeepsItOnTheHandleAndStaysCorrect) {
  const auto host = gen::rmat({11, 8, 0.57, 0.19, 0.19, 2});
  const auto A = make_coo(host);
  test::ApiProduct<ExecSpace, CooMatrix<double, Device>> product{A, {}};
  product.handle.set_autotune(true);
  test::expect_spmv_matches_reference<double, ExecSpace>(product, host, "N", 1.0, 0.0, true);
  const std::string d = product.handle.describe();
  EXPECT_NE(d.find("autotuned over 9 values"), std::string::npos) << d;
  bool omega_of_ladder = false;
  for (int omega : Impl::coo_omega_ladder()) omega_of_ladder |= d.find("omega=" + std::to_string(omega) + ",") != std::string::npos;
  EXPECT_TRUE(omega_of_ladder) << d;
}

}  // namespace
}  // namespace strata
