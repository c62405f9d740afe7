// The baselines strata::add is measured against, on the same terms as strata::add's own tests:
// Kokkos Kernels' spadd (with its explicit transpose) everywhere, and cuSPARSE's csrgeam2 (with
// cusparseCsr2cscEx2) where the build has it, against the host reference in the four transpose
// combinations with scale factors. A speedup over a baseline means something only if the
// baseline's sum is right: the benchmark checks each result too, these tests check the edges
// (empty, 1x1, rectangular, block edges, stored zeros, a full row and column) on every backend.
#include "formats/hisparse/hisparse_test_matrices.hpp"

#include <strata/algorithms/baseline/csr_add.hpp>
#include <strata/algorithms/baseline/cusparse_add.hpp>
#include <strata/algorithms/reference/coo_add.hpp>
#include <strata/core/addition_partner.hpp>
#include <strata/core/kokkos_crs.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace strata {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;

template <class Value>
class AddBaselines : public ::testing::Test {};
TYPED_TEST_SUITE(AddBaselines, test::ValueTypes);

template <class Value, class CrsMatrix>
void expect_sum_matches(const CrsMatrix& C, const reference::AddReference<Value>& ref) {
  const auto acc = reference::check_add(to_coo(from_kokkos_crs(C)), ref);
  EXPECT_TRUE(acc.passed) << acc.describe();
  EXPECT_EQ(static_cast<index_type>(C.numRows()), ref.num_rows);
  EXPECT_EQ(static_cast<index_type>(C.numCols()), ref.num_cols);
}

TYPED_TEST(AddBaselines, EveryTransposeCombinationMatchesHostReference) {
  using Value = TypeParam;
  using csr_type = DeviceCsr<Value, Device>;
  const Value alpha = value_from<Value>(2.0, 0.0);
  const Value beta = value_from<Value>(-0.5, 0.0);  // cancels the partner's 4 m(i, j) exactly
  int cases = 0;
  for (const auto& c : test::hisparse_cases()) {
    // CSR with 32-bit indices: the cases of dimension 2^33 and beyond are HiSparse's alone.
    if (c.coo.num_rows > std::numeric_limits<int>::max() || c.coo.num_cols > std::numeric_limits<int>::max()) continue;
    SCOPED_TRACE(c.name);
    ++cases;
    const auto a = test::convert_coo<Value>(c.coo);
    const auto p = overlapping_partner(a);
    const auto A = to_kokkos_crs<csr_type>(to_csr(a), "strata::test_a");
    for (const char* modes : {"NN", "TN", "NT", "TT"}) {
      SCOPED_TRACE(std::string("modes ") + modes);
      const SpmvMode ma = parse_spmv_mode(std::string(1, modes[0])), mb = parse_spmv_mode(std::string(1, modes[1]));
      const auto b = is_transposed(ma) == is_transposed(mb) ? p : transposed(p);
      const auto B = to_kokkos_crs<csr_type>(to_csr(b), "strata::test_b");
      const auto ref = reference::coo_add(ma, alpha, a, mb, beta, b);
      expect_sum_matches(baseline::kk_add(ma, alpha, A, mb, beta, B), ref);
      if constexpr (baseline::cusparse_add_available<ExecSpace>::value) {
        baseline::CusparseAdd<Value, ExecSpace> cusparse;
        expect_sum_matches(cusparse.add(ExecSpace(), ma, alpha, A, mb, beta, B), ref);
      }
    }
  }
  EXPECT_GE(cases, 10);
}

TYPED_TEST(AddBaselines, ShapeMismatchAndConjugatingModesAreRefused) {
  using Value = TypeParam;
  using csr_type = DeviceCsr<Value, Device>;
  const auto A = to_kokkos_crs<csr_type>(to_csr(test::convert_coo<Value>(to_coo(gen::uniform_random(30, 50, 4, 1)))),
                                         "strata::test_a");
  const Value one = value_from<Value>(1.0, 0.0);
  EXPECT_THROW((void)baseline::kk_add(SpmvMode::transpose, one, A, SpmvMode::normal, one, A), Error);
  EXPECT_THROW((void)baseline::kk_add(SpmvMode::conjugate, one, A, SpmvMode::conjugate, one, A), Error);
  if constexpr (baseline::cusparse_add_available<ExecSpace>::value) {
    baseline::CusparseAdd<Value, ExecSpace> cusparse;
    EXPECT_THROW((void)cusparse.add(ExecSpace(), SpmvMode::normal, one, A, SpmvMode::transpose, one, A), Error);
    EXPECT_THROW((void)cusparse.add(ExecSpace(), SpmvMode::conjugate_transpose, one, A, SpmvMode::normal, one, A),
                 Error);
  }
}

}  // namespace
}  // namespace strata
