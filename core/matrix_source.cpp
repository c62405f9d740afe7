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

LoadedMatrix load_matrix(const std::string& source, std::ostream* progress) {
  LoadedMatrix m;
  m.name = matrix_name(source);
  Kokkos::Timer timer;
  if (is_generator_spec(source)) {
    const GeneratorSpec spec = parse_generator_spec(source);
    if (progress) *progress << "strata: generating " << source << " ..." << std::flush;
    m.real = generate(spec);
  } else {
    if (progress) *progress << "strata: reading " << source << " ..." << std::flush;
    const MatrixMarketHeader header = read_matrix_market_header(source);
    MatrixMarketReport report;
    if (header.field == MmField::complex) {
      m.is_complex = true;
      m.complex = to_csr(read_matrix_market<Kokkos::complex<double>>(source, &report));
    } else {
      m.real = to_csr(read_matrix_market<double>(source, &report));
    }
    m.file_report = report;
  }
  m.load_seconds = timer.seconds();
  if (progress) {
    *progress << " " << m.num_rows() << " x " << m.num_cols() << ", " << m.nnz() << " nonzeros in "
              << m.load_seconds << " s\n";
  }
  return m;
}

}  // namespace strata
