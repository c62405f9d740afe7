#pragma once
// A device addition's result against the host reference (algorithms/reference/coo_add.hpp):
// the exact structure of the union and every value within the rounding bound; and C's pool
// byte for byte the canonical one the host encoder writes for C's own entries (node types,
// placement level by level in tree order, row-major coordinates, zero padding).
#include <strata/algorithms/reference/coo_add.hpp>
#include <strata/formats/hisparse/hisparse_convert.hpp>
#include <strata/formats/hisparse/hisparse_host_codec.hpp>
#include <strata/formats/hisparse/hisparse_to_coo.hpp>

#include <gtest/gtest.h>

namespace strata::test {

template <class Value, class Device>
void expect_add_matches_reference(const HiSparseMatrix<Value, Device>& C, const reference::AddReference<Value>& ref) {
  const auto acc = reference::check_add(to_host_coo(C), ref);
  EXPECT_TRUE(acc.passed) << acc.describe();
  // C's entries as stored (read on the host without arithmetic, so -0 stays -0), re-encoded.
  const auto words = pool_words_on_host(C);
  auto stored = hisparse::decode_host<Value>(reinterpret_cast<const unsigned char*>(words.data()), C.root(),
                                             C.stored_rows(), C.stored_cols(), C.log2_block());
  stored.sort_and_combine();
  const auto canonical = hisparse::encode_host(stored, C.log2_block());
  EXPECT_EQ(C.root(), canonical.root);
  EXPECT_TRUE(words == canonical.words) << "C's pool is not the canonical encoding of its entries";
  EXPECT_EQ(C.nnz(), static_cast<index_type>(ref.values.size()));
  EXPECT_EQ(C.num_rows(), ref.num_rows);
  EXPECT_EQ(C.num_cols(), ref.num_cols);
}

}  // namespace strata::test
