// strata::spmv on a combination the library does not compile: x and y as strided columns
// (LayoutStride) of LayoutRight multi-vectors, on COO and HiSparse, compiled here from
// <strata/algorithms/spmv_definitions.hpp> and checked against the host reference. The library's
// combinations are what the other SpMV tests call, through <strata/algorithms/spmv.hpp> alone.
// Built outside the unity groups (unit_tests/CMakeLists.txt): the header must come first.
#include <strata/algorithms/spmv_definitions.hpp>

#include "algorithms/spmv_baseline_cases.hpp"
#include "spmv_check.hpp"

#include <strata/core/generators.hpp>
#include <strata/formats/coo/coo_csr_conversion.hpp>
#include <strata/formats/hisparse/hisparse_convert.hpp>

#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

namespace strata {
namespace {

using test::Device;
using test::ExecSpace;
using Multivector = Kokkos::View<double**, Kokkos::LayoutRight, Device>;

// Column 1 of a 3-column LayoutRight multi-vector: a rank-1 view of stride 3.
auto middle_column(const Multivector& v) { return Kokkos::subview(v, Kokkos::ALL, 1); }

template <class Matrix>
void expect_strided_products_match_reference(const Matrix& A, const HostCsr<double>& host) {
  static_assert(std::is_same_v<typename decltype(middle_column(Multivector()))::array_layout, Kokkos::LayoutStride>);
  static_assert(!Impl::spmv_compiled_in_library<
                ExecSpace, Matrix,
                Impl::SpmvCanonicalView<decltype(middle_column(Multivector())), ExecSpace, true>::type,
                Impl::SpmvCanonicalView<decltype(middle_column(Multivector())), ExecSpace, false>::type>::value);
  SpmvHandle<ExecSpace, Matrix> handle;
  for (const std::string mode : {"N", "T"}) {
    SCOPED_TRACE("mode " + mode);
    const bool t = mode == "T";
    const index_type in_len = t ? host.num_rows : host.num_cols;
    const index_type out_len = t ? host.num_cols : host.num_rows;
    Multivector X("strata::test_X", in_len, 3), Y("strata::test_Y", out_len, 3);
    auto xh = Kokkos::create_mirror_view(X);
    auto yh = Kokkos::create_mirror_view(Y);
    const auto x = test::test_vector<double>(in_len, 1);
    const auto y0 = test::test_vector<double>(out_len, 2);
    for (index_type i = 0; i < in_len; ++i) {
      for (int j = 0; j < 3; ++j) xh(i, j) = j == 1 ? x[i] : 1e30;  // the other columns must not be read
    }
    for (index_type i = 0; i < out_len; ++i) {
      for (int j = 0; j < 3; ++j) yh(i, j) = j == 1 ? y0[i] : -7.0;  // ... nor written
    }
    Kokkos::deep_copy(X, xh);
    Kokkos::deep_copy(Y, yh);
    strata::spmv(ExecSpace(), handle, mode.c_str(), 1.5, A, middle_column(X), -0.5, middle_column(Y));
    Kokkos::deep_copy(yh, Y);
    std::vector<double> y(static_cast<std::size_t>(out_len));
    for (index_type i = 0; i < out_len; ++i) {
      y[i] = yh(i, 1);
      EXPECT_EQ(yh(i, 0), -7.0) << "row " << i;
      EXPECT_EQ(yh(i, 2), -7.0) << "row " << i;
    }
    const auto ref = reference::csr_spmv(parse_spmv_mode(mode.c_str()), 1.5, host, x, -0.5, y0);
    const auto accuracy = reference::check_spmv(y, ref);
    EXPECT_TRUE(accuracy.passed) << "entry " << accuracy.worst_entry << " has error " << accuracy.max_scaled_error
                                 << " times the rounding bound";
  }
}

// Rows and columns above a warp and off the 128-wide tiles of HiSparse's leaves.
HostCsr<double> strided_case() { return gen::uniform_random(129, 257, 7, 12); }

TEST(SpmvDefinitions, StridedVectorsOnCooMatchReference) {
  const auto host = strided_case();
  expect_strided_products_match_reference(coo_from_host<double, Device>(host, "strata::test_coo"), host);
}

TEST(SpmvDefinitions, StridedVectorsOnHiSparseMatchReference) {
  const auto host = strided_case();
  expect_strided_products_match_reference(to_hisparse<Device>(to_coo(host), 7), host);
}

}  // namespace
}  // namespace strata
