#pragma once
// strata::spmv on ColumnSplitCsr (formats/column_split/column_split_csr.hpp):
// one CSR product per column panel, each on its own part of x, so that the x
// a product gathers from at any time fits the L2. N and C: panel 0 writes y with
// beta, the others add to it (beta = 1). T and H: panel p's A_p^T writes its own
// rows of y, [column_begin(p), column_begin(p + 1)), with beta. The panels run
// CSR's kernels (csr.hpp), Strata's nonzero-balanced one by default.
#include <strata/algorithms/spmv/csr.hpp>
#include <strata/algorithms/spmv/handle.hpp>
#include <strata/formats/column_split/column_split_csr.hpp>

#include <string>
#include <utility>
#include <vector>

namespace strata::Impl {

template <class ExecSpace, class Value, class Device>
struct SpmvFormat<ExecSpace, ColumnSplitCsr<Value, Device>> {
  static constexpr bool available = true;
  static constexpr const char* name = "column-split CSR";
  using matrix_type = ColumnSplitCsr<Value, Device>;
  using value_type = Value;
  using panel_format = SpmvFormat<ExecSpace, DeviceCsr<Value, Device>>;

  static bool supports(SpmvAlgorithm a) { return panel_format::supports(a); }
  static std::string algorithm_list() {
    return "the CSR panels' kernels: load_balanced (default), " + panel_format::algorithm_list();
  }
  static void check_settings(const SpmvSettings& s) { panel_format::check_settings(panel_settings(s)); }
  static void check_mode(const SpmvSettings& s, SpmvMode m) { panel_format::check_mode(panel_settings(s), m); }
  static MatrixIdentity identity(const matrix_type& A) { return {A.identity_key(), 0, A.num_rows(), A.num_cols()}; }
  static index_type rows(const matrix_type& A) { return A.num_rows(); }
  static index_type cols(const matrix_type& A) { return A.num_cols(); }

  struct State {
    std::vector<typename panel_format::State> panels;
  };

  static void analyze(const ExecSpace& space, const SpmvSettings& s, const matrix_type& A, State& state) {
    const SpmvSettings ps = panel_settings(s);
    state.panels.clear();
    state.panels.resize(static_cast<std::size_t>(A.num_panels()));
    for (int p = 0; p < A.num_panels(); ++p) panel_format::analyze(space, ps, A.panel(p), state.panels[p]);
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
        panel_format::apply(space, ps, panel_state, mode, alpha, A.panel(p), x, beta, rows_of(y, columns));
      } else {
        panel_format::apply(space, ps, panel_state, mode, alpha, A.panel(p), rows_of(x, columns),
                            p == 0 ? beta : Value(1), y);
      }
    }
  }

  static std::string describe(const SpmvSettings& s, const State& state) {
    std::string d = std::to_string(state.panels.size()) + (state.panels.size() == 1 ? " panel" : " panels");
    if (!state.panels.empty()) d += ", " + panel_format::describe(panel_settings(s), state.panels.front());
    return d;
  }

 private:
  // The panels' settings: the format's default is CSR's nonzero-balanced kernel.
  static SpmvSettings panel_settings(SpmvSettings s) {
    if (s.algorithm == SpmvAlgorithm::format_default) s.algorithm = SpmvAlgorithm::load_balanced;
    return s;
  }

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
