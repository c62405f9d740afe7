#pragma once
// cuSPARSE's SpMV on Strata's CSR and COO arrays, reached through strata::spmv
// with SpmvAlgorithm::cusparse: the vendor baseline runs behind the same API
// as Strata's kernels. Only Kokkos::Cuda in builds with STRATA_ENABLE_CUSPARSE
// has it (cuda/cusparse_cuda.hpp); the trait tells generic code whether it may
// instantiate it; elsewhere a format's state holds cusparse_state_t = NoCusparse, an empty
// member, since no cuSPARSE descriptor can exist there.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/algorithms/spmv/cusparse_available.hpp>
#include <strata/algorithms/spmv/mode.hpp>
#include <strata/algorithms/spmv/vectors.hpp>
#include <strata_config.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <memory>
#include <utility>
#include <type_traits>

namespace strata::Impl {

// Descriptor, buffers and scratch of one cuSPARSE matrix; rank-1 contiguous,
// 16-byte aligned vectors (apply_cusparse adapts every other vector to that).
template <class Value, class ExecSpace>
class CusparseSpmv;

struct NoCusparse {};

template <class Value, class ExecSpace, bool = cusparse_spmv_available<ExecSpace>::value>
struct cusparse_state {
  using type = NoCusparse;
};
template <class Value, class ExecSpace>
struct cusparse_state<Value, ExecSpace, true> {
  using type = std::unique_ptr<CusparseSpmv<Value, ExecSpace>>;
};
template <class Value, class ExecSpace>
using cusparse_state_t = typename cusparse_state<Value, ExecSpace>::type;

// cuSPARSE computes N, T and H. For real values C is N and H is T, and
// cusparse_operation_mode maps them so (cuSPARSE refuses H on real types); for
// complex values apply_cusparse computes C as conj(A conj(x)).
inline SpmvMode cusparse_operation_mode(SpmvMode mode, bool complex_values) {
  if (complex_values) return mode;
  return is_transposed(mode) ? SpmvMode::transpose : SpmvMode::normal;
}

// The passes around cuSPARSE's A conj(x) that give conj(A) x = conj(A conj(x))
// for complex values (cuSPARSE has no conj(A) x): conj(x) before, y after.
template <class XConjView, class XView>
struct CusparseConjugateX {
  XConjView x_conj;
  XView x;

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const { x_conj(i) = Kokkos::conj(x(i)); }
};

template <class Value, class TView, class YView>
struct CusparseConjugateResult {
  YView y;
  Value alpha;
  TView t;
  bool beta_zero;
  Value beta;

  KOKKOS_INLINE_FUNCTION void operator()(const std::size_t i) const {
    y(i) = alpha * Kokkos::conj(t(i)) + (beta_zero ? Value(0) : beta * y(i));
  }
};

// Runs cs on any rank-1 or rank-2 x and y: columns one by one, through
// contiguous scratch where a vector is strided or not 16-byte aligned.
template <class Value, class ExecSpace, class XView, class YView>
void apply_cusparse(CusparseSpmv<Value, ExecSpace>& cs, const ExecSpace& space, SpmvMode mode, Value alpha,
                    const XView& x, Value beta, const YView& y) {
  if constexpr (XView::rank == 2) {
    for_each_column(x, y, [&](const auto& xj, const auto& yj) { apply_cusparse(cs, space, mode, alpha, xj, beta, yj); });
  } else {
    const auto usable = [](const auto& v) {
      return v.span_is_contiguous() && reinterpret_cast<std::uintptr_t>(v.data()) % 16 == 0;
    };
    if constexpr (value_traits<Value>::is_complex) {
      if (mode == SpmvMode::conjugate) {
        // cuSPARSE has no conj(A) x; conj(A) x = conj(A conj(x)), with conj(x)
        // and A conj(x) in the scratch vectors, then y := alpha conj(t) + beta y.
        auto x_conj = Kokkos::subview(cs.scratch().x(x.extent(0)), std::make_pair(std::size_t(0), x.extent(0)));
        auto t = Kokkos::subview(cs.scratch().y(y.extent(0)), std::make_pair(std::size_t(0), y.extent(0)));
        Kokkos::parallel_for("strata::cusparse::conjugate_x", Kokkos::RangePolicy<ExecSpace>(space, 0, x.extent(0)),
                             CusparseConjugateX<decltype(x_conj), XView>{x_conj, x});
        cs.apply(space, SpmvMode::normal, Value(1), x_conj.data(), Value(0), t.data());
        const bool beta_zero = beta == Value(0);
        Kokkos::parallel_for("strata::cusparse::conjugate_y", Kokkos::RangePolicy<ExecSpace>(space, 0, y.extent(0)),
                             CusparseConjugateResult<Value, decltype(t), YView>{y, alpha, t, beta_zero, beta});
        return;
      }
    }
    mode = cusparse_operation_mode(mode, value_traits<Value>::is_complex);
    cs.scratch().run_contiguous(space, x, beta, y, usable, [&](const Value* x_data, Value* y_data) {
      cs.apply(space, mode, alpha, x_data, beta, y_data);
    });
  }
}

}  // namespace strata::Impl

#if defined(KOKKOS_ENABLE_CUDA) && STRATA_ENABLE_CUSPARSE
#include <strata/algorithms/spmv/cuda/cusparse_cuda.hpp>
#endif
