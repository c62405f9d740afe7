// strata::add on HiSparse against the host reference (algorithms/reference/coo_add.hpp):
// every matrix of hisparse_cases() (block edges, rectangular, empty, dimension 2^33 and 2^40,
// a full row and column) plus a partner that overlaps half its entries, cancels some exactly
// and adds new ones, in the four transpose combinations and three conjugating ones, with
// scale factors; terms carrying their own transpose flag and scale; terms that share
// sub-trees after local edits, in the four transpose combinations with scale factors; terms of
// different block sizes; pairs at the edge between the one-thread merge and the team path, and at
// the edge between the team's search and its maps; cases that outgrow the pool's and the
// workspace's first allocation, and the workspace on its own; and the errors.
#include "algorithms/add/add_check.hpp"
#include "formats/hisparse/hisparse_test_edits.hpp"
#include "formats/hisparse/hisparse_test_matrices.hpp"

#include <strata/algorithms/add.hpp>
#include <strata/algorithms/add/hisparse_add_workspace.hpp>
#include <strata/algorithms/reference/coo_add.hpp>
#include <strata/core/addition_partner.hpp>
#include <strata/formats/hisparse/hisparse_convert.hpp>
#include <strata/formats/hisparse/hisparse_edit.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;

struct ModePair {
  const char* a;
  const char* b;
};
// The four transpose combinations, and conjugation on either side (C = N and H = T for real values).
constexpr ModePair mode_pairs[] = {{"N", "N"}, {"T", "N"}, {"N", "T"}, {"T", "T"}, {"C", "H"}, {"H", "N"}, {"N", "C"}};

template <class Value>
class HiSparseAdd : public ::testing::Test {};
TYPED_TEST_SUITE(HiSparseAdd, test::ValueTypes);

TYPED_TEST(HiSparseAdd, EveryTransposeCombinationMatchesHostReference) {
  using Value = TypeParam;
  const Value alpha = value_from<Value>(2.0, 0.0);
  const Value beta = value_from<Value>(-0.5, 0.0);  // cancels the partner's 4 m(i, j) exactly
  const Value alpha_c = value_from<Value>(1.25, -0.5);
  for (const auto& c : test::hisparse_cases()) {
    SCOPED_TRACE(c.name);
    const auto a = test::convert_coo<Value>(c.coo);
    const auto p = overlapping_partner(a);
    const auto A = to_hisparse<Device>(a, c.log2_block);
    for (const ModePair& m : mode_pairs) {
      SCOPED_TRACE(std::string("op(A) = ") + m.a + ", op(B) = " + m.b);
      const SpmvMode ma = parse_spmv_mode(m.a), mb = parse_spmv_mode(m.b);
      // B is stored so that op(B) has op(A)'s shape and overlaps it where the partner overlaps A.
      const auto b = is_transposed(ma) == is_transposed(mb) ? p : transposed(p);
      const auto B = to_hisparse<Device>(b, c.log2_block);
      const Value scale_a = is_conjugated(ma) || is_conjugated(mb) ? alpha_c : alpha;
      const auto C = add(ExecSpace(), m.a, scale_a, A, m.b, beta, B);
      EXPECT_EQ(C.log2_block(), A.log2_block());
      test::expect_add_matches_reference(C, reference::coo_add(ma, scale_a, a, mb, beta, b));
    }
  }
}

TYPED_TEST(HiSparseAdd, TermsKeepTheirOwnTransposeAndScale) {
  using Value = TypeParam;
  const Value s = value_from<Value>(-3.0, 1.0), alpha = value_from<Value>(0.5, 0.25), beta = value_from<Value>(2.0, 0.0);
  for (const auto& c : test::hisparse_cases()) {
    SCOPED_TRACE(c.name);
    const auto a = test::convert_coo<Value>(c.coo);
    const auto p = overlapping_partner(a);
    auto A = to_hisparse<Device>(a, c.log2_block);
    A.transpose();
    A.scale(s);  // A now stands for s a^T
    auto B = to_hisparse<Device>(transposed(p), c.log2_block);
    B.scale(beta);  // B stands for beta p^T
    for (const ModePair& m : mode_pairs) {
      SCOPED_TRACE(std::string("op(A) = ") + m.a + ", op(B) = " + m.b);
      const SpmvMode ma = parse_spmv_mode(m.a), mb = parse_spmv_mode(m.b);
      if (is_transposed(ma) != is_transposed(mb)) continue;  // shapes differ; the mixed pairs ran above
      const auto C = add(m.a, alpha, A, m.b, value_from<Value>(1.0, 0.0), B);
      EXPECT_FALSE(C.transposed());
      test::expect_add_matches_reference(C, reference::coo_add(ma, alpha, to_host_coo(A), mb, value_from<Value>(1.0, 0.0),
                                                     to_host_coo(B)));
    }
  }
}

TYPED_TEST(HiSparseAdd, TermsSharingSubtreesAfterEdits) {
  using Value = TypeParam;
  const Value one = value_from<Value>(1.0, 0.0), minus_one = value_from<Value>(-1.0, 0.0);
  const Value alpha = value_from<Value>(1.5, -0.5), beta = value_from<Value>(-0.75, 0.25);
  for (const auto& c : test::hisparse_cases()) {
    if (c.coo.nnz() < 2) continue;
    SCOPED_TRACE(c.name);
    const auto a = test::convert_coo<Value>(c.coo);
    const auto A = to_hisparse<Device>(a, c.log2_block);
    // E: A with a few entries removed and overwritten, sharing every untouched sub-tree with A.
    const auto E = hisparse_edit(A, test::scattered_edits(a));
    ASSERT_EQ(E.storage(), A.storage());
    const auto e = to_host_coo(E);
    // E - A: zeros everywhere but the edits, kept as stored zeros.
    test::expect_add_matches_reference(add("N", one, E, "N", minus_one, A),
                                       reference::coo_add(SpmvMode::normal, one, e, SpmvMode::normal, minus_one, a));
    // The four transpose combinations with both scale factors (the mixed two where the shapes agree).
    for (const ModePair& m : mode_pairs) {
      const SpmvMode ma = parse_spmv_mode(m.a), mb = parse_spmv_mode(m.b);
      if (is_conjugated(ma) || is_conjugated(mb)) continue;
      if (is_transposed(ma) != is_transposed(mb) && a.num_rows != a.num_cols) continue;
      SCOPED_TRACE(std::string("op(A) = ") + m.a + ", op(E) = " + m.b);
      test::expect_add_matches_reference(add(m.a, alpha, A, m.b, beta, E),
                                         reference::coo_add(ma, alpha, a, mb, beta, e));
    }
  }
}

// C takes A's block size; a B of another block size is re-blocked first (block sizes 2 to 256).
TYPED_TEST(HiSparseAdd, TermsOfDifferentBlockSizes) {
  using Value = TypeParam;
  const Value alpha = value_from<Value>(1.5, 0.5), beta = value_from<Value>(-0.5, 0.0);
  for (const auto& c : test::hisparse_cases()) {
    SCOPED_TRACE(c.name);
    const auto a = test::convert_coo<Value>(c.coo);
    const auto p = overlapping_partner(a);
    const int other_block = c.log2_block % hisparse::max_log2_block + 1;
    const auto A = to_hisparse<Device>(a, c.log2_block);
    for (const ModePair& m : {ModePair{"N", "N"}, ModePair{"T", "H"}, ModePair{"N", "T"}}) {
      SCOPED_TRACE(std::string("op(A) = ") + m.a + ", op(B) = " + m.b + ", B's block 2^" + std::to_string(other_block));
      const SpmvMode ma = parse_spmv_mode(m.a), mb = parse_spmv_mode(m.b);
      const auto b = is_transposed(ma) == is_transposed(mb) ? p : transposed(p);
      auto B = to_hisparse<Device>(b, other_block);
      const auto C = add(m.a, alpha, A, m.b, beta, B);
      EXPECT_EQ(C.log2_block(), c.log2_block);
      test::expect_add_matches_reference(C, reference::coo_add(ma, alpha, a, mb, beta, b));
    }
  }
}

// Pairs of leaves at the edge between the one-thread merge (both nodes sparse, at most
// short_pair_entries entries together) and the team path: 16 and 17 entries together, with and
// without overlap, one side absent, transposed terms (whose positions arrive out of order), and
// dense nodes from small blocks. The cases repeat until the leaf level has more pairs than
// small_level_pairs, where every pair of a level would take the team path.
// One leaf of A and one of the partner at the same place: their entries, and the positions they share.
struct LeafPair {
  int a, b, overlap;
};

// A + partner p in every mode pair against the host reference, B stored so that op(B) has
// op(A)'s shape (and overlaps it where p overlaps a).
template <class Value>
void expect_every_mode_matches_reference(const HostCoo<Value>& a, const HostCoo<Value>& p, int log2_block,
                                         const Value& alpha, const Value& beta) {
  const auto A = to_hisparse<Device>(a, log2_block);
  for (const ModePair& m : mode_pairs) {
    SCOPED_TRACE(std::string("op(A) = ") + m.a + ", op(B) = " + m.b);
    const SpmvMode ma = parse_spmv_mode(m.a), mb = parse_spmv_mode(m.b);
    const auto b = is_transposed(ma) == is_transposed(mb) ? p : transposed(p);
    const auto B = to_hisparse<Device>(b, log2_block);
    test::expect_add_matches_reference(add(ExecSpace(), m.a, alpha, A, m.b, beta, B),
                                       reference::coo_add(ma, alpha, a, mb, beta, b));
  }
}

TYPED_TEST(HiSparseAdd, ShortAndTeamPairsMeetAtTheirEdge) {
  using Value = TypeParam;
  static_assert(hisparse::Impl::short_pair_entries == 16, "the cases below sit at 16 entries");
  constexpr LeafPair leaves[] = {{8, 8, 0},  {8, 9, 0},  {8, 8, 4},  {9, 8, 8},  {16, 0, 0}, {17, 0, 0},
                                 {0, 16, 0}, {0, 17, 0}, {1, 1, 1},  {15, 1, 0}, {1, 16, 0}, {12, 5, 3},
                                 {16, 16, 16}, {2, 15, 1}, {0, 1, 0}, {64, 1, 1}};
  constexpr int cases = sizeof(leaves) / sizeof(leaves[0]);
  constexpr int count = (hisparse::Impl::small_level_pairs / cases + 1) * cases;
  for (const int log2_block : {3, 2}) {
    SCOPED_TRACE("d = " + std::to_string(1 << log2_block));
    const index_type d = index_type(1) << log2_block, positions = d * d;
    HostCoo<Value> a(d, count * d), p(d, count * d);
    for (int j = 0; j < count; ++j) {
      const LeafPair& leaf = leaves[j % cases];
      // Leaf j's positions in a fixed order of odd steps (a permutation of its d * d positions);
      // a count past d * d is cut there.
      const auto put = [&](HostCoo<Value>& m, index_type k, double v) {
        const index_type pos = (k * 37 + 11) % positions;
        m.push_back(pos / d, j * d + pos % d, value_from<Value>(v, 0.5 * v));
      };
      const index_type na = std::min<index_type>(leaf.a, positions);
      for (index_type k = 0; k < na; ++k) put(a, k, 1.0 + double(k));
      const index_type first_b = na - leaf.overlap;
      for (index_type k = first_b; k < first_b + leaf.b && k < positions; ++k) put(p, k, -2.0 - double(k));
    }
    expect_every_mode_matches_reference(a, p, log2_block, value_from<Value>(1.5, -0.5), value_from<Value>(0.75, 0.0));
  }
}

// Pairs of sparse leaves of d = 128 on either side of large_pair_entries (1024) entries together:
// up to it, without a transposed term, a team merges them by binary search (merged_by_search);
// past it, and with a transposed term, by d*d-bit maps. Both must write the same canonical C,
// with and without positions the two leaves share.
TYPED_TEST(HiSparseAdd, SearchedAndMappedPairsMeetAtTheirEdge) {
  using Value = TypeParam;
  static_assert(hisparse::Impl::large_pair_entries == 1024, "the cases below sit at 1024 entries");
  constexpr LeafPair leaves[] = {{1024, 0, 0},   {1025, 0, 0},   {0, 1024, 0},  {512, 512, 0},
                                 {512, 513, 0},  {1000, 24, 24}, {600, 600, 176}, {16, 1008, 8}};
  constexpr int cases = sizeof(leaves) / sizeof(leaves[0]);
  constexpr int log2_block = 7;
  const index_type d = index_type(1) << log2_block, positions = d * d;
  HostCoo<Value> a(d, cases * d), p(d, cases * d);
  for (int j = 0; j < cases; ++j) {
    const LeafPair& leaf = leaves[j];
    // Leaf j's positions in a fixed order of odd steps (a permutation of its d * d positions).
    const auto put = [&](HostCoo<Value>& m, index_type k, double v) {
      const index_type pos = (k * 37 + 11) % positions;
      m.push_back(pos / d, j * d + pos % d, value_from<Value>(v, 0.25 * v));
    };
    for (index_type k = 0; k < leaf.a; ++k) put(a, k, 1.0 + double(k));
    const index_type first_b = leaf.a - leaf.overlap;
    for (index_type k = first_b; k < first_b + leaf.b; ++k) put(p, k, -3.0 - double(k));
  }
  expect_every_mode_matches_reference(a, p, log2_block, value_from<Value>(1.25, 0.5), value_from<Value>(-0.5, 0.0));
}

// The two places the addition's allocations can fall short, each forced by its case: C's pool
// starts at the terms' bytes, which C exceeds when a one-entry leaf of B joins a 28-entry leaf
// of A (the union of 29 is padded to 32 COO4 entries) on every leaf; the workspace starts at
// about the terms' bytes in pairs, which 2048 one-entry leaf pairs exceed.
TYPED_TEST(HiSparseAdd, PoolAndWorkspaceGrowWhereTheTermsBytesDoNotHoldC) {
  using Value = TypeParam;
  const index_type d = 128;
  const auto check = [](const HostCoo<Value>& a, const HostCoo<Value>& p) {
    const Value alpha = value_from<Value>(1.5, 0.25), beta = value_from<Value>(-0.5, 0.0);
    const auto A = to_hisparse<Device>(a);
    for (const ModePair& m : mode_pairs) {
      SCOPED_TRACE(std::string("op(A) = ") + m.a + ", op(B) = " + m.b);
      const SpmvMode ma = parse_spmv_mode(m.a), mb = parse_spmv_mode(m.b);
      const auto b = is_transposed(ma) == is_transposed(mb) ? p : transposed(p);
      const auto B = to_hisparse<Device>(b);
      const auto C = add(ExecSpace(), m.a, alpha, A, m.b, beta, B);
      test::expect_add_matches_reference(C, reference::coo_add(ma, alpha, a, mb, beta, b));
    }
    return std::make_pair(A, to_hisparse<Device>(p));
  };
  // 1024 leaves of 28 + 1 entries, each in its own block: the terms' bytes exceed the room made
  // for C's root (a dense inner node, 128 KiB), so C's pool starts at them and must grow. In a
  // matrix of 32 x 32 blocks (two levels) the leaves go out before the host reads the root; in
  // one of 129 x 129 blocks (three levels) the second level does, and the host writes the leaves
  // (a small level) before it reads them.
  static_assert(Impl::unread_level_pairs >= 32 * 32 && hisparse::Impl::small_level_pairs >= 1024,
                "the two cases take the two paths");
  for (const index_type side : {32, 129}) {
    SCOPED_TRACE("the pool grows: 1024 leaves of 28 + 1 entries in " + std::to_string(side) + " x " +
                 std::to_string(side) + " blocks");
    HostCoo<Value> a(side * d, side * d), p(side * d, side * d);
    for (index_type leaf = 0; leaf < 1024; ++leaf) {
      const index_type r0 = (leaf / 32) * d, c0 = (leaf % 32) * d;
      for (index_type k = 0; k < 28; ++k) a.push_back(r0 + k, c0 + (5 * k) % d, value_from<Value>(1.0 + double(k), 0.5));
      p.push_back(r0 + 100, c0 + 3, value_from<Value>(-2.0, 1.0));
    }
    const auto [A, B] = check(a, p);
    EXPECT_EQ(A.levels(), side == 32 ? 2 : 3);
    const auto root_room =
        hisparse::pool_header_bytes + hisparse::dense_node_bytes(false, A.log2_block(), sizeof(Value));
    ASSERT_GT(A.pool_bytes() + B.pool_bytes(), root_room) << "C's pool must start at the terms' bytes";
    const auto C = add("N", 1.0, A, "N", 1.0, B);
    EXPECT_GT(C.pool_bytes(), A.pool_bytes() + B.pool_bytes()) << "the case must exceed the terms' bytes";
  }
  // 2048 leaf pairs in 64 x 32 blocks. Two levels: the leaves go out before the host reads the
  // root, small_level_pairs teams for the 2048 pairs. Three levels (130 block rows): the second
  // level, one pair, goes out before the host reads the root, and its 2048 children exceed the
  // lists it writes them to.
  for (const index_type block_rows : {64, 130}) {
    SCOPED_TRACE("the workspace grows: 2048 leaf pairs of one entry each, " + std::to_string(block_rows) +
                 " block rows");
    HostCoo<Value> a(block_rows * d, 32 * d), p(block_rows * d, 32 * d);
    for (index_type leaf = 0; leaf < 2048; ++leaf) {
      const index_type r = (leaf / 32) * d + leaf % d, c = (leaf % 32) * d + (7 * leaf) % d;
      a.push_back(r, c, value_from<Value>(1.0 + double(leaf % 13), 0.0));
      p.push_back(r, c, value_from<Value>(0.5, -1.0));
    }
    const auto [A, B] = check(a, p);
    EXPECT_EQ(A.levels(), block_rows == 64 ? 2 : 3);
    EXPECT_LT(hisparse::Impl::add_workspace_capacity(A.nnz(), B.nnz(), A.pool_bytes() + B.pool_bytes()), 2048)
        << "the case must exceed the workspace's first capacity";
  }
}

// The workspace on its own: the control words (C's root cell, every level's totals), the plan and
// the lists never overlap; next_room() is where next_level(n) puts any n up to the capacity (the
// first level's launch writes the second level's pairs there before the host knows n); growing
// leaves the lists in use and the control words intact (they keep their allocation). Nothing is
// cleared (the launches write every word), so the test fills each part itself.
TEST(HiSparseAddWorkspace, PartsNeverOverlapAndGrowKeepingTheListsInUse) {
  using hisparse::offset_type;
  using Words = Kokkos::View<offset_type*, Device>;
  const auto host = [](const Words& v) {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    return std::vector<offset_type>(h.data(), h.data() + h.extent(0));
  };
  const auto fill = [](const Words& v, offset_type from) {
    auto h = Kokkos::create_mirror_view(v);
    for (std::size_t i = 0; i < h.extent(0); ++i) h(i) = from + i;
    Kokkos::deep_copy(v, h);
  };
  const auto expect_filled = [&](const hisparse::Impl::AddPairs<Device>& p, offset_type from) {
    for (const Words& v : {p.a, p.b, p.slot}) {
      const auto values = host(v);
      for (std::size_t i = 0; i < values.size(); ++i) EXPECT_EQ(values[i], from + i);
      from += 1000;
    }
  };
  const auto fill_pairs = [&](const hisparse::Impl::AddPairs<Device>& p, offset_type from) {
    fill(p.a, from);
    fill(p.b, from + 1000);
    fill(p.slot, from + 2000);
  };
  const auto expect_size = [&](const hisparse::Impl::AddPairs<Device>& p, index_type n) {
    EXPECT_EQ(p.size, n);
    for (const Words& v : {p.a, p.b, p.slot}) EXPECT_EQ(v.extent(0), std::size_t(n));
  };

  using Workspace = hisparse::Impl::AddWorkspace<Device>;
  constexpr int levels = 3;
  Workspace ws(2, levels);
  EXPECT_EQ(ws.capacity(), 2u);
  ASSERT_EQ(ws.control().extent(0), Workspace::control_words(levels));
  EXPECT_EQ(ws.root_cell().data(), ws.control().data() + Workspace::root_word);
  for (int l = 0; l < levels; ++l) {
    EXPECT_EQ(ws.level_totals(l).data(),
              ws.control().data() + Workspace::level_total(l, hisparse::Impl::LevelTotal(0)));
  }
  fill(ws.control(), 800);
  const auto first = ws.first_level();
  expect_size(first, 1);
  fill_pairs(first, 10);
  const auto room = ws.next_room();
  expect_size(room, 2);
  fill_pairs(room, 100);
  expect_filled(first, 10);
  fill(ws.plan(1), 5000);  // the plan of the first level leaves its lists alone
  expect_filled(first, 10);
  expect_filled(room, 100);

  const auto second = ws.next_level(2);  // where the first level's launch wrote
  expect_size(second, 2);
  EXPECT_EQ(second.a.data(), room.a.data());
  EXPECT_EQ(second.b.data(), room.b.data());
  EXPECT_EQ(second.slot.data(), room.slot.data());
  expect_filled(second, 100);
  expect_filled(first, 10);
  fill_pairs(second, 100);
  fill(ws.plan(2), 5000);  // the plan of the level of `second` leaves its lists alone
  expect_filled(second, 100);

  const auto third = ws.next_level(5);  // past the capacity: a new allocation
  EXPECT_EQ(ws.capacity(), 5u);
  expect_size(third, 5);
  expect_filled(second, 100);
  fill_pairs(third, 200);
  fill(ws.plan(5), 6000);

  const auto fourth = ws.next_level(3);  // fits: the other region
  EXPECT_EQ(ws.capacity(), 5u);
  expect_size(fourth, 3);
  expect_filled(third, 200);
  fill_pairs(fourth, 300);
  const auto fifth = ws.next_level(5);
  expect_size(fifth, 5);
  expect_filled(fourth, 300);
  const auto control = host(ws.control());
  for (std::size_t i = 0; i < control.size(); ++i) EXPECT_EQ(control[i], 800 + i) << "control word " << i;
}

// A handle's workspace serves addition after addition: prepare() keeps the allocation while it has
// the room asked for (pairs and levels) and replaces it with one holding both otherwise; the
// control words' host copy follows the control words.
TEST(HiSparseAddWorkspace, PrepareKeepsTheAllocationWhileItHasRoom) {
  using Workspace = hisparse::Impl::AddWorkspace<Device>;
  Workspace ws;
  EXPECT_EQ(ws.capacity(), 0u);
  ws.prepare(100, 2);
  EXPECT_EQ(ws.capacity(), 100u);
  EXPECT_EQ(ws.control().extent(0), Workspace::control_words(2));
  EXPECT_EQ(ws.control_on_host().extent(0), ws.control().extent(0));
  const auto* control = ws.control().data();
  const auto* plan = ws.plan(100).data();
  ws.prepare(40, 1);  // fits: the same allocation
  EXPECT_EQ(ws.capacity(), 100u);
  EXPECT_EQ(ws.control().data(), control);
  EXPECT_EQ(ws.plan(100).data(), plan);
  ws.prepare(100, 3);  // more levels: a new allocation with the room of both
  EXPECT_EQ(ws.capacity(), 100u);
  EXPECT_EQ(ws.control().extent(0), Workspace::control_words(3));
  EXPECT_EQ(ws.control_on_host().extent(0), ws.control().extent(0));
  EXPECT_NE(ws.control().data(), control);
  control = ws.control().data();
  ws.prepare(300, 1);  // more pairs: a new allocation keeping the three levels' control words
  EXPECT_EQ(ws.capacity(), 300u);
  EXPECT_EQ(ws.control().extent(0), Workspace::control_words(3));
  EXPECT_NE(ws.control().data(), control);
  const auto first = ws.first_level();
  EXPECT_EQ(first.size, 1);
  EXPECT_EQ(ws.next_room().size, 300);
}

// A copy would share the scratch; a handle moves instead.
static_assert(!std::is_copy_constructible_v<AddHandle<ExecSpace, HiSparseMatrix<double, Device>>> &&
                  !std::is_copy_assignable_v<AddHandle<ExecSpace, HiSparseMatrix<double, Device>>> &&
                  std::is_nothrow_move_constructible_v<AddHandle<ExecSpace, HiSparseMatrix<double, Device>>>,
              "strata::AddHandle moves and does not copy");

// One handle through additions of every test matrix, first to last then last to first, so that
// its workspace is reused both larger and smaller than an addition needs, with more levels and
// fewer: every C is the one a one-shot addition gives, word for word, and matches the reference.
TYPED_TEST(HiSparseAdd, OneHandleServesAdditionsOfAnySizeAndDepth) {
  using Value = TypeParam;
  const Value alpha = value_from<Value>(0.75, 0.0), beta = value_from<Value>(-1.25, 0.0);
  const auto cases = test::hisparse_cases();
  AddHandle<ExecSpace, HiSparseMatrix<Value, Device>> handle;
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t k = 0; k < cases.size(); ++k) {
      const auto& c = cases[pass == 0 ? k : cases.size() - 1 - k];
      SCOPED_TRACE(c.name + (pass == 0 ? " (first pass)" : " (second pass)"));
      const auto a = test::convert_coo<Value>(c.coo);
      const auto b = transposed(overlapping_partner(a));
      const auto A = to_hisparse<Device>(a, c.log2_block);
      const auto B = to_hisparse<Device>(b, c.log2_block);
      const auto C = add(ExecSpace(), handle, "N", alpha, A, "T", beta, B);
      const auto one_shot = add(ExecSpace(), "N", alpha, A, "T", beta, B);
      EXPECT_EQ(C.root(), one_shot.root());
      EXPECT_EQ(C.nnz(), one_shot.nnz());
      EXPECT_TRUE(pool_words_on_host(C) == pool_words_on_host(one_shot));
      test::expect_add_matches_reference(C,
                                         reference::coo_add(SpmvMode::normal, alpha, a, SpmvMode::transpose, beta, b));
    }
  }
}

TEST(HiSparseAddResults, AreDeterministicAndLeaveTheTermsUnchanged) {
  const auto a = to_coo(gen::rmat({12, 8, 0.57, 0.19, 0.19, 3}));
  const auto p = overlapping_partner(a);
  const auto A = to_hisparse<Device>(a);
  const auto B = to_hisparse<Device>(transposed(p));
  const auto words_a = pool_words_on_host(A), words_b = pool_words_on_host(B);
  const auto C1 = add("N", 0.3, A, "T", 1.7, B);
  const auto C2 = add("N", 0.3, A, "T", 1.7, B);
  EXPECT_EQ(C1.root(), C2.root());
  EXPECT_TRUE(pool_words_on_host(C1) == pool_words_on_host(C2));
  EXPECT_TRUE(pool_words_on_host(A) == words_a);
  EXPECT_TRUE(pool_words_on_host(B) == words_b);
}

TEST(HiSparseAddErrors, NameTheShapesAndTheMode) {
  const auto A = to_hisparse<Device>(to_coo(gen::uniform_random(30, 50, 4, 1)));
  const auto B = to_hisparse<Device>(to_coo(gen::uniform_random(30, 50, 4, 2)));
  try {
    add("N", 1.0, A, "T", 1.0, B);
    FAIL() << "mismatched shapes were accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("30 x 50"), std::string::npos) << what;
    EXPECT_NE(what.find("50 x 30"), std::string::npos) << what;
  }
  try {
    add("N", 1.0, A, "X", 1.0, B);
    FAIL() << "mode X was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("mode of B"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(add("T", 1.0, A, "T", 1.0, B));
}

}  // namespace
}  // namespace strata
