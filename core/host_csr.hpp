#pragma once
#include <strata/core/host_coo.hpp>
#include <strata/core/value_conversion.hpp>

#include <string>
#include <vector>

namespace strata {

// Compressed sparse rows in host memory: row_offsets has num_rows + 1 entries,
// the column indices of each row are strictly increasing.
template <class Value>
struct HostCsr {
  using value_type = Value;

  index_type num_rows = 0;
  index_type num_cols = 0;
  std::vector<index_type> row_offsets{0};
  std::vector<index_type> cols;
  std::vector<Value> values;

  index_type nnz() const { return static_cast<index_type>(values.size()); }

  void validate() const {
    STRATA_REQUIRE(num_rows >= 0 && num_cols >= 0, "HostCsr: negative dimensions");
    STRATA_REQUIRE(row_offsets.size() == static_cast<std::size_t>(num_rows) + 1,
                   "HostCsr: row_offsets has " + std::to_string(row_offsets.size()) + " entries, expected " +
                       std::to_string(num_rows + 1));
    STRATA_REQUIRE(row_offsets.front() == 0, "HostCsr: row_offsets[0] is not 0");
    STRATA_REQUIRE(cols.size() == values.size() && static_cast<index_type>(cols.size()) == row_offsets.back(),
                   "HostCsr: row_offsets.back() = " + std::to_string(row_offsets.back()) + " but cols has " +
                       std::to_string(cols.size()) + " and values " + std::to_string(values.size()) + " entries");
    for (index_type i = 0; i < num_rows; ++i) {
      STRATA_REQUIRE(row_offsets[i] <= row_offsets[i + 1],
                     "HostCsr: row_offsets decreases at row " + std::to_string(i));
      for (index_type k = row_offsets[i]; k < row_offsets[i + 1]; ++k) {
        STRATA_REQUIRE(cols[k] >= 0 && cols[k] < num_cols,
                       "HostCsr: column " + std::to_string(cols[k]) + " in row " + std::to_string(i) +
                           " is outside [0, " + std::to_string(num_cols) + ")");
        STRATA_REQUIRE(k == row_offsets[i] || cols[k - 1] < cols[k],
                       "HostCsr: columns of row " + std::to_string(i) + " are not strictly increasing");
      }
    }
  }
};

// Builds CSR from COO; the COO is sorted and its duplicates summed first.
template <class Value>
HostCsr<Value> to_csr(HostCoo<Value> coo) {
  coo.validate();
  coo.sort_and_combine();
  HostCsr<Value> csr;
  csr.num_rows = coo.num_rows;
  csr.num_cols = coo.num_cols;
  csr.row_offsets.assign(static_cast<std::size_t>(coo.num_rows) + 1, 0);
  for (index_type r : coo.rows) ++csr.row_offsets[r + 1];
  for (index_type i = 0; i < coo.num_rows; ++i) csr.row_offsets[i + 1] += csr.row_offsets[i];
  csr.cols = std::move(coo.cols);
  csr.values = std::move(coo.values);
  return csr;
}

template <class Value>
HostCoo<Value> to_coo(const HostCsr<Value>& csr) {
  HostCoo<Value> coo(csr.num_rows, csr.num_cols);
  coo.rows.resize(csr.cols.size());
  for (index_type i = 0; i < csr.num_rows; ++i) {
    for (index_type k = csr.row_offsets[i]; k < csr.row_offsets[i + 1]; ++k) coo.rows[k] = i;
  }
  coo.cols = csr.cols;
  coo.values = csr.values;
  return coo;
}

// Converts the values of a matrix to another supported value type; complex to
// real is refused because it would drop the imaginary parts silently. Every
// value is checked: one that overflows the target (1e300 into float), becomes
// zero (1e-50 into float) or is not finite throws strata::Error naming the
// entry's row, column and value, unless `options` allows underflow or
// non-finite values.
template <class To, class From>
HostCsr<To> convert_values(const HostCsr<From>& in, const ValueConversionOptions& options = {}) {
  static_assert(!value_traits<From>::is_complex || value_traits<To>::is_complex,
                "convert_values: complex to real would drop imaginary parts");
  using Real = typename value_traits<To>::real_type;
  in.validate();  // the row of each value comes from row_offsets
  HostCsr<To> out;
  out.num_rows = in.num_rows;
  out.num_cols = in.num_cols;
  out.row_offsets = in.row_offsets;
  out.cols = in.cols;
  out.values.reserve(in.values.size());
  for (index_type row = 0; row < in.num_rows; ++row) {
    for (index_type k = in.row_offsets[row]; k < in.row_offsets[row + 1]; ++k) {
      const double re = real_part(in.values[k]);
      const double im = imag_part(in.values[k]);
      ConversionProblem problem = narrowing_problem<Real>(re, options);
      if (problem == ConversionProblem::none) problem = narrowing_problem<Real>(im, options);
      if (problem != ConversionProblem::none) {
        throw_value_conversion_error(describe_conversion_problem<To>(problem), row, in.cols[k], re, im,
                                     value_traits<From>::is_complex, value_traits<To>::name);
      }
      out.values.push_back(value_from<To>(re, im));
    }
  }
  return out;
}

}  // namespace strata
