#include "test_value_types.hpp"
#include <strata/core/atomic_add.hpp>
#include <strata/core/value_traits.hpp>

#include <gtest/gtest.h>

namespace strata {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;

// Kept out of the test body: CUDA extended lambdas cannot live in private member functions.
template <class Value>
void add_concurrently(const Kokkos::View<Value*, ExecSpace::memory_space>& sums, int targets, int adds) {
  Kokkos::parallel_for(
      "strata::test_atomic_add", Kokkos::RangePolicy<ExecSpace>(0, adds), KOKKOS_LAMBDA(const int i) {
        atomic_add<ExecSpace>(&sums(i % targets), value_from<Value>(i % 5, -(i % 3)));
      });
}

template <class Value>
class AtomicAdd : public ::testing::Test {};
using ValueTypes = test::ValueTypes;
TYPED_TEST_SUITE(AtomicAdd, ValueTypes);

// Many threads add small integers (exact in every type) into few targets.
TYPED_TEST(AtomicAdd, ConcurrentAddsIntoFewTargetsAreExact) {
  using Value = TypeParam;
  constexpr int targets = 7;
  constexpr int adds = 100003;
  Kokkos::View<Value*, ExecSpace::memory_space> sums("strata::test_sums", targets);
  add_concurrently<Value>(sums, targets, adds);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sums);
  for (int t = 0; t < targets; ++t) {
    double re = 0.0, im = 0.0;
    for (int i = t; i < adds; i += targets) {
      re += i % 5;
      im -= i % 3;
    }
    EXPECT_EQ(real_part(host(t)), re) << "target " << t;
    EXPECT_EQ(imag_part(host(t)), value_traits<Value>::is_complex ? im : 0.0) << "target " << t;
  }
}

}  // namespace
}  // namespace strata
