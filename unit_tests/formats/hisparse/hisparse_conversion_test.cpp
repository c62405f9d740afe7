// COO -> HiSparse -> COO/CSR on the device: exact round trips, the device pool
// byte for byte equal to the host encoder's, hand-checked bytes of a tiny
// matrix, and the transpose flag and scale factor against explicit transposition.
#include "formats/hisparse/hisparse_test_matrices.hpp"

#include <strata/formats/hisparse/hisparse_convert.hpp>
#include <strata/formats/hisparse/hisparse_host_codec.hpp>

#include <gtest/gtest.h>

#include <cstring>

namespace strata {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;

template <class Value>
void expect_same_entries(const HostCoo<Value>& a, const HostCoo<Value>& b) {
  ASSERT_EQ(a.num_rows, b.num_rows);
  ASSERT_EQ(a.num_cols, b.num_cols);
  const auto x = test::sorted(a), y = test::sorted(b);
  ASSERT_EQ(x.nnz(), y.nnz());
  EXPECT_EQ(x.rows, y.rows);
  EXPECT_EQ(x.cols, y.cols);
  for (index_type k = 0; k < x.nnz(); ++k) {
    ASSERT_TRUE(x.values[k] == y.values[k]) << "entry " << k << " at (" << x.rows[k] << ", " << x.cols[k] << ")";
  }
}

template <class Value>
class HiSparseConversion : public ::testing::Test {};
TYPED_TEST_SUITE(HiSparseConversion, test::ValueTypes);

TYPED_TEST(HiSparseConversion, RoundTripIsExactAndPoolMatchesHostEncoder) {
  using Value = TypeParam;
  for (const auto& c : test::hisparse_cases()) {
    SCOPED_TRACE(c.name);
    const auto coo = test::convert_coo<Value>(c.coo);
    const auto A = to_hisparse<Device>(coo, c.log2_block);
    EXPECT_EQ(A.nnz(), coo.nnz());
    EXPECT_EQ(A.levels(), hisparse::tree_levels(coo.num_rows, coo.num_cols, c.log2_block));
    expect_same_entries(to_host_coo(A), coo);

    const auto host = hisparse::encode_host(coo, c.log2_block);
    EXPECT_EQ(A.root(), host.root);
    EXPECT_EQ(A.pool_bytes(), host.bytes);
    EXPECT_EQ(pool_words_on_host(A), host.words);
    expect_same_entries(hisparse::decode_host<Value>(reinterpret_cast<const unsigned char*>(host.words.data()),
                                                     host.root, coo.num_rows, coo.num_cols, c.log2_block),
                        coo);
  }
}

TYPED_TEST(HiSparseConversion, CsrBothWaysIsExact) {
  using Value = TypeParam;
  for (const auto& c : test::hisparse_cases()) {
    if (c.coo.num_rows > (index_type(1) << 30) || c.coo.num_cols > (index_type(1) << 30)) continue;
    SCOPED_TRACE(c.name);
    const auto csr = to_csr(test::convert_coo<Value>(c.coo));
    const auto device_csr = to_kokkos_crs<DeviceCsr<Value, Device>>(csr, "strata::test_csr");
    const auto A = to_hisparse(device_csr, c.log2_block);
    const auto back = from_kokkos_crs(to_device_csr(A));
    EXPECT_EQ(back.row_offsets, csr.row_offsets);
    EXPECT_EQ(back.cols, csr.cols);
    EXPECT_TRUE(back.values == csr.values);
    // The transpose flag reaches CSR too.
    auto T = A;
    T.transpose();
    const auto expected = to_csr(transposed(to_coo(csr)));
    const auto back_t = from_kokkos_crs(to_device_csr(T));
    EXPECT_EQ(back_t.row_offsets, expected.row_offsets);
    EXPECT_EQ(back_t.cols, expected.cols);
    EXPECT_TRUE(back_t.values == expected.values);
  }
}

TYPED_TEST(HiSparseConversion, TransposeAndScaleMatchExplicitTransposition) {
  using Value = TypeParam;
  const Value s = value_from<Value>(-2.0, 0.5);
  for (const auto& c : test::hisparse_cases()) {
    SCOPED_TRACE(c.name);
    const auto coo = test::convert_coo<Value>(c.coo);
    auto A = to_hisparse<Device>(coo, c.log2_block);
    auto B = A;  // shares the pool; the state is per handle
    B.transpose();
    B.scale(s);
    EXPECT_EQ(B.storage(), A.storage());
    HostCoo<Value> expected(coo.num_cols, coo.num_rows);
    for (index_type k = 0; k < coo.nnz(); ++k) expected.push_back(coo.cols[k], coo.rows[k], s * coo.values[k]);
    expect_same_entries(to_host_coo(B), expected);
    expect_same_entries(to_host_coo(A), coo);  // the original handle is unchanged
    B.transpose();
    HostCoo<Value> scaled(coo.num_rows, coo.num_cols);
    for (index_type k = 0; k < coo.nnz(); ++k) scaled.push_back(coo.rows[k], coo.cols[k], s * coo.values[k]);
    expect_same_entries(to_host_coo(B), scaled);
  }
}

// 3 x 3 with d = 2 (two levels): entries (0,1)=5 and (2,2)=7. Root: inner COO2 with
// children at block (0,0) and (1,1); each leaf a COO1 with one entry.
TEST(HiSparseLayout, TinyMatrixBytesAreAsDocumented) {
  HostCoo<double> coo(3, 3);
  coo.push_back(2, 2, 7.0);
  coo.push_back(0, 1, 5.0);
  const auto A = to_hisparse<Device>(coo, 1);
  const auto words = pool_words_on_host(A);
  const auto* bytes = reinterpret_cast<const unsigned char*>(words.data());
  ASSERT_EQ(A.levels(), 2);
  // Header: "HSP1", log2 d = 1, value bytes = 8.
  EXPECT_EQ(std::memcmp(bytes, "HSP1", 4), 0);
  EXPECT_EQ(bytes[4], 1);
  EXPECT_EQ(bytes[5], 8);
  // Root at 16: a 2x2 dense inner node is 8 + 4 * 8 = 40 -> 48 bytes; sparse COO2 with two
  // children is 8 + 2 * 2 = 12 -> 16, then two references: 32 bytes. COO2 wins.
  EXPECT_EQ(A.root(), 16u | hisparse::inner_coo2);
  std::uint32_t count = 0;
  std::memcpy(&count, bytes + 16, 4);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(bytes[24], 0);  // child (0,0)
  EXPECT_EQ(bytes[25], 0);
  EXPECT_EQ(bytes[26], 1);  // child (1,1)
  EXPECT_EQ(bytes[27], 1);
  std::uint64_t child0 = 0, child1 = 0;
  std::memcpy(&child0, bytes + 16 + 16, 8);
  std::memcpy(&child1, bytes + 16 + 24, 8);
  // Leaves: COO1 with one entry: header and coordinates 8 + 2, value aligned to 8 -> at 16, 16 + 8 -> 32 bytes;
  // a dense 2x2 leaf is 8 + 1 -> 16 + 4 * 8 = 48 bytes. COO1 wins.
  EXPECT_EQ(child0, 48u | hisparse::leaf_coo1);
  EXPECT_EQ(child1, 80u | hisparse::leaf_coo1);
  EXPECT_EQ(A.pool_bytes(), 112u);
  std::memcpy(&count, bytes + 48, 4);
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(bytes[56], 0);  // local (0,1)
  EXPECT_EQ(bytes[57], 1);
  double v = 0;
  std::memcpy(&v, bytes + 48 + 16, 8);
  EXPECT_EQ(v, 5.0);
  EXPECT_EQ(bytes[80 + 8], 0);  // local (0,0) of block (1,1)
  EXPECT_EQ(bytes[80 + 9], 0);
  std::memcpy(&v, bytes + 80 + 16, 8);
  EXPECT_EQ(v, 7.0);
}

TEST(HiSparseLayout, NodeTypeRuleAndSizes) {
  using namespace hisparse;
  EXPECT_EQ(coo_granularity_for(1), 1u);
  EXPECT_EQ(coo_granularity_for(2), 2u);
  EXPECT_EQ(coo_granularity_for(3), 1u);
  EXPECT_EQ(coo_granularity_for(4), 4u);
  EXPECT_EQ(coo_granularity_for(6), 2u);
  EXPECT_EQ(coo_granularity_for(9), 2u);   // COO4 would pad 3 > 9 / 8 entries, COO2 pads 1
  EXPECT_EQ(coo_granularity_for(17), 2u);
  EXPECT_EQ(coo_granularity_for(24), 4u);
  EXPECT_EQ(coo_granularity_for(25), 4u);  // 3 padding entries <= 25 / 8
  // A full 128 x 128 double leaf: dense is 8 + 2048 -> 2064 + 131072 bytes, sparse 8 + 32768 + 131072.
  EXPECT_EQ(choose_node_type(true, 16384, 7, 8), leaf_dense);
  EXPECT_EQ(dense_node_bytes(true, 7, 8), 2064u + 131072u);
  EXPECT_EQ(choose_node_type(true, 100, 7, 8), leaf_coo4);
  EXPECT_EQ(sparse_node_bytes(100, 4, 8), 208u + 800u);
}

TEST(HiSparseConversionErrors, RejectsDuplicatesOutsideEntriesAndBadBlockSizes) {
  HostCoo<double> dup(10, 10);
  dup.push_back(3, 4, 1.0);
  dup.push_back(3, 4, 2.0);
  EXPECT_THROW(to_hisparse<Device>(dup), Error);
  EXPECT_THROW(hisparse::encode_host(dup, 7), Error);
  HostCoo<double> outside(10, 10);
  outside.rows = {10};
  outside.cols = {0};
  outside.values = {1.0};
  EXPECT_THROW(to_hisparse<Device>(outside), Error);
  EXPECT_THROW(to_hisparse<Device>(HostCoo<double>(4, 4), 9), Error);
  EXPECT_THROW(to_hisparse<Device>(HostCoo<double>((index_type(1) << 40) + 1, 1)), Error);
}

}  // namespace
}  // namespace strata
