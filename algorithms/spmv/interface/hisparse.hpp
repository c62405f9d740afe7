#pragma once
// What strata::spmv checks of a call on HiSparseMatrix, without the kernels
// (algorithms/spmv/hisparse.hpp): leaf_bins (default), scheduled, persistent,
// and controlled where the controller launcher exists.
#include <strata/algorithms/spmv/handle.hpp>
#include <strata/formats/hisparse/hisparse_matrix.hpp>
#include <strata/scheduler/controller_available.hpp>

#include <string>

namespace strata::Impl {

template <class ExecSpace, class Value, class Device>
struct SpmvFormat<ExecSpace, HiSparseMatrix<Value, Device>> {
  static constexpr bool available = true;
  static constexpr const char* name = "HiSparse";
  using matrix_type = HiSparseMatrix<Value, Device>;
  using value_type = Value;

  static constexpr bool has_controller = scheduler::controller_available<ExecSpace>::value;
  static bool supports(SpmvAlgorithm a) {
    return a == SpmvAlgorithm::format_default || a == SpmvAlgorithm::leaf_bins || a == SpmvAlgorithm::scheduled ||
           a == SpmvAlgorithm::persistent || (has_controller && a == SpmvAlgorithm::controlled);
  }
  static std::string algorithm_list() {
    return std::string("leaf_bins (default), scheduled, persistent") +
           (has_controller ? ", controlled" : " (controlled: CUDA builds with STRATA_ENABLE_CUDA_CONTROLLER only)");
  }
  static void check_settings(const SpmvSettings& s) {
    refuse_coo_options(name, s);
    check_row_lanes(name, s, false);
  }
  static void check_mode(const SpmvSettings&, SpmvMode) {}
  // The stored tree (pool and root), whatever the transpose flag and scale say.
  static MatrixIdentity identity(const matrix_type& A) {
    return {A.storage().get(), static_cast<std::uint64_t>(A.root()), A.stored_rows(), A.stored_cols()};
  }
  static index_type rows(const matrix_type& A) { return A.num_rows(); }
  static index_type cols(const matrix_type& A) { return A.num_cols(); }
};

}  // namespace strata::Impl
