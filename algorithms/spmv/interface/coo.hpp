#pragma once
// What strata::spmv checks of a call on CooMatrix, without the kernels
// (algorithms/spmv/coo.hpp): the load-balanced kernel (default) or cuSPARSE's
// COO SpMV; the load-balanced kernel's options; mode limits of its
// deterministic variant.
#include <strata/algorithms/spmv/cusparse_available.hpp>
#include <strata/algorithms/spmv/handle.hpp>
#include <strata/formats/coo/coo_matrix.hpp>

#include <string>

namespace strata::Impl {

template <class ExecSpace, class Value, class Device>
struct SpmvFormat<ExecSpace, CooMatrix<Value, Device>> {
  static constexpr bool available = true;
  static constexpr const char* name = "COO";
  using matrix_type = CooMatrix<Value, Device>;
  using value_type = Value;
  static constexpr bool has_cusparse = cusparse_spmv_available<ExecSpace>::value;

  static bool supports(SpmvAlgorithm a) {
    return a == SpmvAlgorithm::format_default || a == SpmvAlgorithm::load_balanced ||
           (a == SpmvAlgorithm::cusparse && has_cusparse);
  }
  static std::string algorithm_list() {
    return has_cusparse ? "load_balanced (default), cusparse" : "load_balanced (default)";
  }
  static bool is_load_balanced(const SpmvSettings& s) { return s.algorithm != SpmvAlgorithm::cusparse; }

  static void check_settings(const SpmvSettings& s) {
    check_row_lanes(name, s, false);
    check_omega(name, s);
    STRATA_REQUIRE(is_load_balanced(s) || (s.omega == 0 && !s.deterministic && !s.autotune),
                   "strata::SpmvHandle<COO>: omega, deterministic and autotune are options of the load_balanced "
                   "kernel, not of cusparse");
  }
  static void check_mode(const SpmvSettings& s, SpmvMode mode) {
    STRATA_REQUIRE(!(s.deterministic && is_transposed(mode)),
                   std::string("strata::spmv (COO): deterministic mode computes N and C only; mode ") +
                       to_string(mode) + " scatters with atomics");
  }
  static MatrixIdentity identity(const matrix_type& A) { return {A.rows().data(), 0, A.num_rows(), A.num_cols()}; }
  static index_type rows(const matrix_type& A) { return A.num_rows(); }
  static index_type cols(const matrix_type& A) { return A.num_cols(); }
};

}  // namespace strata::Impl
