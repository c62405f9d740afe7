// strata::spmv on HiSparseMatrix, every algorithm (the simple leaf traversal and
// the tree walk on the dynamic scheduler's host-driven, persistent and, where built, controller launchers): the typed suite, then the matrix's
// own transpose flag and scale factor folded into the product.
#include "algorithms/spmv/spmv_api_cases.hpp"
#include "formats/hisparse/hisparse_test_matrices.hpp"

namespace strata {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;

template <class Value>
class HiSparseSpmvTest : public ::testing::Test {};
TYPED_TEST_SUITE(HiSparseSpmvTest, test::ValueTypes);

// The controller where this build has it (CUDA, STRATA_ENABLE_CUDA_CONTROLLER).
const std::vector<SpmvAlgorithm> algorithms = [] {
  std::vector<SpmvAlgorithm> a{SpmvAlgorithm::leaf_teams, SpmvAlgorithm::scheduled, SpmvAlgorithm::persistent};
  if (scheduler::controller_available<ExecSpace>::value) a.push_back(SpmvAlgorithm::controlled);
  return a;
}();

SpmvSettings with_algorithm(SpmvAlgorithm a) {
  SpmvSettings s;
  s.algorithm = a;
  return s;
}

// One algorithm on every case with blocks of d = 2^log2_block. One test per algorithm and block
// size: under compute-sanitizer's racecheck a test per block size (four algorithms) still ran past
// 520 s (2026-11-28, H100), and so did the three block sizes in one test before that.
template <class Value>
void check_algorithm_with_block(SpmvAlgorithm algorithm, int log2_block) {
  SCOPED_TRACE(std::string(to_string(algorithm)) + ", d = " + std::to_string(1 << log2_block));
  test::check_every_case<Value, HiSparseMatrix<Value, Device>>(
      [log2_block](const HostCsr<Value>& host) { return to_hisparse<Device>(to_coo(host), log2_block); },
      with_algorithm(algorithm));
}

// d, in the test's name, is 2^log2_block.
#define STRATA_HISPARSE_EVERY_CASE_TEST(Name, algorithm, log2_block, d)             \
  static_assert((1 << (log2_block)) == (d), "block size " #d " is not 2^" #log2_block); \
  TYPED_TEST(HiSparseSpmvTest, Name##MatchesReferenceEverywhereWithBlocksOf##d) { \
    check_algorithm_with_block<TypeParam>(SpmvAlgorithm::algorithm, log2_block);  \
  }
STRATA_HISPARSE_EVERY_CASE_TEST(LeafTeams, leaf_teams, 2, 4)
STRATA_HISPARSE_EVERY_CASE_TEST(LeafTeams, leaf_teams, 5, 32)
STRATA_HISPARSE_EVERY_CASE_TEST(LeafTeams, leaf_teams, 7, 128)
STRATA_HISPARSE_EVERY_CASE_TEST(Scheduled, scheduled, 2, 4)
STRATA_HISPARSE_EVERY_CASE_TEST(Scheduled, scheduled, 5, 32)
STRATA_HISPARSE_EVERY_CASE_TEST(Scheduled, scheduled, 7, 128)
STRATA_HISPARSE_EVERY_CASE_TEST(Persistent, persistent, 2, 4)
STRATA_HISPARSE_EVERY_CASE_TEST(Persistent, persistent, 5, 32)
STRATA_HISPARSE_EVERY_CASE_TEST(Persistent, persistent, 7, 128)
// The controller exists only in CUDA builds with STRATA_ENABLE_CUDA_CONTROLLER (its tests are not
// registered elsewhere, rather than skipped).
#if defined(KOKKOS_ENABLE_CUDA) && STRATA_ENABLE_CUDA_CONTROLLER
static_assert(scheduler::controller_available<ExecSpace>::value, "the controller is built for the default space");
STRATA_HISPARSE_EVERY_CASE_TEST(Controlled, controlled, 2, 4)
STRATA_HISPARSE_EVERY_CASE_TEST(Controlled, controlled, 5, 32)
STRATA_HISPARSE_EVERY_CASE_TEST(Controlled, controlled, 7, 128)
#endif
#undef STRATA_HISPARSE_EVERY_CASE_TEST

TYPED_TEST(HiSparseSpmvTest, MatchesReferenceWithTransposeFlagAndScale) {
  using Value = TypeParam;
  const Value alphas[] = {value_from<Value>(1.0, 0.0), value_from<Value>(-1.5, 0.5)};
  const Value betas[] = {value_from<Value>(0.0, 0.0), value_from<Value>(1.0, 0.0), value_from<Value>(0.5, -2.0)};
  const Value s = value_from<Value>(0.5, 0.25);
  for (const auto& c : test::hisparse_cases()) {
    if (c.coo.num_rows > 100000 || c.coo.num_cols > 100000) continue;  // vectors of 2^33 entries do not fit
    SCOPED_TRACE(c.name);
    const auto coo = test::convert_coo<Value>(c.coo);
    std::vector<std::pair<bool, SpmvAlgorithm>> runs;
    for (const SpmvAlgorithm algorithm : algorithms) {
      runs.push_back({false, algorithm});
      runs.push_back({true, algorithm});
    }
    for (const auto& [flag, algorithm] : runs) {
      SCOPED_TRACE(std::string(to_string(algorithm)) + (flag ? ", transposed" : ""));
      auto A = to_hisparse<Device>(coo, c.log2_block);
      // The reference sees the explicit matrix s * op_flag(A).
      HostCoo<Value> explicit_coo(flag ? coo.num_cols : coo.num_rows, flag ? coo.num_rows : coo.num_cols);
      for (index_type k = 0; k < coo.nnz(); ++k) {
        explicit_coo.push_back(flag ? coo.cols[k] : coo.rows[k], flag ? coo.rows[k] : coo.cols[k], s * coo.values[k]);
      }
      const auto reference = to_csr(explicit_coo);
      if (flag) A.transpose();
      A.scale(s);
      test::ApiProduct<ExecSpace, HiSparseMatrix<Value, Device>> kernel{
          A, SpmvHandle<ExecSpace, HiSparseMatrix<Value, Device>>(with_algorithm(algorithm))};
      for (const std::string mode : {"N", "T", "C", "H"}) {
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
  const auto A = to_hisparse<Device>(coo);
  test::ApiProduct<ExecSpace, HiSparseMatrix<double, Device>> kernel{A, {}};
  Kokkos::View<double*, Device> x("x", 3), y("y", 2), u("u", 2), v("v", 3);
  auto xh = Kokkos::create_mirror_view(x);
  xh(0) = 1;
  xh(1) = 2;
  xh(2) = 3;
  Kokkos::deep_copy(x, xh);
  Kokkos::deep_copy(u, 1.0);
  spmv(ExecSpace(), "N", 1.0, A, x, 0.0, y);
  spmv(ExecSpace(), "T", 1.0, A, u, 0.0, v);
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
