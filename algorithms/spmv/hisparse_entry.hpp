#pragma once
// What both HiSparse SpMV kernels (the leaf list, hisparse.hpp, and the scheduled walk,
// hisparse_scheduled.hpp) do with one stored entry v at (r, c): y(r) += alpha * op(v) * x(c), or
// with the coordinates swapped when the product is transposed. The target and the product are
// separate so that a thread can sum the entries it holds for one target before one atomic.
#include <strata/algorithms/spmv/vectors.hpp>
#include <strata/core/atomic_add.hpp>
#include <strata/core/index.hpp>
#include <strata/core/value_traits.hpp>

#include <Kokkos_Core.hpp>

namespace strata::Impl {

template <class ExecSpace, class Value, class XView, class YView>
struct HiSparseEntryProduct {
  Value alpha;     // times A's scale factor
  bool conjugate;  // conjugate A's values
  bool transpose;  // multiply with the stored coordinates swapped
  XView x;
  YView y;

  // The y entry that stored entry (r, c) adds to.
  KOKKOS_FORCEINLINE_FUNCTION index_type target(index_type r, index_type c) const { return transpose ? c : r; }
  // alpha * op(v) times the x entry that stored entry (r, c) multiplies.
  KOKKOS_FORCEINLINE_FUNCTION Value product(index_type r, index_type c, const Value& v) const {
    return alpha * conjugate_if(v, conjugate) * x(transpose ? r : c);
  }
  KOKKOS_FORCEINLINE_FUNCTION void add_to(index_type target_entry, const Value& sum) const {
    atomic_add<ExecSpace>(&y(target_entry), sum);
  }
  KOKKOS_FORCEINLINE_FUNCTION void add(index_type r, index_type c, const Value& v) const {
    add_to(target(r, c), product(r, c, v));
  }
};

}  // namespace strata::Impl
