#pragma once
// The matrices and alpha/beta/mode combinations every baseline SpMV is checked on.
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


template <class Value, class MakeKernel>
void check_all(MakeKernel&& make_kernel, const std::vector<std::string>& modes) {
  const Value alphas[] = {value_from<Value>(1.0, 0.0), value_from<Value>(-1.5, 0.5), value_from<Value>(0.0, 0.0)};
  const Value betas[] = {value_from<Value>(0.0, 0.0), value_from<Value>(1.0, 0.0), value_from<Value>(0.5, -2.0)};
  for (const auto& [name, real_matrix] : test_matrices()) {
    SCOPED_TRACE(name);
    const auto host = convert_values<Value>(real_matrix);
    const auto A = to_kokkos_crs<DeviceCsr<Value, Device>>(host, "strata::test_" + name);
    auto kernel = make_kernel(A);
    for (const auto& mode : modes) {
      for (const Value& alpha : alphas) {
        for (const Value& beta : betas) {
          expect_spmv_matches_reference<Value, ExecSpace>(*kernel, host, mode, alpha, beta, false);
        }
      }
      // beta = 0 must overwrite y even where it holds NaN.
      expect_spmv_matches_reference<Value, ExecSpace>(*kernel, host, mode, alphas[1], betas[0], true);
    }
  }
}

}  // namespace strata::test
