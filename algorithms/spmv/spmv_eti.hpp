#pragma once
// The products compiled once, in the library: for the default execution space
// (core/explicit_instances.hpp), every format on its memory space (the Kokkos
// Kernels CrsMatrix with int offsets and indices, as Strata builds it), the four
// value types, and x/y as vectors or as LayoutLeft or LayoutRight multi-vectors
// (execute.hpp). The library compiles one file per format and value type,
// generated from algorithms/spmv/eti/spmv_eti.cpp.in (cmake/StrataInstances.cmake);
// this header tells every other translation unit not to compile them again
// (the products and the handles' analysis), and strata::spmv which calls it
// may make without parsing a kernel (spmv_compiled_in_library).
#include <strata/algorithms/spmv/any_matrix.hpp>
#include <strata/algorithms/spmv/execute.hpp>
#include <strata/algorithms/spmv/handle.hpp>
#include <strata/algorithms/spmv/interface/any.hpp>
#include <strata/core/explicit_instances.hpp>
#include <strata/core/kokkos_crs.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

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

namespace strata::Impl {

// The matrices of the library's instances: each format on eti::device, the value types of
// core/explicit_instances.hpp (specialised below).
template <class Matrix>
struct spmv_library_matrix : std::false_type {};

// Whether the library compiles strata::spmv for these types (XView and YView canonical, as
// strata::spmv passes them on): then a translation unit needs no kernel to call it.
template <class ExecSpace, class Matrix, class XView, class YView, class = void>
struct spmv_compiled_in_library : std::false_type {};
template <class Matrix, class XView, class YView>
struct spmv_compiled_in_library<eti::exec, Matrix, XView, YView, std::enable_if_t<spmv_library_matrix<Matrix>::value>>
    : std::bool_constant<
          (std::is_same_v<XView, eti::x_vector<typename Matrix::value_type>> &&
           std::is_same_v<YView, eti::y_vector<typename Matrix::value_type>>) ||
          (std::is_same_v<XView, eti::x_multivector<typename Matrix::value_type, Kokkos::LayoutLeft>> &&
           std::is_same_v<YView, eti::y_multivector<typename Matrix::value_type, Kokkos::LayoutLeft>>) ||
          (std::is_same_v<XView, eti::x_multivector<typename Matrix::value_type, Kokkos::LayoutRight>> &&
           std::is_same_v<YView, eti::y_multivector<typename Matrix::value_type, Kokkos::LayoutRight>>)> {};

}  // namespace strata::Impl

// EXTERN is `extern` (a declaration, here) or empty (the definition, in the
// library). MATRIX is a format's template taking <Value, Device>.
#define STRATA_SPMV_ETI(EXTERN, MATRIX, VALUE)                                                                       \
  EXTERN template class ::strata::SpmvHandle<::strata::Impl::eti::exec, MATRIX<VALUE, ::strata::Impl::eti::device>>; \
  EXTERN template struct ::strata::Impl::SpmvExecute<                                                                \
      ::strata::Impl::eti::exec, MATRIX<VALUE, ::strata::Impl::eti::device>, ::strata::Impl::eti::x_vector<VALUE>,   \
      ::strata::Impl::eti::y_vector<VALUE>>;                                                                         \
  EXTERN template struct ::strata::Impl::SpmvExecute<::strata::Impl::eti::exec,                                      \
                                                     MATRIX<VALUE, ::strata::Impl::eti::device>,                     \
                                                     ::strata::Impl::eti::x_multivector<VALUE, Kokkos::LayoutLeft>,  \
                                                     ::strata::Impl::eti::y_multivector<VALUE, Kokkos::LayoutLeft>>; \
  EXTERN template struct ::strata::Impl::SpmvExecute<::strata::Impl::eti::exec,                                      \
                                                     MATRIX<VALUE, ::strata::Impl::eti::device>,                     \
                                                     ::strata::Impl::eti::x_multivector<VALUE, Kokkos::LayoutRight>, \
                                                     ::strata::Impl::eti::y_multivector<VALUE, Kokkos::LayoutRight>>;

// MACRO(MATRIX, VALUE) for every format and value type the library compiles: the one list of
// the formats here (eti/sources.cmake names the files that compile them).
#define STRATA_SPMV_FOR_EACH_MATRIX(MACRO)               \
  STRATA_FOR_EACH_VALUE(MACRO, ::strata::DeviceCsr)      \
  STRATA_FOR_EACH_VALUE(MACRO, ::strata::CooMatrix)      \
  STRATA_FOR_EACH_VALUE(MACRO, ::strata::DcsrMatrix)     \
  STRATA_FOR_EACH_VALUE(MACRO, ::strata::HybMatrix)      \
  STRATA_FOR_EACH_VALUE(MACRO, ::strata::HiSparseMatrix) \
  STRATA_FOR_EACH_VALUE(MACRO, ::strata::ColumnSplitCsr) \
  STRATA_FOR_EACH_VALUE(MACRO, ::strata::AnyMatrix)

// The declarations.
#define STRATA_SPMV_ETI_EXTERN(MATRIX, VALUE) STRATA_SPMV_ETI(extern, MATRIX, VALUE)
STRATA_SPMV_FOR_EACH_MATRIX(STRATA_SPMV_ETI_EXTERN)
#undef STRATA_SPMV_ETI_EXTERN

namespace strata::Impl {
#define STRATA_SPMV_LIBRARY_MATRIX(MATRIX, VALUE) \
  template <>                                     \
  struct spmv_library_matrix<MATRIX<VALUE, eti::device>> : std::true_type {};
STRATA_SPMV_FOR_EACH_MATRIX(STRATA_SPMV_LIBRARY_MATRIX)
#undef STRATA_SPMV_LIBRARY_MATRIX
}  // namespace strata::Impl
