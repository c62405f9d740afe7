#include "test_value_types.hpp"
#include <strata/core/value_traits.hpp>
#include <strata/core/warp_segmented_scan.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace strata {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Memory = ExecSpace::memory_space;

template <class Value>
std::vector<Value> sequential_segmented_scan(const std::vector<int>& keys, const std::vector<Value>& values) {
  std::vector<Value> out = values;
  for (std::size_t i = 1; i < keys.size(); ++i) {
    if (keys[i] == keys[i - 1]) out[i] += out[i - 1];
  }
  return out;
}

// Scans each of `groups` key/value arrays of length n in one team member's
// scratch, with vector length 32 (one warp on CUDA).
template <class Value>
std::vector<Value> device_segmented_scan(const std::vector<int>& keys, const std::vector<Value>& values, int n,
                                         int groups) {
  Kokkos::View<int*, Memory> k("strata::test_keys", keys.size());
  Kokkos::View<Value*, Memory> v("strata::test_values", values.size());
  auto k_h = Kokkos::create_mirror_view(k);
  auto v_h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    k_h(i) = keys[i];
    v_h(i) = values[i];
  }
  Kokkos::deep_copy(k, k_h);
  Kokkos::deep_copy(v, v_h);
  using Policy = Kokkos::TeamPolicy<ExecSpace>;
  using KeyScratch = Kokkos::View<int*, ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using ValueScratch = Kokkos::View<Value*, ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const std::size_t scratch = KeyScratch::shmem_size(n > 0 ? n : 1) + ValueScratch::shmem_size(n > 0 ? n : 1);
  const int vector_length = std::min(32, Policy::vector_length_max());
  Policy policy(groups, 1, vector_length);
  Kokkos::parallel_for(
      "strata::test_warp_segmented_scan", policy.set_scratch_size(0, Kokkos::PerTeam(scratch)),
      KOKKOS_LAMBDA(const Policy::member_type& member) {
        KeyScratch sk(member.team_scratch(0), n > 0 ? n : 1);
        ValueScratch sv(member.team_scratch(0), n > 0 ? n : 1);
        const int offset = member.league_rank() * n;
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, n), [&](const int i) {
          sk(i) = k(offset + i);
          sv(i) = v(offset + i);
        });
        member.team_barrier();
        warp_segmented_inclusive_scan<ExecSpace>(member, sk.data(), sv.data(), n);
        member.team_barrier();
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, n), [&](const int i) { v(offset + i) = sv(i); });
      });
  Kokkos::deep_copy(v_h, v);
  return std::vector<Value>(v_h.data(), v_h.data() + values.size());
}

template <class Value>
void expect_scan_matches(const std::string& layout, const std::vector<int>& segment_lengths, int groups = 3) {
  SCOPED_TRACE(layout);
  std::vector<int> one_keys;
  int key = 5;
  for (int len : segment_lengths) {
    for (int j = 0; j < len; ++j) one_keys.push_back(key);
    key += 3;
  }
  const int n = static_cast<int>(one_keys.size());
  std::vector<int> keys;
  std::vector<Value> values;
  for (int g = 0; g < groups; ++g) {
    for (int i = 0; i < n; ++i) {
      keys.push_back(one_keys[i]);
      values.push_back(value_from<Value>((i * 7 + g) % 13 - 6, (i * 3 + g) % 5 - 2));
    }
  }
  const auto got = device_segmented_scan(keys, values, n, groups);
  for (int g = 0; g < groups; ++g) {
    const std::vector<int> gk(keys.begin() + g * n, keys.begin() + (g + 1) * n);
    const std::vector<Value> gv(values.begin() + g * n, values.begin() + (g + 1) * n);
    const auto want = sequential_segmented_scan(gk, gv);
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(real_part(got[g * n + i]), real_part(want[i])) << "group " << g << " lane " << i;
      ASSERT_EQ(imag_part(got[g * n + i]), imag_part(want[i])) << "group " << g << " lane " << i;
    }
  }
}

template <class Value>
class WarpSegmentedScan : public ::testing::Test {};
using ValueTypes = test::ValueTypes;
TYPED_TEST_SUITE(WarpSegmentedScan, ValueTypes);

TYPED_TEST(WarpSegmentedScan, OneSegmentOfAWarp) { expect_scan_matches<TypeParam>("one segment", {32}); }
TYPED_TEST(WarpSegmentedScan, AllSegmentsOfLengthOne) {
  expect_scan_matches<TypeParam>("length one", std::vector<int>(32, 1));
  expect_scan_matches<TypeParam>("length one, 3 warps", std::vector<int>(96, 1));
}
TYPED_TEST(WarpSegmentedScan, SegmentsLongerThanAWarp) {
  expect_scan_matches<TypeParam>("long", {100, 3, 70});
  expect_scan_matches<TypeParam>("one long segment", {200});
}
TYPED_TEST(WarpSegmentedScan, SegmentsCrossingWarpBoundaries) {
  expect_scan_matches<TypeParam>("crossing", {30, 5, 1, 29, 31, 2, 33});
  expect_scan_matches<TypeParam>("boundary on 32", {32, 32, 1, 31});
}
TYPED_TEST(WarpSegmentedScan, PartialWarpAndEmptyInput) {
  expect_scan_matches<TypeParam>("partial warp", {3, 4, 2});
  expect_scan_matches<TypeParam>("empty", {});
}
TYPED_TEST(WarpSegmentedScan, EqualKeysSeparatedByAnotherKeyAreDifferentSegments) {
  using Value = TypeParam;
  const std::vector<int> keys{1, 1, 2, 1, 1, 1, 2, 2};
  std::vector<Value> values;
  for (int i = 0; i < 8; ++i) values.push_back(value_from<Value>(i + 1, 0));
  const auto got = device_segmented_scan(keys, values, 8, 1);
  const double want[] = {1, 3, 3, 4, 9, 15, 7, 15};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(real_part(got[i]), want[i]) << "lane " << i;
}

}  // namespace
}  // namespace strata
