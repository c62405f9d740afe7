#pragma once
// What strata::spmv checks of a call on HybMatrix, without the kernels
// (algorithms/spmv/hyb.hpp): two algorithms, ell_offsets_coo (the ELL columns as 16-bit offsets in
// 32-row tiles, the default) and ell_coo (the stored 32-bit columns), no options.
#include <strata/algorithms/spmv/handle.hpp>
#include <strata/formats/hyb/hyb_matrix.hpp>

#include <string>

namespace strata::Impl {

template <class ExecSpace, class Value, class Device>
struct SpmvFormat<ExecSpace, HybMatrix<Value, Device>> {
  static constexpr bool available = true;
  static constexpr const char* name = "HYB";
  using matrix_type = HybMatrix<Value, Device>;
  using value_type = Value;

  static bool supports(SpmvAlgorithm a) {
    return a == SpmvAlgorithm::format_default || a == SpmvAlgorithm::ell_offsets_coo || a == SpmvAlgorithm::ell_coo;
  }
  static std::string algorithm_list() { return "ell_offsets_coo (default), ell_coo"; }
  static void check_settings(const SpmvSettings& s) {
    refuse_coo_options(name, s);
    check_row_lanes(name, s, false);
  }
  static void check_mode(const SpmvSettings&, SpmvMode) {}
  static MatrixIdentity identity(const matrix_type& A) { return {A.identity_key(), 0, A.num_rows(), A.num_cols()}; }
  static index_type rows(const matrix_type& A) { return A.num_rows(); }
  static index_type cols(const matrix_type& A) { return A.num_cols(); }
};

}  // namespace strata::Impl
