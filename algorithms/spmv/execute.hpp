#pragma once
// Impl::SpmvExecute: what strata::spmv does after its checks — bind the handle,
// run the analysis on first use, call the format's kernel.
//
// x and y reach it as canonical views (SpmvCanonicalView): unmanaged, x const,
// the execution space's device, rank-1 views as LayoutLeft. The combinations
// users and Strata itself call (the default execution space, every format on
// its memory space, the four value types, vectors and LayoutLeft/LayoutRight
// multi-vectors) are then a short list, compiled once in the library
// (algorithms/spmv/eti/) and declared extern in spmv_eti.hpp; a translation
// unit calling strata::spmv does not compile or even parse the kernels again.
// Any other combination (another execution space, LayoutStride views, a
// CrsMatrix with other index types) is compiled where it is called, from the
// definitions (algorithms/spmv/definitions.hpp, brought by
// <strata/algorithms/spmv_definitions.hpp>). As Kokkos Kernels does with its
// *_eti_spec_avail lists, without its macros per type: run() is declared here
// and defined with the kernels.
#include <strata/algorithms/spmv/handle.hpp>
#include <strata/algorithms/spmv/mode.hpp>

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace strata::Impl {

// The one spelling of a canonical vector or multi-vector type; the ETI list
// names its types through it so that they match what spmv passes exactly.
template <class Value, int Rank, class Layout, class Device>
using spmv_view_t = Kokkos::View<std::conditional_t<Rank == 1, Value*, Value**>, Layout, Device,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// The type strata::spmv passes View on as: the same data, unmanaged (no
// reference counting per call), const for x, on ExecSpace's device. Rank-1
// LayoutLeft and LayoutRight views are the same contiguous array and become
// LayoutLeft; rank-2 views keep their layout (the kernels index them
// differently). LayoutStride and other layouts pass through unchanged.
template <class View, class ExecSpace, bool is_input>
struct SpmvCanonicalView {
  using layout = typename View::array_layout;
  static constexpr bool canonical =
      std::is_same_v<layout, Kokkos::LayoutLeft> || std::is_same_v<layout, Kokkos::LayoutRight>;
  using value = std::conditional_t<is_input, const typename View::non_const_value_type,
                                   typename View::non_const_value_type>;
  using type = std::conditional_t<
      canonical,
      spmv_view_t<value, View::rank, std::conditional_t<View::rank == 1, Kokkos::LayoutLeft, layout>,
                  Kokkos::Device<ExecSpace, typename View::memory_space>>,
      View>;
};

template <class ExecSpace, class Matrix, class XView, class YView>
struct SpmvExecute {
  using value_type = typename YView::non_const_value_type;
  // The handle's analysis (computed on first use), then the format's kernel.
  // Extents and mode were checked by strata::spmv.
  static void run(const ExecSpace& space, SpmvHandle<ExecSpace, Matrix>& handle, SpmvMode mode, value_type alpha,
                  const Matrix& A, const XView& x, value_type beta, const YView& y);
};

}  // namespace strata::Impl
