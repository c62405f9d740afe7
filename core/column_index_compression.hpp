#pragma once
// The bytes a CSR matrix's column indices would take under the two 16-bit
// encodings that issue 16 weighs, against CSR's 4 bytes per entry: the model
// a compressed streaming format must beat before it is worth a kernel (on a
// memory-bound product the bytes saved bound the time saved).
//   - Steps within rows: a row's first column in 4 bytes, then each column as
//     its 16-bit step from the previous one, where every step of the row is in
//     [0, 65535] (rows sorted by column); other rows keep 4 bytes per entry.
//     Decoding is a prefix sum along the row.
//   - Offsets in tiles: the entries in CSR order in tiles of 32 (a warp's
//     chunk); a tile whose columns span less than 65536 stores its least
//     column in 4 bytes and 16-bit offsets from it; other tiles keep 4 bytes
//     per entry (and the base). Decoding is one addition per entry.
// Values and row offsets are untouched by both.
#include <strata/core/host_csr.hpp>

#include <algorithm>
#include <cstdint>

namespace strata {

inline constexpr index_type column_tile_entries = 32;

struct ColumnIndexBytes {
  index_type nnz = 0;
  index_type rows_with_entries = 0;
  index_type rows_in_steps = 0;  // rows whose steps all fit 16 bits
  index_type tiles = 0;
  index_type tiles_in_offsets = 0;  // tiles whose columns span less than 65536
  std::uint64_t csr = 0;            // 4 per entry
  std::uint64_t row_steps16 = 0;
  std::uint64_t tile_offsets16 = 0;

  static double per_entry(std::uint64_t bytes, index_type nnz) {
    return nnz > 0 ? static_cast<double>(bytes) / static_cast<double>(nnz) : 0.0;
  }
};

template <class Value>
ColumnIndexBytes column_index_bytes(const HostCsr<Value>& A) {
  constexpr index_type fits16 = 65536;
  ColumnIndexBytes b;
  b.nnz = A.nnz();
  b.csr = 4 * static_cast<std::uint64_t>(b.nnz);
  for (index_type i = 0; i < A.num_rows; ++i) {
    const index_type begin = A.row_offsets[i], end = A.row_offsets[i + 1];
    if (begin == end) continue;
    ++b.rows_with_entries;
    bool steps_fit = true;
    for (index_type k = begin + 1; k < end && steps_fit; ++k) {
      const index_type step = A.cols[k] - A.cols[k - 1];
      steps_fit = step >= 0 && step < fits16;
    }
    const auto len = static_cast<std::uint64_t>(end - begin);
    b.rows_in_steps += steps_fit;
    b.row_steps16 += steps_fit ? 4 + 2 * (len - 1) : 4 * len;
  }
  for (index_type t = 0; t < b.nnz; t += column_tile_entries) {
    const index_type end = std::min(b.nnz, t + column_tile_entries);
    const auto [least, most] = std::minmax_element(A.cols.begin() + t, A.cols.begin() + end);
    const bool offsets_fit = *most - *least < fits16;
    const auto len = static_cast<std::uint64_t>(end - t);
    ++b.tiles;
    b.tiles_in_offsets += offsets_fit;
    b.tile_offsets16 += 4 + (offsets_fit ? 2 : 4) * len;
  }
  return b;
}

}  // namespace strata
