#pragma once
// The products compiled once, in the library: for the default execution space
// (core/explicit_instances.hpp), every format on its memory space (the Kokkos
// Kernels CrsMatrix with int offsets and indices, as Strata builds it), the four
// value types, and x/y as vectors or as LayoutLeft or LayoutRight multi-vectors
// (execute.hpp). The library compiles one file per format and value type,
// generated from algorithms/spmv/eti/spmv_eti.cpp.in (cmake/StrataInstances.cmake);
// this header tells every other translation unit not to compile them again.
#include <strata/algorithms/spmv/any_matrix.hpp>
#include <strata/algorithms/spmv/execute.hpp>
#include <strata/core/explicit_instances.hpp>
#include <strata/core/kokkos_crs.hpp>

#include <Kokkos_Core.hpp>

namespace strata::Impl::eti {

template <class Value>
using x_vector = spmv_view_t<const Value, 1, Kokkos::LayoutLeft, device>;
template <class Value>
using y_vector = spmv_view_t<Value, 1, Kokkos::LayoutLeft, device>;
template <class Value, class Layout>
using x_multivector = spmv_view_t<const Value, 2, Layout, device>;
template <class Value, class Layout>
using y_multivector = spmv_view_t<Value, 2, Layout, device>;

}  // namespace strata::Impl::eti

// EXTERN is `extern` (a declaration, here) or empty (the definition, in the
// library). MATRIX is a format's template taking <Value, Device>.
#define STRATA_SPMV_ETI(EXTERN, MATRIX, VALUE)                                                                 \
  EXTERN template struct ::strata::Impl::SpmvExecute<                                                          \
      ::strata::Impl::eti::exec, MATRIX<VALUE, ::strata::Impl::eti::device>,                                   \
      ::strata::Impl::eti::x_vector<VALUE>, ::strata::Impl::eti::y_vector<VALUE>>;                             \
  EXTERN template struct ::strata::Impl::SpmvExecute<                                                          \
      ::strata::Impl::eti::exec, MATRIX<VALUE, ::strata::Impl::eti::device>,                                   \
      ::strata::Impl::eti::x_multivector<VALUE, Kokkos::LayoutLeft>,                                          \
      ::strata::Impl::eti::y_multivector<VALUE, Kokkos::LayoutLeft>>;                                         \
  EXTERN template struct ::strata::Impl::SpmvExecute<                                                          \
      ::strata::Impl::eti::exec, MATRIX<VALUE, ::strata::Impl::eti::device>,                                   \
      ::strata::Impl::eti::x_multivector<VALUE, Kokkos::LayoutRight>,                                         \
      ::strata::Impl::eti::y_multivector<VALUE, Kokkos::LayoutRight>>;

// The declarations, for the value types of core/explicit_instances.hpp.
#define STRATA_SPMV_ETI_EXTERN(MATRIX, VALUE) STRATA_SPMV_ETI(extern, MATRIX, VALUE)
STRATA_FOR_EACH_VALUE(STRATA_SPMV_ETI_EXTERN, ::strata::DeviceCsr)
STRATA_FOR_EACH_VALUE(STRATA_SPMV_ETI_EXTERN, ::strata::CooMatrix)
STRATA_FOR_EACH_VALUE(STRATA_SPMV_ETI_EXTERN, ::strata::DcsrMatrix)
STRATA_FOR_EACH_VALUE(STRATA_SPMV_ETI_EXTERN, ::strata::HybMatrix)
STRATA_FOR_EACH_VALUE(STRATA_SPMV_ETI_EXTERN, ::strata::HiSparseMatrix)
STRATA_FOR_EACH_VALUE(STRATA_SPMV_ETI_EXTERN, ::strata::ColumnSplitCsr)
STRATA_FOR_EACH_VALUE(STRATA_SPMV_ETI_EXTERN, ::strata::AnyMatrix)
#undef STRATA_SPMV_ETI_EXTERN
