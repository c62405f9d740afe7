#pragma once
#include <Kokkos_Complex.hpp>

#include <complex>
#include <type_traits>

namespace strata {

// What Strata needs to know about a matrix value type beyond arithmetic:
// whether it is complex, its real component type, and a name for reports.
template <class Value>
struct value_traits;

template <>
struct value_traits<float> {
  using real_type = float;
  static constexpr bool is_complex = false;
  static constexpr const char* name = "float";
};

template <>
struct value_traits<double> {
  using real_type = double;
  static constexpr bool is_complex = false;
  static constexpr const char* name = "double";
};

template <>
struct value_traits<Kokkos::complex<float>> {
  using real_type = float;
  static constexpr bool is_complex = true;
  static constexpr const char* name = "complex<float>";
};

template <>
struct value_traits<Kokkos::complex<double>> {
  using real_type = double;
  static constexpr bool is_complex = true;
  static constexpr const char* name = "complex<double>";
};

template <class Value, class = void>
struct is_supported_value : std::false_type {};
template <class Value>
struct is_supported_value<Value, std::void_t<decltype(value_traits<Value>::is_complex)>> : std::true_type {};

// Conversions used when reading files and comparing against references, which
// work in double or complex<double>.
template <class Value>
KOKKOS_INLINE_FUNCTION Value value_from(double re, double im) {
  if constexpr (value_traits<Value>::is_complex) {
    using R = typename value_traits<Value>::real_type;
    return Value(static_cast<R>(re), static_cast<R>(im));
  } else {
    (void)im;
    return static_cast<Value>(re);
  }
}

template <class Value>
KOKKOS_INLINE_FUNCTION double real_part(const Value& v) {
  if constexpr (value_traits<Value>::is_complex) {
    return static_cast<double>(v.real());
  } else {
    return static_cast<double>(v);
  }
}

template <class Value>
KOKKOS_INLINE_FUNCTION double imag_part(const Value& v) {
  if constexpr (value_traits<Value>::is_complex) {
    return static_cast<double>(v.imag());
  } else {
    (void)v;
    return 0.0;
  }
}

template <class Value>
KOKKOS_INLINE_FUNCTION Value conjugate(const Value& v) {
  if constexpr (value_traits<Value>::is_complex) {
    return Value(v.real(), -v.imag());
  } else {
    return v;
  }
}

}  // namespace strata
