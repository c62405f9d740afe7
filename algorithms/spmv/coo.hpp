#pragma once
// strata::spmv's kernels on CooMatrix (its checks: interface/coo.hpp): the load-balanced kernel (Flegar & Anzt, IA^3
// 2017) or cuSPARSE's COO SpMV on the same arrays.
// Modes N and C use the chunked kernel: equal chunks of whole 32-entry lines,
// one warp per chunk on CUDA, one flush per row segment. T and H scatter each
// product into y[col] with an atomic: a row-sorted COO gives no segments for
// the transposed product. Rank-2 x/y have native kernels that read the matrix
// once for all columns (one thread per chunk and column; coo_product.hpp); the
// deterministic mode and cuSPARSE multiply them column by column.
#include <strata/algorithms/spmv/coo_autotune.hpp>
#include <strata/algorithms/spmv/cusparse.hpp>
#include <strata/algorithms/spmv/definitions.hpp>
#include <strata/algorithms/spmv/interface/coo.hpp>

#include <string>

namespace strata::Impl {

template <class ExecSpace, class Value, class Device>
struct SpmvState<ExecSpace, CooMatrix<Value, Device>> {
  CooProduct<ExecSpace, Value, Device> product;
  std::vector<CooOmegaMeasurement> tuning;  // what autotune measured, for describe()
  cusparse_state_t<Value, ExecSpace> cusparse;
};

template <class ExecSpace, class Value, class Device>
struct SpmvKernels<ExecSpace, CooMatrix<Value, Device>> {
  using format = SpmvFormat<ExecSpace, CooMatrix<Value, Device>>;
  using matrix_type = CooMatrix<Value, Device>;
  using State = SpmvState<ExecSpace, CooMatrix<Value, Device>>;
  static constexpr bool has_cusparse = format::has_cusparse;
  static bool is_load_balanced(const SpmvSettings& s) { return format::is_load_balanced(s); }

  static void analyze(const ExecSpace& space, const SpmvSettings& s, const matrix_type& A, State& state) {
    if (!is_load_balanced(s)) {
      if constexpr (has_cusparse) {
        state.cusparse = CusparseSpmv<Value, ExecSpace>::coo(A.num_rows(), A.num_cols(), A.nnz(), A.rows().data(),
                                                             A.cols().data(), A.values().data());
      }
      return;
    }
    int omega = s.omega;
    if (s.autotune && A.nnz() > 0) {
      state.tuning = measure_coo_omegas(space, A.view(), s.deterministic);
      omega = fastest_omega(state.tuning);
    }
    state.product = CooProduct<ExecSpace, Value, Device>::make(space, A.view(), omega, s.deterministic);
  }

  template <class XView, class YView>
  static void apply(const ExecSpace& space, const SpmvSettings& s, State& state, SpmvMode mode, Value alpha,
                    const matrix_type& A, const XView& x, Value beta, const YView& y) {
    if constexpr (XView::rank == 2) {
      if (is_load_balanced(s) && !s.deterministic) {
        state.product.run(space, mode, alpha, A.view(), x, beta, y);
      } else {
        for_each_column(x, y, [&](const auto& xj, const auto& yj) { apply(space, s, state, mode, alpha, A, xj, beta, yj); });
      }
    } else {
      if constexpr (has_cusparse) {
        if (!is_load_balanced(s)) {
          if (A.nnz() == 0 || x.extent(0) == 0 || alpha == Value(0)) {
            scale_output(space, beta, y);
          } else {
            apply_cusparse(*state.cusparse, space, mode, alpha, x, beta, y);
          }
          return;
        }
      }
      state.product.run(space, mode, alpha, A.view(), x, beta, y);
    }
  }

  static std::string describe(const SpmvSettings& s, const State& state) {
    if (!is_load_balanced(s)) return "cusparse";
    std::string d = "load_balanced(omega=" + std::to_string(state.product.omega);
    if (s.autotune) d += ", autotuned over " + std::to_string(state.tuning.size()) + " values";
    if (s.deterministic) d += ", deterministic";
    return d + ")";
  }
};

}  // namespace strata::Impl
