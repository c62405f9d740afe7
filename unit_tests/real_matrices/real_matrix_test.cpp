// The labelled real-matrix set: every Matrix Market file in the matrix
// directory is read, checked for consistency with its header, written and read
// back exactly, and multiplied by every SpMV kernel against the host reference.
#include "algorithms/spmv/spmv_api_cases.hpp"
#include "test_environment.hpp"

#include <strata/strata.hpp>
#include <strata/core/matrix_market.hpp>
#include <strata/core/matrix_source.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <tuple>
#include <unistd.h>

namespace strata {
namespace {

class RealMatrices : public ::testing::Test {
 protected:
  void SetUp() override {
    files_ = test::real_matrix_files();
    ASSERT_FALSE(files_.empty()) << "no .mtx files in the matrix directory '" << test::matrix_dir()
                                 << "' (set --matrix-dir=DIR or STRATA_MATRIX_DIR)";
  }
  std::vector<std::string> files_;
};

template <class Value>
void expect_consistent_with_header(const HostCoo<Value>& m, const MatrixMarketReport& report) {
  const auto& h = report.header;
  EXPECT_EQ(m.num_rows, h.num_rows);
  EXPECT_EQ(m.num_cols, h.num_cols);
  EXPECT_EQ(m.nnz(), report.entries);
  EXPECT_TRUE(m.is_sorted_unique());
  if (h.symmetry == MmSymmetry::general) {
    EXPECT_EQ(m.nnz(), h.stored_entries - report.duplicates_summed);
  } else {
    index_type diagonal = 0;
    for (index_type k = 0; k < m.nnz(); ++k) diagonal += m.rows[k] == m.cols[k];
    // Each stored off-diagonal entry appears twice after expansion.
    EXPECT_EQ(m.nnz(), 2 * (h.stored_entries - report.duplicates_summed) - diagonal);
  }
}

TEST_F(RealMatrices, ReadMatchesHeaderAndRoundTripsExactly) {
  const auto tmp = std::filesystem::temp_directory_path() / ("strata_real_" + std::to_string(::getpid()));
  std::filesystem::create_directories(tmp);
  for (const auto& file : files_) {
    SCOPED_TRACE(file);
    const auto header = read_matrix_market_header(file);
    const std::string out = (tmp / (matrix_name(file) + ".mtx.gz")).string();
    MatrixMarketReport report;
    if (header.field == MmField::complex) {
      const auto m = read_matrix_market<Kokkos::complex<double>>(file, &report);
      expect_consistent_with_header(m, report);
      write_matrix_market(out, m);
      const auto back = read_matrix_market<Kokkos::complex<double>>(out);
      EXPECT_EQ(back.rows, m.rows);
      EXPECT_EQ(back.cols, m.cols);
      EXPECT_EQ(back.values, m.values);
    } else {
      const auto m = read_matrix_market<double>(file, &report);
      expect_consistent_with_header(m, report);
      write_matrix_market(out, m);
      const auto back = read_matrix_market<double>(out);
      EXPECT_EQ(back.rows, m.rows);
      EXPECT_EQ(back.cols, m.cols);
      EXPECT_EQ(back.values, m.values);
    }
    std::filesystem::remove(out);
  }
  std::filesystem::remove_all(tmp);
}

// Every kernel of the registry, through strata::spmv, on every real matrix:
// modes N, T, C, H, rank 1 and rank 2 (3 columns).
template <class Value>
void expect_every_kernel_matches(const HostCsr<Value>& host) {
  using Device = test::Device;
  const Value a = value_from<Value>(1.5, 0.5), b = value_from<Value>(-0.5, 0.25);
  const Value one = value_from<Value>(1.0, 0.0), zero = value_from<Value>(0.0, 0.0);
  for (const auto& kernel : spmv_kernels<test::ExecSpace>()) {
    SCOPED_TRACE(kernel.name);
    const auto A = make_spmv_matrix<Value>(test::ExecSpace(), host, kernel);
    test::ApiProduct<test::ExecSpace, AnyMatrix<Value, Device>> product{A, {}};
    for (const auto& mode : test::all_modes()) {
      test::expect_spmv_matches_reference<Value, test::ExecSpace>(product, host, mode, a, b, false);
      test::expect_spmv_matches_reference<Value, test::ExecSpace>(product, host, mode, one, zero, true, {3, false});
    }
  }
}

// The longest test of the set (minutes under the sanitizers), in shards of about equal size so
// that ctest runs them side by side: the files, largest first, dealt out in turn; and per
// precision: "double" multiplies every file in double (complex files in complex<double>),
// "float" the real files again in float. Their names end in the precision, so that a test run
// can select one (CI's sanitizer pass runs the double shards: .ci/run).
constexpr int kernel_shards = 4;

using ShardParam = std::tuple<int, const char*>;

class RealMatricesEveryKernel : public RealMatrices, public ::testing::WithParamInterface<ShardParam> {
 protected:
  std::vector<std::string> shard_files() const {
    std::vector<std::string> by_size = files_;
    std::stable_sort(by_size.begin(), by_size.end(), [](const std::string& a, const std::string& b) {
      return std::filesystem::file_size(a) > std::filesystem::file_size(b);
    });
    std::vector<std::string> mine;
    const auto shard = static_cast<std::size_t>(std::get<0>(GetParam()));
    for (std::size_t i = shard; i < by_size.size(); i += kernel_shards) mine.push_back(by_size[i]);
    return mine;
  }
  bool single_precision() const { return std::string(std::get<1>(GetParam())) == "float"; }
};

TEST_P(RealMatricesEveryKernel, MatchesReference) {
  const auto files = shard_files();
  // A shard is empty only when the directory holds fewer files than there are shards.
  if (files.empty()) {
    EXPECT_LT(files_.size(), static_cast<std::size_t>(kernel_shards));
  }
  for (const auto& file : files) {
    SCOPED_TRACE(file);
    const LoadedMatrix m = load_matrix(file);
    if (!single_precision()) {
      if (m.is_complex) {
        expect_every_kernel_matches(m.complex);
      } else {
        expect_every_kernel_matches(m.real);
      }
    } else if (!m.is_complex) {
      // adder_dcop_05 and bayer10 hold values below float's range; flushing them
      // to zero stays within the float error bound, so the test allows it.
      expect_every_kernel_matches(convert_values<float>(m.real, ValueConversionOptions{true, false}));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Shards, RealMatricesEveryKernel,
                         ::testing::Combine(::testing::Range(0, kernel_shards), ::testing::Values("double", "float")),
                         [](const ::testing::TestParamInfo<ShardParam>& info) {
                           return std::string(std::get<1>(info.param)) + "_" + std::to_string(std::get<0>(info.param));
                         });

}  // namespace
}  // namespace strata
