// The simple HiSparse SpMV and SpMV^T against the sequential host reference,
// with the matrix's transpose flag and scale factor folded in, for every value type.
#include "formats/hisparse/hisparse_test_matrices.hpp"
#include "spmv_check.hpp"

#include <strata/algorithms/hisparse/hisparse_spmv.hpp>
#include <strata/formats/hisparse/hisparse_convert.hpp>

#include <gtest/gtest.h>

namespace strata {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;

template <class Value>
class HiSparseSpmvTest : public ::testing::Test {};
TYPED_TEST_SUITE(HiSparseSpmvTest, test::HiSparseValueTypes);

TYPED_TEST(HiSparseSpmvTest, MatchesReferenceWithTransposeFlagAndScale) {
  using Value = TypeParam;
  const Value alphas[] = {value_from<Value>(1.0, 0.0), value_from<Value>(-1.5, 0.5)};
  const Value betas[] = {value_from<Value>(0.0, 0.0), value_from<Value>(1.0, 0.0), value_from<Value>(0.5, -2.0)};
  const Value s = value_from<Value>(0.5, 0.25);
  for (const auto& c : test::hisparse_cases()) {
    if (c.coo.num_rows > 100000 || c.coo.num_cols > 100000) continue;  // vectors of 2^33 entries do not fit
    SCOPED_TRACE(c.name);
    const auto coo = test::convert_coo<Value>(c.coo);
    for (const bool flag : {false, true}) {
      auto A = to_hisparse<Device>(coo, c.log2_block);
      // The reference sees the explicit matrix s * op_flag(A).
      HostCoo<Value> explicit_coo(flag ? coo.num_cols : coo.num_rows, flag ? coo.num_rows : coo.num_cols);
      for (index_type k = 0; k < coo.nnz(); ++k) {
        explicit_coo.push_back(flag ? coo.cols[k] : coo.rows[k], flag ? coo.rows[k] : coo.cols[k], s * coo.values[k]);
      }
      const auto reference = to_csr(explicit_coo);
      if (flag) A.transpose();
      A.scale(s);
      HiSparseSpmv<Value, ExecSpace> kernel(A);
      for (const std::string mode : {"N", "T", "H"}) {
        for (const Value& alpha : alphas) {
          for (const Value& beta : betas) {
            test::expect_spmv_matches_reference<Value, ExecSpace>(kernel, reference, mode, alpha, beta, false);
          }
        }
        test::expect_spmv_matches_reference<Value, ExecSpace>(kernel, reference, mode, alphas[1], betas[0], true);
      }
    }
  }
}

TEST(HiSparseSpmvTest, HandCheckedTwoByThree) {
  // A = [1 0 2; 0 3 0], x = (1, 2, 3): A x = (7, 6); A^T (1, 1) = (1, 3, 2).
  HostCoo<double> coo(2, 3);
  coo.push_back(0, 0, 1.0);
  coo.push_back(0, 2, 2.0);
  coo.push_back(1, 1, 3.0);
  HiSparseSpmv<double, ExecSpace> kernel(to_hisparse<Device>(coo));
  Kokkos::View<double*, Device> x("x", 3), y("y", 2), u("u", 2), v("v", 3);
  auto xh = Kokkos::create_mirror_view(x);
  xh(0) = 1;
  xh(1) = 2;
  xh(2) = 3;
  Kokkos::deep_copy(x, xh);
  Kokkos::deep_copy(u, 1.0);
  kernel.apply(ExecSpace(), "N", 1.0, x, 0.0, y);
  kernel.apply(ExecSpace(), "T", 1.0, u, 0.0, v);
  auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  auto vh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  EXPECT_EQ(yh(0), 7.0);
  EXPECT_EQ(yh(1), 6.0);
  EXPECT_EQ(vh(0), 1.0);
  EXPECT_EQ(vh(1), 3.0);
  EXPECT_EQ(vh(2), 2.0);
  EXPECT_THROW(kernel.apply(ExecSpace(), "N", 1.0, u, 0.0, y), Error);  // x must have 3 entries
}

}  // namespace
}  // namespace strata
