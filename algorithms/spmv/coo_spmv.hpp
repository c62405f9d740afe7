#pragma once
// Load-balanced COO SpMV, y := alpha * op(A) * x + beta * y (Flegar & Anzt,
// "Overcoming Load Imbalance for Irregular Sparse Matrices", IA^3 2017).
//
// Modes: "N" and "C" (conjugate) use the chunked kernel: equal chunks of whole
// 32-entry lines, one warp per chunk on CUDA, one flush per row segment.
// "T" and "H" scatter each product into y[col] with an atomic: a row-sorted
// COO gives no segments for the transposed product.
// beta = 0 overwrites y (NaN included) before products are added.
#include <strata/algorithms/spmv/coo_spmv_autotune.hpp>
#include <strata/algorithms/spmv/coo_spmv_impl.hpp>

#include <string>
#include <type_traits>

namespace strata {

// Public entry: checks types and sizes, then dispatches to the kernels.
template <class ExecSpace, class Value, class Device, class XView, class YView>
void spmv(const ExecSpace& space, const char mode[], const Value& alpha, const CooMatrix<Value, Device>& A,
          const XView& x, const Value& beta, const YView& y, const CooSpmvOptions& options = {}) {
  static_assert(Kokkos::is_view<XView>::value && Kokkos::is_view<YView>::value, "strata::spmv: x and y must be Views");
  static_assert(XView::rank == 1 && YView::rank == 1, "strata::spmv: x and y must be rank-1 Views");
  static_assert(std::is_same_v<typename YView::non_const_value_type, Value> &&
                    std::is_same_v<typename XView::non_const_value_type, Value>,
                "strata::spmv: x, y and A must have the same value type");
  static_assert(!std::is_const_v<typename YView::value_type>, "strata::spmv: y must be writable");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename YView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecSpace, typename XView::memory_space>::accessible &&
                    Kokkos::SpaceAccessibility<ExecSpace, typename Device::memory_space>::accessible,
                "strata::spmv: A, x and y must be accessible from the execution space");
  const std::string m = mode ? mode : "";
  STRATA_REQUIRE(m == "N" || m == "T" || m == "C" || m == "H",
                 "strata::spmv (COO): mode '" + m + "' is not one of N, T, C, H");
  const bool transposed = m == "T" || m == "H";
  const std::size_t in_len = static_cast<std::size_t>(transposed ? A.num_rows() : A.num_cols());
  const std::size_t out_len = static_cast<std::size_t>(transposed ? A.num_cols() : A.num_rows());
  STRATA_REQUIRE(x.extent(0) == in_len && y.extent(0) == out_len,
                 "strata::spmv (COO): mode " + m + " needs x of length " + std::to_string(in_len) +
                     " and y of length " + std::to_string(out_len) + ", got " + std::to_string(x.extent(0)) +
                     " and " + std::to_string(y.extent(0)));
  STRATA_REQUIRE(options.omega >= 0, "strata::spmv (COO): omega must be >= 0 (0 = heuristic)");
  Kokkos::View<const Value*, typename XView::device_type, Kokkos::MemoryTraits<Kokkos::RandomAccess>> x_internal = x;
  Kokkos::View<Value*, typename YView::device_type> y_internal = y;
  CooSpmvOptions resolved = options;
  if (options.autotune && (m == "N" || m == "C")) {
    resolved.omega = autotuned_coo_omega(space, A, options.deterministic);
  }
  Impl::coo_spmv(space, m[0], alpha, A.view(), x_internal, beta, y_internal, resolved);
}

}  // namespace strata
