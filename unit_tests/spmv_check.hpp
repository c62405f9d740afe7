#pragma once
// Runs a device SpMV (any object with apply(space, mode, alpha, x, beta, y);
// ApiProduct adapts strata::spmv with a handle to that shape) on rank-1 or
// rank-2 vectors and compares every column with the sequential host reference.
#include <strata/algorithms/reference/csr_spmv.hpp>
#include <strata/algorithms/spmv.hpp>

#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

namespace strata::test {

template <class Value>
std::vector<Value> test_vector(index_type n, int seed) {
  std::vector<Value> v(static_cast<std::size_t>(n));
  for (index_type i = 0; i < n; ++i) {
    // Small integers and halves keep hand-checked cases exact and others well scaled.
    const double re = static_cast<double>((i * 7 + seed * 13) % 11) / 2.0 - 2.5;
    const double im = static_cast<double>((i * 5 + seed * 3) % 7) / 4.0 - 0.75;
    v[static_cast<std::size_t>(i)] = value_from<Value>(re, im);
  }
  return v;
}

// A matrix and its handle, called through the public API.
template <class ExecSpace, class Matrix>
struct ApiProduct {
  const Matrix& A;
  SpmvHandle<ExecSpace, Matrix> handle;
  template <class Value, class X, class Y>
  void apply(const ExecSpace& space, const char mode[], Value alpha, const X& x, Value beta, const Y& y) {
    strata::spmv(space, handle, mode, alpha, A, x, beta, y);
  }
};

// Vector shapes of the products checked: rank 1, or rank 2 with `columns` columns in a layout.
struct VectorShape {
  int columns = 0;  // 0: rank-1
  bool layout_right = false;
  std::string name() const {
    return columns == 0 ? "rank-1" : "rank-2 x" + std::to_string(columns) + (layout_right ? " right" : " left");
  }
};

inline std::vector<VectorShape> all_vector_shapes() {
  return {{0, false}, {1, false}, {3, false}, {8, false}, {1, true}, {3, true}, {8, true}};
}

namespace detail {

template <class Value, class ExecSpace, class Layout, class Kernel>
std::vector<Value> run_multivector(Kernel& kernel, const std::string& mode, Value alpha, const std::vector<Value>& x,
                                   Value beta, const std::vector<Value>& y0, index_type in_len, index_type out_len,
                                   int columns) {
  using view_type = Kokkos::View<Value**, Layout, typename ExecSpace::memory_space>;
  view_type X("strata::test_X", in_len, columns), Y("strata::test_Y", out_len, columns);
  auto xm = Kokkos::create_mirror_view(X);
  auto ym = Kokkos::create_mirror_view(Y);
  for (int j = 0; j < columns; ++j) {
    for (index_type i = 0; i < in_len; ++i) xm(i, j) = x[j * in_len + i];
    for (index_type i = 0; i < out_len; ++i) ym(i, j) = y0[j * out_len + i];
  }
  Kokkos::deep_copy(X, xm);
  Kokkos::deep_copy(Y, ym);
  ExecSpace space;
  kernel.apply(space, mode.c_str(), alpha, X, beta, Y);
  space.fence();
  Kokkos::deep_copy(ym, Y);
  std::vector<Value> out(static_cast<std::size_t>(out_len * columns));
  for (int j = 0; j < columns; ++j) {
    for (index_type i = 0; i < out_len; ++i) out[j * out_len + i] = ym(i, j);
  }
  return out;
}

}  // namespace detail

template <class Value, class ExecSpace, class Kernel>
void expect_spmv_matches_reference(Kernel& kernel, const HostCsr<Value>& A, const std::string& mode, Value alpha,
                                   Value beta, bool y_starts_as_nan, VectorShape shape = {}) {
  const bool transposed = mode == "T" || mode == "H";
  const index_type in_len = transposed ? A.num_rows : A.num_cols;
  const index_type out_len = transposed ? A.num_cols : A.num_rows;
  const int columns = shape.columns == 0 ? 1 : shape.columns;
  const auto x_host = test_vector<Value>(in_len * columns, 1);
  auto y0_host = test_vector<Value>(out_len * columns, 2);
  if (y_starts_as_nan) {
    for (auto& v : y0_host) v = value_from<Value>(std::numeric_limits<double>::quiet_NaN(), 0.0);
  }
  std::vector<Value> result;
  if (shape.columns == 0) {
    using vector_type = Kokkos::View<Value*, typename ExecSpace::memory_space>;
    vector_type x("strata::test_x", in_len);
    vector_type y("strata::test_y", out_len);
    auto x_mirror = Kokkos::create_mirror_view(x);
    auto y_mirror = Kokkos::create_mirror_view(y);
    for (index_type i = 0; i < in_len; ++i) x_mirror(i) = x_host[i];
    for (index_type i = 0; i < out_len; ++i) y_mirror(i) = y0_host[i];
    Kokkos::deep_copy(x, x_mirror);
    Kokkos::deep_copy(y, y_mirror);
    ExecSpace space;
    kernel.apply(space, mode.c_str(), alpha, x, beta, y);
    space.fence();
    Kokkos::deep_copy(y_mirror, y);
    result.assign(y_mirror.data(), y_mirror.data() + out_len);
  } else if (shape.layout_right) {
    result = detail::run_multivector<Value, ExecSpace, Kokkos::LayoutRight>(kernel, mode, alpha, x_host, beta, y0_host,
                                                                             in_len, out_len, columns);
  } else {
    result = detail::run_multivector<Value, ExecSpace, Kokkos::LayoutLeft>(kernel, mode, alpha, x_host, beta, y0_host,
                                                                            in_len, out_len, columns);
  }
  for (int j = 0; j < columns; ++j) {
    const std::vector<Value> xj(x_host.begin() + j * in_len, x_host.begin() + (j + 1) * in_len);
    const std::vector<Value> y0j(y0_host.begin() + j * out_len, y0_host.begin() + (j + 1) * out_len);
    const std::vector<Value> yj(result.begin() + j * out_len, result.begin() + (j + 1) * out_len);
    const auto ref = reference::csr_spmv(parse_spmv_mode(mode), alpha, A, xj, beta, y0j);
    const auto accuracy = reference::check_spmv(yj, ref);
    EXPECT_TRUE(accuracy.passed) << "mode " << mode << ", " << shape.name() << ", column " << j << ": entry "
                                 << accuracy.worst_entry << " has error " << accuracy.max_scaled_error
                                 << " times the rounding bound";
  }
}

}  // namespace strata::test
