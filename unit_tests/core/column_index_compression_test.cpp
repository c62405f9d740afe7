// The column-index bytes model of issue 16 (core/column_index_compression.hpp), checked by hand:
// rows whose steps fit 16 bits and rows that do not, tiles of 32 entries in CSR order that span
// less than 65536 columns and tiles that do not, an unsorted row, empty rows and the empty matrix.
#include <strata/core/column_index_compression.hpp>

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(ColumnIndexBytes, HandCheckedRowsAndTiles) {
  // 200000 columns. Row 0: 40 entries at 0, 1000, ..., 39000 (steps of 1000: in steps; its first
  // tile, entries 0-31, spans 31000). Row 1: empty. Row 2: 0 and 70000 (a step of 70000: not in
  // steps). Row 3: 3 entries at 100000, 100001, 100002. In CSR order the second tile holds row 0's
  // last 8 entries (32000-39000), row 2's two and row 3's three: it spans 0 to 100002, not in
  // offsets.
  HostCsr<double> A;
  A.num_rows = 4;
  A.num_cols = 200000;
  A.row_offsets = {0, 40, 40, 42, 45};
  for (index_type k = 0; k < 40; ++k) A.cols.push_back(1000 * k);
  A.cols.insert(A.cols.end(), {0, 70000, 100000, 100001, 100002});
  A.values.assign(A.cols.size(), 1.0);
  const ColumnIndexBytes b = column_index_bytes(A);
  EXPECT_EQ(b.nnz, 45);
  EXPECT_EQ(b.csr, 4u * 45);
  EXPECT_EQ(b.rows_with_entries, 3);
  EXPECT_EQ(b.rows_in_steps, 2);  // rows 0 and 3
  EXPECT_EQ(b.row_steps16, (4u + 2 * 39) + 4u * 2 + (4u + 2 * 2));
  EXPECT_EQ(b.tiles, 2);
  EXPECT_EQ(b.tiles_in_offsets, 1);
  EXPECT_EQ(b.tile_offsets16, (4u + 2 * 32) + (4u + 4 * 13));
  EXPECT_DOUBLE_EQ(ColumnIndexBytes::per_entry(b.csr, b.nnz), 4.0);
}

TEST(ColumnIndexBytes, EdgesOfSixteenBits) {
  // A step of 65535 fits, 65536 does not; a tile spanning 65535 fits, 65536 does not; a step
  // backwards (an unsorted row) does not fit.
  HostCsr<float> A;
  A.num_rows = 3;
  A.num_cols = 70000;
  A.row_offsets = {0, 2, 4, 6};
  A.cols = {0, 65535, 0, 65536, 5, 4};
  A.values.assign(A.cols.size(), 1.0f);
  const ColumnIndexBytes b = column_index_bytes(A);
  EXPECT_EQ(b.rows_in_steps, 1);
  EXPECT_EQ(b.row_steps16, (4u + 2) + 4u * 2 + 4u * 2);
  EXPECT_EQ(b.tiles, 1);
  EXPECT_EQ(b.tiles_in_offsets, 0);  // the one tile spans 0 to 65536
  HostCsr<float> narrow = A;
  narrow.cols = {0, 65535, 0, 65535, 5, 4};
  EXPECT_EQ(column_index_bytes(narrow).tiles_in_offsets, 1);
  EXPECT_EQ(column_index_bytes(narrow).tile_offsets16, 4u + 2 * 6);
}

TEST(ColumnIndexBytes, EmptyMatrix) {
  HostCsr<double> A;
  A.num_rows = 3;
  A.num_cols = 3;
  A.row_offsets = {0, 0, 0, 0};
  const ColumnIndexBytes b = column_index_bytes(A);
  EXPECT_EQ(b.nnz, 0);
  EXPECT_EQ(b.rows_with_entries, 0);
  EXPECT_EQ(b.tiles, 0);
  EXPECT_EQ(b.row_steps16 + b.tile_offsets16 + b.csr, 0u);
  EXPECT_DOUBLE_EQ(ColumnIndexBytes::per_entry(b.row_steps16, b.nnz), 0.0);
}

}  // namespace
}  // namespace strata
