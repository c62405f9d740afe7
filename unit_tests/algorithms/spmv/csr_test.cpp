// strata::spmv on KokkosSparse::CrsMatrix: every algorithm this build has.
#include "algorithms/spmv/spmv_api_cases.hpp"

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

}  // namespace
}  // namespace strata
