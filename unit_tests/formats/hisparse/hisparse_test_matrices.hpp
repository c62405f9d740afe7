#pragma once
// The matrices every HiSparse test runs over: generators around the block size
// and its edges, rectangular and empty shapes, and one-entry matrices of
// dimension 2^33 (five tree levels with d = 128).
#include "test_value_types.hpp"

#include <strata/core/generators.hpp>
#include <strata/core/host_coo.hpp>

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace strata::test {

struct HiSparseCase {
  std::string name;
  HostCoo<double> coo;
  int log2_block;
};

inline HostCoo<double> one_entry(index_type n_rows, index_type n_cols, index_type r, index_type c, double v) {
  HostCoo<double> m(n_rows, n_cols);
  m.push_back(r, c, v);
  return m;
}

// Stored zeros must survive the round trip as entries.
inline HostCoo<double> with_stored_zeros(HostCoo<double> m) {
  for (index_type k = 0; k < m.nnz(); k += 5) m.values[static_cast<std::size_t>(k)] = 0.0;
  return m;
}

// The diagonal, one full row and one full column: a hub in each direction.
inline HostCoo<double> full_row_and_column(index_type n_rows, index_type n_cols, index_type full_row,
                                           index_type full_col) {
  HostCoo<double> m(n_rows, n_cols);
  for (index_type c = 0; c < n_cols; ++c) m.push_back(full_row, c, 1.0 + static_cast<double>(c % 13));
  for (index_type r = 0; r < n_rows; ++r) {
    if (r != full_row) m.push_back(r, full_col, -2.0 - static_cast<double>(r % 7));
    if (r != full_row && r < n_cols && r != full_col) m.push_back(r, r, 4.0);
  }
  return m;
}

inline std::vector<HiSparseCase> hisparse_cases() {
  const index_type big = index_type(1) << 33;
  std::vector<HiSparseCase> c;
  c.push_back({"empty_0x0", HostCoo<double>(0, 0), 7});
  c.push_back({"empty_5x3", HostCoo<double>(5, 3), 7});
  c.push_back({"one_1x1", one_entry(1, 1, 0, 0, 2.5), 7});
  c.push_back({"dense_200x130", with_stored_zeros(to_coo(gen::dense(200, 130, 3))), 7});
  c.push_back({"dense_64x64_d16", to_coo(gen::dense(64, 64, 4)), 4});
  c.push_back({"random_300x517", to_coo(gen::uniform_random(300, 517, 9, 5)), 7});
  c.push_back({"random_300x517_d4", to_coo(gen::uniform_random(300, 517, 9, 5)), 2});
  c.push_back({"random_33x1000_d2", to_coo(gen::uniform_random(33, 1000, 40, 6)), 1});
  c.push_back({"poisson3d_10", with_stored_zeros(to_coo(gen::poisson3d_7pt(10))), 7});
  c.push_back({"poisson2d_40_d16", to_coo(gen::poisson2d_5pt(40)), 4});
  c.push_back({"rmat_10_d256", to_coo(gen::rmat({10, 8, 0.57, 0.19, 0.19, 7})), 8});
  c.push_back({"banded_129", to_coo(gen::banded(129, 3)), 7});
  c.push_back({"full_row_and_column_300x700", full_row_and_column(300, 700, 17, 699), 7});
  c.push_back({"one_2^33_origin", one_entry(big, big, 0, 0, -1.0), 7});
  c.push_back({"one_2^33_corner", one_entry(big, big, big - 1, big - 1, 3.0), 7});
  c.push_back({"one_2^33_rect", one_entry(big, 3, big - 12345, 2, 7.0), 7});
  c.push_back({"one_2^40", one_entry(index_type(1) << 40, index_type(1) << 40, (index_type(1) << 40) - 1, 77, 1.5), 7});
  HostCoo<double> scattered(big, big);
  for (index_type k = 0; k < 40; ++k) scattered.push_back((k * 2654435761LL) % big, (k * 40503LL + 7) % big, 1.0 + k);
  c.push_back({"scattered_2^33", scattered, 7});
  return c;
}

template <class Value>
HostCoo<Value> convert_coo(const HostCoo<double>& in) {
  HostCoo<Value> out(in.num_rows, in.num_cols);
  for (index_type k = 0; k < in.nnz(); ++k) {
    const double v = in.values[static_cast<std::size_t>(k)];
    out.push_back(in.rows[static_cast<std::size_t>(k)], in.cols[static_cast<std::size_t>(k)],
                  value_from<Value>(v, 0.25 * v));
  }
  return out;
}

template <class Value>
HostCoo<Value> sorted(HostCoo<Value> m) {
  m.sort_and_combine();
  return m;
}

}  // namespace strata::test
