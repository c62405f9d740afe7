#include <strata/core/generators.hpp>
#include <strata/formats/coo/coo_csr_conversion.hpp>

#include <gtest/gtest.h>

namespace strata {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;

TEST(CooMatrix, FromHostSortsAndSumsDuplicates) {
  HostCoo<double> host(3, 5);
  host.push_back(2, 4, 1.0);
  host.push_back(0, 3, 2.0);
  host.push_back(2, 4, 0.5);
  host.push_back(0, 1, 4.0);
  const auto A = coo_from_host<double, Device>(host, "strata::test_coo");
  EXPECT_EQ(A.num_rows(), 3);
  EXPECT_EQ(A.num_cols(), 5);
  EXPECT_EQ(A.nnz(), 3);
  const auto back = coo_to_host(A);
  EXPECT_EQ(back.rows, (std::vector<index_type>{0, 0, 2}));
  EXPECT_EQ(back.cols, (std::vector<index_type>{1, 3, 4}));
  EXPECT_EQ(back.values, (std::vector<double>{4.0, 2.0, 1.5}));
}

TEST(CooMatrix, CsrRoundTripOnTheDeviceIsExact) {
  for (const auto& host : {gen::rmat({9, 8, 0.57, 0.19, 0.19, 3}), gen::uniform_random(70, 33, 4, 2),
                           gen::poisson2d_5pt(17)}) {
    const auto csr = to_kokkos_crs<DeviceCsr<double, Device>>(host, "strata::test_csr");
    const auto coo = coo_from_csr(csr, "strata::test_coo");
    const auto host_coo = coo_to_host(coo);
    const auto expected = to_coo(host);
    EXPECT_EQ(host_coo.rows, expected.rows);
    EXPECT_EQ(host_coo.cols, expected.cols);
    EXPECT_EQ(host_coo.values, expected.values);
    const auto back = from_kokkos_crs(csr_from_coo(coo, "strata::test_back"));
    EXPECT_EQ(back.num_rows, host.num_rows);
    EXPECT_EQ(back.num_cols, host.num_cols);
    EXPECT_EQ(back.row_offsets, host.row_offsets);
    EXPECT_EQ(back.cols, host.cols);
    EXPECT_EQ(back.values, host.values);
  }
}

TEST(CooMatrix, EmptyAndRectangularMatrices) {
  HostCoo<float> empty(0, 0);
  const auto E = coo_from_host<float, Device>(empty, "strata::empty");
  EXPECT_EQ(E.nnz(), 0);
  EXPECT_EQ(from_kokkos_crs(csr_from_coo(E, "strata::empty_csr")).nnz(), 0);
  HostCoo<float> wide(2, 1000);
  wide.push_back(1, 999, 3.0f);
  const auto W = coo_from_host<float, Device>(wide, "strata::wide");
  const auto back = from_kokkos_crs(csr_from_coo(W, "strata::wide_csr"));
  EXPECT_EQ(back.row_offsets, (std::vector<index_type>{0, 0, 1}));
  EXPECT_EQ(back.cols, (std::vector<index_type>{999}));
}

TEST(CooMatrix, UnsortedCsrRowsAreRefusedWithTheirCount) {
  HostCsr<double> host;
  host.num_rows = 2;
  host.num_cols = 3;
  host.row_offsets = {0, 2, 3};
  host.cols = {2, 0, 1};
  host.values = {1.0, 2.0, 3.0};
  const auto csr = to_kokkos_crs<DeviceCsr<double, Device>>(host, "strata::unsorted");
  try {
    coo_from_csr(csr, "strata::unsorted_coo");
    FAIL() << "unsorted CSR was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("1 places"), std::string::npos) << e.what();
  }
}

TEST(CooMatrix, TooLargeForThirtyTwoBitIndicesIsRefused) {
  HostCoo<double> huge(index_type{1} << 32, 4);
  huge.push_back(0, 0, 1.0);
  EXPECT_THROW((coo_from_host<double, Device>(huge, "strata::huge")), Error);
}

}  // namespace
}  // namespace strata
