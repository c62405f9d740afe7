#pragma once
// Edits after which a matrix and its edited copy share most of their sub-trees: the tests of the
// operations on such pairs (SpMV, A + B) make them this way.
#include <strata/core/host_coo.hpp>
#include <strata/core/value_traits.hpp>
#include <strata/formats/hisparse/hisparse_edit.hpp>

namespace strata::test {

// Every 13th entry of a removed and every 13th from the 7th overwritten with 9 + i: a few leaves
// rewritten, every other sub-tree kept by reference.
template <class Value>
HiSparseEdits<Value> scattered_edits(const HostCoo<Value>& a) {
  HiSparseEdits<Value> edits;
  edits.insert = HostCoo<Value>(a.num_rows, a.num_cols);
  for (index_type k = 0; k < a.nnz(); k += 13) edits.remove.push_back({a.rows[k], a.cols[k]});
  for (index_type k = 6; k < a.nnz(); k += 13) {
    edits.insert.push_back(a.rows[k], a.cols[k], value_from<Value>(9.0, 1.0));
  }
  return edits;
}

}  // namespace strata::test
