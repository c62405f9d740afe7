#pragma once
#include <strata/core/index.hpp>
#include <strata/core/value_traits.hpp>

#include <cmath>
#include <limits>
#include <string>

namespace strata {

// What may happen to a value on its way into a value type besides rounding, and
// which of it the caller accepts. Overflow (1e300 into float) is never accepted:
// its remedy is a wider type, not a flag.
struct ValueConversionOptions {
  // A nonzero value that becomes zero (1e-400 in double, 1e-50 in float) is
  // stored as a signed zero instead of being an error. Subnormal results are
  // nonzero and always accepted.
  bool allow_underflow = false;
  // inf and nan are kept as they are instead of being an error.
  bool allow_non_finite = false;
};

enum class ConversionProblem { none, overflow, underflow, non_finite };

// The problem of storing `value` as `Real` (float or double), given what the
// options allow. Narrowing relies on IEEE 754 (values beyond float's range
// become inf, which is detected), as on every platform Strata supports.
template <class Real>
ConversionProblem narrowing_problem(double value, const ValueConversionOptions& options) {
  static_assert(std::numeric_limits<Real>::is_iec559, "narrowing_problem needs IEEE 754 types");
  if (!std::isfinite(value)) return options.allow_non_finite ? ConversionProblem::none : ConversionProblem::non_finite;
  const Real narrowed = static_cast<Real>(value);
  if (!std::isfinite(narrowed)) return ConversionProblem::overflow;
  if (narrowed == Real(0) && value != 0.0 && !options.allow_underflow) return ConversionProblem::underflow;
  return ConversionProblem::none;
}

// Completes a sentence whose subject is the value: "overflows the requested type
// float (largest finite magnitude 3.40282e+38; ...)", "underflows to zero in
// float (...)"; `largest` and `smallest` are the type's largest finite and
// smallest nonzero magnitudes.
std::string describe_conversion_problem(ConversionProblem problem, const char* type_name, double largest,
                                        double smallest);

template <class Value>
std::string describe_conversion_problem(ConversionProblem problem) {
  using Real = typename value_traits<Value>::real_type;
  return describe_conversion_problem(problem, value_traits<Value>::name, std::numeric_limits<Real>::max(),
                                     std::numeric_limits<Real>::denorm_min());
}

// Thrown by convert_values (host_csr.hpp): a strata::Error naming the entry's
// 1-based row and column, its value, the target type and the problem.
[[noreturn]] void throw_value_conversion_error(const std::string& problem, index_type row, index_type col, double re,
                                               double im, bool is_complex, const char* type_name);

}  // namespace strata
