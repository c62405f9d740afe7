// libFuzzer harness for the gen: spec parser. Parsing must either succeed or
// throw strata::ArgumentError; a parsed spec's size must be computable without
// generating; and specs whose size is small are generated and checked against
// that size, so the harness never asks for a huge matrix.
#include <strata/core/error.hpp>
#include <strata/core/generators.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  strata::GeneratorSpec spec;
  try {
    spec = strata::parse_generator_spec(text);
  } catch (const strata::ArgumentError&) {
    return 0;
  }
  if (spec.text != text || !strata::is_generator_spec(text)) std::abort();
  const strata::GeneratorSize expected = strata::generator_size(spec);
  if (expected.rows < 0 || expected.cols < 0 || expected.entries < 0) std::abort();
  constexpr strata::index_type small = 1 << 12;
  if (expected.rows > small || expected.cols > small || expected.entries > (1 << 16)) return 0;
  strata::HostCsr<double> matrix;
  try {
    matrix = strata::generate(spec);
  } catch (const strata::ArgumentError&) {
    return 0;  // parameters out of a generator's range (e.g. a zero grid size)
  }
  try {
    matrix.validate();
  } catch (const strata::Error&) {
    std::abort();
  }
  if (matrix.num_rows != expected.rows || matrix.num_cols != expected.cols || matrix.nnz() > expected.entries) {
    std::abort();
  }
  return 0;
}
