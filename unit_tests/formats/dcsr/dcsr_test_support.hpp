#pragma once
// Host reference for DCSR tests: rows as multisets of (column, value), built by
// applying the same insertions sequentially, compared after sorting each row.
#include <strata/core/kokkos_crs.hpp>
#include <strata/core/pseudo_random.hpp>
#include <strata/formats/dcsr/dcsr_convert.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace strata::test {

using DcsrExec = Kokkos::DefaultExecutionSpace;
using DcsrDevice = Kokkos::Device<DcsrExec, DcsrExec::memory_space>;

template <class Value>
using HostRows = std::vector<std::vector<std::pair<index_type, Value>>>;

template <class Value>
struct HostBatch {
  std::vector<int> rows, cols;
  std::vector<Value> values;
};

template <class Value>
void sort_rows(HostRows<Value>& rows) {
  for (auto& row : rows) {
    std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) {
      if (a.first != b.first) return a.first < b.first;
      if (real_part(a.second) != real_part(b.second)) return real_part(a.second) < real_part(b.second);
      return imag_part(a.second) < imag_part(b.second);
    });
  }
}

template <class Value>
HostRows<Value> rows_of(const DcsrMatrix<Value, DcsrDevice>& A) {
  const auto csr = from_kokkos_crs(dcsr_to_csr(A));
  HostRows<Value> rows(static_cast<std::size_t>(csr.num_rows));
  for (index_type r = 0; r < csr.num_rows; ++r) {
    for (index_type k = csr.row_offsets[r]; k < csr.row_offsets[r + 1]; ++k) rows[r].emplace_back(csr.cols[k], csr.values[k]);
  }
  sort_rows(rows);
  return rows;
}

template <class Value>
HostRows<Value> rows_of(const HostCsr<Value>& csr) {
  HostRows<Value> rows(static_cast<std::size_t>(csr.num_rows));
  for (index_type r = 0; r < csr.num_rows; ++r) {
    for (index_type k = csr.row_offsets[r]; k < csr.row_offsets[r + 1]; ++k) rows[r].emplace_back(csr.cols[k], csr.values[k]);
  }
  return rows;
}

// The sequential meaning of an insertion under each duplicate policy.
template <class Value>
void reference_insert(HostRows<Value>& rows, const HostBatch<Value>& batch, DuplicatePolicy policy) {
  for (std::size_t i = 0; i < batch.rows.size(); ++i) {
    auto& row = rows[batch.rows[i]];
    auto same = std::find_if(row.begin(), row.end(), [&](const auto& e) { return e.first == batch.cols[i]; });
    if (policy == DuplicatePolicy::sum && same != row.end()) {
      same->second += batch.values[i];
    } else {
      row.emplace_back(batch.cols[i], batch.values[i]);
    }
  }
}

template <class Value>
HostCsr<Value> summed_csr(const HostRows<Value>& rows, index_type num_cols) {
  HostCoo<Value> coo(static_cast<index_type>(rows.size()), num_cols);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (const auto& e : rows[r]) coo.push_back(static_cast<index_type>(r), e.first, e.second);
  }
  return to_csr(coo);
}

// Values are small multiples of 1/2 so that every sum is exact in any order.
template <class Value>
HostBatch<Value> random_batch(int n, int num_rows, int num_cols, int col_range, std::uint64_t seed) {
  SignedUnitSequence random(seed);
  HostBatch<Value> b;
  auto draw = [&](int bound) { return std::min(bound - 1, static_cast<int>((random.next() + 1.0) * 0.5 * bound)); };
  for (int i = 0; i < n; ++i) {
    // A third of the entries go to row 0 so that it grows past the warp size.
    b.rows.push_back(i % 3 == 0 ? 0 : draw(num_rows));
    b.cols.push_back(draw(col_range < num_cols ? col_range : num_cols));
    b.values.push_back(value_from<Value>(draw(9) * 0.5 - 2.0, draw(5) * 0.5 - 1.0));
  }
  return b;
}

template <class Value>
struct DeviceBatch {
  Kokkos::View<int*, DcsrDevice> rows, cols;
  Kokkos::View<Value*, DcsrDevice> values;
};

template <class Value>
DeviceBatch<Value> upload(const HostBatch<Value>& b) {
  const int n = static_cast<int>(b.rows.size());
  DeviceBatch<Value> d{Kokkos::View<int*, DcsrDevice>("strata::test_rows", n),
                       Kokkos::View<int*, DcsrDevice>("strata::test_cols", n),
                       Kokkos::View<Value*, DcsrDevice>("strata::test_values", n)};
  auto rows_h = Kokkos::create_mirror_view(d.rows);
  auto cols_h = Kokkos::create_mirror_view(d.cols);
  auto values_h = Kokkos::create_mirror_view(d.values);
  for (int i = 0; i < n; ++i) {
    rows_h(i) = b.rows[i];
    cols_h(i) = b.cols[i];
    values_h(i) = b.values[i];
  }
  Kokkos::deep_copy(d.rows, rows_h);
  Kokkos::deep_copy(d.cols, cols_h);
  Kokkos::deep_copy(d.values, values_h);
  return d;
}

template <class Value>
void insert_batch(DcsrMatrix<Value, DcsrDevice>& A, const HostBatch<Value>& b, DuplicatePolicy policy) {
  const auto d = upload(b);
  dcsr_insert(A, d.rows, d.cols, d.values, policy);
}

// Columns must agree exactly, with their multiplicity. A column held once must
// hold the same value, up to the rounding of summing the same terms in another
// order (exact for the half-integer batch values alone). A column held several
// times (keep_separate) is compared by its sum, the value the matrix means: a
// later sum-policy batch adds to one of those entries, and which one depends on
// the order in which the device placed them (dcsr_insert.hpp).
template <class Value>
void expect_same_rows(HostRows<Value> got, HostRows<Value> want) {
  using Real = typename value_traits<Value>::real_type;
  const double eps = static_cast<double>(std::numeric_limits<Real>::epsilon());
  sort_rows(got);
  sort_rows(want);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t r = 0; r < got.size(); ++r) {
    ASSERT_EQ(got[r].size(), want[r].size()) << "row " << r;
    for (std::size_t k = 0; k < got[r].size();) {
      std::size_t end = k + 1;
      while (end < want[r].size() && want[r][end].first == want[r][k].first) ++end;
      Value got_sum{}, want_sum{};
      double magnitude = 1.0;
      for (std::size_t j = k; j < end; ++j) {
        EXPECT_EQ(got[r][j].first, want[r][j].first) << "row " << r << " entry " << j;
        got_sum += got[r][j].second;
        want_sum += want[r][j].second;
        magnitude += std::abs(real_part(want[r][j].second)) + std::abs(imag_part(want[r][j].second));
      }
      const double tolerance = 16.0 * eps * magnitude;
      const char* what = end - k == 1 ? " entry " : " sum of the entries from ";
      EXPECT_NEAR(real_part(got_sum), real_part(want_sum), tolerance) << "row " << r << what << k;
      EXPECT_NEAR(imag_part(got_sum), imag_part(want_sum), tolerance) << "row " << r << what << k;
      k = end;
    }
  }
}

}  // namespace strata::test
