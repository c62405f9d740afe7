#pragma once
// Sequential host reference for y := alpha * op(A) * x + beta * y, accumulated in
// double (or complex<double>) whatever the value type, against which every
// device SpMV of Strata and of the baselines is checked.
#include <strata/algorithms/reference/wide_value.hpp>
#include <strata/algorithms/spmv/mode.hpp>
#include <strata/core/host_csr.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace strata::reference {

template <class Value>
struct SpmvReference {
  std::vector<wide_t<Value>> y;
  // |alpha| * |op(A)| * |x| + |beta| * |y0| per output entry and the number of
  // terms summed: the scale of the rounding error any order of summation makes.
  std::vector<double> magnitude;
  std::vector<index_type> terms;
  double alpha_modulus = 0.0;
};

template <class Value>
SpmvReference<Value> csr_spmv(SpmvMode mode, Value alpha, const HostCsr<Value>& A, const std::vector<Value>& x,
                              Value beta, const std::vector<Value>& y0) {
  using W = wide_t<Value>;
  const bool transposed = mode == SpmvMode::transpose || mode == SpmvMode::conjugate_transpose;
  const bool conjugated = mode == SpmvMode::conjugate || mode == SpmvMode::conjugate_transpose;
  const index_type out_len = transposed ? A.num_cols : A.num_rows;
  const index_type in_len = transposed ? A.num_rows : A.num_cols;
  STRATA_REQUIRE(static_cast<index_type>(x.size()) == in_len && static_cast<index_type>(y0.size()) == out_len,
                 "reference::csr_spmv: vector lengths do not match the matrix");
  const W a = widen(alpha);
  const W b = widen(beta);
  const double abs_a = modulus(alpha);
  const double abs_b = modulus(beta);

  std::vector<W> product(out_len, W(0));
  SpmvReference<Value> ref;
  ref.alpha_modulus = abs_a;
  ref.magnitude.assign(out_len, 0.0);
  ref.terms.assign(out_len, 0);
  for (index_type i = 0; i < A.num_rows; ++i) {
    for (index_type k = A.row_offsets[i]; k < A.row_offsets[i + 1]; ++k) {
      const index_type j = A.cols[k];
      const Value aij = conjugated ? conjugate(A.values[k]) : A.values[k];
      const index_type out = transposed ? j : i;
      const index_type in = transposed ? i : j;
      product[out] += widen(aij) * widen(x[in]);
      ref.magnitude[out] += abs_a * modulus(aij) * modulus(x[in]);
      ++ref.terms[out];
    }
  }
  ref.y.resize(out_len);
  for (index_type i = 0; i < out_len; ++i) {
    // beta == 0 overwrites y (NaN included), as Kokkos Kernels and BLAS do.
    const bool beta_zero = abs_b == 0.0;
    ref.y[i] = a * product[i] + (beta_zero ? W(0) : b * widen(y0[i]));
    if (!beta_zero) ref.magnitude[i] += abs_b * modulus(y0[i]);
  }
  return ref;
}

struct SpmvAccuracy {
  double max_scaled_error = 0.0;  // max over entries of |y - ref| / allowed; <= 1 passes
  index_type worst_entry = -1;
  bool passed = true;
};

// Accepts each entry whose error is within the first-order bound of summing
// `terms` products in any order in the value type's precision (with a safety
// factor of 4), relative to the magnitude of those products, plus what
// underflow may lose: each product or partial sum below the value type's
// smallest normal number may be flushed to zero (GPUs flush float), an
// absolute error of that number per operation.
template <class Value>
SpmvAccuracy check_spmv(const std::vector<Value>& y, const SpmvReference<Value>& ref) {
  using R = typename value_traits<Value>::real_type;
  const double eps = static_cast<double>(std::numeric_limits<R>::epsilon());
  SpmvAccuracy acc;
  STRATA_REQUIRE(y.size() == ref.y.size(), "check_spmv: result has the wrong length");
  for (std::size_t i = 0; i < y.size(); ++i) {
    const std::complex<double> got(real_part(y[i]), imag_part(y[i]));
    const std::complex<double> want(real_part(ref.y[i]), imag_part(ref.y[i]));
    const double error = std::abs(got - want);
    const double operations = static_cast<double>(ref.terms[i] + 2);
    const double underflow = 4.0 * operations * std::max(1.0, ref.alpha_modulus) *
                             static_cast<double>(std::numeric_limits<R>::min());
    const double allowed = 4.0 * eps * operations * ref.magnitude[i] + underflow;
    const double scaled = std::isfinite(error) ? error / allowed : std::numeric_limits<double>::infinity();
    if (!(scaled <= acc.max_scaled_error)) {
      acc.max_scaled_error = scaled;
      acc.worst_entry = static_cast<index_type>(i);
    }
  }
  acc.passed = acc.max_scaled_error <= 1.0;
  return acc;
}

}  // namespace strata::reference
