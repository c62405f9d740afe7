#pragma once
// A device addition's result against the host reference (algorithms/reference/coo_add.hpp):
// the exact structure of the union and every value within the rounding bound.
#include <strata/algorithms/reference/coo_add.hpp>
#include <strata/formats/hisparse/hisparse_to_coo.hpp>

#include <gtest/gtest.h>

namespace strata::test {

template <class Value, class Device>
void expect_add_matches_reference(const HiSparseMatrix<Value, Device>& C, const reference::AddReference<Value>& ref) {
  const auto acc = reference::check_add(to_host_coo(C), ref);
  EXPECT_TRUE(acc.passed) << acc.describe();
  EXPECT_EQ(C.nnz(), static_cast<index_type>(ref.values.size()));
  EXPECT_EQ(C.num_rows(), ref.num_rows);
  EXPECT_EQ(C.num_cols(), ref.num_cols);
}

}  // namespace strata::test
