// The labelled real-matrix set: every Matrix Market file in the matrix
// directory is read, checked for consistency with its header, written and read
// back exactly, and multiplied by the Kokkos Kernels baseline against the host reference.
#include "algorithms/spmv_baseline_cases.hpp"
#include "test_environment.hpp"

#include <strata/algorithms/baseline/kokkos_kernels_spmv.hpp>
#include <strata/core/matrix_market.hpp>
#include <strata/core/matrix_source.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <unistd.h>

namespace strata {
namespace {

std::vector<std::string> matrix_files() {
  std::vector<std::string> files;
  const std::string& dir = test::matrix_dir();
  if (dir.empty() || !std::filesystem::is_directory(dir)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 4 && (name.find(".mtx") != std::string::npos)) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class RealMatrices : public ::testing::Test {
 protected:
  void SetUp() override {
    files_ = matrix_files();
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

TEST_F(RealMatrices, KokkosKernelsSpmvMatchesReference) {
  for (const auto& file : files_) {
    SCOPED_TRACE(file);
    const LoadedMatrix m = load_matrix(file);
    if (m.is_complex) {
      using Value = Kokkos::complex<double>;
      const auto A = to_kokkos_crs<DeviceCsr<Value, test::Device>>(m.complex, "strata::real_matrix");
      baseline::KokkosKernelsCsrSpmv<Value, test::ExecSpace> kk(A, compat::KkSpmvAlgorithm::native);
      test::expect_spmv_matches_reference<Value, test::ExecSpace>(kk, m.complex, "N", Value(1.0, 0.5),
                                                                  Value(-0.5, 0.0), false);
      test::expect_spmv_matches_reference<Value, test::ExecSpace>(kk, m.complex, "T", Value(1.0, 0.0),
                                                                  Value(0.0, 0.0), true);
    } else {
      const auto A = to_kokkos_crs<DeviceCsr<double, test::Device>>(m.real, "strata::real_matrix");
      baseline::KokkosKernelsCsrSpmv<double, test::ExecSpace> kk(A, compat::KkSpmvAlgorithm::native);
      test::expect_spmv_matches_reference<double, test::ExecSpace>(kk, m.real, "N", 1.5, -0.5, false);
      test::expect_spmv_matches_reference<double, test::ExecSpace>(kk, m.real, "T", 1.0, 0.0, true);
      const auto Af = to_kokkos_crs<DeviceCsr<float, test::Device>>(convert_values<float>(m.real), "strata::real_f");
      baseline::KokkosKernelsCsrSpmv<float, test::ExecSpace> kkf(Af, compat::KkSpmvAlgorithm::native);
      test::expect_spmv_matches_reference<float, test::ExecSpace>(kkf, convert_values<float>(m.real), "N", 1.0f,
                                                                  0.0f, true);
    }
  }
}

}  // namespace
}  // namespace strata
