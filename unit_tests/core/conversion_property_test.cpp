// Randomized property tests with fixed seeds (issue 11, "no entry lost"): host
// COO <-> CSR conversion against a map-based reference, and Matrix Market write
// -> read round trips over every value type, symmetry, layout and compression.
// Each case is small, so thousands run in a few seconds; a failure names its
// seed, which reproduces it alone.
#include "matrix_test_support.hpp"
#include "test_files.hpp"

#include <strata/core/host_csr.hpp>
#include <strata/core/matrix_market.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace strata::test;
using strata::HostCsr;
using strata::MatrixMarketWriteOptions;
using strata::MmFormat;
using ComplexFloat = Kokkos::complex<float>;
using ComplexDouble = Kokkos::complex<double>;

// ---- COO <-> CSR ----------------------------------------------------------------

// Unsorted triplets with many duplicates: coordinates come from a small pool.
template <class Value>
HostCoo<Value> random_triplets(std::mt19937_64& random) {
  const index_type rows = std::uniform_int_distribution<index_type>(0, 30)(random);
  const index_type cols = std::uniform_int_distribution<index_type>(0, 30)(random);
  HostCoo<Value> coo(rows, cols);
  if (rows == 0 || cols == 0) return coo;
  const std::size_t entries = std::uniform_int_distribution<std::size_t>(0, 100)(random);
  const index_type pool_rows = std::uniform_int_distribution<index_type>(1, rows)(random);
  const index_type pool_cols = std::uniform_int_distribution<index_type>(1, cols)(random);
  std::uniform_int_distribution<index_type> pick_row(0, pool_rows - 1);
  std::uniform_int_distribution<index_type> pick_col(0, pool_cols - 1);
  // Moderate magnitudes: sums of duplicates must not overflow, or inf - inf
  // would make the exact comparison meaningless.
  std::uniform_real_distribution<double> value(-1000.0, 1000.0);
  // Spread the pool over the whole matrix so the last rows and columns occur too.
  const index_type row_stride = rows / pool_rows;
  const index_type col_stride = cols / pool_cols;
  for (std::size_t k = 0; k < entries; ++k) {
    const index_type row = pick_row(random) * row_stride + (row_stride - 1);
    const index_type col = pick_col(random) * col_stride;
    coo.push_back(row, col, strata::value_from<Value>(value(random), value(random)));
  }
  return coo;
}

// The reference: entries summed per position in order of appearance, as
// sort_and_combine promises, so the comparison can be exact.
template <class Value>
std::map<std::pair<index_type, index_type>, Value> summed_by_position(const HostCoo<Value>& coo) {
  std::map<std::pair<index_type, index_type>, Value> sums;
  for (index_type k = 0; k < coo.nnz(); ++k) {
    const auto inserted = sums.insert({{coo.rows[k], coo.cols[k]}, coo.values[k]});
    if (!inserted.second) inserted.first->second += coo.values[k];
  }
  return sums;
}

template <class Value>
void check_coo_csr_round_trip(std::uint64_t seed) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 random(seed);
  const HostCoo<Value> coo = random_triplets<Value>(random);
  const auto expected = summed_by_position(coo);

  const HostCsr<Value> csr = strata::to_csr(coo);
  ASSERT_NO_THROW(csr.validate());
  ASSERT_EQ(csr.num_rows, coo.num_rows);
  ASSERT_EQ(csr.num_cols, coo.num_cols);
  ASSERT_EQ(csr.nnz(), static_cast<index_type>(expected.size()));
  auto next = expected.begin();
  for (index_type row = 0; row < csr.num_rows; ++row) {
    for (index_type k = csr.row_offsets[row]; k < csr.row_offsets[row + 1]; ++k, ++next) {
      ASSERT_EQ(row, next->first.first);
      ASSERT_EQ(csr.cols[k], next->first.second);
      ASSERT_EQ(strata::real_part(csr.values[k]), strata::real_part(next->second));
      ASSERT_EQ(strata::imag_part(csr.values[k]), strata::imag_part(next->second));
    }
  }

  const HostCoo<Value> back = strata::to_coo(csr);
  ASSERT_NO_THROW(back.validate());
  ASSERT_TRUE(back.is_sorted_unique());
  HostCoo<Value> sorted = coo;
  sorted.sort_and_combine();
  expect_same_matrix(back, sorted);
  // A second trip changes nothing.
  const HostCsr<Value> again = strata::to_csr(back);
  EXPECT_EQ(again.row_offsets, csr.row_offsets);
  EXPECT_EQ(again.cols, csr.cols);
}

TEST(ConversionProperties, CooToCsrAndBackKeepsEveryEntry) {
  constexpr std::uint64_t cases = 3000;
  for (std::uint64_t seed = 1; seed <= cases; ++seed) {
    switch (seed % 3) {
      case 0: check_coo_csr_round_trip<double>(seed); break;
      case 1: check_coo_csr_round_trip<float>(seed); break;
      default: check_coo_csr_round_trip<ComplexDouble>(seed); break;
    }
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// ---- Matrix Market write -> read ------------------------------------------------

// How many distinct positions a matrix of this symmetry can store.
index_type position_capacity(MmSymmetry symmetry, index_type rows, index_type cols) {
  switch (symmetry) {
    case MmSymmetry::general: return rows * cols;
    case MmSymmetry::skew_symmetric: return rows * (rows - 1) / 2;
    default: return rows * (rows + 1) / 2;
  }
}

struct WriteCase {
  MmSymmetry symmetry = MmSymmetry::general;
  MmFormat format = MmFormat::coordinate;
  bool gzip = false;
  bool pattern = false;
  bool integer = false;
  index_type rows = 0;
  index_type cols = 0;
  std::size_t positions = 0;

  std::string describe() const {
    return std::string(strata::to_string(symmetry)) + " " + strata::to_string(format) + " " +
           std::to_string(rows) + "x" + std::to_string(cols) + " positions " + std::to_string(positions) +
           (gzip ? " gzip" : "") + (pattern ? " pattern" : "") + (integer ? " integer" : "");
  }
};

template <class Value>
WriteCase random_write_case(std::mt19937_64& random) {
  const bool complex = strata::value_traits<Value>::is_complex;
  WriteCase c;
  const int symmetries = complex ? 4 : 3;
  const MmSymmetry choices[] = {MmSymmetry::general, MmSymmetry::symmetric, MmSymmetry::skew_symmetric,
                                MmSymmetry::hermitian};
  c.symmetry = choices[std::uniform_int_distribution<int>(0, symmetries - 1)(random)];
  c.format = std::uniform_int_distribution<int>(0, 3)(random) == 0 ? MmFormat::array : MmFormat::coordinate;
  c.gzip = std::uniform_int_distribution<int>(0, 4)(random) == 0;
  const index_type largest = c.format == MmFormat::array ? 8 : 40;
  c.rows = std::uniform_int_distribution<index_type>(0, largest)(random);
  c.cols = c.symmetry == MmSymmetry::general ? std::uniform_int_distribution<index_type>(0, largest)(random) : c.rows;
  const index_type capacity = position_capacity(c.symmetry, c.rows, c.cols);
  c.positions = static_cast<std::size_t>(
      std::uniform_int_distribution<index_type>(0, std::min<index_type>(capacity, 80))(random));
  const int variant = std::uniform_int_distribution<int>(0, 9)(random);
  // Pattern files keep no values, so only general and symmetric structure;
  // integer files need integral values, which only the general case below provides.
  c.pattern = variant == 0 && (c.symmetry == MmSymmetry::general || c.symmetry == MmSymmetry::symmetric) &&
              c.format == MmFormat::coordinate;
  c.integer = variant == 1 && c.symmetry == MmSymmetry::general;
  return c;
}

template <class Value>
void check_write_read(std::uint64_t seed, const TemporaryDirectory& directory) {
  std::mt19937_64 random(seed);
  const WriteCase c = random_write_case<Value>(random);
  SCOPED_TRACE("seed " + std::to_string(seed) + ": " + strata::value_traits<Value>::name + " " + c.describe());
  HostCoo<Value> matrix(c.rows, c.cols);
  if (c.positions > 0) matrix = random_matrix<Value>(c.symmetry, c.rows, c.cols, c.positions, seed);
  if (c.integer) {
    std::uniform_int_distribution<int> integral(-100000, 100000);
    for (Value& value : matrix.values) value = strata::value_from<Value>(integral(random), 0.0);
  }

  MatrixMarketWriteOptions options;
  options.symmetry = c.symmetry;
  options.format = c.format;
  options.pattern = c.pattern;
  options.integer = c.integer;
  const std::string path = directory.file(c.gzip ? "case.mtx.gz" : "case.mtx");
  strata::write_matrix_market(path, matrix, options);

  HostCoo<Value> expected = c.format == MmFormat::array ? as_dense(matrix, c.symmetry) : matrix;
  if (c.pattern) {
    for (Value& value : expected.values) value = strata::value_from<Value>(1.0, 0.0);
  }
  expect_same_matrix(strata::read_matrix_market<Value>(path), expected);
  // The in-memory entry reads the same bytes to the same matrix.
  expect_same_matrix(strata::parse_matrix_market<Value>(read_bytes(path), "bytes"), expected);
}

TEST(ConversionProperties, MatrixMarketWriteThenReadGivesTheMatrixBack) {
  TemporaryDirectory directory;
  constexpr std::uint64_t cases = 2000;
  for (std::uint64_t seed = 1; seed <= cases; ++seed) {
    switch (seed % 4) {
      case 0: check_write_read<double>(seed, directory); break;
      case 1: check_write_read<float>(seed, directory); break;
      case 2: check_write_read<ComplexDouble>(seed, directory); break;
      default: check_write_read<ComplexFloat>(seed, directory); break;
    }
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace
