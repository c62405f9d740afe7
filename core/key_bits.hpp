#pragma once
// How many bits a sort key's field needs to hold every value up to max_value (0 for 0): what the
// builders of strata::sort_keys' packed keys (the HiSparse conversion, the leaf bins' column orders)
// size their fields by.
#include <cstdint>

namespace strata {

inline int bits_for(std::uint64_t max_value) {
  int bits = 0;
  while (bits < 64 && (max_value >> bits) != 0) ++bits;
  return bits;
}

}  // namespace strata
