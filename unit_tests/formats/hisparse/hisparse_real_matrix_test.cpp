// Every matrix of the real-matrix directory: COO -> HiSparse -> COO exact on the
// device, the pool byte for byte the host encoder's, the simple SpMV and SpMV^T,
// and A + B in every transpose combination the shape allows (B: A after local
// edits, sharing A's untouched sub-trees) against the host references.
#include "algorithms/add/add_check.hpp"
#include "spmv_check.hpp"
#include "test_environment.hpp"

#include <strata/algorithms/add.hpp>
#include <strata/core/matrix_source.hpp>
#include <strata/formats/hisparse/hisparse_convert.hpp>
#include <strata/formats/hisparse/hisparse_edit.hpp>
#include <strata/formats/hisparse/hisparse_host_codec.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace strata {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;

template <class Value>
void check_matrix(const HostCsr<Value>& csr) {
  const auto coo = to_coo(csr);
  const auto A = to_hisparse<Device>(coo);
  auto back = to_host_coo(A);
  back.sort_and_combine();
  EXPECT_EQ(back.rows, coo.rows);
  EXPECT_EQ(back.cols, coo.cols);
  EXPECT_TRUE(back.values == coo.values);
  const auto host = hisparse::encode_host(coo, hisparse_default_log2_block);
  EXPECT_EQ(A.root(), host.root);
  EXPECT_TRUE(pool_words_on_host(A) == host.words);
  test::ApiProduct<ExecSpace, HiSparseMatrix<Value, Device>> kernel{A, {}};
  const Value alpha = value_from<Value>(1.0, 0.0), beta = value_from<Value>(0.5, 0.0);
  test::expect_spmv_matches_reference<Value, ExecSpace>(kernel, csr, "N", alpha, beta, false);
  test::expect_spmv_matches_reference<Value, ExecSpace>(kernel, csr, "T", alpha, beta, false);

  HiSparseEdits<Value> edits;
  edits.insert = HostCoo<Value>(coo.num_rows, coo.num_cols);
  for (index_type k = 0; k < coo.nnz(); k += 101) edits.remove.push_back({coo.rows[k], coo.cols[k]});
  for (index_type k = 50; k < coo.nnz(); k += 101) edits.insert.push_back(coo.rows[k], coo.cols[k], value_from<Value>(3.0, 1.0));
  const auto E = hisparse_edit(A, edits);
  const auto e = to_host_coo(E);
  const Value scale_b = value_from<Value>(-0.75, 0.5);
  for (const char* ma : {"N", "T"}) {
    for (const char* mb : {"N", "T"}) {
      if (std::string(ma) != mb && coo.num_rows != coo.num_cols) continue;
      SCOPED_TRACE(std::string("A + B, op(A) = ") + ma + ", op(B) = " + mb);
      test::expect_add_matches_reference(
          add(ma, alpha, A, mb, scale_b, E),
          reference::coo_add(parse_spmv_mode(ma), alpha, coo, parse_spmv_mode(mb), scale_b, e));
    }
  }
}

TEST(HiSparseRealMatrices, RoundTripIsExactAndSpmvMatchesReference) {
  const auto files = test::real_matrix_files();
  ASSERT_FALSE(files.empty()) << "no .mtx files in the matrix directory '" << test::matrix_dir()
                              << "' (set --matrix-dir=DIR or STRATA_MATRIX_DIR)";
  for (const auto& file : files) {
    SCOPED_TRACE(file);
    const LoadedMatrix m = load_matrix(file);
    if (m.is_complex) {
      check_matrix(m.complex);
    } else {
      check_matrix(m.real);
    }
  }
}

}  // namespace
}  // namespace strata
