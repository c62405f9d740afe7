#pragma once
// strata::spmv on HybMatrix: the ELL part row by row (column-major slots, so
// neighbouring threads read neighbouring words), then the COO overflow with
// atomics. T and H scatter both parts into y with atomics; rank-2 x/y are
// multiplied column by column.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/algorithms/spmv/handle.hpp>
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

// T and H, COO overflow.
template <class ExecSpace, class Value, class Device, class XView, class YView>
struct HybCooScatterTransposed {
  HybView<Value, Device> v;
  XView x;
  YView y;
  Value alpha;
  bool conjugate;

  KOKKOS_INLINE_FUNCTION void operator()(const int k) const {
    atomic_add<ExecSpace>(&y(v.coo_cols(k)), alpha * conjugate_if(v.coo_values(k), conjugate) * x(v.coo_rows(k)));
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

// N and C, COO overflow: added with atomics on top of the ELL result.
template <class ExecSpace, class Value, class Device, class XView, class YView>
struct HybCooProduct {
  HybView<Value, Device> v;
  XView x;
  YView y;
  Value alpha;
  bool conjugate;

  KOKKOS_INLINE_FUNCTION void operator()(const int k) const {
    atomic_add<ExecSpace>(&y(v.coo_rows(k)), alpha * conjugate_if(v.coo_values(k), conjugate) * x(v.coo_cols(k)));
  }
};

template <class ExecSpace, class Value, class Device>
struct SpmvFormat<ExecSpace, HybMatrix<Value, Device>> {
  static constexpr bool available = true;
  static constexpr const char* name = "HYB";
  using matrix_type = HybMatrix<Value, Device>;
  using value_type = Value;

  static bool supports(SpmvAlgorithm a) { return a == SpmvAlgorithm::format_default || a == SpmvAlgorithm::ell_coo; }
  static std::string algorithm_list() { return "ell_coo (default)"; }
  static void check_settings(const SpmvSettings& s) {
    refuse_coo_options(name, s);
    check_row_lanes(name, s, false);
  }
  static void check_mode(const SpmvSettings&, SpmvMode) {}
  static MatrixIdentity identity(const matrix_type& A) { return {A.identity_key(), 0, A.num_rows(), A.num_cols()}; }
  static index_type rows(const matrix_type& A) { return A.num_rows(); }
  static index_type cols(const matrix_type& A) { return A.num_cols(); }

  struct State {};
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
        Kokkos::parallel_for(
            "strata::hyb::spmv_coo_transposed", Kokkos::RangePolicy<ExecSpace>(space, 0, v.coo_nnz),
            HybCooScatterTransposed<ExecSpace, Value, Device, XView, YView>{v, x, y, alpha, conjugate});
        return;
      }
      Kokkos::parallel_for("strata::hyb::spmv_ell", Kokkos::RangePolicy<ExecSpace>(space, 0, v.num_rows),
                           HybEllProduct<Value, Device, XView, YView>{v, x, y, alpha, beta, conjugate});
      if (v.coo_nnz == 0) return;  // no second launch when every row fits the ELL part
      Kokkos::parallel_for("strata::hyb::spmv_coo", Kokkos::RangePolicy<ExecSpace>(space, 0, v.coo_nnz),
                           HybCooProduct<ExecSpace, Value, Device, XView, YView>{v, x, y, alpha, conjugate});
    }
  }

  static std::string describe(const SpmvSettings&, const State&) { return "ell_coo"; }
};

}  // namespace strata::Impl
