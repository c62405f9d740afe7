// AnyMatrix, Format::automatic and the kernel registry through strata::spmv,
// and every handle misuse, each asserting its error text.
#include "algorithms/spmv/spmv_api_cases.hpp"

#include <strata/algorithms/measure/spmv_run.hpp>

#include <cctype>
#include <tuple>

namespace strata {
namespace {

using test::Device;
using test::ExecSpace;
using Any = AnyMatrix<double, Device>;

// Runs `f` and expects a strata::Error whose text contains `expected`.
template <class F>
void expect_error(F&& f, const std::string& expected) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one containing: " << expected;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << "got: " << e.what();
  }
}

// The rule's choice for double values on the tested backend.
SpmvChoice choose_kernel(const MatrixStatistics& s, SpmvModes modes = SpmvModes::all) {
  return choose_spmv_kernel<double, ExecSpace>(s, modes);
}

// Every registry kernel through AnyMatrix, one test per kernel and mode: under compute-sanitizer's
// racecheck all kernels in one test ran past a 10-minute command, and so did one kernel (the
// persistent scheduler's HiSparse walk) in all four modes (2026-11-28, H100).
class AnyMatrixKernelSpmv : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(AnyMatrixKernelSpmv, MatchesReferenceEverywhere) {
  const auto& [name, mode] = GetParam();
  const SpmvKernel kernel = find_spmv_kernel<ExecSpace>(name);
  test::check_every_case<double, Any>(
      [&](const HostCsr<double>& host) { return make_spmv_matrix<double>(ExecSpace(), host, kernel); }, {}, {mode});
}

std::vector<std::string> registry_kernel_names() {
  std::vector<std::string> names;
  for (const auto& kernel : spmv_kernels<ExecSpace>()) names.push_back(kernel.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(EveryRegistryKernel, AnyMatrixKernelSpmv,
                         ::testing::Combine(::testing::ValuesIn(registry_kernel_names()),
                                            ::testing::ValuesIn(test::all_modes())),
                         [](const ::testing::TestParamInfo<std::tuple<std::string, std::string>>& info) {
                           std::string name = std::get<0>(info.param) + "_" + std::get<1>(info.param);
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(AnyMatrixSpmv, AutomaticRuleFollowsRowRegularity) {
  // Small matrices: CSR for even rows (Strata's row kernels on devices, Kokkos Kernels' on hosts),
  // COO for irregular ones (cuSPARSE's where there is cuSPARSE, else Strata's).
  constexpr bool on_host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, ExecSpace::memory_space>::accessible;
  const auto regular = make_spmv_matrix<double>(ExecSpace(), gen::poisson3d_7pt(10), Format::automatic);
  EXPECT_EQ(regular.format(), Format::csr);
  EXPECT_EQ(regular.hint().algorithm, on_host ? SpmvAlgorithm::kk_native : SpmvAlgorithm::row_vectors);
  EXPECT_NE(regular.hint().reason.find("even lengths"), std::string::npos) << regular.hint().reason;
  const auto irregular = make_spmv_matrix<double>(ExecSpace(), gen::rmat({12, 16, 0.57, 0.19, 0.19, 3}), Format::automatic);
  EXPECT_EQ(irregular.format(), Format::coo);
  EXPECT_NE(irregular.hint().reason.find("irregular lengths"), std::string::npos) << irregular.hint().reason;
  SpmvHandle<ExecSpace, Any> handle;
  Kokkos::View<double*, Device> x("x", irregular.num_cols()), y("y", irregular.num_rows());
  spmv(ExecSpace(), handle, "N", 1.0, irregular, x, 0.0, y);
  EXPECT_NE(handle.describe().find("irregular lengths"), std::string::npos) << handle.describe();
  EXPECT_NE(handle.describe().find("COO"), std::string::npos) << handle.describe();
}

// Every branch of the documented rule, from statistics alone (sizes no test
// matrix needs to have): what it picks depends on the backend and on cuSPARSE.
TEST(AnyMatrixSpmv, AutomaticRuleBranches) {
  auto stats = [](index_type rows, index_type nnz, double std, index_type longest) {
    MatrixStatistics s;
    s.num_rows = s.num_cols = rows;
    s.nnz = nnz;
    s.row_length_mean = static_cast<double>(nnz) / static_cast<double>(rows);
    s.row_length_std = std;
    s.row_length_max = longest;
    return s;
  };
  constexpr bool on_host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, ExecSpace::memory_space>::accessible;
  constexpr bool with_cusparse = Impl::cusparse_spmv_available<ExecSpace>::value;
  const index_type big = index_type(1) << 24, small = index_type(1) << 16;
  const index_type medium = index_type(1) << 21;  // bandwidth-bound, but HYB lost there in T
  const std::string small_kernel = on_host ? "csr" : "csr-rows";
  EXPECT_EQ(choose_kernel(stats(big / 8, big, 1.0, 10)).kernel.name, on_host ? "csr" : "hyb");
  EXPECT_EQ(choose_kernel(stats(medium / 8, medium, 1.0, 10)).kernel.name, small_kernel);
  EXPECT_EQ(choose_kernel(stats(small / 8, small, 1.0, 10)).kernel.name, small_kernel);
  EXPECT_EQ(choose_kernel(MatrixStatistics{}).kernel.name, small_kernel);
  // Irregular by spread, and by one long row among even ones.
  const auto spread = choose_kernel(stats(big / 8, big, 40.0, 5000));
  const auto long_row = choose_kernel(stats(small / 8, small, 0.5, 8 * 33));
  EXPECT_EQ(spread.kernel.name, with_cusparse ? "cusparse-csr" : "coo") << spread.reason;
  EXPECT_EQ(long_row.kernel.name, with_cusparse ? "cusparse-coo" : "coo") << long_row.reason;
  EXPECT_NE(spread.reason.find("irregular lengths"), std::string::npos) << spread.reason;
  EXPECT_NE(long_row.reason.find("irregular lengths"), std::string::npos) << long_row.reason;
  // The edges of "even": std/mean 1.2 and a longest row of 8 x the mean are even, a little more is not.
  const index_type rows = small / 8;  // mean 8
  EXPECT_EQ(choose_kernel(stats(rows, small, 1.2 * 8, 64)).kernel.name, small_kernel);
  const auto wide_spread = choose_kernel(stats(rows, small, 1.21 * 8, 64));
  const auto row_of_65 = choose_kernel(stats(rows, small, 0.5, 65));
  EXPECT_EQ(wide_spread.kernel.name, with_cusparse ? "cusparse-coo" : "coo") << wide_spread.reason;
  EXPECT_EQ(row_of_65.kernel.name, with_cusparse ? "cusparse-coo" : "coo") << row_of_65.reason;
  EXPECT_NE(row_of_65.reason.find("longest 65 vs mean 8"), std::string::npos) << row_of_65.reason;
  // Even rows, but one column of 30000 entries (TSOPF_RS_b39_c30): A^T's rows are not even.
  auto long_column_stats = stats(small / 8, small, 1.0, 10);
  long_column_stats.col_length_mean = 8.0;
  long_column_stats.col_length_std = 170.0;
  long_column_stats.col_length_max = 30000;
  const auto long_column = choose_kernel(long_column_stats);
  EXPECT_EQ(long_column.kernel.name, with_cusparse ? "cusparse-coo" : "coo") << long_column.reason;
  EXPECT_NE(long_column.reason.find("longest 30000"), std::string::npos) << long_column.reason;
  // Told the modes: N and C weigh only the rows, T and H only the columns.
  const auto long_column_n = choose_kernel(long_column_stats, SpmvModes::untransposed);
  const auto long_column_t = choose_kernel(long_column_stats, SpmvModes::transposed);
  EXPECT_EQ(long_column_n.kernel.name, small_kernel) << long_column_n.reason;
  EXPECT_EQ(long_column_n.reason.find("column length"), std::string::npos) << long_column_n.reason;
  EXPECT_EQ(long_column_t.kernel.name, with_cusparse ? "cusparse-coo" : "coo") << long_column_t.reason;
  EXPECT_EQ(long_column_t.reason.find("row length"), std::string::npos) << long_column_t.reason;
  EXPECT_NE(long_column_t.reason.find("rule for modes T and H"), std::string::npos) << long_column_t.reason;
  // The same column in a matrix of 2^20 to 2^22 nonzeros, where T or H may come: on a device with
  // cuSPARSE, Strata's nonzero-balanced kernel over A^T's rows; past 2^22 (A's values outgrow the
  // L2 cache it gathers them from), and in N only, not.
  for (const index_type nnz : {index_type(1) << 20, index_type(1) << 22, (index_type(1) << 22) + 1}) {
    auto column_stats = long_column_stats;
    column_stats.nnz = nnz;
    column_stats.num_rows = column_stats.num_cols = nnz / 8;
    const bool balanced = with_cusparse && !on_host && nnz <= (index_type(1) << 22);
    for (const auto modes : {SpmvModes::all, SpmvModes::transposed}) {
      const auto choice = choose_kernel(column_stats, modes);
      EXPECT_EQ(choice.kernel.name, balanced        ? "csr-balanced"
                                    : with_cusparse ? "cusparse-csr"
                                                    : "coo")
          << choice.reason;
    }
    const auto untransposed = choose_kernel(column_stats, SpmvModes::untransposed);
    EXPECT_EQ(untransposed.kernel.name, small_kernel) << untransposed.reason;
  }
}

// Column panels (csr-split), from the rule itself with a device's properties:
// the hubs of the suite (4M x 4M, 40M nonzeros, rows irregular, columns even) on
// a 50 MiB L2 are split in double (x 32 MiB, over a third of the L2), and so
// are power-law columns (R-MAT 22, 2026-11-27 22:10: 1.03-1.06x cuSPARSE CSR
// split); not in float (16 MiB: the whole matrix goes to cuSPARSE CSR with even
// columns, to Strata's nonzero-balanced kernel with power-law ones), not where
// T or H may come, not below 2^23 nonzeros, not on a host and not where the
// cache size is unknown.
TEST(AnyMatrixSpmv, AutomaticRuleSplitsColumnsWhereXOutgrowsTheCache) {
  MatrixStatistics hubs;
  hubs.num_rows = hubs.num_cols = 4000000;
  hubs.nnz = 40000000;
  hubs.row_length_mean = hubs.col_length_mean = 10.0;
  hubs.row_length_std = 140.0;
  hubs.row_length_max = 200008;
  hubs.col_length_std = 3.2;
  hubs.col_length_max = 31;
  Impl::SpmvTarget h100;
  h100.on_host = false;
  h100.with_cusparse = true;
  h100.value_bytes = 8;
  h100.last_level_cache_bytes = 50u << 20;
  const auto split = Impl::spmv_rule(hubs, h100, SpmvModes::untransposed);
  EXPECT_EQ(split.kernel, "csr-split") << split.reason;
  EXPECT_NE(split.reason.find("in 2 column panels"), std::string::npos) << split.reason;
  EXPECT_NE(split.reason.find("x 32000000 bytes, L2 52428800 bytes"), std::string::npos) << split.reason;
  auto without_cusparse = h100;
  without_cusparse.with_cusparse = false;
  EXPECT_EQ(Impl::spmv_rule(hubs, without_cusparse, SpmvModes::untransposed).kernel, "csr-split");
  auto in_float = h100;
  in_float.value_bytes = 4;
  EXPECT_EQ(Impl::spmv_rule(hubs, in_float, SpmvModes::untransposed).kernel, "cusparse-csr");
  EXPECT_EQ(Impl::spmv_rule(hubs, h100, SpmvModes::all).kernel, "cusparse-csr");
  EXPECT_EQ(Impl::spmv_rule(hubs, h100, SpmvModes::transposed).kernel, "hyb");  // the columns alone are even
  auto power_law_columns = hubs;
  power_law_columns.col_length_std = 40.0;
  power_law_columns.col_length_max = 60000;
  EXPECT_EQ(Impl::spmv_rule(power_law_columns, h100, SpmvModes::untransposed).kernel, "csr-split");
  const auto power_law_in_float = Impl::spmv_rule(power_law_columns, in_float, SpmvModes::untransposed);
  EXPECT_EQ(power_law_in_float.kernel, "csr-balanced") << power_law_in_float.reason;
  EXPECT_NE(power_law_in_float.reason.find("irregular rows and columns"), std::string::npos)
      << power_law_in_float.reason;
  EXPECT_EQ(Impl::spmv_rule(power_law_columns, in_float, SpmvModes::all).kernel, "cusparse-csr");
  auto fewer = hubs;
  fewer.nnz = (index_type(1) << 23) - 1;
  EXPECT_EQ(Impl::spmv_rule(fewer, h100, SpmvModes::untransposed).kernel, "cusparse-csr");
  fewer.nnz = index_type(1) << 23;
  EXPECT_EQ(Impl::spmv_rule(fewer, h100, SpmvModes::untransposed).kernel, "csr-split");
  auto host = h100;
  host.on_host = true;
  host.with_cusparse = false;
  EXPECT_EQ(Impl::spmv_rule(hubs, host, SpmvModes::untransposed).kernel, "coo");
  auto unknown_cache = h100;
  unknown_cache.last_level_cache_bytes = 0;
  EXPECT_EQ(Impl::spmv_rule(hubs, unknown_cache, SpmvModes::untransposed).kernel, "cusparse-csr");
}

// Rows all within 1.1x the mean length go to HYB on a device, in N and C only:
// its ELL part holds them without padding, while in T it scatters with atomics.
TEST(AnyMatrixSpmv, AutomaticRuleTakesHybForUniformRowsInUntransposedModesOnly) {
  auto uniform = [](index_type longest) {
    MatrixStatistics s;
    s.num_rows = s.num_cols = 6000;
    s.nnz = 60000;  // mean 10
    s.row_length_mean = s.col_length_mean = 10.0;
    s.row_length_std = s.col_length_std = 0.5;
    s.row_length_max = s.col_length_max = longest;
    return s;
  };
  constexpr bool on_host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, ExecSpace::memory_space>::accessible;
  const std::string small_kernel = on_host ? "csr" : "csr-rows";
  const auto at_edge = choose_kernel(uniform(11), SpmvModes::untransposed);
  EXPECT_EQ(at_edge.kernel.name, on_host ? "csr" : "hyb") << at_edge.reason;
  if (!on_host) {
    EXPECT_NE(at_edge.reason.find("within 1.1x the mean"), std::string::npos) << at_edge.reason;
  }
  EXPECT_EQ(choose_kernel(uniform(12), SpmvModes::untransposed).kernel.name, small_kernel);
  EXPECT_EQ(choose_kernel(uniform(11), SpmvModes::all).kernel.name, small_kernel);
  EXPECT_EQ(choose_kernel(uniform(11), SpmvModes::transposed).kernel.name, small_kernel);
  EXPECT_EQ(choose_kernel(MatrixStatistics{}, SpmvModes::untransposed).kernel.name, small_kernel);
}

TEST(AnyMatrixSpmv, TimedChoiceIsACandidateAndIsCachedPerSignatureAndModes) {
  const auto host = gen::uniform_random(300, 200, 6, 21);
  AutomaticOptions timed;
  timed.measure = true;
  timed.repetitions = 2;
  const auto first = make_spmv_matrix<double>(ExecSpace(), host, Format::automatic, timed);
  EXPECT_NE(first.hint().reason.find("timed in modes N, C, T and H:"), std::string::npos) << first.hint().reason;
  EXPECT_EQ(first.hint().reason.find("(cached)"), std::string::npos) << first.hint().reason;
  const auto second = make_spmv_matrix<double>(ExecSpace(), host, Format::automatic, timed);
  EXPECT_NE(second.hint().reason.find("(cached)"), std::string::npos) << second.hint().reason;
  EXPECT_EQ(first.format(), second.format());
  EXPECT_EQ(first.hint().algorithm, second.hint().algorithm);
  // Timed in N alone: another cache entry.
  timed.modes = SpmvModes::untransposed;
  const auto untransposed = make_spmv_matrix<double>(ExecSpace(), host, Format::automatic, timed);
  EXPECT_NE(untransposed.hint().reason.find("timed in modes N and C:"), std::string::npos) << untransposed.hint().reason;
  EXPECT_EQ(untransposed.hint().reason.find("(cached)"), std::string::npos) << untransposed.hint().reason;
}

TEST(SpmvMeasurement, VerifiesEveryKernelAndTimesIt) {
  const auto host = gen::poisson2d_5pt(20);
  for (const auto& kernel : spmv_kernels<ExecSpace>()) {
    for (int vectors : {1, 4}) {
      SCOPED_TRACE(kernel.name + " x" + std::to_string(vectors));
      measure::SpmvRun<double, ExecSpace> run(ExecSpace(), host, kernel, SpmvMode::transpose, vectors);
      const auto check = run.verify();
      EXPECT_TRUE(check.passed) << check.failure;
      const auto timing = run.time(1, 3);
      EXPECT_EQ(timing.repetitions, 3);
      EXPECT_GT(timing.median_seconds, 0.0);
      EXPECT_LE(timing.best_seconds, timing.median_seconds);
      EXPECT_GT(run.matrix_bytes(), 0u);
      EXPECT_GT(run.time_back_to_back(3), 0.0);
    }
  }
}

TEST(SpmvMeasurement, BackToBackNeedsAtLeastOneProduct) {
  measure::SpmvRun<double, ExecSpace> run(ExecSpace(), gen::poisson2d_5pt(4), find_spmv_kernel<ExecSpace>("csr"),
                                          SpmvMode::normal, 1);
  expect_error([&] { run.time_back_to_back(0); }, "products must be at least 1");
}

// ---- misuse: each case asserts the error text ----

TEST(SpmvHandleMisuse, AnotherMatrixIsRefused) {
  const auto A = to_kokkos_crs<DeviceCsr<double, Device>>(gen::poisson2d_5pt(4), "a");
  const auto B = to_kokkos_crs<DeviceCsr<double, Device>>(gen::poisson2d_5pt(4), "b");
  Kokkos::View<double*, Device> x("x", 16), y("y", 16);
  SpmvHandle<ExecSpace, DeviceCsr<double, Device>> handle;
  strata::spmv(ExecSpace(), handle, "N", 1.0, A, x, 0.0, y);
  expect_error([&] { strata::spmv(ExecSpace(), handle, "N", 1.0, B, x, 0.0, y); }, "was analysed for the 16 x 16 matrix");
  handle.reanalyze(ExecSpace(), B);  // an explicit rebind is allowed
  strata::spmv(ExecSpace(), handle, "N", 1.0, B, x, 0.0, y);
  expect_error([&] { spmv(ExecSpace(), handle, "N", 1.0, A, x, 0.0, y); }, "use one handle per matrix");
}

TEST(SpmvHandleMisuse, DcsrHandleFollowsItsMatrixButNotAnother) {
  auto A = dcsr_from_csr<double, Device>(to_kokkos_crs<DeviceCsr<double, Device>>(gen::poisson2d_5pt(4), "a"));
  const auto B = A;  // a copy is the same matrix
  const auto C = dcsr_from_csr<double, Device>(to_kokkos_crs<DeviceCsr<double, Device>>(gen::poisson2d_5pt(4), "c"));
  Kokkos::View<double*, Device> x("x", 16), y("y", 16);
  SpmvHandle<ExecSpace, DcsrMatrix<double, Device>> handle;
  strata::spmv(ExecSpace(), handle, "N", 1.0, A, x, 0.0, y);
  strata::spmv(ExecSpace(), handle, "N", 1.0, B, x, 0.0, y);
  expect_error([&] { spmv(ExecSpace(), handle, "N", 1.0, C, x, 0.0, y); }, "SpmvHandle<DCSR> was analysed for");
}

TEST(SpmvHandleMisuse, WrongExtentsAreRefusedWithTheShapes) {
  const auto A = coo_from_host<double, Device>(gen::uniform_random(5, 7, 2, 1), "a");
  Kokkos::View<double*, Device> x7("x", 7), x5("x", 5), y5("y", 5), y7("y", 7);
  expect_error([&] { spmv(ExecSpace(), "N", 1.0, A, x5, 0.0, y5); },
               "strata::spmv (COO, mode N): A is 5 x 7, so x needs 7 rows and y 5; got x of 5 and y of 5");
  expect_error([&] { spmv(ExecSpace(), "T", 1.0, A, x7, 0.0, y5); }, "mode T): A is 5 x 7, so x needs 5 rows and y 7");
  Kokkos::View<double**, Device> X("X", 7, 3), Y("Y", 5, 2);
  expect_error([&] { spmv(ExecSpace(), "N", 1.0, A, X, 0.0, Y); }, "(with equal column counts); got x of 7 x 3 and y of 5 x 2");
}

TEST(SpmvHandleMisuse, UnknownModeIsRefused) {
  const auto A = coo_from_host<double, Device>(gen::uniform_random(5, 5, 2, 1), "a");
  Kokkos::View<double*, Device> x("x", 5), y("y", 5);
  expect_error([&] { spmv(ExecSpace(), "X", 1.0, A, x, 0.0, y); }, "mode 'X' is not one of N, T, C, H");
}

TEST(SpmvHandleMisuse, OptionsOfOtherFormatsAndAlgorithmsAreRefused) {
  expect_error([] { SpmvHandle<ExecSpace, DeviceCsr<double, Device>> h(SpmvAlgorithm::binned_rows); },
               "SpmvHandle<CSR>: algorithm binned_rows does not apply to this format (available here: kk_native");
  expect_error([] { SpmvHandle<ExecSpace, DcsrMatrix<double, Device>> h(SpmvAlgorithm::load_balanced); },
               "available here: row_vectors (default), binned_rows");
  expect_error([] { SpmvHandle<ExecSpace, DeviceCsr<double, Device>>().set_omega(8); },
               "SpmvHandle<CSR>: omega, deterministic and autotune are options of the COO load_balanced kernel "
               "(omega also of CSR load_balanced)");
  expect_error([] { SpmvHandle<ExecSpace, CooMatrix<double, Device>>().set_omega(-1); }, "omega must be >= 0");
  expect_error([] { SpmvHandle<ExecSpace, CooMatrix<double, Device>>().set_lanes(4); },
               "SpmvHandle<COO>: lanes is an option of the row_vectors kernel (CSR, DCSR), not of format_default");
  expect_error([] { SpmvHandle<ExecSpace, DeviceCsr<double, Device>>().set_lanes(4); },
               "SpmvHandle<CSR>: lanes is an option of the row_vectors kernel (CSR, DCSR), not of format_default");
  expect_error(
      [] {
        SpmvHandle<ExecSpace, DeviceCsr<double, Device>> h(SpmvAlgorithm::row_vectors);
        h.set_lanes(3);
      },
      "SpmvHandle<CSR>: lanes must be 1, 2, 4, 8, 16 or 32 (0 = from the mean row length), got 3");
  expect_error([] { SpmvHandle<ExecSpace, DcsrMatrix<double, Device>>().set_lanes(64); }, "lanes must be 1, 2, 4,");
  expect_error(
      [] {
        SpmvHandle<ExecSpace, DcsrMatrix<double, Device>> h(SpmvAlgorithm::binned_rows);
        h.set_lanes(2);
      },
      "SpmvHandle<DCSR>: lanes is an option of the row_vectors kernel (CSR, DCSR), not of binned_rows");
  expect_error([] { SpmvHandle<ExecSpace, HybMatrix<double, Device>>().set_lanes(1); },
               "SpmvHandle<HYB>: lanes is an option");
  // A run-time format: the held format checks the options when the handle is bound.
  const auto A = make_spmv_matrix<double>(ExecSpace(), gen::poisson2d_5pt(4), Format::coo);
  Kokkos::View<double*, Device> x("x", 16), y("y", 16);
  SpmvHandle<ExecSpace, Any> handle(SpmvAlgorithm::binned_rows);
  expect_error([&] { spmv(ExecSpace(), handle, "N", 1.0, A, x, 0.0, y); },
               "SpmvHandle<COO>: algorithm binned_rows does not apply to this format");
  expect_error([&] { (void)A.as<DeviceCsr<double, Device>>(); }, "AnyMatrix::as: the matrix is held as coo");
}

TEST(SpmvHandleMisuse, DeterministicTransposeIsRefusedBeforeAnyWork) {
  const auto A = coo_from_host<double, Device>(gen::uniform_random(5, 5, 2, 1), "a");
  Kokkos::View<double*, Device> x("x", 5), y("y", 5);
  Kokkos::deep_copy(y, 3.0);
  SpmvHandle<ExecSpace, CooMatrix<double, Device>> handle;
  handle.set_deterministic(true);
  expect_error([&] { handle.require_mode(SpmvMode::transpose); }, "deterministic mode computes N and C only; mode T");
  expect_error([&] { spmv(ExecSpace(), handle, "H", 1.0, A, x, 0.0, y); }, "deterministic mode computes N and C only; mode H");
  auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  EXPECT_EQ(yh(0), 3.0);  // y untouched
  EXPECT_FALSE(handle.is_bound());
}

TEST(SpmvHandleMisuse, CusparseIsRefusedWhereTheBuildHasNoCusparse) {
  if constexpr (!Impl::cusparse_spmv_available<ExecSpace>::value) {
    expect_error([] { SpmvHandle<ExecSpace, CooMatrix<double, Device>> h(SpmvAlgorithm::cusparse); },
                 "SpmvHandle<COO>: algorithm cusparse does not apply to this format (available here: load_balanced (default))");
  } else {
    SpmvHandle<ExecSpace, CooMatrix<double, Device>> h(SpmvAlgorithm::cusparse);
    EXPECT_EQ(h.settings().algorithm, SpmvAlgorithm::cusparse);
  }
}

TEST(SpmvRegistry, UnknownKernelNamesTheAvailableOnes) {
  expect_error([] { (void)find_spmv_kernel<ExecSpace>("bogus"); }, "SpMV kernel 'bogus' is not in this build");
  expect_error([] { (void)find_spmv_kernel<ExecSpace>("bogus"); }, "available: csr, ");
  EXPECT_EQ(find_spmv_kernel<ExecSpace>("adcsr").algorithm, SpmvAlgorithm::binned_rows);
}

}  // namespace
}  // namespace strata
