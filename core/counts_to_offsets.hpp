#pragma once
// Counts to offsets in place: a View whose entry i + 1 holds item i's count
// (entry 0 zero) becomes, by one inclusive scan, the offsets of the items
// (entry i their first position, the last entry the total). What every CSR
// row map built on the device by "count, scan, fill" needs; the counts are
// 32-bit, as CSR's row offsets are.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace strata {
namespace Impl {

template <class Offsets>
struct CountsToOffsets {
  Offsets offsets;

  KOKKOS_INLINE_FUNCTION void operator()(const int i, int& running, const bool final) const {
    running += offsets(i);
    if (final) offsets(i) = running;
  }
};

}  // namespace Impl

// `offsets` holds `items + 1` entries: 0, then the items' counts.
template <class ExecSpace, class Offsets>
void counts_to_offsets(const std::string& label, const ExecSpace& space, const Offsets& offsets,
                       const std::int64_t items) {
  Kokkos::parallel_scan(label, Kokkos::RangePolicy<ExecSpace>(space, 0, items + 1),
                        Impl::CountsToOffsets<Offsets>{offsets});
}

}  // namespace strata
