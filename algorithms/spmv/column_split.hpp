#pragma once
// strata::spmv's kernels on ColumnSplitCsr (formats/column_split/column_split_csr.hpp; its checks:
// interface/column_split.hpp):
// one CSR product per column panel, each on its own part of x, so that the x
// a product gathers from at any time fits the L2. N and C: panel 0 writes y with
// beta, the others add to it (beta = 1). T and H: panel p's A_p^T writes its own
// rows of y, [column_begin(p), column_begin(p + 1)), with beta. The panels run
// CSR's kernels (csr.hpp), Strata's nonzero-balanced one by default.
#include <strata/algorithms/spmv/csr.hpp>
#include <strata/algorithms/spmv/definitions.hpp>
#include <strata/algorithms/spmv/interface/column_split.hpp>
#include <strata/formats/column_split/column_split_csr.hpp>

#include <string>
#include <utility>
#include <vector>

namespace strata::Impl {

template <class ExecSpace, class Value, class Device>
struct SpmvState<ExecSpace, ColumnSplitCsr<Value, Device>> {
  std::vector<SpmvState<ExecSpace, DeviceCsr<Value, Device>>> panels;
};

template <class ExecSpace, class Value, class Device>
struct SpmvKernels<ExecSpace, ColumnSplitCsr<Value, Device>> {
  using format = SpmvFormat<ExecSpace, ColumnSplitCsr<Value, Device>>;
  using matrix_type = typename format::matrix_type;
  using value_type = typename format::value_type;
  using State = SpmvState<ExecSpace, ColumnSplitCsr<Value, Device>>;
  using panel_kernels = SpmvKernels<ExecSpace, DeviceCsr<Value, Device>>;
  static SpmvSettings panel_settings(const SpmvSettings& s) { return format::panel_settings(s); }

  static void analyze(const ExecSpace& space, const SpmvSettings& s, const matrix_type& A, State& state) {
    const SpmvSettings ps = panel_settings(s);
    state.panels.clear();
    state.panels.resize(static_cast<std::size_t>(A.num_panels()));
    for (int p = 0; p < A.num_panels(); ++p) panel_kernels::analyze(space, ps, A.panel(p), state.panels[p]);
  }

  template <class XView, class YView>
  static void apply(const ExecSpace& space, const SpmvSettings& s, State& state, SpmvMode mode, Value alpha,
                    const matrix_type& A, const XView& x, Value beta, const YView& y) {
    const SpmvSettings ps = panel_settings(s);
    for (int p = 0; p < A.num_panels(); ++p) {
      const auto columns =
          std::make_pair(static_cast<std::size_t>(A.column_begin(p)), static_cast<std::size_t>(A.column_begin(p + 1)));
      auto& panel_state = state.panels[static_cast<std::size_t>(p)];
      if (is_transposed(mode)) {
        panel_kernels::apply(space, ps, panel_state, mode, alpha, A.panel(p), x, beta, rows_of(y, columns));
      } else {
        panel_kernels::apply(space, ps, panel_state, mode, alpha, A.panel(p), rows_of(x, columns),
                             p == 0 ? beta : Value(1), y);
      }
    }
  }

  static std::string describe(const SpmvSettings& s, const State& state) {
    std::string d = std::to_string(state.panels.size()) + (state.panels.size() == 1 ? " panel" : " panels");
    if (!state.panels.empty()) d += ", " + panel_kernels::describe(panel_settings(s), state.panels.front());
    return d;
  }

 private:
  template <class View>
  static auto rows_of(const View& v, const std::pair<std::size_t, std::size_t>& range) {
    if constexpr (View::rank == 1) {
      return Kokkos::subview(v, range);
    } else {
      return Kokkos::subview(v, range, Kokkos::ALL);
    }
  }
};

}  // namespace strata::Impl
