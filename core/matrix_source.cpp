#include <strata/core/generators.hpp>
#include <strata/core/matrix_source.hpp>

#include <Kokkos_Timer.hpp>

#include <filesystem>
#include <ostream>

namespace strata {

std::string matrix_name(const std::string& source) {
  if (is_generator_spec(source)) return source;
  std::string stem = std::filesystem::path(source).filename().string();
  for (const char* suffix : {".gz", ".mtx"}) {
    const std::string s(suffix);
    if (stem.size() > s.size() && stem.compare(stem.size() - s.size(), s.size(), s) == 0) {
      stem.erase(stem.size() - s.size());
    }
  }
  return stem;
}

namespace {

HostCsr<double> generate_within_limits(const std::string& source, const MatrixLimits& limits) {
  const GeneratorSpec spec = parse_generator_spec(source);
  const GeneratorSize size = generator_size(spec);
  const std::string violation = matrix_limit_violation(limits, size.rows, size.cols, size.entries);
  if (!violation.empty()) throw ArgumentError("generator spec '" + source + "': " + violation);
  return generate(spec);
}

void read_file(const std::string& source, const MatrixLoadOptions& options, LoadedMatrix& m) {
  MatrixMarketReadOptions read_options;
  read_options.values = options.values;
  read_options.limits = options.limits;
  const MatrixMarketHeader header = read_matrix_market_header(source);
  MatrixMarketReport report;
  if (header.field == MmField::complex) {
    m.is_complex = true;
    m.complex = to_csr(read_matrix_market<Kokkos::complex<double>>(source, read_options, &report));
  } else {
    m.real = to_csr(read_matrix_market<double>(source, read_options, &report));
  }
  m.file_report = report;
}

}  // namespace

LoadedMatrix load_matrix(const std::string& source, std::ostream* progress, const MatrixLoadOptions& options) {
  LoadedMatrix m;
  m.name = matrix_name(source);
  Kokkos::Timer timer;
  const bool generated = is_generator_spec(source);
  if (progress) *progress << "strata: " << (generated ? "generating " : "reading ") << source << " ..." << std::flush;
  try {
    if (generated) {
      m.real = generate_within_limits(source, options.limits);
    } else {
      read_file(source, options, m);
    }
  } catch (...) {
    // The error is printed by the caller on a line of its own.
    if (progress) *progress << " failed" << std::endl;
    throw;
  }
  m.load_seconds = timer.seconds();
  if (progress) {
    *progress << " " << m.num_rows() << " x " << m.num_cols() << ", " << m.nnz() << " nonzeros in "
              << m.load_seconds << " s\n";
  }
  return m;
}

}  // namespace strata
