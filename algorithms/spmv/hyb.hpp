#pragma once
// strata::spmv's kernels on HybMatrix (its checks: interface/hyb.hpp): the ELL part row by row (column-major slots, so
// neighbouring threads read neighbouring words, beta applied there), then the
// COO overflow added by the load-balanced COO kernel (coo_product.hpp): equal
// nonzero chunks per warp and one atomic per row segment of a chunk, so a long
// row's overflow does not serialise on one address (an atomic per entry did:
// 5.95 ms on the hubs generator, whose 40 rows of 200000 entries overflow).
// T and H scatter both parts into y with atomics; rank-2 x/y are multiplied
// column by column.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/algorithms/spmv/coo_product.hpp>
#include <strata/algorithms/spmv/definitions.hpp>
#include <strata/algorithms/spmv/interface/hyb.hpp>
#include <strata/algorithms/spmv/vectors.hpp>
#include <strata/core/atomic_add.hpp>
#include <strata/formats/hyb/hyb_matrix.hpp>

#include <string>

namespace strata::Impl {

// T and H, ELL part: row r of A scatters into y at its columns.
template <class ExecSpace, class Value, class Device, class XView, class YView>
struct HybEllScatterTransposed {
  HybView<Value, Device> v;
  XView x;
  YView y;
  Value alpha;
  bool conjugate;

  KOKKOS_INLINE_FUNCTION void operator()(const int r) const {
    for (int j = 0; j < v.ell_fill(r); ++j) {
      const std::size_t at = static_cast<std::size_t>(j) * v.num_rows + r;
      atomic_add<ExecSpace>(&y(v.ell_cols(at)), alpha * conjugate_if(v.ell_values(at), conjugate) * x(r));
    }
  }
};

// N and C, ELL part: one thread per row writes y(r), beta applied here.
template <class Value, class Device, class XView, class YView>
struct HybEllProduct {
  HybView<Value, Device> v;
  XView x;
  YView y;
  Value alpha, beta;
  bool conjugate;

  KOKKOS_INLINE_FUNCTION void operator()(const int r) const {
    Value sum = Value(0);
    for (int j = 0; j < v.ell_fill(r); ++j) {
      const std::size_t at = static_cast<std::size_t>(j) * v.num_rows + r;
      sum += conjugate_if(v.ell_values(at), conjugate) * x(v.ell_cols(at));
    }
    y(r) = beta == Value(0) ? alpha * sum : alpha * sum + beta * y(r);
  }
};

template <class ExecSpace, class Value, class Device>
struct SpmvState<ExecSpace, HybMatrix<Value, Device>> {
  // The overflow's chunks (none before the first product with an overflow), redone when
  // insertions have changed its length.
  CooProduct<ExecSpace, Value, Device> overflow;
};

template <class ExecSpace, class Value, class Device>
struct SpmvKernels<ExecSpace, HybMatrix<Value, Device>> {
  using format = SpmvFormat<ExecSpace, HybMatrix<Value, Device>>;
  using matrix_type = typename format::matrix_type;
  using value_type = typename format::value_type;
  using State = SpmvState<ExecSpace, HybMatrix<Value, Device>>;

  static void analyze(const ExecSpace&, const SpmvSettings&, const matrix_type&, State&) {}

  template <class XView, class YView>
  static void apply(const ExecSpace& space, const SpmvSettings& s, State& state, SpmvMode mode, Value alpha,
                    const matrix_type& A, const XView& x, Value beta, const YView& y) {
    if constexpr (XView::rank == 2) {
      for_each_column(x, y, [&](const auto& xj, const auto& yj) { apply(space, s, state, mode, alpha, A, xj, beta, yj); });
    } else {
      const auto v = A.view();
      const bool conjugate = is_conjugated(mode);
      if (is_transposed(mode)) {
        scale_output(space, beta, y);
        if (alpha == Value(0)) return;
        Kokkos::parallel_for(
            "strata::hyb::spmv_ell_transposed", Kokkos::RangePolicy<ExecSpace>(space, 0, v.num_rows),
            HybEllScatterTransposed<ExecSpace, Value, Device, XView, YView>{v, x, y, alpha, conjugate});
      } else {
        Kokkos::parallel_for("strata::hyb::spmv_ell", Kokkos::RangePolicy<ExecSpace>(space, 0, v.num_rows),
                             HybEllProduct<Value, Device, XView, YView>{v, x, y, alpha, beta, conjugate});
      }
      if (v.coo_nnz == 0 || alpha == Value(0)) return;  // no second launch when every row fits the ELL part
      // The overflow adds to what the ELL part wrote: beta is already applied.
      const auto overflow = overflow_view(v);
      if (state.overflow.chunking.nnz != overflow.nnz()) {
        state.overflow = CooProduct<ExecSpace, Value, Device>::make(space, overflow, 0, false);
      }
      state.overflow.run(space, mode, alpha, overflow, x, Value(1), y);
    }
  }

  static std::string describe(const SpmvSettings&, const State& state) {
    if (state.overflow.chunking.nnz == 0) return "ell_coo";
    return "ell_coo(overflow load_balanced, omega=" + std::to_string(state.overflow.omega) + ")";
  }

 private:
  // The COO overflow's used entries (insertions may leave spare room after them).
  static CooView<Value, Device> overflow_view(const HybView<Value, Device>& v) {
    const auto used = std::make_pair(std::size_t{0}, static_cast<std::size_t>(v.coo_nnz));
    return {Kokkos::subview(v.coo_rows, used), Kokkos::subview(v.coo_cols, used), Kokkos::subview(v.coo_values, used),
            v.num_rows, v.num_cols};
  }
};

}  // namespace strata::Impl
