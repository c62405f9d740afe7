// strata::spmv on HybMatrix (ELL widths below, at and above the row lengths).
#include "algorithms/spmv/spmv_api_cases.hpp"

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

}  // namespace
}  // namespace strata
