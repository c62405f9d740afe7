#pragma once
// Calls f with the loaded matrix in the value type a command asked for:
// double or float, complex<double> or complex<float> for complex files.
#include "command_line.hpp"

#include <strata/core/matrix_source.hpp>

#include <string>

namespace strata::cli {

inline void require_precision(const std::string& precision, const std::string& command) {
  if (precision != "double" && precision != "float") {
    throw UsageError(command + ": --precision must be double or float, got '" + precision + "'");
  }
}

// Returns the value type's name. Narrowing to float is checked with the same
// options the file was read with (--allow-underflow, --allow-non-finite).
template <class F>
std::string with_value_type(const LoadedMatrix& m, const std::string& precision, const ValueConversionOptions& values,
                            F&& f) {
  if (m.is_complex) {
    if (precision == "double") {
      f(m.complex);
      return value_traits<Kokkos::complex<double>>::name;
    }
    f(convert_values<Kokkos::complex<float>>(m.complex, values));
    return value_traits<Kokkos::complex<float>>::name;
  }
  if (precision == "double") {
    f(m.real);
    return "double";
  }
  f(convert_values<float>(m.real, values));
  return "float";
}

}  // namespace strata::cli
