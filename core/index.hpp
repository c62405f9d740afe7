#pragma once
#include <cstdint>

namespace strata {

// Host containers index with 64 bits: HiSparse addresses dimensions up to 2^40,
// and generated matrices reach 2^27 nonzeros and beyond.
using index_type = std::int64_t;

}  // namespace strata
