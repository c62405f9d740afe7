// strata::sort_keys on the library's default space and device, compiled once (core/sort_keys.hpp
// declares it extern).
#include <strata/core/sort_keys.hpp>

STRATA_SORT_KEYS_ETI()
