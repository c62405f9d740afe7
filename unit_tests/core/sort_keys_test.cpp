// sort_keys against std::sort: the radix sort of host backends with one and many
// chunks (more chunks than keys included), key widths that end inside a digit and
// on digit edges, digits equal in every key (skipped passes), and the checks of
// its arguments; on the default execution space (Kokkos::sort on devices).
#include <strata/core/error.hpp>
#include <strata/core/pseudo_random.hpp>
#include <strata/core/sort_keys.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace strata {
namespace {

std::vector<std::uint64_t> random_keys(std::size_t n, int key_bits, std::uint64_t seed) {
  std::vector<std::uint64_t> keys(n);
  const std::uint64_t mask = key_bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << key_bits) - 1;
  for (auto& k : keys) k = splitmix64(seed) & mask;
  return keys;
}

template <class ExecSpace, class Sort>
std::vector<std::uint64_t> sorted_by(const std::vector<std::uint64_t>& keys, Sort sort) {
  Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space> view("keys", keys.size());
  auto host = Kokkos::create_mirror_view(view);
  for (std::size_t i = 0; i < keys.size(); ++i) host(i) = keys[i];
  Kokkos::deep_copy(view, host);
  sort(view);
  Kokkos::deep_copy(host, view);
  return std::vector<std::uint64_t>(host.data(), host.data() + host.extent(0));
}

std::vector<std::uint64_t> std_sorted(std::vector<std::uint64_t> keys) {
  std::sort(keys.begin(), keys.end());
  return keys;
}

using HostSpace = Kokkos::DefaultHostExecutionSpace;

TEST(SortKeys, HostRadixSortMatchesStdSortForAnyChunkCount) {
  for (std::size_t n : {std::size_t(2), std::size_t(3), std::size_t(255), std::size_t(1000), std::size_t(70001)}) {
    for (int key_bits : {1, 7, 8, 9, 33, 64}) {
      const auto keys = random_keys(n, key_bits, n * 131 + static_cast<std::uint64_t>(key_bits));
      const auto expected = std_sorted(keys);
      for (std::size_t chunks : {std::size_t(1), std::size_t(2), std::size_t(7), std::size_t(64), std::min<std::size_t>(n + 5, 300)}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", key_bits = " + std::to_string(key_bits) +
                     ", chunks = " + std::to_string(chunks));
        EXPECT_EQ(sorted_by<HostSpace>(keys, [&](const auto& v) {
                    Impl::radix_sort_on_host(HostSpace(), v, key_bits, chunks);
                  }),
                  expected);
      }
    }
  }
}

// The HiSparse conversion's keys: high digits equal in every key (a pass with one digit is
// skipped, so the result may sit in either buffer), duplicates, sorted and reversed input.
TEST(SortKeys, ConstantDigitsDuplicatesAndOrderedInput) {
  std::vector<std::vector<std::uint64_t>> cases;
  auto structured = random_keys(50000, 20, 7);
  for (auto& k : structured) k |= std::uint64_t(0x5A) << 40;  // bits 40-47 equal: that pass is skipped
  cases.push_back(structured);
  cases.push_back(std::vector<std::uint64_t>(40000, 0xFEDCBA9876ull));
  auto few = random_keys(60000, 3, 11);
  cases.push_back(few);
  cases.push_back(std_sorted(random_keys(40000, 48, 13)));
  auto reversed = std_sorted(random_keys(40000, 48, 17));
  std::reverse(reversed.begin(), reversed.end());
  cases.push_back(reversed);
  for (std::size_t c = 0; c < cases.size(); ++c) {
    SCOPED_TRACE("case " + std::to_string(c));
    const auto expected = std_sorted(cases[c]);
    for (std::size_t chunks : {std::size_t(1), std::size_t(3)}) {
      EXPECT_EQ(sorted_by<HostSpace>(cases[c], [&](const auto& v) { Impl::radix_sort_on_host(HostSpace(), v, 48, chunks); }),
                expected);
    }
    EXPECT_EQ(sorted_by<Kokkos::DefaultExecutionSpace>(
                  cases[c], [](const auto& v) { sort_keys(Kokkos::DefaultExecutionSpace(), v, 48); }),
              expected);
  }
}

TEST(SortKeys, DefaultExecutionSpaceMatchesStdSort) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(33), std::size_t(100003)}) {
    for (int key_bits : {0, 5, 40, 63, 64}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", key_bits = " + std::to_string(key_bits));
      const auto keys = random_keys(n, key_bits, n + static_cast<std::uint64_t>(key_bits));
      EXPECT_EQ(sorted_by<Kokkos::DefaultExecutionSpace>(
                    keys, [&](const auto& v) { sort_keys(Kokkos::DefaultExecutionSpace(), v, key_bits); }),
                std_sorted(keys));
    }
  }
}

TEST(SortKeys, RefusesKeysAboveKeyBitsAndKeyBitsOutsideTheWord) {
  auto keys = random_keys(1000, 12, 3);
  keys[517] = std::uint64_t(1) << 12;
  Kokkos::View<std::uint64_t*> view("keys", keys.size());
  auto host = Kokkos::create_mirror_view(view);
  for (std::size_t i = 0; i < keys.size(); ++i) host(i) = keys[i];
  Kokkos::deep_copy(view, host);
  const auto message = [&](int key_bits) {
    try {
      sort_keys(Kokkos::DefaultExecutionSpace(), view, key_bits);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(12).find("bits set above key_bits = 12"), std::string::npos) << message(12);
  EXPECT_NE(message(-1).find("key_bits = -1 is not between 0 and 64"), std::string::npos) << message(-1);
  EXPECT_NE(message(65).find("key_bits = 65"), std::string::npos) << message(65);
  // The refused calls left the keys as they were.
  Kokkos::deep_copy(host, view);
  EXPECT_EQ(std::vector<std::uint64_t>(host.data(), host.data() + host.extent(0)), keys);
}

}  // namespace
}  // namespace strata
