#pragma once
// Runs a device SpMV (any object with apply(space, mode, alpha, x, beta, y))
// and compares it with the sequential host reference.
#include <strata/algorithms/reference/csr_spmv.hpp>

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

template <class Value, class ExecSpace, class Kernel>
void expect_spmv_matches_reference(Kernel& kernel, const HostCsr<Value>& A, const std::string& mode, Value alpha,
                                   Value beta, bool y_starts_as_nan) {
  using vector_type = Kokkos::View<Value*, typename ExecSpace::memory_space>;
  const bool transposed = mode == "T" || mode == "H";
  const index_type in_len = transposed ? A.num_rows : A.num_cols;
  const index_type out_len = transposed ? A.num_cols : A.num_rows;
  const auto x_host = test_vector<Value>(in_len, 1);
  auto y0_host = test_vector<Value>(out_len, 2);
  if (y_starts_as_nan) {
    for (auto& v : y0_host) v = value_from<Value>(std::numeric_limits<double>::quiet_NaN(), 0.0);
  }
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
  std::vector<Value> result(y_mirror.data(), y_mirror.data() + out_len);

  const auto ref = reference::csr_spmv(reference::parse_spmv_mode(mode), alpha, A, x_host, beta, y0_host);
  const auto accuracy = reference::check_spmv(result, ref);
  EXPECT_TRUE(accuracy.passed) << "mode " << mode << ": entry " << accuracy.worst_entry << " has error "
                               << accuracy.max_scaled_error << " times the rounding bound";
}

}  // namespace strata::test
