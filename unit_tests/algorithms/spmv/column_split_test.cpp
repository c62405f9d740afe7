// strata::spmv on ColumnSplitCsr (CSR in column panels), and the split itself.
#include "algorithms/spmv/spmv_api_cases.hpp"

#include <algorithm>

namespace strata {
namespace {

using test::Device;
using test::ExecSpace;

template <class Value>
class ColumnSplitSpmv : public ::testing::Test {};
TYPED_TEST_SUITE(ColumnSplitSpmv, test::ValueTypes);

// `panels` panels, or as many as the matrix has columns.
template <class Value>
ColumnSplitCsr<Value, Device> split(const HostCsr<Value>& host, int panels) {
  const int most = std::max<int>(1, static_cast<int>(host.num_cols));
  return split_columns(to_kokkos_crs<DeviceCsr<Value, Device>>(host, "strata::test_split"), std::min(panels, most));
}

// One panel (the CSR kernel alone), two, three (a narrower last one) and seven
// (panels of a few columns, some of them empty on the small matrices).
TYPED_TEST(ColumnSplitSpmv, MatchesReferenceEverywhereForSeveralPanelCounts) {
  using Value = TypeParam;
  for (const int panels : {1, 2, 3, 7}) {
    SCOPED_TRACE(std::to_string(panels) + " panels");
    test::check_every_case<Value, ColumnSplitCsr<Value, Device>>(
        [panels](const HostCsr<Value>& host) { return split(host, panels); });
  }
}

// The panels run the kernel the handle names: here the row kernel instead of the default.
TYPED_TEST(ColumnSplitSpmv, PanelsRunTheRequestedCsrKernel) {
  using Value = TypeParam;
  SpmvSettings s;
  s.algorithm = SpmvAlgorithm::row_vectors;
  test::check_every_case<Value, ColumnSplitCsr<Value, Device>>(
      [](const HostCsr<Value>& host) { return split(host, 3); }, s);
}

TEST(ColumnSplit, PanelsHoldEveryEntryOnceWithLocalColumns) {
  const auto host = gen::uniform_random(200, 1000, 9, 3);
  const auto A = split<double>(host, 3);
  ASSERT_EQ(A.num_panels(), 3);
  EXPECT_EQ(A.column_begin(0), 0);
  EXPECT_EQ(A.column_begin(1), 334);
  EXPECT_EQ(A.column_begin(2), 668);
  EXPECT_EQ(A.column_begin(3), 1000);
  EXPECT_EQ(A.nnz(), host.nnz());
  EXPECT_EQ(A.num_rows(), 200);
  EXPECT_EQ(A.num_cols(), 1000);
  // Put back together, the panels are the matrix, entry for entry and in row order.
  std::vector<HostCsr<double>> panels;
  for (int p = 0; p < 3; ++p) {
    panels.push_back(from_kokkos_crs(A.panel(p)));
    EXPECT_EQ(panels.back().num_rows, 200);
    EXPECT_EQ(panels.back().num_cols, A.column_begin(p + 1) - A.column_begin(p));
  }
  for (index_type r = 0; r < host.num_rows; ++r) {
    std::vector<std::pair<index_type, double>> expected, got;
    for (index_type k = host.row_offsets[r]; k < host.row_offsets[r + 1]; ++k) {
      expected.emplace_back(host.cols[k], host.values[k]);
    }
    for (int p = 0; p < 3; ++p) {
      const auto& P = panels[static_cast<std::size_t>(p)];
      for (index_type k = P.row_offsets[r]; k < P.row_offsets[r + 1]; ++k) {
        ASSERT_LT(P.cols[k], P.num_cols);
        got.emplace_back(P.cols[k] + A.column_begin(p), P.values[k]);
      }
    }
    ASSERT_EQ(got, expected) << "row " << r;
  }
}

TEST(ColumnSplit, RefusesPanelCountsOutsideTheColumns) {
  const auto csr = to_kokkos_crs<DeviceCsr<double, Device>>(gen::uniform_random(10, 6, 2, 1), "strata::test_split");
  for (const int panels : {0, 7}) {
    try {
      split_columns(csr, panels);
      FAIL() << panels << " panels accepted for 6 columns";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("panels = " + std::to_string(panels)), std::string::npos) << e.what();
    }
  }
}

// As few panels as keep each one's x within a third of the cache: on a 50 MiB L2,
// 4M columns of double (32 MiB) take two, of float (16 MiB) one.
TEST(ColumnSplit, PanelCountFollowsTheCache) {
  constexpr std::size_t l2 = 50u << 20;
  EXPECT_EQ(column_panels_for(4000000, 8, l2), 2);
  EXPECT_EQ(column_panels_for(4000000, 4, l2), 1);
  EXPECT_EQ(column_panels_for(16000000, 8, l2), 8);
  EXPECT_EQ(column_panels_for(4000000, 8, 0), 1);
  EXPECT_EQ(column_panels_for(0, 8, l2), 1);
  EXPECT_EQ(column_panels_for(3, 8, 6), 3);
}

// Through AnyMatrix: the registry's kernel converts, describes its panels and multiplies.
TEST(ColumnSplit, RegistryKernelConvertsAndMultiplies) {
  const auto host = gen::uniform_random(300, 400, 7, 5);
  const auto kernel = find_spmv_kernel<ExecSpace>("csr-split");
  EXPECT_EQ(kernel.format, Format::column_split);
  auto A = make_spmv_matrix<double>(ExecSpace(), host, kernel);
  EXPECT_EQ(A.format(), Format::column_split);
  const int expected_panels = column_panels_for(400, sizeof(double), last_level_cache_bytes<ExecSpace>::get());
  const auto& held = A.as<ColumnSplitCsr<double, Device>>();
  EXPECT_EQ(held.num_panels(), expected_panels);
  test::ApiProduct<ExecSpace, AnyMatrix<double, Device>> product{A, SpmvHandle<ExecSpace, AnyMatrix<double, Device>>()};
  for (const std::string mode : {"N", "T"}) {
    test::expect_spmv_matches_reference<double, ExecSpace>(product, host, mode, 1.0, 0.0, true);
    test::expect_spmv_matches_reference<double, ExecSpace>(product, host, mode, -1.5, 0.5, false);
  }
  const std::string panels = std::to_string(expected_panels) + (expected_panels == 1 ? " panel" : " panels");
  EXPECT_NE(product.handle.describe().find(panels + ", load_balanced"), std::string::npos) << product.handle.describe();
}

}  // namespace
}  // namespace strata
