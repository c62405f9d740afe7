#pragma once
// What strata::spmv checks of a call on DcsrMatrix, without the kernels
// (algorithms/spmv/dcsr.hpp): row_vectors (default) or binned_rows (ADCSR),
// the row kernel's lanes.
#include <strata/algorithms/spmv/handle.hpp>
#include <strata/formats/dcsr/dcsr_matrix.hpp>

#include <string>

namespace strata::Impl {

template <class ExecSpace, class Value, class Device>
struct SpmvFormat<ExecSpace, DcsrMatrix<Value, Device>> {
  static constexpr bool available = true;
  static constexpr const char* name = "DCSR";
  using matrix_type = DcsrMatrix<Value, Device>;
  using value_type = Value;

  static bool supports(SpmvAlgorithm a) {
    return a == SpmvAlgorithm::format_default || a == SpmvAlgorithm::row_vectors || a == SpmvAlgorithm::binned_rows;
  }
  static std::string algorithm_list() { return "row_vectors (default), binned_rows"; }
  static void check_settings(const SpmvSettings& s) {
    refuse_coo_options(name, s);
    // row_vectors is DCSR's default kernel.
    check_row_lanes(name, s, s.algorithm == SpmvAlgorithm::row_vectors || s.algorithm == SpmvAlgorithm::format_default);
  }
  static void check_mode(const SpmvSettings&, SpmvMode) {}
  static MatrixIdentity identity(const matrix_type& A) { return {A.identity_key(), 0, A.num_rows(), A.num_cols()}; }
  static index_type rows(const matrix_type& A) { return A.num_rows(); }
  static index_type cols(const matrix_type& A) { return A.num_cols(); }
};

}  // namespace strata::Impl
