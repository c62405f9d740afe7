#pragma once
#include <strata/core/error.hpp>
#include <strata/core/index.hpp>
#include <strata/core/value_traits.hpp>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

namespace strata {

// A sparse matrix as (row, col, value) triplets in host memory, 0-based.
// Order and duplicates are unconstrained until sort_and_combine() is called.
template <class Value>
struct HostCoo {
  using value_type = Value;

  index_type num_rows = 0;
  index_type num_cols = 0;
  std::vector<index_type> rows;
  std::vector<index_type> cols;
  std::vector<Value> values;

  HostCoo() = default;
  HostCoo(index_type r, index_type c) : num_rows(r), num_cols(c) {}

  index_type nnz() const { return static_cast<index_type>(values.size()); }

  void reserve(std::size_t n) {
    rows.reserve(n);
    cols.reserve(n);
    values.reserve(n);
  }

  void push_back(index_type r, index_type c, const Value& v) {
    rows.push_back(r);
    cols.push_back(c);
    values.push_back(v);
  }

  // Throws strata::Error naming the first offending entry.
  void validate() const {
    STRATA_REQUIRE(num_rows >= 0 && num_cols >= 0,
                   "HostCoo: negative dimensions " + std::to_string(num_rows) + " x " + std::to_string(num_cols));
    STRATA_REQUIRE(rows.size() == values.size() && cols.size() == values.size(),
                   "HostCoo: array lengths differ (rows " + std::to_string(rows.size()) + ", cols " +
                       std::to_string(cols.size()) + ", values " + std::to_string(values.size()) + ")");
    for (std::size_t k = 0; k < rows.size(); ++k) {
      STRATA_REQUIRE(rows[k] >= 0 && rows[k] < num_rows && cols[k] >= 0 && cols[k] < num_cols,
                     "HostCoo: entry " + std::to_string(k) + " at (" + std::to_string(rows[k]) + ", " +
                         std::to_string(cols[k]) + ") is outside " + std::to_string(num_rows) + " x " +
                         std::to_string(num_cols));
    }
  }

  bool is_sorted_unique() const {
    for (std::size_t k = 1; k < rows.size(); ++k) {
      if (rows[k - 1] > rows[k] || (rows[k - 1] == rows[k] && cols[k - 1] >= cols[k])) return false;
    }
    return true;
  }

  // Sorts by (row, col) and sums entries with equal coordinates; returns how many
  // entries were merged away. Sorting is by a permutation so that the summation
  // order of duplicates is their order of appearance, which keeps results reproducible.
  index_type sort_and_combine() {
    if (is_sorted_unique()) return 0;
    std::vector<index_type> order(rows.size());
    std::iota(order.begin(), order.end(), index_type{0});
    std::stable_sort(order.begin(), order.end(), [&](index_type a, index_type b) {
      return rows[a] < rows[b] || (rows[a] == rows[b] && cols[a] < cols[b]);
    });
    std::vector<index_type> r, c;
    std::vector<Value> v;
    r.reserve(order.size());
    c.reserve(order.size());
    v.reserve(order.size());
    for (index_type k : order) {
      if (!r.empty() && r.back() == rows[k] && c.back() == cols[k]) {
        v.back() += values[k];
      } else {
        r.push_back(rows[k]);
        c.push_back(cols[k]);
        v.push_back(values[k]);
      }
    }
    const index_type merged = static_cast<index_type>(rows.size() - r.size());
    rows = std::move(r);
    cols = std::move(c);
    values = std::move(v);
    return merged;
  }
};

// m^T: the same entries with rows and columns swapped.
template <class Value>
HostCoo<Value> transposed(const HostCoo<Value>& m) {
  HostCoo<Value> t(m.num_cols, m.num_rows);
  t.rows = m.cols;
  t.cols = m.rows;
  t.values = m.values;
  return t;
}

}  // namespace strata
