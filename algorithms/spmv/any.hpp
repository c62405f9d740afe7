#pragma once
// strata::spmv on AnyMatrix: the handle holds an inner handle for the format
// the matrix holds, made at analysis with the handle's options, the matrix's
// hint standing in for format_default. Checks that depend on the held format
// (modes, options) happen there, before any work.
#include <strata/algorithms/spmv/any_matrix.hpp>
#include <strata/algorithms/spmv/column_split.hpp>
#include <strata/algorithms/spmv/coo.hpp>
#include <strata/algorithms/spmv/csr.hpp>
#include <strata/algorithms/spmv/dcsr.hpp>
#include <strata/algorithms/spmv/execute.hpp>
#include <strata/algorithms/spmv/hisparse.hpp>
#include <strata/algorithms/spmv/hyb.hpp>
#include <strata/algorithms/spmv/spmv_eti.hpp>

#include <string>
#include <variant>

namespace strata::Impl {

template <class ExecSpace, class Value, class Device>
struct SpmvFormat<ExecSpace, AnyMatrix<Value, Device>> {
  static constexpr bool available = true;
  static constexpr const char* name = "AnyMatrix";
  using matrix_type = AnyMatrix<Value, Device>;
  using value_type = Value;

  // Checked against the held format at analysis.
  static bool supports(SpmvAlgorithm) { return true; }
  static std::string algorithm_list() { return "those of the held format"; }
  static void check_settings(const SpmvSettings&) {}
  static void check_mode(const SpmvSettings&, SpmvMode) {}
  static MatrixIdentity identity(const matrix_type& A) {
    return std::visit([](const auto& m) { return SpmvFormat<ExecSpace, std::decay_t<decltype(m)>>::identity(m); },
                      A.variant());
  }
  static index_type rows(const matrix_type& A) { return A.num_rows(); }
  static index_type cols(const matrix_type& A) { return A.num_cols(); }

  struct State {
    std::variant<std::monostate, SpmvHandle<ExecSpace, typename matrix_type::csr_type>,
                 SpmvHandle<ExecSpace, typename matrix_type::coo_type>,
                 SpmvHandle<ExecSpace, typename matrix_type::dcsr_type>,
                 SpmvHandle<ExecSpace, typename matrix_type::hyb_type>,
                 SpmvHandle<ExecSpace, typename matrix_type::hisparse_type>,
                 SpmvHandle<ExecSpace, typename matrix_type::column_split_type>>
        inner;
    std::string reason;
  };

  static void analyze(const ExecSpace& space, const SpmvSettings& s, const matrix_type& A, State& state) {
    SpmvSettings inner = s;
    if (inner.algorithm == SpmvAlgorithm::format_default) inner.algorithm = A.hint().algorithm;
    std::visit(
        [&](const auto& m) {
          SpmvHandle<ExecSpace, std::decay_t<decltype(m)>> handle(inner);
          handle.prepare(space, m);
          state.inner = std::move(handle);
        },
        A.variant());
    state.reason = A.hint().reason;
  }

  template <class XView, class YView>
  static void apply(const ExecSpace& space, const SpmvSettings&, State& state, SpmvMode mode, Value alpha,
                    const matrix_type& A, const XView& x, Value beta, const YView& y) {
    std::visit(
        [&](const auto& m) {
          using M = std::decay_t<decltype(m)>;
          auto& handle = std::get<SpmvHandle<ExecSpace, M>>(state.inner);
          handle.require_mode(mode);
          // x and y are canonical already: the held format's product is compiled once too.
          SpmvExecute<ExecSpace, M, XView, YView>::run(space, handle, mode, alpha, m, x, beta, y);
        },
        A.variant());
  }

  static std::string describe(const SpmvSettings&, const State& state) {
    std::string d = std::visit(
        [](const auto& h) -> std::string {
          if constexpr (std::is_same_v<std::decay_t<decltype(h)>, std::monostate>) {
            return "(not analysed yet)";
          } else {
            return h.describe();
          }
        },
        state.inner);
    if (!state.reason.empty()) d += " [" + state.reason + "]";
    return "holding " + d;
  }
};

}  // namespace strata::Impl
