// strata::spmv on HybMatrix (ELL widths below, at and above the row lengths), with the ELL columns read as
// 16-bit offsets (the default) and as the stored 32-bit columns (ell_coo).
#include "algorithms/spmv/spmv_api_cases.hpp"

#include <limits>
#include <vector>

namespace strata {
namespace {

using test::Device;
using test::ExecSpace;

template <class Value>
class HybSpmv : public ::testing::Test {};
TYPED_TEST_SUITE(HybSpmv, test::ValueTypes);

TYPED_TEST(HybSpmv, MatchesReferenceEverywhereForSeveralEllWidths) {
  using Value = TypeParam;
  for (int width : {0, 3, 40}) {
    SCOPED_TRACE("ELL width " + std::to_string(width));
    test::check_every_case<Value, HybMatrix<Value, Device>>([width](const HostCsr<Value>& host) {
      return hyb_from_csr<Value, Device>(to_kokkos_crs<DeviceCsr<Value, Device>>(host, "strata::test_hyb"), width);
    });
  }
}

TYPED_TEST(HybSpmv, StoredColumnsMatchReferenceEverywhere) {
  using Value = TypeParam;
  SpmvSettings s;
  s.algorithm = SpmvAlgorithm::ell_coo;
  test::check_every_case<Value, HybMatrix<Value, Device>>(
      [](const HostCsr<Value>& host) {
        return hyb_from_csr<Value, Device>(to_kokkos_crs<DeviceCsr<Value, Device>>(host, "strata::test_hyb"), 3);
      },
      s);
}

// Rows 0-31 are one tile: columns 0 and 70000 in its first slot are too far apart for 16-bit offsets, so
// that tile slot keeps its columns in 32 bits, the other five take offsets; by default and by name.
TEST(HybSpmvOffsets, TileSlotTooWideForOffsetsKeepsItsColumnsIn32Bits) {
  HostCoo<double> coo(70, 70001);
  for (index_type r = 0; r < 70; ++r) coo.push_back(r, r == 1 ? 70000 : r, 1.0 + static_cast<double>(r % 7));
  coo.push_back(3, 65000, -2.0);
  const auto host = to_csr(coo);
  const auto A = hyb_from_csr<double, Device>(to_kokkos_crs<DeviceCsr<double, Device>>(host, "strata::test_hyb"), 2);
  for (const auto algorithm : {SpmvAlgorithm::format_default, SpmvAlgorithm::ell_offsets_coo}) {
    SCOPED_TRACE(to_string(algorithm));
    test::ApiProduct<ExecSpace, HybMatrix<double, Device>> product{
        A, SpmvHandle<ExecSpace, HybMatrix<double, Device>>(algorithm)};
    // T reads the stored columns: nothing is encoded, nor (by default) decided, before N or C.
    test::expect_spmv_matches_reference<double, ExecSpace>(product, host, "T", 1.0, 0.0, true);
    EXPECT_NE(product.handle.describe().find(algorithm == SpmvAlgorithm::ell_offsets_coo
                                                 ? "ell_offsets_coo (encoded at the first product"
                                                 : "format_default (16-bit column offsets or the stored columns"),
              std::string::npos)
        << product.handle.describe();
    test::expect_spmv_matches_reference<double, ExecSpace>(product, host, "N", -1.5, 0.5, false);
    test::expect_spmv_matches_reference<double, ExecSpace>(product, host, "C", 1.0, 0.0, true);
    const std::string d = product.handle.describe();
    EXPECT_NE(d.find("ell_offsets_coo (16-bit column offsets in 32-row tiles; 1 of 6 tile slots in 32 bits)"),
              std::string::npos)
        << d;
  }
}

// Columns spread over a million (as a random graph's): every tile slot too wide. The default reads the
// stored 32-bit columns and says why; ell_offsets_coo by name keeps every slot's columns in 32 bits.
TEST(HybSpmvOffsets, MostlyTooWideTileSlotsKeepTheStoredColumnsByDefault) {
  HostCoo<double> coo(64, 1000000);
  for (index_type r = 0; r < 64; ++r) {
    coo.push_back(r, (r * 390625) % 1000000, 1.0 + static_cast<double>(r % 5));
    coo.push_back(r, (r * 390625 + 499999) % 1000000, -0.25);
  }
  const auto host = to_csr(coo);
  const auto A = hyb_from_csr<double, Device>(to_kokkos_crs<DeviceCsr<double, Device>>(host, "strata::test_hyb"), 2);
  const std::pair<SpmvAlgorithm, const char*> cases[] = {
      {SpmvAlgorithm::format_default, "ell_coo (4 of 4 tile slots too wide for 16-bit offsets: over a quarter)"},
      {SpmvAlgorithm::ell_offsets_coo,
       "ell_offsets_coo (16-bit column offsets in 32-row tiles; 4 of 4 tile slots in 32 bits)"}};
  for (const auto& [algorithm, described] : cases) {
    SCOPED_TRACE(to_string(algorithm));
    test::ApiProduct<ExecSpace, HybMatrix<double, Device>> product{
        A, SpmvHandle<ExecSpace, HybMatrix<double, Device>>(algorithm)};
    test::expect_spmv_matches_reference<double, ExecSpace>(product, host, "N", -1.5, 0.5, false);
    EXPECT_NE(product.handle.describe().find(described), std::string::npos) << product.handle.describe();
  }
}

// The second tile (rows 32-63) fits and the last one is partial (rows 64-69): offsets there, by name.
TEST(HybSpmvOffsets, PartialLastTileAndEmptySlots) {
  HostCoo<double> coo(70, 200);
  for (index_type r = 0; r < 70; ++r) {
    for (index_type k = 0; k < r % 4; ++k) coo.push_back(r, (r + 37 * k) % 200, 0.5 + static_cast<double>(k));
  }
  const auto host = to_csr(coo);
  const auto A = hyb_from_csr<double, Device>(to_kokkos_crs<DeviceCsr<double, Device>>(host, "strata::test_hyb"), 3);
  test::ApiProduct<ExecSpace, HybMatrix<double, Device>> by_name{
      A, SpmvHandle<ExecSpace, HybMatrix<double, Device>>(SpmvAlgorithm::ell_offsets_coo)};
  test::expect_spmv_matches_reference<double, ExecSpace>(by_name, host, "N", -1.5, 0.5, false);
  test::expect_spmv_matches_reference<double, ExecSpace>(by_name, host, "C", 1.0, 0.0, true);
  EXPECT_NE(by_name.handle.describe().find("0 of 9 tile slots in 32 bits"), std::string::npos)
      << by_name.handle.describe();
}

// An empty slot reads x somewhere (its column clamped into x) and drops the product by a select: an
// infinite x there must not turn its row into NaN. x is infinite at every column no entry has.
TEST(HybSpmvOffsets, EmptySlotsIgnoreInfiniteX) {
  constexpr index_type rows = 40, cols = 70000;
  HostCoo<double> coo(rows, cols);
  for (index_type r = 0; r < rows; ++r) {
    coo.push_back(r, 3 * r, 1.0 + static_cast<double>(r % 3));
    if (r % 2 == 0) coo.push_back(r, 3 * r + 1, -0.5);
  }
  const auto host = to_csr(coo);
  const auto A = hyb_from_csr<double, Device>(to_kokkos_crs<DeviceCsr<double, Device>>(host, "strata::test_hyb"), 3);
  std::vector<double> x_host(cols, std::numeric_limits<double>::infinity());
  for (index_type r = 0; r < rows; ++r) {
    x_host[3 * r] = 2.0;
    x_host[3 * r + 1] = -1.0;
  }
  Kokkos::View<double*, Device> x("strata::test_x", cols), y("strata::test_y", rows);
  Kokkos::deep_copy(x, Kokkos::View<const double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                           x_host.data(), x_host.size()));
  SpmvHandle<ExecSpace, HybMatrix<double, Device>> handle;
  strata::spmv(ExecSpace(), handle, "N", 1.0, A, x, 0.0, y);
  const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  for (index_type r = 0; r < rows; ++r) {
    const double want = 2.0 * (1.0 + static_cast<double>(r % 3)) + (r % 2 == 0 ? 0.5 : 0.0);
    EXPECT_EQ(got(r), want) << "row " << r;
  }
  EXPECT_NE(handle.describe().find("ell_offsets_coo (16-bit"), std::string::npos) << handle.describe();
}

}  // namespace
}  // namespace strata
