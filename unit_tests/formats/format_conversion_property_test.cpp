// Randomized property tests of the device formats' conversions with fixed seeds
// (issue 11, "no entry lost"): random shapes (empty, rectangular, past the
// 8-bit local coordinates of HiSparse leaves) and structures (scattered, dense
// blocks, one long row, bands), CSR -> format -> CSR on the device for COO,
// DCSR (random k, mu, slack) and HiSparse (random block size), each compared
// exactly with the host CSR. A failure names its seed, which reproduces it alone.
#include "test_value_types.hpp"
#include <strata/core/host_coo.hpp>
#include <strata/core/host_csr.hpp>
#include <strata/core/kokkos_crs.hpp>
#include <strata/core/value_traits.hpp>
#include <strata/formats/coo/coo_csr_conversion.hpp>
#include <strata/formats/dcsr/dcsr_convert.hpp>
#include <strata/formats/hisparse/hisparse_convert.hpp>

#include "property_support.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <random>
#include <set>
#include <string>
#include <utility>

namespace strata {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;

using test::uniform;

// A matrix of case `seed` without duplicate coordinates; values are small
// multiples of 1/2 (exact in every value type), zeros included.
template <class Value>
HostCsr<Value> random_matrix(std::mt19937_64& random) {
  const bool large = uniform(random, 0, 9) == 0;  // past one 256 x 256 leaf
  const index_type rows = uniform(random, 0, large ? 700 : 80);
  const index_type cols = uniform(random, 0, large ? 700 : 80);
  std::set<std::pair<index_type, index_type>> at;
  if (rows > 0 && cols > 0) {
    const int shape = uniform(random, 0, 3);
    const int n = uniform(random, 0, 4 * static_cast<int>(std::max(rows, cols)));
    for (int k = 0; k < n; ++k) {
      index_type r = uniform(random, 0, static_cast<int>(rows) - 1);
      index_type c = uniform(random, 0, static_cast<int>(cols) - 1);
      if (shape == 1) {  // a dense block
        r = std::min<index_type>(rows - 1, r % 9 + rows / 3);
        c = std::min<index_type>(cols - 1, c % 11 + cols / 2);
      } else if (shape == 2 && k % 2 == 0) {  // one long row
        r = rows / 2;
      } else if (shape == 3) {  // a band
        c = std::min<index_type>(cols - 1, std::max<index_type>(0, r + uniform(random, -3, 3)));
      }
      at.insert({r, c});
    }
  }
  HostCoo<Value> coo(rows, cols);
  for (const auto& [r, c] : at) {
    coo.push_back(r, c, value_from<Value>(uniform(random, -4, 4) * 0.5, uniform(random, -2, 2) * 0.5));
  }
  return to_csr(coo);
}

template <class Value>
void expect_same_csr(const HostCsr<Value>& got, const HostCsr<Value>& want, const char* format) {
  SCOPED_TRACE(format);
  ASSERT_EQ(got.num_rows, want.num_rows);
  ASSERT_EQ(got.num_cols, want.num_cols);
  ASSERT_EQ(got.row_offsets, want.row_offsets);
  ASSERT_EQ(got.cols, want.cols);
  for (std::size_t k = 0; k < want.values.size(); ++k) {
    ASSERT_TRUE(got.values[k] == want.values[k]) << "entry " << k;
  }
}

template <class Value>
class FormatConversionProperties : public ::testing::Test {};
using PropertyValueTypes = test::PropertyValueTypes;
TYPED_TEST_SUITE(FormatConversionProperties, PropertyValueTypes);

TYPED_TEST(FormatConversionProperties, EveryFormatGivesTheMatrixBack) {
  using Value = TypeParam;
  const std::uint64_t cases = test::property_cases(1500);
  std::size_t entries = 0;
  for (std::uint64_t seed = 1; seed <= cases; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 random(seed);
    const auto host = random_matrix<Value>(random);
    entries += host.values.size();
    const auto csr = to_kokkos_crs<DeviceCsr<Value, Device>>(host, "strata::test_csr");

    const auto coo = coo_from_csr(csr, "strata::test_coo");
    expect_same_csr(from_kokkos_crs(csr_from_coo(coo, "strata::test_coo_csr")), host, "COO");

    DcsrParameters p;
    p.max_segments = uniform(random, 1, 4);
    p.initial_row_slots = uniform(random, 0, 3);
    p.segment_slack = uniform(random, -1, 3);
    expect_same_csr(from_kokkos_crs(dcsr_to_csr(dcsr_from_csr<Value, Device>(csr, p))), host, "DCSR");

    const int log2_block = uniform(random, 1, hisparse::max_log2_block);
    SCOPED_TRACE("HiSparse d = 2^" + std::to_string(log2_block));
    expect_same_csr(from_kokkos_crs(to_device_csr(to_hisparse(csr, log2_block))), host, "HiSparse");
    if (::testing::Test::HasFailure()) return;  // the first failing seed is the one to report
  }
  EXPECT_GT(entries, cases * 50);
  std::cout << "  " << cases << " matrices, " << entries << " entries, through COO, DCSR and HiSparse\n";
}

}  // namespace
}  // namespace strata
