// strata::spmv on DcsrMatrix with both kernels (row_vectors, binned_rows =
// ADCSR): the typed suite, then fragmented matrices after insertions.
#include "algorithms/spmv/spmv_api_cases.hpp"
#include "formats/dcsr/dcsr_test_support.hpp"

// The internals of this format's kernels, tested below (strata::spmv itself needs none).
#include <strata/algorithms/spmv/dcsr.hpp>

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

// ADCSR as it chooses (the binned launch or the row kernel), then always binned.
TYPED_TEST(DcsrSpmvTest, BinnedKernelMatchesReferenceEverywhere) {
  SpmvSettings s;
  s.algorithm = SpmvAlgorithm::binned_rows;
  test::check_every_case<TypeParam, DcsrMatrix<TypeParam, DcsrDevice>>(make_dcsr<TypeParam>, s);
  s.bin_always = true;
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
  for (const bool bin_always : {false, true}) {
    SpmvSettings s;
    s.algorithm = bin_always ? SpmvAlgorithm::binned_rows : SpmvAlgorithm::row_vectors;
    s.bin_always = bin_always;
    SCOPED_TRACE(to_string(s.algorithm));
    test::ApiProduct<DcsrExec, DcsrMatrix<Value, DcsrDevice>> product{
        A, SpmvHandle<DcsrExec, DcsrMatrix<Value, DcsrDevice>>(s)};
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
// last team is partly empty, and rows of 600 to 2100 entries (bins 9 to 11, a team per row on
// devices, after padding to a team boundary); then the same after insertions moved rows to
// other bins (products before the reanalysis keep the old bins and must still be right).
TYPED_TEST(DcsrSpmvTest, BinnedKernelCoversEveryBinAndPartialItems) {
  using Value = TypeParam;
  const index_type rows = 1003, cols = 2500;
  HostCoo<double> coo(rows, cols);
  for (index_type r = 0; r < rows; ++r) {
    index_type length = (r * 37) % 141;
    if (r == 5 || r == 17 || r == 400) length = 600;
    if (r == 6 || r == 900) length = 1100;
    if (r == 7) length = 2100;
    for (index_type k = 0; k < length; ++k)
      coo.push_back(r, (r + (length > 140 ? 1 : 2) * k) % cols, 0.25 * static_cast<double>(k % 7) - 0.5);
  }
  const auto start = test::test_values<Value>(to_csr(coo));
  auto A = make_dcsr<Value>(start);
  SpmvSettings settings;
  settings.algorithm = SpmvAlgorithm::binned_rows;
  settings.bin_always = true;
  test::ApiProduct<DcsrExec, DcsrMatrix<Value, DcsrDevice>> product{
      A, SpmvHandle<DcsrExec, DcsrMatrix<Value, DcsrDevice>>(settings)};
  const Value alpha = value_from<Value>(-1.5, 0.5), beta = value_from<Value>(0.5, -2.0);
  test::expect_spmv_matches_reference<Value, DcsrExec>(product, start, "N", alpha, beta, false);
  test::expect_spmv_matches_reference<Value, DcsrExec>(product, start, "N", alpha, beta, false, {3, false});
  const std::string described = product.handle.describe();
  EXPECT_NE(described.find("11 bins"), std::string::npos) << described;
  if (!runs_on_host<DcsrExec>) {
    EXPECT_NE(described.find("3 of team rows"), std::string::npos) << described;
  }

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

// A bin's lanes are what the row kernel gives rows of the bin's mean length; on devices rows
// longer than four passes of four warps take a team.
TEST(DcsrBinnedRule, LanesFollowTheRowRuleAtTheBinsMean) {
  for (const double mean : {1.0, 2.5, 4.0, 6.0, 10.0, 24.0, 100.0, 512.0}) {
    EXPECT_EQ(Impl::dcsr_bin_lanes(mean, true).lanes, lanes_for_mean_length(mean)) << mean;
    EXPECT_FALSE(Impl::dcsr_bin_lanes(mean, true).team_rows) << mean;
  }
  EXPECT_EQ(Impl::dcsr_bin_lanes(4.0, true).lanes, 1);  // ch8-8-b3's rows of 4: DCSR's one lane
  EXPECT_TRUE(Impl::dcsr_bin_lanes(513.0, true).team_rows);
  EXPECT_FALSE(Impl::dcsr_bin_lanes(5000.0, false).team_rows);  // host teams are one thread
  EXPECT_EQ(Impl::dcsr_bin_lanes(5000.0, false).lanes, 32);
}

// Binning pays where the longest rows would be 3x as many passes deep under the row kernel's
// lanes as under their bin's, and at least 8 passes deeper.
TEST(DcsrBinnedRule, BinningPaysForDeepLongestRows) {
  std::vector<index_type> offsets(dcsr_length_bin_count + 1, 0), entries(dcsr_length_bin_count, 0);
  const auto set_bins = [&](std::vector<std::pair<int, std::pair<index_type, index_type>>> bins) {
    std::fill(entries.begin(), entries.end(), 0);
    std::vector<index_type> counts(dcsr_length_bin_count, 0);
    for (const auto& [bin, rows_entries] : bins) {
      counts[bin] = rows_entries.first;
      entries[bin] = rows_entries.second;
    }
    for (int b = 0; b < dcsr_length_bin_count; ++b) offsets[b + 1] = offsets[b] + counts[b];
  };
  // Rows of 4 to 8 entries and two of 1300 (rajat01-like): 2 lanes leave 650 passes, a warp 41.
  set_bins({{2, {1000, 6000}}, {10, {2, 2600}}});
  auto items = Impl::dcsr_bin_items(offsets, entries, false);
  EXPECT_TRUE(Impl::dcsr_binning_pays(items, offsets, entries, 2));
  // Rows of 40-60 entries (sinc18-like): a warp either way.
  set_bins({{5, {1000, 28000}}, {6, {1000, 50000}}});
  items = Impl::dcsr_bin_items(offsets, entries, true);
  EXPECT_FALSE(Impl::dcsr_binning_pays(items, offsets, entries, 32));
  // Rows of 9-16 and one of 33 (cage11 after insertions): 9 passes against 2 do not pay...
  set_bins({{3, {1000, 12000}}, {5, {1, 33}}});
  items = Impl::dcsr_bin_items(offsets, entries, true);
  EXPECT_FALSE(Impl::dcsr_binning_pays(items, offsets, entries, 4));
  // ... 12 against 3 do (bayer10: 17-27 entries, DCSR's 2 lanes against the bin's 8).
  set_bins({{1, {8000, 20000}}, {4, {1500, 33000}}});
  items = Impl::dcsr_bin_items(offsets, entries, true);
  EXPECT_TRUE(Impl::dcsr_binning_pays(items, offsets, entries, 2));
  // Rows of 4 (ch8-8-b3-like): one bin with the row kernel's lanes.
  set_bins({{2, {1000, 4000}}});
  items = Impl::dcsr_bin_items(offsets, entries, true);
  EXPECT_EQ(items.lanes[0], 1);
  EXPECT_FALSE(Impl::dcsr_binning_pays(items, offsets, entries, 1));
  // An empty matrix has nothing to bin.
  set_bins({});
  items = Impl::dcsr_bin_items(offsets, entries, true);
  EXPECT_EQ(items.items(), 0);
  EXPECT_FALSE(Impl::dcsr_binning_pays(items, offsets, entries, 1));
  // Team rows: the teams grow to 8 warps; a team bin starts on a team boundary and takes a
  // team's items per row.
  set_bins({{1, {5, 10}}, {10, {3, 3300}}});
  items = Impl::dcsr_bin_items(offsets, entries, true);
  EXPECT_EQ(items.team_size, 8);
  EXPECT_EQ(items.team_from, 1);
  EXPECT_EQ(items.first_item[1], 8);  // bin 1: 5 rows of 1 lane in one item, padded to 8 items
  EXPECT_EQ(items.items(), 8 + 3 * 8);
  EXPECT_EQ(Impl::dcsr_bin_items(offsets, entries, false).team_size, 1);
}

// What the refit rule's tests grow step by step: a 1000 x 1000 DCSR matrix whose rows 0-9 hold
// long_rows entries and the others short_rows, its rows on the host, and a product through a
// binned_rows handle made with `settings`.
struct GrowingBinnedMatrix {
  static constexpr int size = 1000;
  DcsrMatrix<double, DcsrDevice> A;
  test::HostRows<double> host_rows;
  test::ApiProduct<DcsrExec, DcsrMatrix<double, DcsrDevice>> product;

  GrowingBinnedMatrix(int long_rows, int short_rows, const SpmvSettings& settings)
      : GrowingBinnedMatrix(start(long_rows, short_rows), settings) {}
  GrowingBinnedMatrix(const GrowingBinnedMatrix&) = delete;  // the product refers to A
  GrowingBinnedMatrix(const HostCsr<double>& csr, const SpmvSettings& settings)
      : A(make_dcsr<double>(csr)),
        host_rows(test::rows_of(csr)),
        product{A, SpmvHandle<DcsrExec, DcsrMatrix<double, DcsrDevice>>(settings)} {}

  static HostCsr<double> start(int long_rows, int short_rows) {
    HostCoo<double> coo(size, size);
    for (int r = 0; r < size; ++r) {
      for (int k = 0; k < (r < 10 ? long_rows : short_rows); ++k) coo.push_back(r, (r + k) % size, 1.0 + k);
    }
    return to_csr(coo);
  }

  // Adds entries_each entries (value 0.5) to each of rows [first_row, first_row + count), on the
  // device and on the host, then reanalyzes the handle.
  void grow(int first_row, int count, int entries_each) {
    test::HostBatch<double> batch;
    for (int r = first_row; r < first_row + count; ++r) {
      for (int k = 0; k < entries_each; ++k) {
        batch.rows.push_back(r);
        batch.cols.push_back((r + 2 + k) % size);
        batch.values.push_back(0.5);
      }
    }
    test::insert_batch(A, batch, DuplicatePolicy::sum);
    test::reference_insert(host_rows, batch, DuplicatePolicy::sum);
    product.handle.reanalyze(DcsrExec(), A);
  }

  // Checks the product against the host reference; returns what the handle runs.
  std::string check_product() {
    test::expect_spmv_matches_reference<double, DcsrExec>(product, test::summed_csr(host_rows, size), "N", 1.0, 0.0,
                                                          false);
    return product.handle.describe();
  }
};

// reanalyze keeps ADCSR's bins while fewer than 5% of the rows have moved bin and no row has
// outgrown the longest rows' bin, and rebins otherwise; every product is right either way.
TEST(DcsrBinnedRule, ReanalysisRebinsOnlyWhenTheBinsNoLongerFit) {
  SpmvSettings settings;
  settings.algorithm = SpmvAlgorithm::binned_rows;
  settings.bin_always = true;
  GrowingBinnedMatrix m(20, 2, settings);  // rows 0-9 in bin 4, the others in bin 1
  const auto check = [&](const std::string& bins) {
    const std::string described = m.check_product();
    EXPECT_NE(described.find(bins), std::string::npos) << described;
  };
  check("2 bins");
  m.grow(20, 5, 1);  // 2 -> 3 entries: bin 1 still
  check("2 bins");
  m.grow(30, 5, 2);  // 2 -> 4: bin 2, 5 rows of 1000 moved: bins kept
  check("2 bins");
  m.grow(40, 45, 2);  // 50 rows moved in all: rebinned
  check("3 bins");
  m.grow(100, 1, 2);  // 1 row moved since: kept
  check("3 bins");
  m.grow(110, 1, 60);  // one row of 62 entries, past the longest rows' bin (4): rebinned
  check("4 bins");
}

// While binning would not pay (the row kernel runs), reanalyze keeps the unused bins however
// many rows move between them, and rebins when a row outgrows the longest rows' bin, the one
// change that can make binning pay; every product is right either way.
TEST(DcsrBinnedRule, UnusedBinsAreRebinnedOnlyWhenARowOutgrowsTheTopBin) {
  SpmvSettings settings;
  settings.algorithm = SpmvAlgorithm::binned_rows;
  // Rows 0-9 of 8 entries (bin 2, the top bin), the others of 1 (bin 0): with the row kernel's
  // one lane, the top bin's rows are at most 8 passes deep, too few for binning to pay.
  GrowingBinnedMatrix m(8, 1, settings);
  const auto check = [&](const std::string& bins, bool unused) {
    const std::string described = m.check_product();
    EXPECT_NE(described.find("(" + bins + ","), std::string::npos) << described;
    if (unused) {
      EXPECT_NE(described.find("binning would not pay"), std::string::npos) << described;
    }
  };
  check("2 bins", true);
  m.grow(100, 200, 1);  // 1 -> 2 entries: 200 of 1000 rows move to bin 1, below the top bin: kept
  check("2 bins", true);
  m.grow(500, 1, 11);  // one row of 12 entries, past the top bin: rebinned (bins 0, 1, 2 and 3)
  check("4 bins", false);
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
