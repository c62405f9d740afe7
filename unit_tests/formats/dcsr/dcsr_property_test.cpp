// Randomized property tests of Dynamic CSR insertion with fixed seeds (issue
// 11, "no entry lost"): random shapes and parameters (k, mu, slack, pool size,
// growth limit), batches with many duplicates under both policies, random
// defragmentations, compared after every step with the sequential reference.
// An insertion the growth limit refuses must leave the matrix as it was.
// A failure names its seed, which reproduces it alone.
#include "test_value_types.hpp"
#include "formats/dcsr/dcsr_test_support.hpp"
#include "property_support.hpp"

#include <strata/core/generators.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <random>
#include <string>

namespace strata {
namespace {

using test::DcsrDevice;
using test::HostRows;

template <class Value>
class DcsrInsertionProperties : public ::testing::Test {};
using PropertyValueTypes = test::PropertyValueTypes;
TYPED_TEST_SUITE(DcsrInsertionProperties, PropertyValueTypes);

using test::uniform;

// The parameters of case `seed`: tight pools, no spare room and few segments are frequent, so
// that rows overflow their slack, run out of segment records and the pool grows (or hits its
// limit) many times.
DcsrParameters random_parameters(std::mt19937_64& random) {
  DcsrParameters p;
  p.max_segments = uniform(random, 1, 4);
  p.initial_row_slots = uniform(random, 0, 3);
  p.segment_slack = uniform(random, -1, 3);
  p.capacity = uniform(random, 0, 1) == 0 ? 0 : uniform(random, 1, 64);
  if (uniform(random, 0, 3) == 0) p.max_capacity = std::max<index_type>(p.capacity, uniform(random, 1, 300));
  // No spare room in an eighth of the cases (a budget of 1 and no least fraction).
  p.memory_budget = uniform(random, 0, 3) == 0 ? 1.0 : 1.0 + uniform(random, 0, 20) / 10.0;
  p.min_spare_fraction = uniform(random, 0, 1) == 0 ? 0.0 : uniform(random, 1, 20) / 10.0;
  return p;
}

template <class Value>
void check_insertion_case(std::uint64_t seed, int& inserted, int& refused) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 random(seed);
  const int rows = uniform(random, 1, 40), cols = uniform(random, 1, 40);
  DcsrParameters p = random_parameters(random);
  DcsrMatrix<Value, DcsrDevice> A;
  HostRows<Value> want;
  if (uniform(random, 0, 1) == 0) {
    // A blank matrix needs room for its rows x mu initial slots.
    const index_type slots = static_cast<index_type>(rows) * p.initial_row_slots;
    if (p.capacity > 0 && p.capacity < slots) p.capacity = slots;
    if (p.max_capacity > 0 && p.max_capacity < std::max(p.capacity, slots)) p.max_capacity = std::max(p.capacity, slots);
    A = dcsr_blank<Value, DcsrDevice>(rows, cols, p);
    want.assign(static_cast<std::size_t>(rows), {});
  } else {
    const auto start = convert_values<Value>(gen::uniform_random(rows, cols, uniform(random, 0, std::min(cols, 5)), seed));
    if (p.max_capacity > 0 && p.max_capacity < start.nnz()) p.max_capacity = std::max(p.capacity, start.nnz());
    A = dcsr_from_csr<Value, DcsrDevice>(to_kokkos_crs<DeviceCsr<Value, DcsrDevice>>(start, "strata::start"), p);
    want = test::rows_of(start);
  }
  const int batches = uniform(random, 1, 5);
  for (int b = 0; b < batches; ++b) {
    SCOPED_TRACE("batch " + std::to_string(b));
    const auto batch = test::random_batch<Value>(uniform(random, 0, 60), rows, cols, uniform(random, 1, cols),
                                                 seed * 16 + static_cast<std::uint64_t>(b));
    const auto policy = uniform(random, 0, 1) == 0 ? DuplicatePolicy::sum : DuplicatePolicy::keep_separate;
    const auto before = test::rows_of(A);
    try {
      test::insert_batch(A, batch, policy);
      test::reference_insert(want, batch, policy);
      ++inserted;
    } catch (const Error& e) {
      // Only the growth limit may refuse, and then nothing of the batch is kept.
      ASSERT_GT(p.max_capacity, 0) << e.what();
      EXPECT_NE(std::string(e.what()).find("max_capacity"), std::string::npos) << e.what();
      test::expect_same_rows(test::rows_of(A), before);
      ++refused;
      continue;
    }
    test::expect_same_rows(test::rows_of(A), want);
    if (uniform(random, 0, 3) == 0) {
      dcsr_defragment(A, uniform(random, 0, 1) == 0 ? DcsrRowOrder::by_index : DcsrRowOrder::by_length);
      test::expect_same_rows(test::rows_of(A), want);
    }
    ASSERT_LE(A.allocated(), A.capacity());
    ASSERT_LE(A.records_used(), A.record_capacity());
    if (p.max_capacity > 0) {
      ASSERT_LE(A.capacity(), p.max_capacity);
    }
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TYPED_TEST(DcsrInsertionProperties, NoEntryLostOverThousandsOfRandomInsertions) {
  const std::uint64_t cases = test::property_cases(5000);
  int inserted = 0, refused = 0;
  for (std::uint64_t seed = 1; seed <= cases; ++seed) {
    check_insertion_case<TypeParam>(seed, inserted, refused);
    if (::testing::Test::HasFailure()) return;  // the first failing seed is the one to report
  }
  // Both properties were exercised: batches kept, and batches the growth limit refused.
  EXPECT_GT(inserted, static_cast<int>(2 * cases));
  EXPECT_GT(refused, static_cast<int>(cases / 100));
  std::cout << "  " << cases << " cases: " << inserted << " batches inserted, " << refused << " refused\n";
}

}  // namespace
}  // namespace strata
