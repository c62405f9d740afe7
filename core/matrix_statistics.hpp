#pragma once
#include <strata/core/host_csr.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace strata {

// Structure of a matrix as `strata info` reports it; regularity (std/mean of
// row lengths, and of column lengths for transposed products, which run over
// the columns) is what decides between row-based and nonzero-balanced kernels.
struct MatrixStatistics {
  index_type num_rows = 0;
  index_type num_cols = 0;
  index_type nnz = 0;
  double row_length_mean = 0.0;
  double row_length_std = 0.0;
  index_type row_length_min = 0;
  index_type row_length_max = 0;
  index_type empty_rows = 0;
  index_type bandwidth = 0;  // max |i - j| over the entries
  double col_length_mean = 0.0;
  double col_length_std = 0.0;
  index_type col_length_max = 0;

  // Spread of the lengths, std/mean (0 for an empty matrix): the irregularity
  // that the automatic SpMV rule and `strata info` report.
  double row_length_cv() const { return row_length_mean > 0 ? row_length_std / row_length_mean : 0.0; }
  double col_length_cv() const { return col_length_mean > 0 ? col_length_std / col_length_mean : 0.0; }
};

template <class Value>
MatrixStatistics compute_statistics(const HostCsr<Value>& A) {
  MatrixStatistics s;
  s.num_rows = A.num_rows;
  s.num_cols = A.num_cols;
  s.nnz = A.nnz();
  if (A.num_rows == 0) return s;
  s.row_length_min = A.nnz();
  double sum_sq = 0.0;
  for (index_type i = 0; i < A.num_rows; ++i) {
    const index_type len = A.row_offsets[i + 1] - A.row_offsets[i];
    s.row_length_min = std::min(s.row_length_min, len);
    s.row_length_max = std::max(s.row_length_max, len);
    s.empty_rows += len == 0;
    sum_sq += static_cast<double>(len) * static_cast<double>(len);
    for (index_type k = A.row_offsets[i]; k < A.row_offsets[i + 1]; ++k) {
      s.bandwidth = std::max(s.bandwidth, std::abs(A.cols[k] - i));
    }
  }
  s.row_length_mean = static_cast<double>(s.nnz) / static_cast<double>(A.num_rows);
  s.row_length_std = std::sqrt(std::max(0.0, sum_sq / A.num_rows - s.row_length_mean * s.row_length_mean));
  if (A.num_cols == 0) return s;
  std::vector<index_type> col_lengths(static_cast<std::size_t>(A.num_cols), 0);
  for (index_type k = 0; k < s.nnz; ++k) ++col_lengths[static_cast<std::size_t>(A.cols[k])];
  double col_sum_sq = 0.0;
  for (const index_type len : col_lengths) {
    s.col_length_max = std::max(s.col_length_max, len);
    col_sum_sq += static_cast<double>(len) * static_cast<double>(len);
  }
  s.col_length_mean = static_cast<double>(s.nnz) / static_cast<double>(A.num_cols);
  s.col_length_std = std::sqrt(std::max(0.0, col_sum_sq / A.num_cols - s.col_length_mean * s.col_length_mean));
  return s;
}

// Storage of the formats Strata has, in bytes per stored nonzero, with 32-bit
// indices as the device formats use them.
struct FormatFootprint {
  const char* format;
  double bytes_per_nnz_float;
  double bytes_per_nnz_double;
};

inline std::vector<FormatFootprint> format_footprints(const MatrixStatistics& s) {
  const double nnz = std::max<double>(1.0, static_cast<double>(s.nnz));
  const double csr_offsets = 4.0 * static_cast<double>(s.num_rows + 1) / nnz;
  return {
      {"coo", 4.0 + 4.0 + 4.0, 4.0 + 4.0 + 8.0},
      {"csr", 4.0 + 4.0 + csr_offsets, 8.0 + 4.0 + csr_offsets},
  };
}

}  // namespace strata
