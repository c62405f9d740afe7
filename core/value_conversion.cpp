#include <strata/core/error.hpp>
#include <strata/core/value_conversion.hpp>

#include <cstdio>
#include <limits>

namespace strata {

namespace {
std::string shortest(double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof(buffer), "%.6g", value);
  return buffer;
}
}  // namespace

std::string describe_conversion_problem(ConversionProblem problem, const char* type_name, double largest,
                                        double smallest) {
  switch (problem) {
    case ConversionProblem::overflow:
      return std::string("overflows the requested type ") + type_name + " (largest finite magnitude " +
             shortest(largest) + (largest < std::numeric_limits<double>::max() ? "; use double precision)" : ")");
    case ConversionProblem::underflow:
      return std::string("underflows to zero in ") + type_name + " (smallest nonzero magnitude " + shortest(smallest) +
             "; the allow_underflow option, --allow-underflow on the command line, stores it as zero)";
    case ConversionProblem::non_finite:
      return "is not finite (the allow_non_finite option, --allow-non-finite on the command line, accepts inf and "
             "nan)";
    case ConversionProblem::none: break;
  }
  return "converts without a problem";
}

void throw_value_conversion_error(const std::string& problem, index_type row, index_type col, double re, double im,
                                  bool is_complex, const char* type_name) {
  char value[96];
  if (is_complex) {
    std::snprintf(value, sizeof(value), "%.17g%+.17gi", re, im);
  } else {
    std::snprintf(value, sizeof(value), "%.17g", re);
  }
  throw Error("converting to " + std::string(type_name) + ": the value " + value + " of entry (" +
              std::to_string(row + 1) + ", " + std::to_string(col + 1) + ") " + problem);
}

}  // namespace strata
