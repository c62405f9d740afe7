#pragma once
#include <strata/core/host_coo.hpp>

#include <string>

namespace strata {

// Matrix Market exchange format (NIST), both `coordinate` and `array` layouts,
// plain or gzip-compressed (detected from the file's magic bytes, not its name).
enum class MmFormat { coordinate, array };
enum class MmField { real, integer, complex, pattern };
enum class MmSymmetry { general, symmetric, skew_symmetric, hermitian };

const char* to_string(MmFormat);
const char* to_string(MmField);
const char* to_string(MmSymmetry);

struct MatrixMarketHeader {
  MmFormat format = MmFormat::coordinate;
  MmField field = MmField::real;
  MmSymmetry symmetry = MmSymmetry::general;
  index_type num_rows = 0;
  index_type num_cols = 0;
  // Entries the file stores: the count on the size line for `coordinate`, and
  // rows*cols (or the stored triangle) for `array`.
  index_type stored_entries = 0;
};

struct MatrixMarketReport {
  MatrixMarketHeader header;
  index_type duplicates_summed = 0;  // stored entries merged into an earlier one with equal coordinates
  index_type entries = 0;            // entries of the returned matrix after expansion and summation
};

// Reads a whole file into a sorted, duplicate-free COO matrix. Symmetric,
// skew-symmetric and hermitian files are expanded to general. `pattern`
// entries get the value 1. A complex file read into a real value type is an
// error. Every defect of the input throws strata::FileError naming the file
// and line; nothing is returned half-read.
template <class Value>
HostCoo<Value> read_matrix_market(const std::string& path, MatrixMarketReport* report = nullptr);

// The same from text in memory; `name` stands for the path in error messages.
template <class Value>
HostCoo<Value> parse_matrix_market(const std::string& text, const std::string& name,
                                   MatrixMarketReport* report = nullptr);

// Reads only the banner and size line.
MatrixMarketHeader read_matrix_market_header(const std::string& path);

struct MatrixMarketWriteOptions {
  MmFormat format = MmFormat::coordinate;
  // Non-general symmetries store one triangle; the writer verifies that the
  // matrix really has that symmetry and throws strata::Error otherwise.
  MmSymmetry symmetry = MmSymmetry::general;
  // Writes `pattern` (no values) or `integer` instead of the value type's field;
  // integer requires every value to be integral.
  bool pattern = false;
  bool integer = false;
  // gzip-compress the output; by default, when the path ends in ".gz".
  enum class Compression { by_extension, none, gzip } compression = Compression::by_extension;
};

// Writes the matrix (duplicates are summed first). The file is written to a
// temporary name beside the target and renamed only when complete, so a
// failure never leaves a truncated matrix under the requested name.
template <class Value>
void write_matrix_market(const std::string& path, const HostCoo<Value>& matrix,
                         const MatrixMarketWriteOptions& options = {});

}  // namespace strata
