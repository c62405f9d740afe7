#pragma once
#include <strata/core/host_coo.hpp>
#include <strata/core/matrix_limits.hpp>
#include <strata/core/value_conversion.hpp>

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

// How a file is read beyond its own description.
struct MatrixMarketReadOptions {
  // What values that do not survive conversion to the value type unchanged do:
  // by default a nonzero value that becomes zero (1e-400 in double, 1e-50 in
  // float) and inf/nan in the file are errors naming file, line and value.
  // Values beyond the type's range (1e999, 1e300 into float) are always errors.
  ValueConversionOptions values;
  // Checked on the size line, before anything is allocated; the entry limit
  // again while entries are stored (symmetric files store up to twice the
  // declared count).
  MatrixLimits limits;
};

// Reads a whole file into a sorted, duplicate-free COO matrix. Symmetric,
// skew-symmetric and hermitian files are expanded to general. `pattern`
// entries get the value 1. A complex file read into a real value type is an
// error. Every defect of the input throws strata::FileError naming the file
// and line; nothing is returned half-read.
//
// Reading streams: the text is decoded (gzip is inflated) in chunks as it is
// parsed, so memory holds the matrix, not the file's text. Lines are limited to
// 1 MiB. Numbers are decimal, as Matrix Market defines them: hexadecimal
// floating point ("0x1p-2") is rejected, and so are "inf" and "nan" unless
// options.values.allow_non_finite. Storage grows with the entries actually
// read, never with the count the size line declares.
//
// gzip input (recognised by its magic bytes, whatever the name) may consist of
// several members, which are read as one text (RFC 1952, as `gzip -d` does);
// any other bytes after the last member, corrupt data and truncation are errors.
template <class Value>
HostCoo<Value> read_matrix_market(const std::string& path, MatrixMarketReport* report = nullptr);
template <class Value>
HostCoo<Value> read_matrix_market(const std::string& path, const MatrixMarketReadOptions& options,
                                  MatrixMarketReport* report = nullptr);

// The same from bytes in memory (plain or gzip text, told apart as for files);
// `name` stands for the path in error messages. The path entry and this one
// share every step after the bytes are obtained.
template <class Value>
HostCoo<Value> parse_matrix_market(const std::string& bytes, const std::string& name,
                                   MatrixMarketReport* report = nullptr);
template <class Value>
HostCoo<Value> parse_matrix_market(const std::string& bytes, const std::string& name,
                                   const MatrixMarketReadOptions& options, MatrixMarketReport* report = nullptr);

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
