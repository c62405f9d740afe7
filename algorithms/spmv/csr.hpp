#pragma once
// strata::spmv's kernels on KokkosSparse::CrsMatrix (the in-tree baseline format; its checks:
// interface/csr.hpp):
// Kokkos Kernels' native or merge-path kernel, cuSPARSE on the same arrays, or
// Strata's row kernels (row_vectors: csr_rows.hpp) or nonzero-balanced kernel
// (load_balanced: csr_balanced.hpp), which keep A^T's structure in the handle
// for T and H. Rank-2 x/y go through Kokkos Kernels' rank-1
// kernel column by column, or to the row kernels, which multiply every column in one launch.
#include <strata/algorithms/spmv/csr_balanced.hpp>
#include <strata/algorithms/spmv/csr_rows.hpp>
#include <strata/algorithms/spmv/cusparse.hpp>
#include <strata/algorithms/spmv/definitions.hpp>
#include <strata/algorithms/spmv/interface/csr.hpp>
#include <strata/algorithms/spmv/vectors.hpp>
#include <strata/core/kokkos_compat.hpp>
#include <strata/core/type_keyed_cache.hpp>

#include <KokkosSparse_CrsMatrix.hpp>

#include <string>
#include <type_traits>

namespace strata::Impl {

template <class ExecSpace, class V, class O, class D, class M, class S>
struct SpmvState<ExecSpace, KokkosSparse::CrsMatrix<V, O, D, M, S>> {
  using matrix_type = KokkosSparse::CrsMatrix<V, O, D, M, S>;
  using value_type = std::remove_const_t<V>;
  using offset_type = typename matrix_type::size_type;
  using ordinal_type = typename matrix_type::ordinal_type;
  using device_type = typename matrix_type::device_type;

  SpmvAlgorithm algorithm = SpmvAlgorithm::kk_native;
  TypeKeyedCache kk_plans;  // one Kokkos Kernels plan per (x, y) type
  cusparse_state_t<value_type, ExecSpace> cusparse;
  VectorScratch<value_type, device_type> column_scratch;  // kk_*: strided multi-vector columns
  int lanes = 1;                                          // row_vectors
  CsrTransposedStructure<std::remove_const_t<offset_type>, std::remove_const_t<ordinal_type>, device_type>
      transposed;  // row_vectors and load_balanced, built on the first T or H product
  // load_balanced: the chunks of A's rows, and of A^T's (built with `transposed`)
  CsrBalancedChunks<value_type, device_type> balanced, balanced_transposed;
};

template <class ExecSpace, class V, class O, class D, class M, class S>
struct SpmvKernels<ExecSpace, KokkosSparse::CrsMatrix<V, O, D, M, S>> {
  using format = SpmvFormat<ExecSpace, KokkosSparse::CrsMatrix<V, O, D, M, S>>;
  using matrix_type = typename format::matrix_type;
  using value_type = typename format::value_type;
  using State = SpmvState<ExecSpace, KokkosSparse::CrsMatrix<V, O, D, M, S>>;
  static constexpr bool has_cusparse = format::has_cusparse;
  static constexpr const char* name = format::name;
  using offset_type = typename State::offset_type;
  using ordinal_type = typename State::ordinal_type;
  using device_type = typename State::device_type;

  static void analyze(const ExecSpace& space, const SpmvSettings& s, const matrix_type& A, State& state) {
    state.algorithm = s.algorithm == SpmvAlgorithm::format_default ? SpmvAlgorithm::kk_native : s.algorithm;
    if (state.algorithm == SpmvAlgorithm::row_vectors) {
      state.lanes = row_lanes(s.lanes, A.nnz(), A.numRows());
    }
    if (state.algorithm == SpmvAlgorithm::load_balanced) {
      state.balanced =
          make_csr_balanced_chunks<value_type, device_type>(space, A.graph.row_map, A.numRows(), A.nnz(), s.omega);
    }
    if constexpr (has_cusparse) {
      if (state.algorithm == SpmvAlgorithm::cusparse) {
        state.cusparse = CusparseSpmv<value_type, ExecSpace>::csr(A.numRows(), A.numCols(), A.nnz(),
                                                                  A.graph.row_map.data(), A.graph.entries.data(),
                                                                  A.values.data());
      }
    }
  }

  template <class XView, class YView>
  static void apply(const ExecSpace& space, const SpmvSettings& s, State& state, SpmvMode mode, value_type alpha,
                    const matrix_type& A, const XView& x, value_type beta, const YView& y) {
    if constexpr (has_cusparse) {
      if (state.algorithm == SpmvAlgorithm::cusparse) {
        if (A.nnz() == 0 || x.extent(0) == 0 || alpha == value_type(0)) {
          scale_output(space, beta, y);
          return;
        }
        apply_cusparse(*state.cusparse, space, mode, alpha, x, beta, y);
        return;
      }
    }
    if (state.algorithm == SpmvAlgorithm::row_vectors) {
      apply_rows(space, s, state, mode, alpha, A, x, beta, y);
      return;
    }
    if (state.algorithm == SpmvAlgorithm::load_balanced) {
      apply_balanced(space, s, state, mode, alpha, A, x, beta, y);
      return;
    }
    if constexpr (XView::rank == 2) {
      // Kokkos Kernels' rank-2 kernel is not used: it is templated on alpha/beta cases, the
      // conjugate flag and unrolled column counts, and its instances took ~45 s of GCC and
      // more of nvcc per value type and layout, the largest part of the library's build
      // (docs/BACKENDS.md). Each column goes through the rank-1 kernel, as the baseline is
      // measured; row_vectors multiplies every column in one pass over A.
      apply_kk_columns(space, state, mode, alpha, A, x, beta, y);
    } else {
      apply_kk(space, state, mode, alpha, A, x, beta, y);
    }
  }

  static std::string describe(const SpmvSettings&, const State& state) {
    if (state.algorithm == SpmvAlgorithm::load_balanced) {
      return "load_balanced(omega=" + std::to_string(state.balanced.omega) +
             ", chunks=" + std::to_string(state.balanced.chunking.num_chunks) + ")";
    }
    if (state.algorithm != SpmvAlgorithm::row_vectors) return to_string(state.algorithm);
    std::string d = "row_vectors(lanes=" + std::to_string(state.lanes);
    if (state.transposed.built) d += ", transposed lanes=" + std::to_string(state.transposed.lanes);
    return d + ")";
  }

 private:
  // Every column, whatever its layout, goes to the rank-1 kernel as a contiguous LayoutLeft vector
  // (strided columns staged through scratch): one Kokkos Kernels instance per value type, and
  // Kokkos Kernels 3.4's rank-1 kernel reads strided vectors as if contiguous.
  template <class XView, class YView>
  static void apply_kk_columns(const ExecSpace& space, State& state, SpmvMode mode, value_type alpha,
                               const matrix_type& A, const XView& x, value_type beta, const YView& y) {
    using column_device = typename YView::device_type;
    using XColumn = Kokkos::View<const value_type*, Kokkos::LayoutLeft, column_device,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    using YColumn = Kokkos::View<value_type*, Kokkos::LayoutLeft, column_device,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    const auto contiguous = [](const auto& v) { return v.span_is_contiguous(); };
    for_each_column(x, y, [&](const auto& xj, const auto& yj) {
      state.column_scratch.run_contiguous(space, xj, beta, yj, contiguous,
                                          [&](const value_type* x_data, value_type* y_data) {
                                            apply_kk(space, state, mode, alpha, A, XColumn(x_data, xj.extent(0)),
                                                     beta, YColumn(y_data, yj.extent(0)));
                                          });
    });
  }

  template <class XView, class YView>
  static void apply_kk(const ExecSpace& space, State& state, SpmvMode mode, value_type alpha, const matrix_type& A,
                       const XView& x, value_type beta, const YView& y) {
    using Plan = compat::KkSpmvPlan<ExecSpace, matrix_type, XView, YView>;
    const auto algorithm = state.algorithm == SpmvAlgorithm::kk_merge_path ? compat::KkSpmvAlgorithm::merge_path
                                                                            : compat::KkSpmvAlgorithm::native;
    state.kk_plans.template get<Plan>(algorithm).apply(space, to_string(mode), alpha, A, x, beta, y);
  }

  template <class XView, class YView>
  static void apply_rows(const ExecSpace& space, const SpmvSettings& s, State& state, SpmvMode mode, value_type alpha,
                         const matrix_type& A, const XView& x, value_type beta, const YView& y) {
    // BLAS semantics: alpha = 0 reads neither A nor x.
    if (alpha == value_type(0)) {
      scale_output(space, beta, y);
      return;
    }
    const bool conjugate = is_conjugated(mode);
    if (!is_transposed(mode)) {
      launch_csr_rows<false>(space, A.graph.row_map, A.graph.entries, A.graph.row_map, A.values, A.numRows(),
                             state.lanes, conjugate, alpha, x, beta, y);
      return;
    }
    const auto& t = transposed_structure(s, state, A);
    launch_csr_rows<true>(space, t.row_map, t.rows, t.positions, A.values, A.numCols(), t.lanes, conjugate, alpha, x,
                          beta, y);
  }

  template <class XView, class YView>
  static void apply_balanced(const ExecSpace& space, const SpmvSettings& s, State& state, SpmvMode mode,
                             value_type alpha, const matrix_type& A, const XView& x, value_type beta, const YView& y) {
    if (alpha == value_type(0)) {
      scale_output(space, beta, y);
      return;
    }
    const gathered_vector_t<XView> x_gathered = x;
    const bool conjugate = is_conjugated(mode);
    if (!is_transposed(mode)) {
      launch_csr_balanced<false>(space, state.balanced, A.graph.row_map, A.graph.entries, A.graph.row_map, A.values,
                                 conjugate, alpha, x_gathered, beta, y);
      return;
    }
    const auto& t = transposed_structure(s, state, A);
    if (!state.balanced_transposed.built) {
      state.balanced_transposed =
          make_csr_balanced_chunks<value_type, device_type>(space, t.row_map, A.numCols(), A.nnz(), s.omega);
    }
    launch_csr_balanced<true>(space, state.balanced_transposed, t.row_map, t.rows, t.positions, A.values, conjugate,
                              alpha, x_gathered, beta, y);
  }

  // A^T's structure, built on the first T or H product.
  static const decltype(State::transposed)& transposed_structure(const SpmvSettings& s, State& state,
                                                                 const matrix_type& A) {
    auto& t = state.transposed;
    if (!t.built) {
      t = transpose_csr_structure<std::remove_const_t<offset_type>, std::remove_const_t<ordinal_type>, device_type>(
          A.graph.row_map, A.graph.entries, A.numRows(), A.numCols(), s.lanes);
    }
    return t;
  }
};

}  // namespace strata::Impl
