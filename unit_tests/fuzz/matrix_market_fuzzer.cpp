// libFuzzer harness for the Matrix Market reader. The first byte selects the
// value type and the read options; the rest is the file's bytes, plain or gzip,
// read through parse_matrix_market, which shares all decoding and parsing with
// the path entry. The reader promises strata::FileError for every defect of the
// input, so any other exception escapes and is reported as a crash; a matrix
// it returns must be valid.
#include <strata/core/error.hpp>
#include <strata/core/matrix_market.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

template <class Value>
bool finite(const Value& value) {
  return std::isfinite(strata::real_part(value)) && std::isfinite(strata::imag_part(value));
}

template <class Value>
void read_and_check(const std::string& bytes, const strata::MatrixMarketReadOptions& options) {
  strata::MatrixMarketReport report;
  strata::HostCoo<Value> matrix;
  try {
    matrix = strata::parse_matrix_market<Value>(bytes, "fuzz-input", options, &report);
  } catch (const strata::FileError&) {
    return;
  }
  try {
    matrix.validate();
  } catch (const strata::Error&) {
    std::abort();  // the reader returned entries outside the matrix
  }
  if (!matrix.is_sorted_unique() || report.entries != matrix.nnz()) std::abort();
  if (matrix.num_rows > options.limits.max_rows || matrix.num_cols > options.limits.max_cols) std::abort();
  if (!options.values.allow_non_finite) {
    // Duplicates are summed after reading, so only the stored values are known
    // finite; a sum may overflow, which is not the reader's concern.
    if (report.duplicates_summed == 0) {
      for (const Value& value : matrix.values) {
        if (!finite(value)) std::abort();
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t selector = data[0];
  const std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  strata::MatrixMarketReadOptions options;
  options.values.allow_underflow = (selector & 4) != 0;
  options.values.allow_non_finite = (selector & 8) != 0;
  if ((selector & 16) != 0) options.limits = strata::device_matrix_limits();
  if ((selector & 32) != 0) options.limits = strata::MatrixLimits{50, 50, 20, "fuzzing"};
  switch (selector & 3) {
    case 0: read_and_check<double>(bytes, options); break;
    case 1: read_and_check<float>(bytes, options); break;
    case 2: read_and_check<Kokkos::complex<double>>(bytes, options); break;
    default: read_and_check<Kokkos::complex<float>>(bytes, options); break;
  }
  return 0;
}
