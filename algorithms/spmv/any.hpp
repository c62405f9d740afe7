#pragma once
// strata::spmv's kernels on AnyMatrix (its checks: interface/any.hpp): the
// handle holds an inner handle for the format the matrix holds, made at
// analysis with the handle's options, the matrix's hint standing in for
// format_default. Checks that depend on the held format (modes, options)
// happen there, before any work. The inner handles and products are the
// library's compiled ones (spmv_eti.hpp): this header includes no format's
// kernels, so that an edit to one does not rebuild AnyMatrix's instances.
#include <strata/algorithms/spmv/definitions.hpp>
#include <strata/algorithms/spmv/interface/any.hpp>
#include <strata/algorithms/spmv/spmv_eti.hpp>

#include <string>
#include <variant>

namespace strata::Impl {

template <class ExecSpace, class Value, class Device>
struct SpmvState<ExecSpace, AnyMatrix<Value, Device>> {
  using matrix_type = AnyMatrix<Value, Device>;
  std::variant<
      std::monostate, SpmvHandle<ExecSpace, typename matrix_type::csr_type>,
      SpmvHandle<ExecSpace, typename matrix_type::coo_type>, SpmvHandle<ExecSpace, typename matrix_type::dcsr_type>,
      SpmvHandle<ExecSpace, typename matrix_type::hyb_type>, SpmvHandle<ExecSpace, typename matrix_type::hisparse_type>,
      SpmvHandle<ExecSpace, typename matrix_type::column_split_type>>
      inner;
  std::string reason;
};

template <class ExecSpace, class Value, class Device>
struct SpmvKernels<ExecSpace, AnyMatrix<Value, Device>> {
  using matrix_type = AnyMatrix<Value, Device>;
  using State = SpmvState<ExecSpace, AnyMatrix<Value, Device>>;

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
