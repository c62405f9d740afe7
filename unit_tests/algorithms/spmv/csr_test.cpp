// strata::spmv on KokkosSparse::CrsMatrix: every algorithm this build has.
#include "algorithms/spmv/spmv_api_cases.hpp"

// The internals of this format's kernels, tested below (strata::spmv itself needs none).
#include <strata/algorithms/spmv/csr.hpp>

#include <initializer_list>

namespace strata {
namespace {

using test::Device;
using test::ExecSpace;

template <class Value>
class CsrSpmv : public ::testing::Test {};
TYPED_TEST_SUITE(CsrSpmv, test::ValueTypes);

template <class Value>
DeviceCsr<Value, Device> make_csr(const HostCsr<Value>& host) {
  return to_kokkos_crs<DeviceCsr<Value, Device>>(host, "strata::test_csr");
}

TYPED_TEST(CsrSpmv, KokkosKernelsNativeMatchesReferenceEverywhere) {
  test::check_every_case<TypeParam, DeviceCsr<TypeParam, Device>>(make_csr<TypeParam>);
}

TYPED_TEST(CsrSpmv, MergePathMatchesReferenceWhereAvailable) {
  using Handle = SpmvHandle<ExecSpace, DeviceCsr<TypeParam, Device>>;
  if (!compat::kk_has_merge_path) {
    EXPECT_THROW(Handle(SpmvAlgorithm::kk_merge_path), Error);
    return;
  }
  SpmvSettings s;
  s.algorithm = SpmvAlgorithm::kk_merge_path;
  test::check_every_case<TypeParam, DeviceCsr<TypeParam, Device>>(make_csr<TypeParam>, s);
}

TYPED_TEST(CsrSpmv, StrataRowKernelsMatchReferenceEverywhere) {
  SpmvSettings s;
  s.algorithm = SpmvAlgorithm::row_vectors;
  test::check_every_case<TypeParam, DeviceCsr<TypeParam, Device>>(make_csr<TypeParam>, s);
}

// The handle's lane count replaces the one from the mean row length, for A's
// rows and A^T's: a thread per row and a warp per row are the extremes.
TYPED_TEST(CsrSpmv, StrataRowKernelsMatchReferenceWithOneLaneAndWithAWarp) {
  test::check_every_case_with_one_lane_and_a_warp<TypeParam, DeviceCsr<TypeParam, Device>>(make_csr<TypeParam>);
}

TYPED_TEST(CsrSpmv, StrataBalancedKernelMatchesReferenceEverywhere) {
  SpmvSettings s;
  s.algorithm = SpmvAlgorithm::load_balanced;
  test::check_every_case<TypeParam, DeviceCsr<TypeParam, Device>>(make_csr<TypeParam>, s);
}

// One chunk per SM (long chunks, many rows each) and 4096 per SM (one line per
// chunk, so long rows run through many chunks and their carries).
TYPED_TEST(CsrSpmv, StrataBalancedKernelMatchesReferenceWithFewAndManyChunks) {
  for (const int omega : {1, 4096}) {
    SCOPED_TRACE("omega " + std::to_string(omega));
    SpmvSettings s;
    s.algorithm = SpmvAlgorithm::load_balanced;
    s.omega = omega;
    test::check_every_case<TypeParam, DeviceCsr<TypeParam, Device>>(make_csr<TypeParam>, s);
  }
}

// The balanced kernel on `host` with each omega, in N and T, with beta = 0 over
// NaN and with alpha and beta both in play, against the host reference.
void expect_balanced_kernel_matches_reference(const HostCsr<double>& host, std::initializer_list<int> omegas) {
  const auto A = make_csr<double>(host);
  for (const int omega : omegas) {
    SCOPED_TRACE("omega " + std::to_string(omega));
    SpmvSettings s;
    s.algorithm = SpmvAlgorithm::load_balanced;
    s.omega = omega;
    test::ApiProduct<ExecSpace, DeviceCsr<double, Device>> product{A,
                                                                   SpmvHandle<ExecSpace, DeviceCsr<double, Device>>(s)};
    for (const std::string mode : {"N", "T"}) {
      test::expect_spmv_matches_reference<double, ExecSpace>(product, host, mode, 1.0, 0.0, true);
      test::expect_spmv_matches_reference<double, ExecSpace>(product, host, mode, -1.5, 0.5, false);
    }
    EXPECT_NE(product.handle.describe().find("load_balanced(omega=" + std::to_string(omega)), std::string::npos)
        << product.handle.describe();
  }
}

// Where rows must be found rather than read: runs of empty rows longer than a
// warp (the row-end window moves on), empty rows at both ends, rows of one
// entry, and a row longer than many chunks, so that a chunk lies inside it.
TEST(CsrSpmvBalanced, EmptyRowRunsAndARowAcrossChunksMatchTheReference) {
  HostCoo<double> coo(3000, 4000);
  for (index_type i = 100; i < 2900; i += 47) coo.push_back(i, (i * 13) % 4000, 1.0 + i % 7);
  for (index_type i = 1000; i < 1040; ++i) coo.push_back(i, i, -2.0);          // 40 rows of one entry
  for (index_type j = 0; j < 4000; ++j) coo.push_back(1500, j, 0.25 + j % 3);  // one long row
  expect_balanced_kernel_matches_reference(to_csr(coo), {1, 3, 4096});
}

// Rows of 0 to 5 entries, so that lines of 32 entries keep crossing the end of
// the warp's window of 32 row ends: part of a line resolves in the window, the
// rest after the window moves on, and the window is kept between lines.
TEST(CsrSpmvBalanced, ShortRowsCrossingTheRowEndWindowMatchTheReference) {
  HostCoo<double> coo(5000, 700);
  for (index_type i = 0; i < 5000; ++i) {
    const index_type length = (i * 7 + i / 64) % 6;
    for (index_type k = 0; k < length; ++k) coo.push_back(i, (i * 31 + k * 97) % 700, 1.0 + (i + k) % 5);
  }
  expect_balanced_kernel_matches_reference(to_csr(coo), {1, 5, 4096});
}

// Around the ring that holds a warp's finished rows on their way to y (64 rows
// on devices): rows of 0 to 3 entries with runs of 58 to 69 empty rows, so that
// lines end rows just inside and just past the ring, and the ring is released
// with rows of it still empty; every row is checked, beta = 0 over NaN.
TEST(CsrSpmvBalanced, RowsAroundTheRingOfFinishedRowsMatchTheReference) {
  HostCoo<double> coo(20000, 900);
  for (index_type i = 0; i < 20000; ++i) {
    if (i % 97 == 0) i += 58 + (i / 97) % 12;  // a run of empty rows
    if (i >= 20000) break;
    const index_type length = (i * 5 + i / 32) % 4;
    for (index_type k = 0; k < length; ++k) coo.push_back(i, (i * 17 + k * 131) % 900, 0.5 + (i + 3 * k) % 7);
  }
  expect_balanced_kernel_matches_reference(to_csr(coo), {1, 7, 4096});
}

// The default chunks per SM follow the number of nonzeros: 288 from 10M, six full
// waves of the kernel's warps per SM (the COO kernel's ladder stops at 128).
TEST(CsrSpmvBalanced, DefaultChunksPerSmFollowTheNonzeros) {
  EXPECT_EQ(Impl::csr_balanced_default_omega(99999), 8);
  EXPECT_EQ(Impl::csr_balanced_default_omega(100000), 32);
  EXPECT_EQ(Impl::csr_balanced_default_omega(9999999), 32);
  EXPECT_EQ(Impl::csr_balanced_default_omega(10000000), 288);
  EXPECT_EQ(coo_default_omega(10000000), 128);
}

TEST(CsrSpmvBalanced, RefusesTheCooOnlyOptions) {
  using Handle = SpmvHandle<ExecSpace, DeviceCsr<double, Device>>;
  SpmvSettings s;
  s.algorithm = SpmvAlgorithm::load_balanced;
  s.deterministic = true;
  try {
    Handle h(s);
    FAIL() << "deterministic accepted by CSR load_balanced";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("CSR load_balanced takes omega only"), std::string::npos) << e.what();
  }
  s.deterministic = false;
  s.omega = -1;
  EXPECT_THROW(Handle h(s), Error);
  s.omega = 0;
  s.lanes = 4;
  EXPECT_THROW(Handle h(s), Error);
}

TYPED_TEST(CsrSpmv, CusparseMatchesReferenceWhereAvailable) {
  using Handle = SpmvHandle<ExecSpace, DeviceCsr<TypeParam, Device>>;
  if constexpr (!Impl::cusparse_spmv_available<ExecSpace>::value) {
    try {
      Handle h(SpmvAlgorithm::cusparse);
      FAIL() << "cusparse accepted in a build without it";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("does not apply to this format"), std::string::npos) << e.what();
    }
  } else {
    SpmvSettings s;
    s.algorithm = SpmvAlgorithm::cusparse;
    // Mode C on complex values goes through conj(A conj(x)) (cuSPARSE has no conj(A) x).
    test::check_every_case<TypeParam, DeviceCsr<TypeParam, Device>>(make_csr<TypeParam>, s);
  }
}

TEST(CsrSpmvHandChecked, TwoByThree) {
  // [1 0 2; 0 3 0] x [1 2 3] = [7 6]; transposed with [1 1]: [1 3 2].
  HostCoo<double> coo(2, 3);
  coo.push_back(0, 0, 1.0);
  coo.push_back(0, 2, 2.0);
  coo.push_back(1, 1, 3.0);
  const auto A = make_csr(to_csr(coo));
  Kokkos::View<double*, Device> x("x", 3), y("y", 2), u("u", 2), v("v", 3);
  auto xh = Kokkos::create_mirror_view(x);
  for (int i = 0; i < 3; ++i) xh(i) = i + 1;
  Kokkos::deep_copy(x, xh);
  Kokkos::deep_copy(u, 1.0);
  strata::spmv("N", 1.0, A, x, 0.0, y);
  strata::spmv(ExecSpace(), "T", 1.0, A, u, 0.0, v);
  auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  auto vh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  EXPECT_EQ(yh(0), 7.0);
  EXPECT_EQ(yh(1), 6.0);
  EXPECT_EQ(vh(0), 1.0);
  EXPECT_EQ(vh(1), 3.0);
  EXPECT_EQ(vh(2), 2.0);
}

// The row kernels keep A^T's structure, not its values: new values in A are
// used by the next transposed product.
TEST(CsrSpmvRows, TransposedProductReadsTheCurrentValues) {
  const auto host = gen::uniform_random(70, 45, 5, 3);
  auto A = make_csr(host);
  SpmvHandle<ExecSpace, DeviceCsr<double, Device>> handle(SpmvAlgorithm::row_vectors);
  Kokkos::View<double*, Device> x("x", 70), y("y", 45);
  Kokkos::deep_copy(x, 1.0);
  strata::spmv(ExecSpace(), handle, "T", 1.0, A, x, 0.0, y);
  EXPECT_NE(handle.describe().find("transposed lanes="), std::string::npos) << handle.describe();
  Kokkos::deep_copy(A.values, 2.0);  // every entry 2: y(j) = 2 x (entries in column j)
  strata::spmv(ExecSpace(), handle, "T", 1.0, A, x, 0.0, y);
  const auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  std::vector<double> expected(45, 0.0);
  for (index_type r = 0; r < host.num_rows; ++r) {
    for (auto p = host.row_offsets[r]; p < host.row_offsets[r + 1]; ++p) expected[host.cols[p]] += 2.0;
  }
  for (int j = 0; j < 45; ++j) EXPECT_EQ(yh(j), expected[j]) << "column " << j;
}

// A column index outside the matrix is refused when A^T is built, naming the
// entry, instead of being written out of bounds.
TEST(CsrSpmvRows, TransposedProductRefusesAColumnIndexOutsideTheMatrix) {
  auto A = make_csr(gen::uniform_random(20, 10, 3, 4));
  auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.graph.entries);
  entries(5) = 10;
  Kokkos::deep_copy(A.graph.entries, entries);
  SpmvHandle<ExecSpace, DeviceCsr<double, Device>> handle(SpmvAlgorithm::row_vectors);
  Kokkos::View<double*, Device> x("x", 20), y("y", 10);
  try {
    strata::spmv(ExecSpace(), handle, "T", 1.0, A, x, 0.0, y);
    FAIL() << "a column index of 10 in a 20 x 10 matrix was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("entry 5 has column index 10, outside [0, 10)"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace strata
