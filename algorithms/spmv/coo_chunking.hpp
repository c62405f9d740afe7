#pragma once
// How the load-balanced COO SpMV splits the nonzeros among warps (Flegar &
// Anzt, IA^3 2017): contiguous chunks of whole 32-entry lines, chunk sizes
// differing by at most one line, and omega chunks per execution unit (SM).
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

namespace strata {

constexpr int coo_line_entries = 32;

struct CooChunking {
  std::int64_t nnz = 0;
  std::int64_t lines = 0;
  std::int64_t num_chunks = 0;
  std::int64_t lines_per_chunk = 0;   // every chunk has this many lines ...
  std::int64_t chunks_with_extra = 0;  // ... and the first chunks_with_extra have one more

  KOKKOS_INLINE_FUNCTION std::int64_t begin(std::int64_t chunk) const {
    const std::int64_t line = chunk * lines_per_chunk + (chunk < chunks_with_extra ? chunk : chunks_with_extra);
    const std::int64_t entry = line * coo_line_entries;
    return entry < nnz ? entry : nnz;
  }
  KOKKOS_INLINE_FUNCTION std::int64_t end(std::int64_t chunk) const { return begin(chunk + 1); }
};

inline CooChunking make_coo_chunking(std::int64_t nnz, int omega, int execution_units) {
  CooChunking c;
  c.nnz = nnz;
  c.lines = (nnz + coo_line_entries - 1) / coo_line_entries;
  const std::int64_t wanted = static_cast<std::int64_t>(std::max(1, omega)) * std::max(1, execution_units);
  c.num_chunks = std::min(c.lines, wanted);
  if (c.num_chunks > 0) {
    c.lines_per_chunk = c.lines / c.num_chunks;
    c.chunks_with_extra = c.lines % c.num_chunks;
  }
  return c;
}

// The paper's oversubscription levels by problem size: small matrices need
// fewer warps to fill the device, large ones more to hide latency and balance load.
inline int coo_default_omega(std::int64_t nnz) {
  if (nnz < 100000) return 8;
  if (nnz < 10000000) return 32;
  return 128;
}

}  // namespace strata
