// strata::spmv on HiSparseMatrix, every algorithm (the leaf bins, and the tree walk on the dynamic
// scheduler's host-driven, persistent and, where built, controller launchers): the typed suite, the
// matrix's own transpose flag and scale factor folded into the product, matrices sharing sub-trees
// after edits, then the bins' edges.
#include "algorithms/spmv/spmv_api_cases.hpp"
#include "formats/hisparse/hisparse_test_edits.hpp"
#include "formats/hisparse/hisparse_test_matrices.hpp"

// The internals of this format's kernels, tested below (strata::spmv itself needs none).
#include <strata/algorithms/spmv/hisparse.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace strata {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;

template <class Value>
class HiSparseSpmvTest : public ::testing::Test {};
TYPED_TEST_SUITE(HiSparseSpmvTest, test::ValueTypes);

// The controller where this build has it (CUDA, STRATA_ENABLE_CUDA_CONTROLLER).
const std::vector<SpmvAlgorithm> algorithms = [] {
  std::vector<SpmvAlgorithm> a{SpmvAlgorithm::leaf_bins, SpmvAlgorithm::scheduled, SpmvAlgorithm::persistent};
  if (scheduler::controller_available<ExecSpace>::value) a.push_back(SpmvAlgorithm::controlled);
  return a;
}();

SpmvSettings with_algorithm(SpmvAlgorithm a) {
  SpmvSettings s;
  s.algorithm = a;
  return s;
}

// One algorithm on every case with blocks of d = 2^log2_block. One test per algorithm and block
// size: under compute-sanitizer's racecheck a test per block size (four algorithms) still ran past
// 520 s (2026-11-28, H100), and so did the three block sizes in one test before that.
template <class Value>
void check_algorithm_with_block(SpmvAlgorithm algorithm, int log2_block) {
  SCOPED_TRACE(std::string(to_string(algorithm)) + ", d = " + std::to_string(1 << log2_block));
  test::check_every_case<Value, HiSparseMatrix<Value, Device>>(
      [log2_block](const HostCsr<Value>& host) { return to_hisparse<Device>(to_coo(host), log2_block); },
      with_algorithm(algorithm));
}

// d, in the test's name, is 2^log2_block.
#define STRATA_HISPARSE_EVERY_CASE_TEST(Name, algorithm, log2_block, d)             \
  static_assert((1 << (log2_block)) == (d), "block size " #d " is not 2^" #log2_block); \
  TYPED_TEST(HiSparseSpmvTest, Name##MatchesReferenceEverywhereWithBlocksOf##d) { \
    check_algorithm_with_block<TypeParam>(SpmvAlgorithm::algorithm, log2_block);  \
  }
STRATA_HISPARSE_EVERY_CASE_TEST(LeafBins, leaf_bins, 2, 4)
STRATA_HISPARSE_EVERY_CASE_TEST(LeafBins, leaf_bins, 5, 32)
STRATA_HISPARSE_EVERY_CASE_TEST(LeafBins, leaf_bins, 7, 128)
STRATA_HISPARSE_EVERY_CASE_TEST(Scheduled, scheduled, 2, 4)
STRATA_HISPARSE_EVERY_CASE_TEST(Scheduled, scheduled, 5, 32)
STRATA_HISPARSE_EVERY_CASE_TEST(Scheduled, scheduled, 7, 128)
STRATA_HISPARSE_EVERY_CASE_TEST(Persistent, persistent, 2, 4)
STRATA_HISPARSE_EVERY_CASE_TEST(Persistent, persistent, 5, 32)
STRATA_HISPARSE_EVERY_CASE_TEST(Persistent, persistent, 7, 128)
// The controller exists only in CUDA builds with STRATA_ENABLE_CUDA_CONTROLLER (its tests are not
// registered elsewhere, rather than skipped).
#if defined(KOKKOS_ENABLE_CUDA) && STRATA_ENABLE_CUDA_CONTROLLER
static_assert(scheduler::controller_available<ExecSpace>::value, "the controller is built for the default space");
STRATA_HISPARSE_EVERY_CASE_TEST(Controlled, controlled, 2, 4)
STRATA_HISPARSE_EVERY_CASE_TEST(Controlled, controlled, 5, 32)
STRATA_HISPARSE_EVERY_CASE_TEST(Controlled, controlled, 7, 128)
#endif
#undef STRATA_HISPARSE_EVERY_CASE_TEST

TYPED_TEST(HiSparseSpmvTest, MatchesReferenceWithTransposeFlagAndScale) {
  using Value = TypeParam;
  const Value alphas[] = {value_from<Value>(1.0, 0.0), value_from<Value>(-1.5, 0.5)};
  const Value betas[] = {value_from<Value>(0.0, 0.0), value_from<Value>(1.0, 0.0), value_from<Value>(0.5, -2.0)};
  const Value s = value_from<Value>(0.5, 0.25);
  for (const auto& c : test::hisparse_cases()) {
    if (c.coo.num_rows > 100000 || c.coo.num_cols > 100000) continue;  // vectors of 2^33 entries do not fit
    SCOPED_TRACE(c.name);
    const auto coo = test::convert_coo<Value>(c.coo);
    std::vector<std::pair<bool, SpmvAlgorithm>> runs;
    for (const SpmvAlgorithm algorithm : algorithms) {
      runs.push_back({false, algorithm});
      runs.push_back({true, algorithm});
    }
    for (const auto& [flag, algorithm] : runs) {
      SCOPED_TRACE(std::string(to_string(algorithm)) + (flag ? ", transposed" : ""));
      auto A = to_hisparse<Device>(coo, c.log2_block);
      // The reference sees the explicit matrix s * op_flag(A).
      HostCoo<Value> explicit_coo(flag ? coo.num_cols : coo.num_rows, flag ? coo.num_rows : coo.num_cols);
      for (index_type k = 0; k < coo.nnz(); ++k) {
        explicit_coo.push_back(flag ? coo.cols[k] : coo.rows[k], flag ? coo.rows[k] : coo.cols[k], s * coo.values[k]);
      }
      const auto reference = to_csr(explicit_coo);
      if (flag) A.transpose();
      A.scale(s);
      test::ApiProduct<ExecSpace, HiSparseMatrix<Value, Device>> kernel{
          A, SpmvHandle<ExecSpace, HiSparseMatrix<Value, Device>>(with_algorithm(algorithm))};
      for (const std::string mode : {"N", "T", "C", "H"}) {
        for (const Value& alpha : alphas) {
          for (const Value& beta : betas) {
            test::expect_spmv_matches_reference<Value, ExecSpace>(kernel, reference, mode, alpha, beta, false);
          }
        }
        test::expect_spmv_matches_reference<Value, ExecSpace>(kernel, reference, mode, alphas[1], betas[0], true);
      }
    }
  }
}

// A matrix and its edited copy share every sub-tree the edits left alone (one pool, nodes by
// reference): every algorithm multiplies both, in every mode with scale factors, and A's handle,
// analysed before the edit, still gives A's products after it.
TYPED_TEST(HiSparseSpmvTest, MatricesSharingSubtreesAfterEditsMatchReference) {
  using Value = TypeParam;
  const Value alpha = value_from<Value>(-1.5, 0.5), beta = value_from<Value>(0.5, -2.0);
  for (const auto& c : test::hisparse_cases()) {
    if (c.coo.num_rows > 100000 || c.coo.num_cols > 100000) continue;  // vectors of 2^33 entries do not fit
    if (c.coo.nnz() < 2) continue;
    SCOPED_TRACE(c.name);
    const auto a = test::convert_coo<Value>(c.coo);
    for (const SpmvAlgorithm algorithm : algorithms) {
      SCOPED_TRACE(to_string(algorithm));
      const auto A = to_hisparse<Device>(a, c.log2_block);
      test::ApiProduct<ExecSpace, HiSparseMatrix<Value, Device>> before{
          A, SpmvHandle<ExecSpace, HiSparseMatrix<Value, Device>>(with_algorithm(algorithm))};
      before.handle.prepare(ExecSpace(), A);
      const auto E = hisparse_edit(A, test::scattered_edits(a));
      ASSERT_EQ(E.storage(), A.storage()) << "the edit appends to A's pool";
      test::ApiProduct<ExecSpace, HiSparseMatrix<Value, Device>> edited{
          E, SpmvHandle<ExecSpace, HiSparseMatrix<Value, Device>>(with_algorithm(algorithm))};
      const auto a_reference = to_csr(a), e_reference = to_csr(to_host_coo(E));
      for (const std::string mode : {"N", "T", "C", "H"}) {
        test::expect_spmv_matches_reference<Value, ExecSpace>(edited, e_reference, mode, alpha, beta, false);
        test::expect_spmv_matches_reference<Value, ExecSpace>(before, a_reference, mode, alpha, beta, false);
      }
    }
  }
}

// The default algorithm's products of A (made from coo) in N and T, with and without beta, against the
// host reference: what the leaf-bin tests check after their bins.
void expect_default_products_match(const HiSparseMatrix<double, Device>& A, const HostCoo<double>& coo) {
  const auto reference = to_csr(coo);
  test::ApiProduct<ExecSpace, HiSparseMatrix<double, Device>> kernel{A, {}};
  for (const std::string mode : {"N", "T"}) {
    test::expect_spmv_matches_reference<double, ExecSpace>(kernel, reference, mode, -1.5, 0.5, false);
    test::expect_spmv_matches_reference<double, ExecSpace>(kernel, reference, mode, 1.0, 0.0, true);
  }
}

// The bins' edges (algorithms/spmv/hisparse_leaf_bins.hpp), one leaf each, d = 32: leaves of 1 and 8
// entries go to the thread bin, of 9 and 256 to the warp bin, of 257 and a full block (a dense leaf,
// whose work is its d * d slots) to the block bin; each bin keeps its leaves' entry counts; the
// product over the bins matches the reference.
TEST(HiSparseSpmvTest, LeafBinsRouteLeavesByWorkAtTheirEdges) {
  constexpr int log2_block = 5, d = 32;
  const index_type entries_of_block[] = {1, 8, 9, 256, 257, d * d};
  constexpr int blocks = 6;
  HostCoo<double> coo(d, blocks * d);
  for (index_type r = 0; r < d; ++r) {
    for (int k = 0; k < blocks; ++k) {
      for (index_type c = 0; c < d; ++c) {
        if (r * d + c < entries_of_block[k]) coo.push_back(r, k * d + c, 1.0 + static_cast<double>((r + c) % 7));
      }
    }
  }
  const auto A = to_hisparse<Device>(coo, log2_block);
  const auto leaves = Impl::hisparse_leaf_bins(ExecSpace(), A);
  EXPECT_EQ(leaves.leaves, blocks);
  std::set<hisparse::offset_type> tree_leaves;
  const auto tree_leaf_list = hisparse::collect_leaves(A);
  const auto leaf_refs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), tree_leaf_list.refs);
  for (index_type i = 0; i < tree_leaf_list.size; ++i) tree_leaves.insert(leaf_refs(i));
  const std::vector<std::vector<index_type>> expected_blocks = {{0, 1}, {2, 3}, {4, 5}};
  for (int bin = 0; bin < Impl::hisparse_leaf_bin_count; ++bin) {
    SCOPED_TRACE("bin " + std::to_string(bin));
    // Each leaf's (ref, col0, count) as the bin keeps it: the thread bin in its 16-byte records.
    std::vector<std::tuple<hisparse::offset_type, index_type, std::uint32_t>> kept;
    if (bin == 0) {
      const auto small = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), leaves.thread_bin.leaves);
      for (index_type i = 0; i < leaves.thread_bin.size; ++i) {
        EXPECT_EQ(small(i).block_row, 0u);
        kept.emplace_back(Impl::hisparse_ref_of(small(i)), index_type(small(i).block_col) * d,
                          small(i).type_and_count >> 4);
      }
    } else {
      const auto& warp_bin = leaves.warp_bins[bin - 1];
      const auto col0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), warp_bin.col0);
      const auto refs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), warp_bin.refs);
      const auto count = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), warp_bin.count);
      for (index_type i = 0; i < warp_bin.size; ++i) kept.emplace_back(refs(i), col0(i), count(i));
    }
    ASSERT_EQ(leaves.size(bin), 2);
    ASSERT_EQ(kept.size(), 2u);
    std::vector<index_type> got;
    for (const auto& [ref, col0, count] : kept) got.push_back(col0 / d);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, expected_blocks[bin]);
    for (const auto& [ref, col0, count] : kept) {
      EXPECT_EQ(hisparse::type_of(ref) == hisparse::leaf_dense, col0 / d == blocks - 1);
      EXPECT_EQ(index_type(count), entries_of_block[col0 / d]) << "the count the bin keeps for a leaf";
      EXPECT_EQ(tree_leaves.count(ref), 1u) << "the bin's ref names one of the tree's leaves";
    }
  }
  expect_default_products_match(A, coo);
}

// The thread bin's 16-byte records (Impl::HiSparseSmallLeaf) hold a node offset under 64 GiB and block
// indices under 2^32; a leaf beyond them goes to the warp bin with its whole ref and origin. Here d = 2
// and 2^34 rows: the leaf at the last row has block row 2^33 - 1 and leaves the thread bin, the leaf at
// the origin stays. (Vectors of 2^34 entries do not fit, so no product: the warp bin's products are
// checked by every other test.)
TEST(HiSparseSpmvTest, LeafBinsSendLeavesBeyondSmallRecordsToTheWarpBin) {
  const index_type rows = index_type(1) << 34;
  HostCoo<double> coo(rows, 4);
  coo.push_back(0, 1, 2.0);
  coo.push_back(rows - 1, 3, 5.0);
  const auto A = to_hisparse<Device>(coo, 1);
  const auto leaves = Impl::hisparse_leaf_bins(ExecSpace(), A);
  ASSERT_EQ(leaves.leaves, 2);
  ASSERT_EQ(leaves.size(0), 1);
  ASSERT_EQ(leaves.size(1), 1);
  EXPECT_EQ(leaves.size(2), 0);
  const auto small = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), leaves.thread_bin.leaves);
  EXPECT_EQ(small(0).block_row, 0u);
  EXPECT_EQ(small(0).block_col, 0u);
  EXPECT_EQ(small(0).type_and_count >> 4, 1u);
  const auto row0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), leaves.warp_bins[0].row0);
  const auto col0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), leaves.warp_bins[0].col0);
  const auto count = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), leaves.warp_bins[0].count);
  EXPECT_EQ(row0(0), rows - 2);
  EXPECT_EQ(col0(0), 2);
  EXPECT_EQ(count(0), 1u);
  // The pool offset's limit: nodes are 16-byte aligned, so 2^32 units of 16 bytes.
  const hisparse::offset_type last_fitting = (hisparse::offset_type(1) << 36) - hisparse::node_alignment;
  EXPECT_TRUE(Impl::hisparse_small_leaf_fits(hisparse::make_ref(last_fitting, hisparse::leaf_coo1), 0, 0, 7));
  EXPECT_FALSE(Impl::hisparse_small_leaf_fits(hisparse::make_ref(last_fitting + 16, hisparse::leaf_coo1), 0, 0, 7));
  const hisparse::offset_type ref = hisparse::make_ref(last_fitting, hisparse::leaf_coo4);
  const Impl::HiSparseSmallLeaf leaf = Impl::hisparse_small_leaf(ref, index_type(3) << 7, index_type(5) << 7, 8, 7);
  EXPECT_EQ(Impl::hisparse_ref_of(leaf), ref);
  EXPECT_EQ(leaf.block_row, 3u);
  EXPECT_EQ(leaf.block_col, 5u);
  EXPECT_EQ(leaf.type_and_count >> 4, 8u);
}

// Which warp- and block-bin leaves have their targets in long runs (at least 4 entries per run on
// average), d = 32, one leaf each: a full row (long runs of rows: the untransposed product sums them),
// a full column (of columns: the transposed one does), a shifted diagonal and a tridiagonal block
// (neither: an atomic per entry), two full columns (columns that repeat out of runs: the transposed
// product reads the leaf in column order where the warps take it, on CUDA), and ten full columns, 320
// entries in the block bin (rows in long runs, columns repeating). Where the bins keep column orders,
// the marked leaves' orders list each column's entries in row order. The products in both modes, which
// take every way on CUDA, match the reference.
TEST(HiSparseSpmvTest, LeafBinsMarkLongRunsOfRowsAndColumns) {
  constexpr int log2_block = 5, d = 32;
  HostCoo<double> coo(2 * d, 6 * d);
  const auto value = [](index_type r, index_type c) { return 1.0 + static_cast<double>((3 * r + c) % 5); };
  for (index_type r = 0; r < d; ++r) {  // row by row, as the leaves store them
    if (r == 7) {
      for (index_type c = 0; c < d; ++c) coo.push_back(r, c, value(r, c));  // block 0: row 7
    }
    coo.push_back(r, d + 5, value(r, d + 5));                           // block 1: column 5
    if (r + 1 < d) coo.push_back(r, 2 * d + r + 1, 1.5);                // block 2: shifted diagonal
    for (index_type c = r > 0 ? r - 1 : 0; c <= r + 1 && c < d; ++c) {  // block 3: tridiagonal
      coo.push_back(r, 3 * d + c, value(r, c));
    }
    coo.push_back(r, 4 * d + 3, value(r, 3));  // block 4: columns 3 and 17
    coo.push_back(r, 4 * d + 17, value(r, 17));
    for (index_type c = 0; c < 10; ++c) coo.push_back(r, 5 * d + 3 * c, value(r, c));  // block 5: ten columns
  }
  // The second block row repeats blocks 4 and 5, so that each bin keeps the orders of two leaves.
  for (index_type r = d; r < 2 * d; ++r) {
    coo.push_back(r, 4 * d + 3, value(r, 3));
    coo.push_back(r, 4 * d + 17, value(r, 17));
    for (index_type c = 0; c < 10; ++c) coo.push_back(r, 5 * d + 3 * c, value(r, c));
  }
  const auto A = to_hisparse<Device>(coo, log2_block);
  const auto leaves = Impl::hisparse_leaf_bins(ExecSpace(), A);
  ASSERT_EQ(leaves.size(1), 6) << "blocks 0-4 of the first block row and block 4 of the second hold 31 to 94 "
                                  "entries: the warp bin";
  ASSERT_EQ(leaves.size(2), 2) << "both blocks 5 hold 320: the block bin";
  const std::uint8_t expected[] = {Impl::hisparse_rows_in_long_runs,
                                   Impl::hisparse_columns_in_long_runs,
                                   0,
                                   0,
                                   Impl::hisparse_columns_repeat,
                                   Impl::hisparse_rows_in_long_runs | Impl::hisparse_columns_repeat};
  constexpr bool kept = Impl::HiSparseLeafInWarps<ExecSpace>::reads_column_order;
  for (const auto& bin : leaves.warp_bins) {
    const auto row0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bin.row0);
    const auto col0 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bin.col0);
    const auto long_runs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bin.long_runs);
    const auto start = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bin.column_order_start);
    const auto order = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bin.column_order);
    EXPECT_EQ(start.extent(0), kept ? std::size_t(bin.size) : 0u);
    for (index_type i = 0; i < bin.size; ++i) {
      const index_type block = col0(i) / d;
      SCOPED_TRACE("the leaf of block column " + std::to_string(block) + ", row " + std::to_string(row0(i) / d));
      EXPECT_EQ(int(long_runs(i)), int(expected[block]));
      if (!kept) continue;
      if (!(long_runs(i) & Impl::hisparse_columns_repeat)) {
        EXPECT_EQ(start(i), -1);
        continue;
      }
      // Entries are stored row by row with the block's columns in order: entry r * n + j is (r, j-th column).
      const index_type n = block == 4 ? 2 : 10;
      ASSERT_GE(start(i), 0);
      for (index_type j = 0; j < n; ++j) {
        for (index_type r = 0; r < d; ++r) {
          EXPECT_EQ(index_type(order(start(i) + j * d + r)), r * n + j) << "column " << j << ", row " << r;
        }
      }
    }
  }
  expect_default_products_match(A, coo);
}

// Leaves whose columns repeat, with columns of 20 and 30 entries (d = 32): in column order a column's
// entries straddle the warps' lines of 32, so on CUDA a transposed product carries a column's sum from
// one line to the next, in one warp (the warp-bin leaf, 240 entries) and in a team whose warps each take
// a range of lines (the block-bin leaf, 360 entries). Both products match the reference.
TEST(HiSparseSpmvTest, LeafBinsCarryColumnSumsAcrossLines) {
  constexpr int log2_block = 5, d = 32;
  constexpr index_type rows_of_block[] = {20, 30};
  HostCoo<double> coo(d, 2 * d);
  for (index_type r = 0; r < d; ++r) {
    for (int b = 0; b < 2; ++b) {
      if (r >= rows_of_block[b]) continue;
      for (index_type j = 0; j < 12; ++j) {
        const index_type c = (5 * j + 3 * b) % d;
        coo.push_back(r, b * d + c, 0.5 + static_cast<double>((7 * r + 3 * c) % 11) * 0.25);
      }
    }
  }
  coo.sort_and_combine();  // columns in order within each row, as the leaves store them
  const auto A = to_hisparse<Device>(coo, log2_block);
  const auto leaves = Impl::hisparse_leaf_bins(ExecSpace(), A);
  ASSERT_EQ(leaves.size(1), 1) << "240 entries: the warp bin";
  ASSERT_EQ(leaves.size(2), 1) << "360 entries: the block bin";
  for (const auto& bin : leaves.warp_bins) {
    const auto long_runs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bin.long_runs);
    EXPECT_NE(long_runs(0) & Impl::hisparse_columns_repeat, 0) << "twelve columns of 20 or 30 entries, out of runs";
  }
  expect_default_products_match(A, coo);
}

// The leaf bins' products with the launches of large products, whatever the matrix's size (limits below
// the matrix's bins): the thread bin apart from the warp bins, and in a transposed product where the bins
// keep column orders, the warp bins in one launch with the column-order path, or their leaves read as
// stored apart from the marked ones.
struct LeafBinsWithLaunchLimits {
  const HiSparseMatrix<double, Device>& A;
  Impl::HiSparseLeafBins<Device> bins;
  Impl::HiSparseLeafBinLaunchLimits limits;
  template <class X, class Y>
  void apply(const ExecSpace& space, const char mode[], double alpha, const X& x, double beta, const Y& y) {
    if constexpr (X::rank == 1) {
      Impl::scale_output(space, beta, y);
      Impl::hisparse_leaf_bin_products(space, A.ref(), bins, std::string(mode) == "T", false, alpha, x, y, limits);
    } else {
      FAIL() << "rank-1 vectors only";
    }
  }
};

// Three block rows of seven leaves, d = 32, the marked ones (columns repeating out of runs) among the
// others in both bins: two full columns (warp bin, marked), one full column (warp bin), ten full columns
// (block bin, marked), a dense block (block bin), three entries (thread bin), a shifted diagonal (warp
// bin), two full columns again. Where the bins keep column orders, each bin holds its marked leaves last,
// from column_ordered_first; elsewhere none is apart. The products of one launch for all bins and of the
// large products' launches (LeafBinsWithLaunchLimits) match the reference in N and T.
TEST(HiSparseSpmvTest, LeafBinsKeepMarkedLeavesLastForALaunchOfTheirOwn) {
  constexpr int log2_block = 5, d = 32;
  constexpr index_type block_rows = 3;
  HostCoo<double> coo(block_rows * d, 7 * d);
  const auto value = [](index_type r, index_type c) { return 0.5 + static_cast<double>((5 * r + 3 * c) % 7); };
  for (index_type r = 0; r < block_rows * d; ++r) {  // row by row, as the leaves store them
    const index_type l = r % d;
    const auto add = [&](index_type block, index_type c) { coo.push_back(r, block * d + c, value(r, block * d + c)); };
    add(0, 3), add(0, 17);
    add(1, 5);
    for (index_type c = 0; c < 10; ++c) add(2, 3 * c);
    for (index_type c = 0; c < d; ++c) add(3, c);
    if (l < 3) add(4, 2 * l);
    if (l + 1 < d) add(5, l + 1);
    add(6, 4), add(6, 30);
  }
  const auto A = to_hisparse<Device>(coo, log2_block);
  const auto leaves = Impl::hisparse_leaf_bins(ExecSpace(), A);
  ASSERT_EQ(leaves.size(0), block_rows);
  ASSERT_EQ(leaves.size(1), 4 * block_rows);
  ASSERT_EQ(leaves.size(2), 2 * block_rows);
  constexpr bool kept = Impl::HiSparseLeafInWarps<ExecSpace>::reads_column_order;
  const index_type marked_of_bin[] = {2 * block_rows, block_rows};
  for (int k = 0; k < 2; ++k) {
    SCOPED_TRACE(k == 0 ? "the warp bin" : "the block bin");
    const auto& bin = leaves.warp_bins[k];
    ASSERT_EQ(bin.column_ordered_first, kept ? bin.size - marked_of_bin[k] : bin.size);
    const auto long_runs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bin.long_runs);
    index_type marked_leaves = 0;
    for (index_type i = 0; i < bin.size; ++i) {
      const bool marked = (long_runs(i) & Impl::hisparse_columns_repeat) != 0;
      marked_leaves += marked;
      if (kept) {
        EXPECT_EQ(marked, i >= bin.column_ordered_first) << "leaf " << i;
      }
    }
    EXPECT_EQ(marked_leaves, marked_of_bin[k]);
  }
  expect_default_products_match(A, coo);
  const auto reference = to_csr(coo);
  // The thread bin apart, then the warp bins in one launch; then apart from each other too.
  for (const Impl::HiSparseLeafBinLaunchLimits limits :
       {Impl::HiSparseLeafBinLaunchLimits{1 << 20, 1}, Impl::HiSparseLeafBinLaunchLimits{1, 1}}) {
    SCOPED_TRACE("warp bins' own launch from " + std::to_string(limits.warp_bins_own_launch_teams) + " teams");
    LeafBinsWithLaunchLimits kernel{A, leaves, limits};
    for (const std::string mode : {"N", "T"}) {
      test::expect_spmv_matches_reference<double, ExecSpace>(kernel, reference, mode, -1.5, 0.5, false);
      test::expect_spmv_matches_reference<double, ExecSpace>(kernel, reference, mode, 1.0, 0.0, true);
    }
  }
}

TEST(HiSparseSpmvTest, HandCheckedTwoByThree) {
  // A = [1 0 2; 0 3 0], x = (1, 2, 3): A x = (7, 6); A^T (1, 1) = (1, 3, 2).
  HostCoo<double> coo(2, 3);
  coo.push_back(0, 0, 1.0);
  coo.push_back(0, 2, 2.0);
  coo.push_back(1, 1, 3.0);
  const auto A = to_hisparse<Device>(coo);
  test::ApiProduct<ExecSpace, HiSparseMatrix<double, Device>> kernel{A, {}};
  Kokkos::View<double*, Device> x("x", 3), y("y", 2), u("u", 2), v("v", 3);
  auto xh = Kokkos::create_mirror_view(x);
  xh(0) = 1;
  xh(1) = 2;
  xh(2) = 3;
  Kokkos::deep_copy(x, xh);
  Kokkos::deep_copy(u, 1.0);
  spmv(ExecSpace(), "N", 1.0, A, x, 0.0, y);
  spmv(ExecSpace(), "T", 1.0, A, u, 0.0, v);
  auto yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  auto vh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  EXPECT_EQ(yh(0), 7.0);
  EXPECT_EQ(yh(1), 6.0);
  EXPECT_EQ(vh(0), 1.0);
  EXPECT_EQ(vh(1), 3.0);
  EXPECT_EQ(vh(2), 2.0);
  EXPECT_THROW(kernel.apply(ExecSpace(), "N", 1.0, u, 0.0, y), Error);  // x must have 3 entries
}

}  // namespace
}  // namespace strata
