#pragma once
// A second term for additions, built from the first so that a sum exercises
// every case: overlapping entries, exact cancellation and entries of one term
// only. Tests and the addition benchmark use it.
#include <strata/core/host_coo.hpp>

#include <algorithm>
#include <utility>
#include <vector>

namespace strata {

// Same shape as m: every other entry of m with a new value (every fifth of them
// 4 m(i, j), which beta = -alpha / 4 cancels exactly), and beside every third
// entry of m a new one, one column to the right, where m has none.
// m must be free of duplicates; then so is the partner (two entries of m give
// the same new coordinate only if they are the same entry).
template <class Value>
HostCoo<Value> overlapping_partner(const HostCoo<Value>& m) {
  std::vector<std::pair<index_type, index_type>> present(static_cast<std::size_t>(m.nnz()));
  for (index_type k = 0; k < m.nnz(); ++k) present[static_cast<std::size_t>(k)] = {m.rows[k], m.cols[k]};
  std::sort(present.begin(), present.end());
  HostCoo<Value> p(m.num_rows, m.num_cols);
  p.reserve(static_cast<std::size_t>(m.nnz() / 2 + m.nnz() / 3 + 2));
  for (index_type k = 0; k < m.nnz(); k += 2) {
    const Value v = (k % 10 == 0) ? value_from<Value>(4.0, 0.0) * m.values[k] : value_from<Value>(0.5 + k % 7, -1.0);
    p.push_back(m.rows[k], m.cols[k], v);
  }
  for (index_type k = 1; k < m.nnz(); k += 3) {
    const std::pair<index_type, index_type> beside{m.rows[k], (m.cols[k] + 1) % m.num_cols};
    if (!std::binary_search(present.begin(), present.end(), beside)) {
      p.push_back(beside.first, beside.second, value_from<Value>(-1.5, 0.75));
    }
  }
  return p;
}

}  // namespace strata
