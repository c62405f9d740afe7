#include "algorithms/spmv_baseline_cases.hpp"

#include <strata/algorithms/spmv/coo_spmv.hpp>

#include <gtest/gtest.h>

namespace strata {
namespace {

using test::Device;
using test::ExecSpace;

template <class Value>
struct CooKernel {
  CooMatrix<Value, Device> A;
  CooSpmvOptions options;
  template <class X, class Y>
  void apply(const ExecSpace& space, const char mode[], Value alpha, const X& x, Value beta, const Y& y) {
    spmv(space, mode, alpha, A, x, beta, y, options);
  }
};

// The shared baseline matrices plus ones whose rows span several chunks.
std::vector<std::pair<std::string, HostCsr<double>>> coo_test_matrices() {
  auto m = test::test_matrices();
  m.emplace_back("dense_3x5000", gen::dense(3, 5000, 4));
  m.emplace_back("rmat_12", gen::rmat({12, 16, 0.57, 0.19, 0.19, 9}));
  HostCoo<double> one(1, 1);
  one.push_back(0, 0, 2.5);
  m.emplace_back("one_by_one", to_csr(one));
  return m;
}

template <class Value>
class CooSpmv : public ::testing::Test {};
using ValueTypes = ::testing::Types<float, double, Kokkos::complex<float>, Kokkos::complex<double>>;
TYPED_TEST_SUITE(CooSpmv, ValueTypes);

TYPED_TEST(CooSpmv, MatchesReferenceForEveryModeAlphaBetaAndOmega) {
  using Value = TypeParam;
  const Value alphas[] = {value_from<Value>(1.0, 0.0), value_from<Value>(-1.5, 0.5), value_from<Value>(0.0, 0.0)};
  const Value betas[] = {value_from<Value>(0.0, 0.0), value_from<Value>(1.0, 0.0), value_from<Value>(0.5, -2.0)};
  for (const auto& [name, real_matrix] : coo_test_matrices()) {
    const auto host = convert_values<Value>(real_matrix);
    for (int omega : {0, 1, 3, 256}) {
      for (bool deterministic : {false, true}) {
        SCOPED_TRACE(name + " omega " + std::to_string(omega) + (deterministic ? " deterministic" : ""));
        CooKernel<Value> kernel{coo_from_host<Value, Device>(host, "strata::test_" + name), {}};
        kernel.options.omega = omega;
        kernel.options.deterministic = deterministic;
        const std::vector<std::string> modes =
            deterministic ? std::vector<std::string>{"N", "C"} : std::vector<std::string>{"N", "T", "C", "H"};
        for (const auto& mode : modes) {
          for (const Value& alpha : alphas) {
            for (const Value& beta : betas) {
              test::expect_spmv_matches_reference<Value, ExecSpace>(kernel, host, mode, alpha, beta, false);
            }
          }
          test::expect_spmv_matches_reference<Value, ExecSpace>(kernel, host, mode, alphas[1], betas[0], true);
        }
      }
    }
  }
}

TYPED_TEST(CooSpmv, DeterministicModeIsBitwiseReproducible) {
  using Value = TypeParam;
  const auto host = convert_values<Value>(gen::rmat({13, 16, 0.57, 0.19, 0.19, 4}));
  const auto A = coo_from_host<Value, Device>(host, "strata::test_det");
  const auto x_host = test::test_vector<Value>(host.num_cols, 3);
  Kokkos::View<Value*, Device> x("x", host.num_cols), y1("y1", host.num_rows), y2("y2", host.num_rows);
  auto x_m = Kokkos::create_mirror_view(x);
  for (index_type i = 0; i < host.num_cols; ++i) x_m(i) = x_host[i];
  Kokkos::deep_copy(x, x_m);
  CooSpmvOptions options;
  options.deterministic = true;
  options.omega = 64;
  spmv(ExecSpace(), "N", Value(1), A, x, Value(0), y1, options);
  auto first = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y1);
  for (int run = 0; run < 5; ++run) {
    spmv(ExecSpace(), "N", Value(1), A, x, Value(0), y2, options);
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

TEST(CooSpmvArguments, WrongLengthsModesAndDeterministicTransposeAreRefused) {
  HostCoo<double> host(3, 4);
  host.push_back(0, 0, 1);
  const auto A = coo_from_host<double, Device>(host, "strata::args");
  Kokkos::View<double*, Device> x("x", 4), y("y", 3), bad("bad", 5);
  EXPECT_THROW(spmv(ExecSpace(), "N", 1.0, A, bad, 0.0, y), Error);
  EXPECT_THROW(spmv(ExecSpace(), "T", 1.0, A, x, 0.0, y), Error);
  EXPECT_THROW(spmv(ExecSpace(), "X", 1.0, A, x, 0.0, y), Error);
  CooSpmvOptions det;
  det.deterministic = true;
  Kokkos::View<double*, Device> xt("xt", 3), yt("yt", 4);
  EXPECT_THROW(spmv(ExecSpace(), "T", 1.0, A, xt, 0.0, yt, det), Error);
}

TEST(CooSpmvAutotune, PicksAnOmegaOfTheLadderCachesItAndStaysCorrect) {
  const auto host = gen::rmat({11, 8, 0.57, 0.19, 0.19, 2});
  const auto A = coo_from_host<double, Device>(host, "strata::autotune");
  const int omega = autotuned_coo_omega(ExecSpace(), A, false);
  const auto& ladder = coo_omega_ladder();
  EXPECT_NE(std::find(ladder.begin(), ladder.end(), omega), ladder.end());
  EXPECT_EQ(autotuned_coo_omega(ExecSpace(), A, false), omega);
  CooKernel<double> kernel{A, {}};
  kernel.options.autotune = true;
  test::expect_spmv_matches_reference<double, ExecSpace>(kernel, host, "N", 1.0, 0.0, true);
}

}  // namespace
}  // namespace strata
