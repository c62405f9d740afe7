#pragma once
// What strata::spmv checks of a call on AnyMatrix, without the kernels
// (algorithms/spmv/any.hpp): nothing before the analysis, which checks the
// handle's options against the held format.
#include <strata/algorithms/spmv/any_matrix.hpp>
#include <strata/algorithms/spmv/handle.hpp>
#include <strata/algorithms/spmv/interface/column_split.hpp>
#include <strata/algorithms/spmv/interface/coo.hpp>
#include <strata/algorithms/spmv/interface/csr.hpp>
#include <strata/algorithms/spmv/interface/dcsr.hpp>
#include <strata/algorithms/spmv/interface/hisparse.hpp>
#include <strata/algorithms/spmv/interface/hyb.hpp>

#include <string>
#include <type_traits>
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
};

}  // namespace strata::Impl
