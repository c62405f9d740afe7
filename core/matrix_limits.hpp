#pragma once
#include <strata/core/index.hpp>

#include <cstdint>
#include <limits>
#include <string>

namespace strata {

// The largest matrix a consumer accepts. Readers and generators check it against
// the declared or computed size before they allocate anything, so a size line
// claiming 3e9 x 3e9 fails at once with a message instead of exhausting memory.
struct MatrixLimits {
  index_type max_rows = std::numeric_limits<index_type>::max();
  index_type max_cols = std::numeric_limits<index_type>::max();
  // Entries of the matrix as stored in memory: after symmetric expansion,
  // before duplicates are summed.
  index_type max_entries = std::numeric_limits<index_type>::max();
  // Names the limit in messages, e.g. "the 32-bit indices of the device formats".
  const char* origin = "the 64-bit host index type";
};

// What every device format and the Kokkos Kernels CSR baseline can hold:
// 32-bit signed ordinals and offsets (DeviceCsr<Value, int, Device, void, int>,
// CooMatrix). The strata command loads matrices under these limits.
constexpr MatrixLimits device_matrix_limits() {
  constexpr index_type int32_max = std::numeric_limits<std::int32_t>::max();
  return {int32_max, int32_max, int32_max, "the 32-bit indices of the device formats"};
}

// An empty string when rows x cols with `entries` entries fits the limits, else
// a sentence naming the first quantity beyond its limit, e.g. "3000000000 rows
// exceed the limit of 2147483647 rows (the 32-bit indices of the device formats)".
std::string matrix_limit_violation(const MatrixLimits& limits, index_type rows, index_type cols, index_type entries);

}  // namespace strata
