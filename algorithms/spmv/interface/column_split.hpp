#pragma once
// What strata::spmv checks of a call on ColumnSplitCsr, without the kernels
// (algorithms/spmv/column_split.hpp): the CSR panels' algorithms and options,
// CSR's nonzero-balanced kernel by default.
#include <strata/algorithms/spmv/handle.hpp>
#include <strata/algorithms/spmv/interface/csr.hpp>
#include <strata/formats/column_split/column_split_csr.hpp>

#include <string>

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

  // The panels' settings: the format's default is CSR's nonzero-balanced kernel.
  static SpmvSettings panel_settings(SpmvSettings s) {
    if (s.algorithm == SpmvAlgorithm::format_default) s.algorithm = SpmvAlgorithm::load_balanced;
    return s;
  }
};

}  // namespace strata::Impl
