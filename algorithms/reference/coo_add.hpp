#pragma once
// Sequential host reference for C := alpha * op(A) + beta * op(B), op one of
// N, T, C, H, on duplicate-free COO terms, in double (or complex<double>)
// whatever the value type. The structure of C is the union of the two terms'
// structures: entries at the same coordinate are added, and a sum that cancels
// stays a stored zero (as the device additions keep it).
#include <strata/algorithms/reference/wide_value.hpp>
#include <strata/algorithms/spmv/mode.hpp>
#include <strata/core/host_coo.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace strata::reference {

template <class Value>
struct AddReference {
  index_type num_rows = 0;
  index_type num_cols = 0;
  // Row-major order, one entry per coordinate.
  std::vector<index_type> rows, cols;
  std::vector<wide_t<Value>> values;
  // |alpha a| + |beta b| per entry: the scale of the rounding error.
  std::vector<double> magnitude;
  double scale_modulus = 0.0;  // max(|alpha|, |beta|), for the underflow term
};

template <class Value>
AddReference<Value> coo_add(SpmvMode mode_a, const Value& alpha, const HostCoo<Value>& A, SpmvMode mode_b,
                            const Value& beta, const HostCoo<Value>& B) {
  using W = wide_t<Value>;
  const OpShape shape = op_shape(mode_a, A.num_rows, A.num_cols);
  require_same_op_shape("reference::coo_add", shape, op_shape(mode_b, B.num_rows, B.num_cols));
  struct Term {
    index_type row, col;
    W value;
    double magnitude;
  };
  std::vector<Term> terms;
  terms.reserve(A.values.size() + B.values.size());
  auto append = [&terms](SpmvMode mode, const Value& scale, const HostCoo<Value>& M) {
    const W s = widen(scale);
    const double s_abs = modulus(scale);
    for (std::size_t k = 0; k < M.values.size(); ++k) {
      const Value v = is_conjugated(mode) ? conjugate(M.values[k]) : M.values[k];
      const index_type r = is_transposed(mode) ? M.cols[k] : M.rows[k];
      const index_type c = is_transposed(mode) ? M.rows[k] : M.cols[k];
      terms.push_back({r, c, s * widen(v), s_abs * modulus(v)});
    }
  };
  append(mode_a, alpha, A);
  append(mode_b, beta, B);
  std::stable_sort(terms.begin(), terms.end(), [](const Term& x, const Term& y) {
    return x.row < y.row || (x.row == y.row && x.col < y.col);
  });

  AddReference<Value> ref;
  ref.num_rows = shape.rows;
  ref.num_cols = shape.cols;
  ref.scale_modulus = std::max(modulus(alpha), modulus(beta));
  for (std::size_t k = 0; k < terms.size(); ++k) {
    const bool same = !ref.rows.empty() && ref.rows.back() == terms[k].row && ref.cols.back() == terms[k].col;
    if (same) {
      ref.values.back() += terms[k].value;
      ref.magnitude.back() += terms[k].magnitude;
    } else {
      ref.rows.push_back(terms[k].row);
      ref.cols.push_back(terms[k].col);
      ref.values.push_back(terms[k].value);
      ref.magnitude.push_back(terms[k].magnitude);
    }
  }
  return ref;
}

struct AddAccuracy {
  bool passed = true;
  std::string structure_error;    // empty when the coordinates are those of the reference
  double max_scaled_error = 0.0;  // max over entries of |c - ref| / allowed; <= 1 passes
  index_type worst_entry = -1;    // in the reference's row-major order

  // One line saying what failed, for reports; empty when the check passed.
  std::string describe() const {
    if (!structure_error.empty()) return structure_error;
    if (passed) return "";
    return "entry " + std::to_string(worst_entry) + " (row-major) is off by " + std::to_string(max_scaled_error) +
           " times the rounding bound";
  }
};

// The coordinates must be exactly the reference's (no entry missing, added or
// repeated); each value within the first-order bound of two products and one
// sum in the value type's precision (safety factor 2, complex products
// included), plus what flushing subnormal results to zero may lose.
template <class Value>
AddAccuracy check_add(const HostCoo<Value>& C, const AddReference<Value>& ref) {
  using R = typename value_traits<Value>::real_type;
  AddAccuracy acc;
  auto fail_structure = [&acc](const std::string& what) {
    acc.passed = false;
    acc.structure_error = what;
    return acc;
  };
  if (C.num_rows != ref.num_rows || C.num_cols != ref.num_cols) {
    return fail_structure("the result is " + std::to_string(C.num_rows) + " x " + std::to_string(C.num_cols) +
                          ", the reference " + std::to_string(ref.num_rows) + " x " + std::to_string(ref.num_cols));
  }
  if (C.values.size() != ref.values.size()) {
    return fail_structure("the result holds " + std::to_string(C.values.size()) + " entries, the reference " +
                          std::to_string(ref.values.size()));
  }
  std::vector<std::size_t> order(C.values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&C](std::size_t x, std::size_t y) {
    return C.rows[x] < C.rows[y] || (C.rows[x] == C.rows[y] && C.cols[x] < C.cols[y]);
  });
  const double eps = static_cast<double>(std::numeric_limits<R>::epsilon());
  const double underflow = 8.0 * std::max(1.0, ref.scale_modulus) * static_cast<double>(std::numeric_limits<R>::min());
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t i = order[k];
    if (C.rows[i] != ref.rows[k] || C.cols[i] != ref.cols[k]) {
      return fail_structure("entry " + std::to_string(k) + " in row-major order is (" + std::to_string(C.rows[i]) +
                            ", " + std::to_string(C.cols[i]) + "), the reference's (" + std::to_string(ref.rows[k]) +
                            ", " + std::to_string(ref.cols[k]) + ")");
    }
    const std::complex<double> got(real_part(C.values[i]), imag_part(C.values[i]));
    const std::complex<double> want(real_part(ref.values[k]), imag_part(ref.values[k]));
    const double error = std::abs(got - want);
    const double allowed = 8.0 * eps * ref.magnitude[k] + underflow;
    const double scaled = std::isfinite(error) ? error / allowed : std::numeric_limits<double>::infinity();
    if (!(scaled <= acc.max_scaled_error)) {
      acc.max_scaled_error = scaled;
      acc.worst_entry = static_cast<index_type>(k);
    }
  }
  acc.passed = acc.max_scaled_error <= 1.0;
  return acc;
}

}  // namespace strata::reference
