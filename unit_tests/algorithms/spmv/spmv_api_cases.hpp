#pragma once
// The one typed suite every format runs through the public API: every mode
// (N, T, C, H) x vector shape (rank 1; rank 2 with 1, 3, 8 columns, LayoutLeft
// and LayoutRight) x alpha/beta (beta = 0 over NaN included) on generators with
// empty rows, one huge row, rectangular shapes, and sizes on warp (32) and tile
// (128) edges, against the sequential host reference.
#include "test_value_types.hpp"
#include "algorithms/spmv_baseline_cases.hpp"

#include <strata/strata.hpp>

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace strata::test {


inline std::vector<std::pair<std::string, HostCsr<double>>> api_test_matrices() {
  auto m = test_matrices();
  // One huge row among short ones, and one full row: row kernels and chunk boundaries.
  HostCoo<double> huge_row(300, 5000);
  for (index_type j = 0; j < 5000; ++j) huge_row.push_back(7, j, 1.0 + static_cast<double>(j % 5));
  for (index_type i = 0; i < 300; i += 4) huge_row.push_back(i, (i * 31) % 5000, -0.5);
  m.emplace_back("one_huge_row_300x5000", to_csr(huge_row));
  m.emplace_back("dense_3x5000", gen::dense(3, 5000, 4));
  // Warp and tile edges: 31/32/33 and 127/128/129.
  m.emplace_back("random_32x33", gen::uniform_random(32, 33, 6, 8));
  m.emplace_back("random_31x129", gen::uniform_random(31, 129, 9, 9));
  m.emplace_back("random_128x127", gen::uniform_random(128, 127, 4, 10));
  m.emplace_back("random_129x257", gen::uniform_random(129, 257, 7, 12));
  return m;
}

inline std::vector<std::string> all_modes() { return {"N", "T", "C", "H"}; }

// make(host) returns the matrix in the format under test; it is multiplied
// through one handle (with `settings`) per matrix, reused for every product.
template <class Value, class Matrix, class Make>
void check_every_case(Make&& make, const SpmvSettings& settings = {}, const std::vector<std::string>& modes = all_modes()) {
  struct Scalars {
    Value alpha, beta;
    bool nan_y;
  };
  const Value a2 = value_from<Value>(-1.5, 0.5), b2 = value_from<Value>(0.5, -2.0);
  const Scalars scalars[] = {{value_from<Value>(1.0, 0.0), value_from<Value>(0.0, 0.0), true},
                             {a2, b2, false},
                             {value_from<Value>(0.0, 0.0), b2, false},
                             {a2, value_from<Value>(1.0, 0.0), false}};
  for (const auto& [name, real_matrix] : api_test_matrices()) {
    SCOPED_TRACE(name);
    const auto host = test_values<Value>(real_matrix);
    const Matrix A = make(host);
    ApiProduct<ExecSpace, Matrix> product{A, SpmvHandle<ExecSpace, Matrix>(settings)};
    for (const auto& mode : modes) {
      for (const auto& shape : all_vector_shapes()) {
        for (const auto& s : scalars) {
          expect_spmv_matches_reference<Value, ExecSpace>(product, host, mode, s.alpha, s.beta, s.nan_y, shape);
        }
      }
    }
  }
}

// The row_vectors kernel with the handle's lane count at both ends of its range:
// one lane per row and a warp per row.
template <class Value, class Matrix, class Make>
void check_every_case_with_one_lane_and_a_warp(Make&& make) {
  for (const int lanes : {1, 32}) {
    SCOPED_TRACE("lanes " + std::to_string(lanes));
    SpmvSettings s;
    s.algorithm = SpmvAlgorithm::row_vectors;
    s.lanes = lanes;
    check_every_case<Value, Matrix>(make, s);
  }
}

}  // namespace strata::test
