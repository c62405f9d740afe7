#include "test_value_types.hpp"
#include <strata/core/generators.hpp>
#include <strata/core/kokkos_crs.hpp>

#include <gtest/gtest.h>

namespace strata {
namespace {

using Device = Kokkos::Device<Kokkos::DefaultExecutionSpace, Kokkos::DefaultExecutionSpace::memory_space>;
using HostDevice = Kokkos::Device<Kokkos::DefaultHostExecutionSpace, Kokkos::HostSpace>;

template <class Value>
HostCsr<Value> sample_matrix() {
  HostCoo<Value> coo(5, 7);
  coo.push_back(0, 6, value_from<Value>(1.5, -2.0));
  coo.push_back(2, 0, value_from<Value>(-3.25, 0.5));
  coo.push_back(2, 3, value_from<Value>(4.0, 1.0));
  coo.push_back(4, 4, value_from<Value>(0.125, 8.0));
  return to_csr(coo);
}

template <class Value>
class KokkosCrsRoundTrip : public ::testing::Test {};
using ValueTypes = test::ValueTypes;
TYPED_TEST_SUITE(KokkosCrsRoundTrip, ValueTypes);

TYPED_TEST(KokkosCrsRoundTrip, DefaultMemorySpaceIsExact) {
  using Value = TypeParam;
  const auto host = sample_matrix<Value>();
  const auto A = to_kokkos_crs<DeviceCsr<Value, Device>>(host, "strata::test");
  EXPECT_EQ(A.numRows(), 5);
  EXPECT_EQ(A.numCols(), 7);
  EXPECT_EQ(A.nnz(), 4);
  const auto back = from_kokkos_crs(A);
  EXPECT_EQ(back.row_offsets, host.row_offsets);
  EXPECT_EQ(back.cols, host.cols);
  EXPECT_EQ(back.values, host.values);
}

TYPED_TEST(KokkosCrsRoundTrip, HostSpaceWithSizeTOffsetsIsExact) {
  using Value = TypeParam;
  using Matrix = KokkosSparse::CrsMatrix<Value, int, HostDevice, void, std::size_t>;
  const auto host = sample_matrix<Value>();
  const auto back = from_kokkos_crs(to_kokkos_crs<Matrix>(host, "strata::test_host"));
  EXPECT_EQ(back.row_offsets, host.row_offsets);
  EXPECT_EQ(back.cols, host.cols);
  EXPECT_EQ(back.values, host.values);
}

TEST(KokkosCrs, EmptyMatrixRoundTrips) {
  HostCsr<double> empty;
  const auto A = to_kokkos_crs<DeviceCsr<double, Device>>(empty, "strata::empty");
  const auto back = from_kokkos_crs(A);
  EXPECT_EQ(back.num_rows, 0);
  EXPECT_EQ(back.nnz(), 0);
  EXPECT_NO_THROW(back.validate());
}

TEST(KokkosCrs, GeneratedMatrixRoundTripsAboveWarpSizes) {
  const auto host = gen::poisson2d_5pt(40);
  const auto back = from_kokkos_crs(to_kokkos_crs<DeviceCsr<double, Device>>(host, "strata::poisson"));
  EXPECT_EQ(back.row_offsets, host.row_offsets);
  EXPECT_EQ(back.cols, host.cols);
  EXPECT_EQ(back.values, host.values);
}

TEST(KokkosCrs, DimensionsBeyondTheOrdinalTypeAreRefused) {
  HostCsr<double> huge;
  huge.num_rows = 1;
  huge.num_cols = index_type{1} << 33;
  huge.row_offsets = {0, 0};
  try {
    to_kokkos_crs<DeviceCsr<double, Device>>(huge, "strata::huge");
    FAIL() << "a 2^33-column matrix was accepted with int ordinals";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("strata::huge"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace strata
