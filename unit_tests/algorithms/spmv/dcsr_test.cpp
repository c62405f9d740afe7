// strata::spmv on DcsrMatrix with both kernels (row_vectors, binned_rows =
// ADCSR): the typed suite, then fragmented matrices after insertions.
#include "algorithms/spmv/spmv_api_cases.hpp"
#include "formats/dcsr/dcsr_test_support.hpp"

namespace strata {
namespace {

using test::DcsrDevice;
using test::DcsrExec;

template <class Value>
class DcsrSpmvTest : public ::testing::Test {};
TYPED_TEST_SUITE(DcsrSpmvTest, test::ValueTypes);

template <class Value>
DcsrMatrix<Value, DcsrDevice> make_dcsr(const HostCsr<Value>& host) {
  return dcsr_from_csr<Value, DcsrDevice>(to_kokkos_crs<DeviceCsr<Value, DcsrDevice>>(host, "strata::test_dcsr"));
}

// One test per kernel, so that a failure or a sanitizer report names the kernel.
TYPED_TEST(DcsrSpmvTest, RowKernelMatchesReferenceEverywhere) {
  SpmvSettings s;
  s.algorithm = SpmvAlgorithm::row_vectors;
  test::check_every_case<TypeParam, DcsrMatrix<TypeParam, DcsrDevice>>(make_dcsr<TypeParam>, s);
}

TYPED_TEST(DcsrSpmvTest, BinnedKernelMatchesReferenceEverywhere) {
  SpmvSettings s;
  s.algorithm = SpmvAlgorithm::binned_rows;
  test::check_every_case<TypeParam, DcsrMatrix<TypeParam, DcsrDevice>>(make_dcsr<TypeParam>, s);
}

// The handle's lane count replaces the one from the mean row length.
TYPED_TEST(DcsrSpmvTest, RowKernelMatchesReferenceWithOneLaneAndWithAWarp) {
  test::check_every_case_with_one_lane_and_a_warp<TypeParam, DcsrMatrix<TypeParam, DcsrDevice>>(make_dcsr<TypeParam>);
}

template <class Value>
void expect_both_kernels_match(const DcsrMatrix<Value, DcsrDevice>& A, const HostCsr<Value>& reference) {
  const Value alphas[] = {value_from<Value>(1.0, 0.0), value_from<Value>(-1.5, 0.5)};
  const Value betas[] = {value_from<Value>(0.0, 0.0), value_from<Value>(0.5, -2.0)};
  for (SpmvAlgorithm a : {SpmvAlgorithm::row_vectors, SpmvAlgorithm::binned_rows}) {
    SCOPED_TRACE(to_string(a));
    test::ApiProduct<DcsrExec, DcsrMatrix<Value, DcsrDevice>> product{A, SpmvHandle<DcsrExec, DcsrMatrix<Value, DcsrDevice>>(a)};
    for (const std::string mode : {"N", "T", "H"}) {
      for (const Value& alpha : alphas) {
        for (const Value& beta : betas) {
          test::expect_spmv_matches_reference<Value, DcsrExec>(product, reference, mode, alpha, beta, false);
        }
      }
      test::expect_spmv_matches_reference<Value, DcsrExec>(product, reference, mode, alphas[1], betas[0], true,
                                                           {3, false});
    }
  }
}

TYPED_TEST(DcsrSpmvTest, FragmentedAndDefragmentedMatchReference) {
  using Value = TypeParam;
  for (auto policy : {DuplicatePolicy::keep_separate, DuplicatePolicy::sum}) {
    const auto start = test::test_values<Value>(gen::rmat({8, 4, 0.57, 0.19, 0.19, 2}));
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

// ADCSR's one launch: rows of every length from 0 to 140 (bins 0 to 7, lanes 1 to 32), so
// that items of different bins and lane counts share a team, bins end inside items, and the
// last team is partly empty; then the same after insertions moved rows to other bins
// (products before the reanalysis keep the old bins and must still be right).
TYPED_TEST(DcsrSpmvTest, BinnedKernelCoversEveryBinAndPartialItems) {
  using Value = TypeParam;
  const index_type rows = 1003, cols = 300;
  HostCoo<double> coo(rows, cols);
  for (index_type r = 0; r < rows; ++r) {
    const index_type length = (r * 37) % 141;
    for (index_type k = 0; k < length; ++k)
      coo.push_back(r, (r + 2 * k) % cols, 0.25 * static_cast<double>(k % 7) - 0.5);
  }
  const auto start = test::test_values<Value>(to_csr(coo));
  auto A = make_dcsr<Value>(start);
  SpmvHandle<DcsrExec, DcsrMatrix<Value, DcsrDevice>> handle(SpmvAlgorithm::binned_rows);
  test::ApiProduct<DcsrExec, DcsrMatrix<Value, DcsrDevice>> product{A, std::move(handle)};
  const Value alpha = value_from<Value>(-1.5, 0.5), beta = value_from<Value>(0.5, -2.0);
  test::expect_spmv_matches_reference<Value, DcsrExec>(product, start, "N", alpha, beta, false);
  test::expect_spmv_matches_reference<Value, DcsrExec>(product, start, "N", alpha, beta, false, {3, false});
  EXPECT_NE(product.handle.describe().find("8 bins"), std::string::npos) << product.handle.describe();

  auto host_rows = test::rows_of(start);
  const auto batch =
      test::random_batch<Value>(2500, static_cast<int>(rows), static_cast<int>(cols), static_cast<int>(cols), 77);
  test::insert_batch(A, batch, DuplicatePolicy::sum);
  test::reference_insert(host_rows, batch, DuplicatePolicy::sum);
  const auto grown = test::summed_csr(host_rows, cols);
  SCOPED_TRACE("after insertions, old bins");
  test::expect_spmv_matches_reference<Value, DcsrExec>(product, grown, "N", alpha, beta, false);
  product.handle.reanalyze(DcsrExec(), A);
  SCOPED_TRACE("after insertions, bins refitted");
  test::expect_spmv_matches_reference<Value, DcsrExec>(product, grown, "N", alpha, beta, false, {2, false});
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
  SpmvHandle<DcsrExec, DcsrMatrix<double, DcsrDevice>> adcsr(SpmvAlgorithm::binned_rows);
  spmv(DcsrExec(), adcsr, "N", 1.0, A, x, 0.0, y);
  auto y_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  EXPECT_EQ(y_h(0), 3.0);
  EXPECT_EQ(y_h(1), 7.0);
  // The handle stays bound to A through further insertions (the bins are refitted on request).
  test::insert_batch(A, test::HostBatch<double>{{0}, {1}, {10.0}}, DuplicatePolicy::sum);
  spmv(DcsrExec(), adcsr, "N", 1.0, A, x, 0.0, y);
  Kokkos::deep_copy(y_h, y);
  EXPECT_EQ(y_h(0), 13.0);
  adcsr.reanalyze(DcsrExec(), A);
  spmv(DcsrExec(), adcsr, "N", 1.0, A, x, 0.0, y);
  Kokkos::deep_copy(y_h, y);
  EXPECT_EQ(y_h(0), 13.0);
  EXPECT_EQ(y_h(1), 7.0);
}

}  // namespace
}  // namespace strata
