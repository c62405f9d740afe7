#include <strata/core/device_buffer.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace strata {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;

struct FillWith {
  Kokkos::View<std::int64_t*, Device> v;
  std::int64_t base;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const { v(i) = base + i; }
};

struct SumOf {
  Kokkos::View<std::int64_t*, Device> v;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, std::int64_t& sum) const { sum += v(i); }
};

std::int64_t sum_of(const Kokkos::View<std::int64_t*, Device>& v) {
  std::int64_t sum = 0;
  Kokkos::parallel_reduce("strata::test::buffer_sum", Kokkos::RangePolicy<ExecSpace>(0, static_cast<int>(v.extent(0))),
                          SumOf{v}, sum);
  return sum;
}

// Buffers released and allocated again, the host never waiting between them: on CUDA the pool
// hands a released buffer's memory to the next allocation, and the clearing, the kernels and
// the release must keep their order on the device. Sizes above and below a previous one.
TEST(DeviceBuffer, ReusedMemoryIsClearedAndWrittenInOrder) {
  const std::vector<int> sizes{1 << 16, 1 << 16, 3000, 1 << 18, 70000, 1, 1 << 16};
  for (int round = 0; round < 20; ++round) {
    for (const int n : sizes) {
      auto written = allocate_device_buffer<std::int64_t, Device>(n, "strata::test::written", false);
      ASSERT_EQ(written.view.extent(0), static_cast<std::size_t>(n));
      Kokkos::parallel_for("strata::test::buffer_fill", Kokkos::RangePolicy<ExecSpace>(0, n),
                           FillWith{written.view, 7 + round});
      const std::int64_t expected = static_cast<std::int64_t>(n) * (7 + round) +
                                    static_cast<std::int64_t>(n) * (n - 1) / 2;
      ASSERT_EQ(sum_of(written.view), expected) << "round " << round << ", " << n << " values";
      // Released with a kernel still queued behind it on the device.
      Kokkos::parallel_for("strata::test::buffer_fill", Kokkos::RangePolicy<ExecSpace>(0, n),
                           FillWith{written.view, -1});
      written = {};
      const auto cleared = allocate_device_buffer<std::int64_t, Device>(n, "strata::test::cleared", true);
      ASSERT_EQ(sum_of(cleared.view), 0) << "round " << round << ", " << n << " values";
    }
  }
}

// The memory lives while any copy of its owner does, whatever happened to the first.
TEST(DeviceBuffer, AnOwnerCopyKeepsTheMemory) {
  constexpr int n = 5000;
  auto first = allocate_device_buffer<std::int64_t, Device>(n, "strata::test::shared", false);
  const auto view = first.view;
  std::shared_ptr<void> kept = first.owner;
  first = {};
  EXPECT_EQ(kept.use_count(), 1);
  Kokkos::parallel_for("strata::test::buffer_fill", Kokkos::RangePolicy<ExecSpace>(0, n), FillWith{view, 1});
  // Another allocation of the same size must not be handed the kept memory.
  const auto other = allocate_device_buffer<std::int64_t, Device>(n, "strata::test::other", true);
  EXPECT_NE(other.view.data(), view.data());
  EXPECT_EQ(sum_of(view), static_cast<std::int64_t>(n) + static_cast<std::int64_t>(n) * (n - 1) / 2);
  EXPECT_EQ(sum_of(other.view), 0);
}

TEST(DeviceBuffer, NoValuesNeedNoMemory) {
  const auto empty = allocate_device_buffer<double, Device>(0, "strata::test::empty", true);
  EXPECT_EQ(empty.view.extent(0), 0u);
  EXPECT_EQ(empty.owner, nullptr);
}

// More than any device holds, and more than size_t counts in bytes: a strata::Error naming the
// label and the bytes, and the next allocation works. (Excluded from the compute-sanitizer runs,
// which report the device's refusal as an API error: scripts/gpu_check.sh.)
TEST(DeviceBuffer, AllocationBeyondTheDeviceIsAnErrorNamingIt) {
  try {
    allocate_device_buffer<double, Device>(std::size_t(1) << 58, "strata::test::huge", false);
    FAIL() << "an allocation of 2^61 bytes succeeded";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("strata::test::huge"), std::string::npos) << what;
    EXPECT_NE(what.find(std::to_string(std::size_t(1) << 61)), std::string::npos) << what;
  }
  try {
    allocate_device_buffer<double, Device>(std::numeric_limits<std::size_t>::max() / 4, "strata::test::overflow", false);
    FAIL() << "an allocation whose bytes overflow size_t succeeded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("strata::test::overflow"), std::string::npos) << e.what();
  }
  const auto after = allocate_device_buffer<std::int64_t, Device>(100, "strata::test::after", true);
  EXPECT_EQ(sum_of(after.view), 0);
}

}  // namespace
}  // namespace strata
