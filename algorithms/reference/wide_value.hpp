#pragma once
// The precision host references compute in, whatever the value type: double, or
// complex<double> for complex values.
#include <strata/core/value_traits.hpp>

#include <complex>
#include <type_traits>

namespace strata::reference {

template <class Value>
using wide_t = std::conditional_t<value_traits<Value>::is_complex, Kokkos::complex<double>, double>;

template <class Value>
wide_t<Value> widen(const Value& v) {
  return value_from<wide_t<Value>>(real_part(v), imag_part(v));
}

template <class Value>
double modulus(const Value& v) {
  return std::abs(std::complex<double>(real_part(v), imag_part(v)));
}

}  // namespace strata::reference
