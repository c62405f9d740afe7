#pragma once
// The matrices every SpMV kernel is checked on, and their values in each value type.
#include "spmv_check.hpp"

#include <strata/core/generators.hpp>
#include <strata/core/kokkos_crs.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace strata::test {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;

// Matrices sized around the warp (32) and tile edges, rectangular ones, empty
// rows, long rows and an empty matrix.
inline std::vector<std::pair<std::string, HostCsr<double>>> test_matrices() {
  std::vector<std::pair<std::string, HostCsr<double>>> m;
  m.emplace_back("poisson2d_9", gen::poisson2d_5pt(9));
  m.emplace_back("poisson3d27_4", gen::poisson3d_27pt(4));
  m.emplace_back("random_70x45", gen::uniform_random(70, 45, 5, 3));
  m.emplace_back("random_33x130", gen::uniform_random(33, 130, 64, 4));
  m.emplace_back("rmat_8", gen::rmat({8, 8, 0.57, 0.19, 0.19, 5}));
  m.emplace_back("dense_33x65", gen::dense(33, 65, 6));
  m.emplace_back("banded_100_40", gen::banded(100, 40));
  HostCoo<double> sparse_rows(37, 50);
  for (index_type i = 0; i < 37; i += 3) sparse_rows.push_back(i, (i * 7) % 50, 1.0 + i);
  m.emplace_back("empty_rows_37x50", to_csr(sparse_rows));
  m.emplace_back("empty_0x0", HostCsr<double>{});
  HostCsr<double> no_entries;
  no_entries.num_rows = 5;
  no_entries.num_cols = 3;
  no_entries.row_offsets.assign(6, 0);
  m.emplace_back("no_entries_5x3", no_entries);
  return m;
}


// The test matrix in Value; complex values get nonzero imaginary parts (small
// exact multiples of 1/4), so that conjugating modes differ from the others.
template <class Value>
HostCsr<Value> test_values(const HostCsr<double>& real_matrix) {
  HostCsr<Value> m = convert_values<Value>(real_matrix);
  if constexpr (value_traits<Value>::is_complex) {
    for (std::size_t k = 0; k < m.values.size(); ++k) {
      m.values[k] = value_from<Value>(real_matrix.values[k], static_cast<double>(static_cast<int>(k % 7) - 3) / 4.0);
    }
  }
  return m;
}

}  // namespace strata::test
