#include "test_value_types.hpp"
#include "formats/dcsr/dcsr_test_support.hpp"
#include "spmv_check.hpp"

#include <strata/algorithms/baseline/csr_rebuild.hpp>
#include <strata/core/generators.hpp>
#include <strata/algorithms/spmv/hyb.hpp>

#include <gtest/gtest.h>

namespace strata {
namespace {

using test::DcsrDevice;
using test::DcsrExec;

template <class Value>
class DcsrUpdateBaselines : public ::testing::Test {};
using ValueTypes = test::ValueTypes;
TYPED_TEST_SUITE(DcsrUpdateBaselines, ValueTypes);

TYPED_TEST(DcsrUpdateBaselines, CsrRebuildSumsTheBatchIn) {
  using Value = TypeParam;
  const auto start = convert_values<Value>(gen::uniform_random(90, 60, 4, 11));
  baseline::CsrRebuild<Value, DcsrExec> rebuild(to_kokkos_crs<DeviceCsr<Value, DcsrDevice>>(start, "t"));
  auto want = test::rows_of(start);
  for (int round = 0; round < 3; ++round) {
    const auto batch = test::random_batch<Value>(300, 90, 60, 60, 70 + round);
    const auto d = test::upload(batch);
    rebuild.insert(d.rows, d.cols, d.values);
    test::reference_insert(want, batch, DuplicatePolicy::sum);
  }
  test::expect_same_rows(test::rows_of(from_kokkos_crs(rebuild.matrix())), want);
}

TYPED_TEST(DcsrUpdateBaselines, HybInsertionAndSpmvMatchReference) {
  using Value = TypeParam;
  const auto start = convert_values<Value>(gen::rmat({8, 4, 0.57, 0.19, 0.19, 4}));
  auto A = hyb_from_csr<Value, DcsrDevice>(to_kokkos_crs<DeviceCsr<Value, DcsrDevice>>(start, "t"), 4);
  auto rows = test::rows_of(start);
  for (int round = 0; round < 3; ++round) {
    const auto batch = test::random_batch<Value>(400, start.num_rows, start.num_cols, start.num_cols, 90 + round);
    const auto d = test::upload(batch);
    A.insert(d.rows, d.cols, d.values);
    test::reference_insert(rows, batch, DuplicatePolicy::keep_separate);
  }
  index_type want_nnz = 0;
  for (const auto& r : rows) want_nnz += static_cast<index_type>(r.size());
  EXPECT_EQ(A.nnz(), want_nnz);
  // The COO part stays sorted by row.
  auto coo_rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.view().coo_rows);
  for (int k = 1; k < A.view().coo_nnz; ++k) EXPECT_LE(coo_rows(k - 1), coo_rows(k)) << "COO entry " << k;
  const auto reference = test::summed_csr(rows, start.num_cols);
  test::ApiProduct<DcsrExec, HybMatrix<Value, DcsrDevice>> kernel{A, {}};
  test::expect_spmv_matches_reference<Value, DcsrExec>(kernel, reference, "N", value_from<Value>(1.0, 0.0),
                                                       value_from<Value>(0.0, 0.0), true);
  test::expect_spmv_matches_reference<Value, DcsrExec>(kernel, reference, "N", value_from<Value>(-1.5, 0.5),
                                                       value_from<Value>(0.5, -2.0), false);
}

// One SpMV handle across insertions: HYB's overflow is multiplied by the load-balanced COO
// kernel, whose chunks must follow the overflow's new length (a stale chunking would skip entries).
TEST(DcsrUpdateBaselinesHyb, OneHandleFollowsTheOverflowThroughInsertions) {
  const auto start = gen::poisson2d_5pt(20);
  auto A = hyb_from_csr<double, DcsrDevice>(to_kokkos_crs<DeviceCsr<double, DcsrDevice>>(start, "t"), 2);
  test::ApiProduct<DcsrExec, HybMatrix<double, DcsrDevice>> kernel{A, {}};
  test::expect_spmv_matches_reference<double, DcsrExec>(kernel, start, "N", -1.5, 0.5, false);
  HostCoo<double> grown(start.num_rows, start.num_cols);
  for (index_type i = 0; i < start.num_rows; ++i) {
    for (index_type k = start.row_offsets[i]; k < start.row_offsets[i + 1]; ++k)
      grown.push_back(i, start.cols[k], start.values[k]);
  }
  test::HostBatch<double> batch;
  for (int j = 0; j < 300; ++j) {  // one row grows by 300 entries, far past the ELL width
    batch.rows.push_back(7);
    batch.cols.push_back(j);
    batch.values.push_back(0.5 + j % 3);
    grown.push_back(7, j, 0.5 + j % 3);
  }
  const auto d = test::upload(batch);
  A.insert(d.rows, d.cols, d.values);
  const auto reference = to_csr(grown);
  test::expect_spmv_matches_reference<double, DcsrExec>(kernel, reference, "N", -1.5, 0.5, false);
  test::expect_spmv_matches_reference<double, DcsrExec>(kernel, reference, "T", 1.0, 0.0, true);
  EXPECT_NE(kernel.handle.describe().find("overflow load_balanced"), std::string::npos) << kernel.handle.describe();
}

// One handle across insertions into free ELL slots: its 16-bit offsets of the ELL columns are encoded
// again after each (stale ones would read the new slots as empty), and an insertion that leaves a
// tile's slot too wide for offsets puts that slot's columns in 32 bits.
TEST(DcsrUpdateBaselinesHyb, OneHandleFollowsTheEllOffsetsThroughInsertions) {
  constexpr index_type rows = 96, cols = 70000;
  HostCoo<double> grown(rows, cols);
  for (index_type r = 0; r < rows; ++r) {
    grown.push_back(r, r, 2.0);
    grown.push_back(r, r + 1, -1.0);
  }
  auto A = hyb_from_csr<double, DcsrDevice>(to_kokkos_crs<DeviceCsr<double, DcsrDevice>>(to_csr(grown), "t"), 4);
  test::ApiProduct<DcsrExec, HybMatrix<double, DcsrDevice>> kernel{A, {}};
  test::expect_spmv_matches_reference<double, DcsrExec>(kernel, to_csr(grown), "N", -1.5, 0.5, false);
  auto insert = [&](const test::HostBatch<double>& batch) {
    const auto d = test::upload(batch);
    A.insert(d.rows, d.cols, d.values);
    for (std::size_t k = 0; k < batch.rows.size(); ++k) grown.push_back(batch.rows[k], batch.cols[k], batch.values[k]);
  };
  test::HostBatch<double> third_slot;
  for (index_type r = 0; r < rows; ++r) {
    third_slot.rows.push_back(static_cast<int>(r));
    third_slot.cols.push_back(static_cast<int>(r + 2));
    third_slot.values.push_back(0.25 + static_cast<double>(r % 5));
  }
  insert(third_slot);
  test::expect_spmv_matches_reference<double, DcsrExec>(kernel, to_csr(grown), "N", 1.0, 0.0, true);
  EXPECT_NE(kernel.handle.describe().find("0 of 12 tile slots in 32 bits"), std::string::npos)
      << kernel.handle.describe();
  insert(test::HostBatch<double>{{5, 6}, {69000, 0}, {3.0, -4.0}});  // slot 3 of rows 0-31: columns 0 and 69000
  test::expect_spmv_matches_reference<double, DcsrExec>(kernel, to_csr(grown), "N", -1.5, 0.5, false);
  test::expect_spmv_matches_reference<double, DcsrExec>(kernel, to_csr(grown), "T", 1.0, 0.0, true);
  EXPECT_NE(kernel.handle.describe().find("1 of 12 tile slots in 32 bits"), std::string::npos)
      << kernel.handle.describe();
}

TEST(DcsrUpdateBaselinesInput, OutOfRangeBatchIsRefused) {
  auto A = hyb_from_csr<double, DcsrDevice>(to_kokkos_crs<DeviceCsr<double, DcsrDevice>>(gen::poisson2d_5pt(4), "t"), 2);
  const auto d = test::upload(test::HostBatch<double>{{0, 16}, {0, 0}, {1.0, 1.0}});
  EXPECT_THROW(A.insert(d.rows, d.cols, d.values), Error);
  baseline::CsrRebuild<double, DcsrExec> rebuild(to_kokkos_crs<DeviceCsr<double, DcsrDevice>>(gen::poisson2d_5pt(4), "t"));
  EXPECT_THROW(rebuild.insert(d.rows, d.cols, d.values), Error);
}

}  // namespace
}  // namespace strata
