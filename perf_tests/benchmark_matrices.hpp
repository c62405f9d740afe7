#pragma once
// The matrix list of a benchmark run: generated matrices sized for the device
// plus every Matrix Market file of the real-matrix directory, overridable with
// --matrices=SPEC[,SPEC...] and --matrix-dir=DIR (empty to leave real matrices out).
#include <strata/core/matrix_source.hpp>
#include <strata/core/value_conversion.hpp>

#include <string>
#include <vector>

namespace strata::bench {

struct MatrixSelection {
  std::vector<std::string> sources;
  std::vector<std::string> precisions{"double", "float"};
  int repetitions = 100;
};

// Consumes the Strata options from argv (before benchmark::Initialize sees it);
// throws strata::Error on a malformed option.
MatrixSelection parse_matrix_selection(int* argc, char** argv, const std::vector<std::string>& default_generated);

std::string selection_help();

// Prints selection_help(), then `extra`, and returns true when argv holds --help.
bool print_help_if_asked(int argc, char** argv, const std::string& extra);

// How benchmarks narrow matrices to float: values below float's range (in
// adder_dcop_05 and bayer10) become zero rather than failing the benchmark;
// the float results are checked against the narrowed matrix.
inline const ValueConversionOptions bench_float_conversion{true, false};

// Benchmarks run in registration order, matrix by matrix: this keeps only the
// matrix of the current benchmark in host memory, loading it on first use.
const LoadedMatrix& current_matrix(const std::string& source);

// Calls f with the matrix in the value type `precision` asks for: double or
// float, complex<double> or complex<float> for complex files (narrowed with
// bench_float_conversion).
template <class F>
void with_bench_value_type(const LoadedMatrix& m, const std::string& precision, F&& f) {
  if (m.is_complex) {
    if (precision == "double") {
      f(m.complex);
    } else {
      f(convert_values<Kokkos::complex<float>>(m.complex, bench_float_conversion));
    }
  } else if (precision == "double") {
    f(m.real);
  } else {
    f(convert_values<float>(m.real, bench_float_conversion));
  }
}

}  // namespace strata::bench
