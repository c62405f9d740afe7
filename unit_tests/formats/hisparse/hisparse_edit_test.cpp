// Local edits against a host reference: the edited matrix holds exactly the
// expected entries, the original is unchanged, every sub-tree without edits is
// shared (same offset), and the pool grows only by the rewritten nodes.
#include "formats/hisparse/hisparse_test_matrices.hpp"

#include <strata/formats/hisparse/hisparse_convert.hpp>
#include <strata/formats/hisparse/hisparse_edit.hpp>

#include <gtest/gtest.h>

#include <map>

namespace strata {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;
using Coord = std::pair<index_type, index_type>;
using hisparse::offset_type;

template <class Value>
std::map<Coord, Value> as_map(const HostCoo<Value>& m) {
  std::map<Coord, Value> out;
  for (index_type k = 0; k < m.nnz(); ++k) out[{m.rows[k], m.cols[k]}] = m.values[k];
  return out;
}

// Walks old and new trees together: a child block holding no edited coordinate
// must be the very same node (same reference); one holding edits must be new.
void expect_untouched_shared(const unsigned char* pool, offset_type old_ref, offset_type new_ref, int level, int levels,
                             int b, index_type r0, index_type c0, const std::vector<Coord>& edited,
                             offset_type old_used, index_type& shared, index_type& rewritten) {
  using namespace hisparse;
  if (level == levels - 1) return;
  const auto fresh = decode_node<offset_type>(pool, new_ref, b, 8);
  std::map<local_coord, offset_type> before;
  if (old_ref) {
    const auto n = decode_node<offset_type>(pool, old_ref, b, 8);
    for (std::size_t k = 0; k < n.coords.size(); ++k) before[n.coords[k]] = n.payloads[k];
  }
  const int shift = b * (levels - 1 - level);
  for (std::size_t k = 0; k < fresh.coords.size(); ++k) {
    const index_type br = r0 + (index_type(fresh.coords[k] >> 8) << shift);
    const index_type bc = c0 + (index_type(fresh.coords[k] & 0xff) << shift);
    const index_type extent = index_type(1) << shift;
    bool touched = false;
    for (const auto& [r, c] : edited) touched |= r >= br && r < br + extent && c >= bc && c < bc + extent;
    const auto it = before.find(fresh.coords[k]);
    if (touched) {
      EXPECT_GE(offset_of(fresh.payloads[k]), old_used);
      ++rewritten;
      expect_untouched_shared(pool, it == before.end() ? 0 : it->second, fresh.payloads[k], level + 1, levels, b, br, bc,
                              edited, old_used, shared, rewritten);
    } else {
      ASSERT_NE(it, before.end());
      EXPECT_EQ(fresh.payloads[k], it->second) << "untouched child at block (" << br << ", " << bc << ") was copied";
      ++shared;
    }
  }
}

template <class Value>
class HiSparseEdit : public ::testing::Test {};
TYPED_TEST_SUITE(HiSparseEdit, test::ValueTypes);

TYPED_TEST(HiSparseEdit, BatchMatchesHostReferenceAndSharesUntouchedSubtrees) {
  using Value = TypeParam;
  for (const auto& c : test::hisparse_cases()) {
    if (c.coo.num_rows == 0 || c.coo.num_cols == 0) continue;
    SCOPED_TRACE(c.name);
    const auto coo = test::convert_coo<Value>(c.coo);
    const auto A = to_hisparse<Device>(coo, c.log2_block);
    const offset_type used_before = A.pool_bytes();

    HiSparseEdits<Value> edits;
    edits.insert = HostCoo<Value>(coo.num_rows, coo.num_cols);
    auto expected = as_map(coo);
    std::vector<Coord> edited;
    // Local edits: among the first fifth of the (row-major) entries remove every 7th and overwrite
    // every 11th; insert new entries at the far corner, the origin and the middle of the first column.
    const index_type local = std::max<index_type>(coo.nnz() / 5, std::min<index_type>(coo.nnz(), 12));
    for (index_type k = 0; k < local; k += 7) {
      edits.remove.push_back({coo.rows[k], coo.cols[k]});
      expected.erase({coo.rows[k], coo.cols[k]});
      edited.push_back({coo.rows[k], coo.cols[k]});
    }
    for (index_type k = 3; k < local; k += 11) {
      if (k % 7 == 0) continue;
      const Value v = value_from<Value>(100.0 + k, -1.0);
      edits.insert.push_back(coo.rows[k], coo.cols[k], v);
      expected[{coo.rows[k], coo.cols[k]}] = v;
      edited.push_back({coo.rows[k], coo.cols[k]});
    }
    for (const Coord& p : {Coord{coo.num_rows - 1, coo.num_cols - 1}, Coord{0, 0}, Coord{coo.num_rows / 2, 0}}) {
      if (expected.count(p) || std::find(edited.begin(), edited.end(), p) != edited.end()) continue;
      edits.insert.push_back(p.first, p.second, value_from<Value>(-3.0, 2.0));
      expected[p] = value_from<Value>(-3.0, 2.0);
      edited.push_back(p);
    }
    HiSparseEditReport report;
    const auto B = hisparse_edit(A, edits, &report);

    EXPECT_EQ(B.nnz(), static_cast<index_type>(expected.size()));
    EXPECT_EQ(as_map(to_host_coo(B)), expected);
    EXPECT_EQ(as_map(to_host_coo(A)), as_map(coo));  // the original is unchanged
    EXPECT_EQ(B.storage(), A.storage());
    EXPECT_EQ(A.pool_bytes(), used_before + report.bytes_appended);  // grown by the rewritten nodes only

    const auto words = pool_words_on_host(B);
    index_type shared = 0, rewritten = 0;
    if (B.root()) {
      EXPECT_GE(hisparse::offset_of(B.root()), used_before);
      expect_untouched_shared(reinterpret_cast<const unsigned char*>(words.data()), A.root(), B.root(), 0, A.levels(),
                              c.log2_block, 0, 0, edited, used_before, shared, rewritten);
    }
    EXPECT_EQ(rewritten + (B.root() ? 1 : 0), report.nodes_written);
    if (coo.nnz() > 2000) {
      EXPECT_GT(shared, 0);  // larger matrices keep untouched sub-trees
    }
  }
}

TEST(HiSparseEditPolicies, RemovingMissingEntryThrowsAndAppendsNothing) {
  HostCoo<double> coo(300, 300);
  coo.push_back(5, 5, 1.0);
  coo.push_back(200, 17, 2.0);
  const auto A = to_hisparse<Device>(coo);
  const offset_type before = A.pool_bytes();
  HiSparseEdits<double> edits;
  edits.remove.push_back({5, 6});
  EXPECT_THROW(hisparse_edit(A, edits), Error);
  EXPECT_EQ(A.pool_bytes(), before);
  edits.remove = {{5, 5}, {5, 5}};
  EXPECT_THROW(hisparse_edit(A, edits), Error);
  edits.remove = {{300, 0}};
  EXPECT_THROW(hisparse_edit(A, edits), Error);
  EXPECT_EQ(A.pool_bytes(), before);
}

TEST(HiSparseEditPolicies, EditsHonourTransposeAndScaleAndEmptyingGivesNullRoot) {
  HostCoo<double> coo(3, 500);
  coo.push_back(2, 400, 1.0);
  auto A = to_hisparse<Device>(coo);
  A.transpose();
  A.scale(2.0);
  HiSparseEdits<double> edits;
  edits.insert = HostCoo<double>(500, 3);
  edits.insert.push_back(499, 0, 8.0);  // logical (499, 0) is stored (0, 499) holding 4
  edits.remove.push_back({400, 2});
  HiSparseEditReport report;
  const auto B = hisparse_edit(A, edits, &report);
  EXPECT_EQ(report.inserted, 1);
  EXPECT_EQ(report.removed, 1);
  const auto out = to_host_coo(B);
  ASSERT_EQ(out.nnz(), 1);
  EXPECT_EQ(out.rows[0], 499);
  EXPECT_EQ(out.cols[0], 0);
  EXPECT_EQ(out.values[0], 8.0);
  HiSparseEdits<double> clear;
  clear.remove.push_back({499, 0});
  const auto C = hisparse_edit(B, clear);
  EXPECT_EQ(C.root(), 0u);
  EXPECT_EQ(C.nnz(), 0);
  EXPECT_EQ(to_host_coo(C).nnz(), 0);
  EXPECT_EQ(to_host_coo(B).nnz(), 1);  // earlier versions stay valid after the pool grew
}

}  // namespace
}  // namespace strata
