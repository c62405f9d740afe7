#pragma once
#include <strata/core/host_csr.hpp>
#include <strata/core/matrix_market.hpp>

#include <optional>
#include <string>

namespace strata {

// A matrix named on a command line or in a benchmark list: a Matrix Market
// file (.mtx or .mtx.gz) or a generator spec ("gen:poisson3d:128").
struct LoadedMatrix {
  std::string name;  // file stem or the generator spec
  bool is_complex = false;
  HostCsr<double> real;                       // when !is_complex
  HostCsr<Kokkos::complex<double>> complex;   // when is_complex
  std::optional<MatrixMarketReport> file_report;
  double load_seconds = 0.0;

  index_type num_rows() const { return is_complex ? complex.num_rows : real.num_rows; }
  index_type num_cols() const { return is_complex ? complex.num_cols : real.num_cols; }
  index_type nnz() const { return is_complex ? complex.nnz() : real.nnz(); }
};

struct MatrixLoadOptions {
  // Underflow and inf/nan in files (see MatrixMarketReadOptions).
  ValueConversionOptions values;
  // Checked before anything is allocated: on a file's size line, and on a
  // generator spec's computed size. By default what the device formats hold.
  MatrixLimits limits = device_matrix_limits();
};

// Loads the matrix; progress lines go to `progress` when it is non-null (large
// files and generators take seconds), and a started line is ended before an
// error propagates. Throws strata::ArgumentError for a malformed or too large
// generator spec, strata::FileError for a bad file, strata::Error otherwise.
LoadedMatrix load_matrix(const std::string& source, std::ostream* progress = nullptr,
                         const MatrixLoadOptions& options = {});

// "path/to/cage11.mtx.gz" -> "cage11"; a generator spec is its own name.
std::string matrix_name(const std::string& source);

}  // namespace strata
