#pragma once
// What strata::spmv checks of a call on KokkosSparse::CrsMatrix, without the
// kernels (algorithms/spmv/csr.hpp): Kokkos Kernels' native (default) or
// merge-path kernel, cuSPARSE, Strata's row_vectors and load_balanced kernels;
// their options.
#include <strata/algorithms/spmv/cusparse_available.hpp>
#include <strata/algorithms/spmv/handle.hpp>
#include <strata/core/kokkos_compat.hpp>

#include <KokkosSparse_CrsMatrix.hpp>

#include <string>
#include <type_traits>

namespace strata::Impl {

template <class ExecSpace, class V, class O, class D, class M, class S>
struct SpmvFormat<ExecSpace, KokkosSparse::CrsMatrix<V, O, D, M, S>> {
  static constexpr bool available = true;
  static constexpr const char* name = "CSR";
  using matrix_type = KokkosSparse::CrsMatrix<V, O, D, M, S>;
  using value_type = std::remove_const_t<V>;
  // cuSPARSE's fast path takes 32-bit offsets and indices, as Strata's formats use.
  static constexpr bool has_cusparse = cusparse_spmv_available<ExecSpace>::value &&
                                       std::is_same_v<std::remove_const_t<O>, int> &&
                                       std::is_same_v<std::remove_const_t<S>, int>;

  static bool supports(SpmvAlgorithm a) {
    return a == SpmvAlgorithm::format_default || a == SpmvAlgorithm::kk_native || a == SpmvAlgorithm::row_vectors ||
           a == SpmvAlgorithm::load_balanced || (a == SpmvAlgorithm::kk_merge_path && compat::kk_has_merge_path) ||
           (a == SpmvAlgorithm::cusparse && has_cusparse);
  }
  static std::string algorithm_list() {
    std::string list = "kk_native (default), row_vectors, load_balanced";
    if (compat::kk_has_merge_path) list += ", kk_merge_path";
    if (has_cusparse) list += ", cusparse";
    return list;
  }
  static void check_settings(const SpmvSettings& s) {
    if (s.algorithm == SpmvAlgorithm::load_balanced) {
      check_omega(name, s);
      STRATA_REQUIRE(!s.deterministic && !s.autotune,
                     "strata::SpmvHandle<CSR>: deterministic and autotune are options of the COO load_balanced "
                     "kernel; CSR load_balanced takes omega only");
    } else {
      refuse_coo_options(name, s);
    }
    check_row_lanes(name, s, s.algorithm == SpmvAlgorithm::row_vectors);
  }
  static void check_mode(const SpmvSettings&, SpmvMode) {}
  static MatrixIdentity identity(const matrix_type& A) {
    return {A.graph.row_map.data(), 0, static_cast<index_type>(A.numRows()), static_cast<index_type>(A.numCols())};
  }
  static index_type rows(const matrix_type& A) { return A.numRows(); }
  static index_type cols(const matrix_type& A) { return A.numCols(); }
};

}  // namespace strata::Impl
