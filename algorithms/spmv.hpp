#pragma once
// strata::spmv — y := alpha * op(A) * x + beta * y for every Strata format.
//
//   strata::SpmvHandle<ExecSpace, Matrix> handle;          // owns A's analysis and the options
//   strata::spmv(space, handle, "N", alpha, A, x, beta, y);
//   strata::spmv(space, "T", alpha, A, x, beta, y);         // one-shot: a handle made and dropped
//
// Matrix: KokkosSparse::CrsMatrix, CooMatrix, DcsrMatrix, HybMatrix,
// HiSparseMatrix or AnyMatrix (a run-time choice among them, Format::automatic
// included). mode: "N", "T", "C" (conjugate), "H" (conjugate transpose), as
// Kokkos Kernels spells them. x and y: rank-1, or rank-2 with one column per
// vector (any layout). beta = 0 overwrites y, NaN included (BLAS semantics).
//
// As in KokkosSparse_spmv.hpp: compile-time checks of the argument types here,
// run-time checks of modes and extents against the format's interface
// (algorithms/spmv/interface/), then x and y as canonical views to
// Impl::SpmvExecute (algorithms/spmv/execute.hpp), which calls the format's
// Impl::SpmvKernels.
//
// This header holds no kernel. The library compiles the product for the
// default execution space, every format on its memory space, the four value
// types, and vectors or LayoutLeft/LayoutRight multi-vectors (spmv_eti.hpp):
// for those, including this header is enough, and an edit to a kernel does not
// recompile its callers. For any other combination (another execution space,
// LayoutStride views, a CrsMatrix with other index types) include
// <strata/algorithms/spmv_definitions.hpp> instead, before any other Strata
// header; without it the call stops at compile time, naming that header.
#include <strata/algorithms/spmv/execute.hpp>
#include <strata/algorithms/spmv/handle.hpp>
#include <strata/algorithms/spmv/interface/any.hpp>
#include <strata/algorithms/spmv/spmv_eti.hpp>
#include <strata/algorithms/spmv/spmv_extents.hpp>

#include <type_traits>

namespace strata {

template <class ExecSpace, class Matrix, class AlphaType, class XView, class BetaType, class YView>
void spmv(const ExecSpace& space, SpmvHandle<ExecSpace, Matrix>& handle, const char mode[], const AlphaType& alpha,
          const Matrix& A, const XView& x, const BetaType& beta, const YView& y) {
  using format = Impl::SpmvFormat<ExecSpace, Matrix>;
  using value_type = typename format::value_type;
  static_assert(Kokkos::is_view<XView>::value && Kokkos::is_view<YView>::value,
                "strata::spmv: x and y must be Kokkos::Views");
  static_assert(XView::rank == YView::rank && (XView::rank == 1 || XView::rank == 2),
                "strata::spmv: x and y must both be rank 1 (vectors) or both rank 2 (multi-vectors)");
  static_assert(std::is_same_v<typename XView::non_const_value_type, value_type> &&
                    std::is_same_v<typename YView::non_const_value_type, value_type>,
                "strata::spmv: x and y must hold the matrix's value type");
  static_assert(!std::is_const_v<typename YView::value_type>, "strata::spmv: y must be writable (non-const)");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename XView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecSpace, typename YView::memory_space>::accessible,
                "strata::spmv: x and y must live in a memory space the execution space can access");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename Matrix::device_type::memory_space>::accessible,
                "strata::spmv: A must live in a memory space the execution space can access");
  static_assert(std::is_convertible_v<AlphaType, value_type> && std::is_convertible_v<BetaType, value_type>,
                "strata::spmv: alpha and beta must convert to the matrix's value type");
  const SpmvMode m = parse_spmv_mode(mode);
  handle.require_mode(m);
  Impl::check_spmv_extents(format::name, m, format::rows(A), format::cols(A), x, y);
  using XC = typename Impl::SpmvCanonicalView<XView, ExecSpace, true>::type;
  using YC = typename Impl::SpmvCanonicalView<YView, ExecSpace, false>::type;
#ifndef STRATA_SPMV_DEFINITIONS
  static_assert(Impl::spmv_compiled_in_library<ExecSpace, Matrix, XC, YC>::value,
                "strata::spmv: the library does not compile the product for these types (it does for the default "
                "execution space, the formats on its memory space, float, double and their complex types, and "
                "vectors or LayoutLeft/LayoutRight multi-vectors); include <strata/algorithms/spmv_definitions.hpp> "
                "before any other Strata header to compile it here");
#endif
  const XC xc = x;
  const YC yc = y;
  Impl::SpmvExecute<ExecSpace, Matrix, XC, YC>::run(space, handle, m, static_cast<value_type>(alpha), A, xc,
                                                    static_cast<value_type>(beta), yc);
}

// One-shot product: the analysis is done and dropped with a handle of its own.
template <class ExecSpace, class Matrix, class AlphaType, class XView, class BetaType, class YView,
          std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value, int> = 0>
void spmv(const ExecSpace& space, const char mode[], const AlphaType& alpha, const Matrix& A, const XView& x,
          const BetaType& beta, const YView& y) {
  SpmvHandle<ExecSpace, Matrix> handle;
  strata::spmv(space, handle, mode, alpha, A, x, beta, y);
}

// One-shot product on the matrix's default execution space instance.
template <class Matrix, class AlphaType, class XView, class BetaType, class YView>
void spmv(const char mode[], const AlphaType& alpha, const Matrix& A, const XView& x, const BetaType& beta,
          const YView& y) {
  strata::spmv(typename Matrix::execution_space(), mode, alpha, A, x, beta, y);
}

}  // namespace strata
