#pragma once
// How many column panels a ColumnSplitCsr product should use
// (formats/column_split/column_split_csr.hpp), kept free of Kokkos so that the
// rule of Format::automatic (algorithms/spmv/automatic_rule.cpp) asks the same
// question the conversion does.
#include <strata/core/index.hpp>

#include <algorithm>
#include <cstddef>

namespace strata {

// The panels a product should use: as few as keep each panel's part of x within
// a third of the device's last-level cache (on the H100's 50 MiB L2, 16.7 MiB: 32
// MiB of x missed for half of its gathers, 16 MiB for a tenth), one where the
// cache size is unknown (cache_bytes = 0).
inline int column_panels_for(index_type cols, std::size_t value_bytes, std::size_t cache_bytes) {
  if (cache_bytes == 0 || cols <= 0) return 1;
  const std::size_t x_bytes = static_cast<std::size_t>(cols) * value_bytes;
  const std::size_t budget = cache_bytes / 3;
  const std::size_t panels = (x_bytes + budget - 1) / budget;
  return static_cast<int>(std::max<std::size_t>(1, std::min<std::size_t>(panels, static_cast<std::size_t>(cols))));
}

}  // namespace strata
