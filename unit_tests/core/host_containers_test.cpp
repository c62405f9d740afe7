#include <strata/core/host_csr.hpp>
#include <strata/core/matrix_statistics.hpp>

#include <gtest/gtest.h>

namespace strata {
namespace {

HostCoo<double> small_coo_with_duplicates() {
  HostCoo<double> coo(3, 4);
  coo.push_back(2, 3, 1.0);
  coo.push_back(0, 1, 2.0);
  coo.push_back(2, 3, 4.0);
  coo.push_back(1, 0, 8.0);
  coo.push_back(0, 0, 16.0);
  return coo;
}

TEST(HostCoo, SortAndCombineSumsDuplicatesAndCountsThem) {
  auto coo = small_coo_with_duplicates();
  EXPECT_FALSE(coo.is_sorted_unique());
  EXPECT_EQ(coo.sort_and_combine(), 1);
  EXPECT_TRUE(coo.is_sorted_unique());
  EXPECT_EQ(coo.rows, (std::vector<index_type>{0, 0, 1, 2}));
  EXPECT_EQ(coo.cols, (std::vector<index_type>{0, 1, 0, 3}));
  EXPECT_EQ(coo.values, (std::vector<double>{16.0, 2.0, 8.0, 5.0}));
}

TEST(HostCoo, ValidateNamesTheEntryOutsideTheMatrix) {
  HostCoo<double> coo(2, 2);
  coo.push_back(0, 0, 1.0);
  coo.push_back(1, 2, 1.0);
  try {
    coo.validate();
    FAIL() << "validate accepted a column index equal to num_cols";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("entry 1 at (1, 2)"), std::string::npos) << e.what();
  }
}

TEST(HostCoo, ValidateRejectsArraysOfDifferentLengths) {
  HostCoo<float> coo(2, 2);
  coo.rows = {0, 1};
  coo.cols = {0};
  coo.values = {1.0f, 2.0f};
  EXPECT_THROW(coo.validate(), Error);
}

TEST(HostCsr, FromCooIsSortedWithExactOffsets) {
  const auto csr = to_csr(small_coo_with_duplicates());
  EXPECT_NO_THROW(csr.validate());
  EXPECT_EQ(csr.row_offsets, (std::vector<index_type>{0, 2, 3, 4}));
  EXPECT_EQ(csr.cols, (std::vector<index_type>{0, 1, 0, 3}));
  EXPECT_EQ(csr.values, (std::vector<double>{16.0, 2.0, 8.0, 5.0}));
}

TEST(HostCsr, RoundTripThroughCooIsExact) {
  const auto csr = to_csr(small_coo_with_duplicates());
  const auto back = to_csr(to_coo(csr));
  EXPECT_EQ(back.row_offsets, csr.row_offsets);
  EXPECT_EQ(back.cols, csr.cols);
  EXPECT_EQ(back.values, csr.values);
}

TEST(HostCsr, EmptyMatricesAreValid) {
  HostCsr<double> empty;
  EXPECT_NO_THROW(empty.validate());
  HostCoo<double> no_entries(5, 0);
  const auto csr = to_csr(no_entries);
  EXPECT_EQ(csr.row_offsets.size(), 6u);
  EXPECT_EQ(csr.nnz(), 0);
  EXPECT_NO_THROW(csr.validate());
}

TEST(HostCsr, ValidateRejectsUnsortedColumnsAndBadOffsets) {
  HostCsr<double> csr;
  csr.num_rows = 1;
  csr.num_cols = 3;
  csr.row_offsets = {0, 2};
  csr.cols = {2, 1};
  csr.values = {1.0, 1.0};
  EXPECT_THROW(csr.validate(), Error);
  csr.cols = {1, 2};
  csr.row_offsets = {0, 3};
  EXPECT_THROW(csr.validate(), Error);
}

TEST(HostCsr, ConvertValuesWidensRealToComplex) {
  const auto csr = to_csr(small_coo_with_duplicates());
  const auto c = convert_values<Kokkos::complex<float>>(csr);
  ASSERT_EQ(c.values.size(), csr.values.size());
  for (std::size_t k = 0; k < c.values.size(); ++k) {
    EXPECT_EQ(c.values[k].real(), static_cast<float>(csr.values[k]));
    EXPECT_EQ(c.values[k].imag(), 0.0f);
  }
}

TEST(MatrixStatistics, HandCheckedSmallMatrix) {
  // Rows of lengths 2, 1, 0, 1 in a 4 x 4 matrix; entry (3, 0) has |i - j| = 3.
  HostCoo<double> coo(4, 4);
  coo.push_back(0, 0, 1.0);
  coo.push_back(0, 1, 1.0);
  coo.push_back(1, 1, 1.0);
  coo.push_back(3, 0, 1.0);
  const auto s = compute_statistics(to_csr(coo));
  EXPECT_EQ(s.nnz, 4);
  EXPECT_DOUBLE_EQ(s.row_length_mean, 1.0);
  EXPECT_DOUBLE_EQ(s.row_length_std, std::sqrt(0.5));
  EXPECT_EQ(s.row_length_min, 0);
  EXPECT_EQ(s.row_length_max, 2);
  EXPECT_EQ(s.empty_rows, 1);
  EXPECT_EQ(s.bandwidth, 3);
  // Columns of lengths 2, 2, 0, 0.
  EXPECT_DOUBLE_EQ(s.col_length_mean, 1.0);
  EXPECT_DOUBLE_EQ(s.col_length_std, 1.0);
  EXPECT_EQ(s.col_length_max, 2);
  EXPECT_DOUBLE_EQ(s.row_length_cv(), std::sqrt(0.5));
  EXPECT_DOUBLE_EQ(s.col_length_cv(), 1.0);
  EXPECT_DOUBLE_EQ(MatrixStatistics{}.row_length_cv(), 0.0);  // empty: no division by zero
  EXPECT_DOUBLE_EQ(MatrixStatistics{}.col_length_cv(), 0.0);
  const auto f = format_footprints(s);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_DOUBLE_EQ(f[0].bytes_per_nnz_double, 16.0);
  EXPECT_DOUBLE_EQ(f[1].bytes_per_nnz_double, 12.0 + 4.0 * 5 / 4);
}

}  // namespace
}  // namespace strata
