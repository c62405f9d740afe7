#pragma once
#include "test_files.hpp"

// Matrices for tests: hand-written and random ones, exact comparison, and
// checks of the errors that reading them must throw.
#include <strata/core/error.hpp>
#include <strata/core/matrix_market.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace strata::test {

using ::strata::FileError;
using ::strata::HostCoo;
using ::strata::index_type;
using ::strata::MmSymmetry;

struct Entry {
  index_type row;
  index_type col;
  double re;
  double im;
};

template <class Value>
HostCoo<Value> make_matrix(index_type rows, index_type cols, const std::vector<Entry>& entries) {
  HostCoo<Value> matrix(rows, cols);
  for (const Entry& entry : entries) matrix.push_back(entry.row, entry.col, strata::value_from<Value>(entry.re, entry.im));
  return matrix;
}

// Exact comparison: same dimensions, coordinates and values (==, component by component).
template <class Value>
void expect_same_matrix(const HostCoo<Value>& actual, const HostCoo<Value>& expected) {
  ASSERT_EQ(actual.num_rows, expected.num_rows);
  ASSERT_EQ(actual.num_cols, expected.num_cols);
  ASSERT_EQ(actual.nnz(), expected.nnz());
  EXPECT_TRUE(actual.is_sorted_unique());
  for (index_type k = 0; k < actual.nnz(); ++k) {
    SCOPED_TRACE("entry " + std::to_string(k));
    EXPECT_EQ(actual.rows[k], expected.rows[k]);
    EXPECT_EQ(actual.cols[k], expected.cols[k]);
    EXPECT_EQ(strata::real_part(actual.values[k]), strata::real_part(expected.values[k]));
    EXPECT_EQ(strata::imag_part(actual.values[k]), strata::imag_part(expected.values[k]));
  }
}

// Runs `read` and returns the strata::FileError it must throw; any other outcome
// is a test failure.
template <class Read>
FileError expect_file_error(const std::string& where, Read read) {
  try {
    read();
  } catch (const FileError& error) {
    return error;
  } catch (const std::exception& error) {
    ADD_FAILURE() << where << ": expected strata::FileError, got another exception: " << error.what();
    return FileError(where, -1, "wrong exception type");
  }
  ADD_FAILURE() << where << ": expected strata::FileError, but reading succeeded";
  return FileError(where, -1, "no exception");
}

template <class Read>
strata::Error expect_error(Read read) {
  try {
    read();
  } catch (const FileError& error) {
    ADD_FAILURE() << "expected a plain strata::Error, got a FileError: " << error.what();
    return error;
  } catch (const strata::Error& error) {
    return error;
  } catch (const std::exception& error) {
    ADD_FAILURE() << "expected strata::Error, got another exception: " << error.what();
    return strata::Error("wrong exception type");
  }
  ADD_FAILURE() << "expected strata::Error, but the call succeeded";
  return strata::Error("no exception");
}

// The location prefix FileError puts before its reason.
inline std::string location_prefix(const std::string& path, std::int64_t line) {
  return line > 0 ? path + ":" + std::to_string(line) + ": " : path + ": ";
}

inline void expect_located(const FileError& error, const std::string& path, std::int64_t line, const std::string& reason_part) {
  const std::string message = error.what();
  EXPECT_EQ(error.path(), path) << message;
  EXPECT_EQ(error.line(), line) << message;
  EXPECT_EQ(message.rfind(location_prefix(path, line), 0), 0u) << message;
  EXPECT_TRUE(contains(error.reason(), reason_part)) << "reason lacks '" << reason_part << "': " << message;
}

// Values that stress exact round trips: awkward decimals, extremes, subnormals,
// negative zero, and random values across the whole exponent range.
template <class Real>
std::vector<Real> special_reals() {
  return {Real(0.1),
          Real(1) / Real(3),
          -Real(2) / Real(7),
          std::numeric_limits<Real>::max(),
          std::numeric_limits<Real>::lowest(),
          std::numeric_limits<Real>::min(),
          std::numeric_limits<Real>::denorm_min(),
          -std::numeric_limits<Real>::denorm_min() * Real(3),
          std::numeric_limits<Real>::epsilon(),
          Real(1) + std::numeric_limits<Real>::epsilon(),
          Real(-0.0),
          Real(123456789.0)};
}

template <class Real>
Real random_real(std::mt19937_64& random, std::size_t draw) {
  const std::vector<Real> specials = special_reals<Real>();
  if (draw < specials.size()) return specials[draw];
  const int exponent_limit = std::numeric_limits<Real>::max_exponent10 - 1;
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-exponent_limit, exponent_limit);
  return static_cast<Real>(mantissa(random) * std::pow(10.0, exponent(random)));
}

template <class Value>
Value random_value(std::mt19937_64& random, std::size_t draw, bool real_only) {
  using Real = typename strata::value_traits<Value>::real_type;
  const Real re = random_real<Real>(random, draw);
  const Real im = real_only ? Real(0) : random_real<Real>(random, draw + 5);
  return strata::value_from<Value>(re, im);
}

// A sorted matrix that has exactly the given symmetry, with distinct positions.
template <class Value>
HostCoo<Value> random_matrix(MmSymmetry symmetry, index_type rows, index_type cols, std::size_t positions,
                             std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<index_type> pick_row(0, rows - 1);
  std::uniform_int_distribution<index_type> pick_col(0, cols - 1);
  std::set<std::pair<index_type, index_type>> used;
  HostCoo<Value> matrix(rows, cols);
  std::size_t draw = 0;
  while (used.size() < positions) {
    index_type row = pick_row(random);
    index_type col = pick_col(random);
    if (symmetry != MmSymmetry::general && row < col) std::swap(row, col);
    if (symmetry == MmSymmetry::skew_symmetric && row == col) continue;
    if (!used.insert({row, col}).second) continue;
    const bool real_diagonal = symmetry == MmSymmetry::hermitian && row == col;
    const Value value = random_value<Value>(random, draw++, real_diagonal);
    matrix.push_back(row, col, value);
    if (symmetry == MmSymmetry::general || row == col) continue;
    const Value mirror = symmetry == MmSymmetry::symmetric        ? value
                         : symmetry == MmSymmetry::skew_symmetric ? Value(-value)
                                                                  : strata::conjugate(value);
    matrix.push_back(col, row, mirror);
  }
  matrix.sort_and_combine();
  return matrix;
}

// What an array file of `matrix` reads back as: every position, zeros where the
// matrix has no entry, except the skew-symmetric diagonal that is never stored.
template <class Value>
HostCoo<Value> as_dense(const HostCoo<Value>& matrix, MmSymmetry symmetry) {
  std::map<std::pair<index_type, index_type>, Value> entries;
  for (index_type k = 0; k < matrix.nnz(); ++k) entries[{matrix.rows[k], matrix.cols[k]}] = matrix.values[k];
  HostCoo<Value> dense(matrix.num_rows, matrix.num_cols);
  for (index_type row = 0; row < matrix.num_rows; ++row) {
    for (index_type col = 0; col < matrix.num_cols; ++col) {
      if (symmetry == MmSymmetry::skew_symmetric && row == col) continue;
      const auto found = entries.find({row, col});
      dense.push_back(row, col, found == entries.end() ? Value(0) : found->second);
    }
  }
  return dense;
}

}  // namespace strata::test
