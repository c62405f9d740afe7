#include "formats/dcsr/dcsr_test_support.hpp"
#include "spmv_check.hpp"

#include <strata/algorithms/spmv/dcsr_spmv.hpp>
#include <strata/core/generators.hpp>

#include <gtest/gtest.h>

namespace strata {
namespace {

using test::DcsrDevice;
using test::DcsrExec;

template <class Value>
class DcsrSpmvTest : public ::testing::Test {};
using ValueTypes = ::testing::Types<float, double, Kokkos::complex<float>, Kokkos::complex<double>>;
TYPED_TEST_SUITE(DcsrSpmvTest, ValueTypes);

// The apply(space, mode, alpha, x, beta, y) shape expect_spmv_matches_reference uses.
template <class Plan, class Matrix>
struct BoundSpmv {
  Plan plan;
  const Matrix& A;
  template <class Value, class X, class Y>
  void apply(const DcsrExec& space, const char mode[], Value alpha, const X& x, Value beta, const Y& y) {
    plan.apply(space, mode, alpha, A, x, beta, y);
  }
};

template <class Value>
void expect_both_kernels_match(const DcsrMatrix<Value, DcsrDevice>& A, const HostCsr<Value>& reference) {
  const Value alphas[] = {value_from<Value>(1.0, 0.0), value_from<Value>(-1.5, 0.5)};
  const Value betas[] = {value_from<Value>(0.0, 0.0), value_from<Value>(0.5, -2.0)};
  BoundSpmv<DcsrSpmv<Value, DcsrExec>, DcsrMatrix<Value, DcsrDevice>> vector_per_row{DcsrSpmv<Value, DcsrExec>(A), A};
  BoundSpmv<AdcsrSpmv<Value, DcsrExec>, DcsrMatrix<Value, DcsrDevice>> binned{AdcsrSpmv<Value, DcsrExec>(A), A};
  for (const Value& alpha : alphas) {
    for (const Value& beta : betas) {
      test::expect_spmv_matches_reference<Value, DcsrExec>(vector_per_row, reference, "N", alpha, beta, false);
      test::expect_spmv_matches_reference<Value, DcsrExec>(binned, reference, "N", alpha, beta, false);
    }
  }
  test::expect_spmv_matches_reference<Value, DcsrExec>(vector_per_row, reference, "N", alphas[1], betas[0], true);
  test::expect_spmv_matches_reference<Value, DcsrExec>(binned, reference, "N", alphas[1], betas[0], true);
}

TYPED_TEST(DcsrSpmvTest, FragmentedAndDefragmentedMatchReference) {
  using Value = TypeParam;
  for (auto policy : {DuplicatePolicy::keep_separate, DuplicatePolicy::sum}) {
    const auto start = convert_values<Value>(gen::rmat({8, 4, 0.57, 0.19, 0.19, 2}));
    auto A = dcsr_from_csr<Value, DcsrDevice>(to_kokkos_crs<DeviceCsr<Value, DcsrDevice>>(start, "strata::start"));
    auto rows = test::rows_of(start);
    for (int round = 0; round < 3; ++round) {
      const auto batch = test::random_batch<Value>(700, start.num_rows, start.num_cols, start.num_cols, 40 + round);
      test::insert_batch(A, batch, policy);
      test::reference_insert(rows, batch, policy);
    }
    const auto reference = test::summed_csr(rows, start.num_cols);
    SCOPED_TRACE("fragmented");
    expect_both_kernels_match(A, reference);
    dcsr_defragment(A);
    SCOPED_TRACE("defragmented");
    expect_both_kernels_match(A, reference);
    dcsr_defragment(A, DcsrRowOrder::by_length);
    SCOPED_TRACE("defragmented by length");
    expect_both_kernels_match(A, reference);
  }
}

TYPED_TEST(DcsrSpmvTest, EdgeShapesMatchReference) {
  using Value = TypeParam;
  std::vector<HostCsr<double>> shapes{gen::dense(33, 65, 6), gen::banded(100, 40), gen::uniform_random(70, 45, 5, 3),
                                      HostCsr<double>{}};
  HostCsr<double> no_entries;
  no_entries.num_rows = 5;
  no_entries.num_cols = 3;
  no_entries.row_offsets.assign(6, 0);
  shapes.push_back(no_entries);
  for (const auto& shape : shapes) {
    const auto host = convert_values<Value>(shape);
    const auto A = dcsr_from_csr<Value, DcsrDevice>(to_kokkos_crs<DeviceCsr<Value, DcsrDevice>>(host, "t"));
    expect_both_kernels_match(A, host);
  }
}

TEST(DcsrSpmvHandChecked, TwoByThreeAfterInsertion) {
  // [1 0 2; 0 3 0] + (1,2)=4 -> times [1 1 1] = [3 7].
  HostCoo<double> coo(2, 3);
  coo.push_back(0, 0, 1.0);
  coo.push_back(0, 2, 2.0);
  coo.push_back(1, 1, 3.0);
  auto A = dcsr_from_csr<double, DcsrDevice>(to_kokkos_crs<DeviceCsr<double, DcsrDevice>>(to_csr(coo), "t"));
  test::insert_batch(A, test::HostBatch<double>{{1}, {2}, {4.0}}, DuplicatePolicy::sum);
  Kokkos::View<double*, DcsrDevice> x("x", 3), y("y", 2);
  Kokkos::deep_copy(x, 1.0);
  AdcsrSpmv<double, DcsrExec> adcsr(A);
  adcsr.apply(DcsrExec(), "N", 1.0, A, x, 0.0, y);
  auto y_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  EXPECT_EQ(y_h(0), 3.0);
  EXPECT_EQ(y_h(1), 7.0);
  EXPECT_THROW(adcsr.apply(DcsrExec(), "T", 1.0, A, x, 0.0, y), Error);
}

}  // namespace
}  // namespace strata
