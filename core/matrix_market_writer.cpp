#include <strata/core/matrix_market.hpp>

#include <strata/core/error.hpp>
#include <strata/core/value_traits.hpp>

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <unistd.h>

namespace strata {

namespace {

std::string location(index_type row, index_type col) {
  return "(" + std::to_string(row + 1) + ", " + std::to_string(col + 1) + ")";
}

template <class Value>
std::string describe(const Value& value) {
  char buffer[96];
  if (value_traits<Value>::is_complex) {
    std::snprintf(buffer, sizeof(buffer), "%.17g%+.17gi", real_part(value), imag_part(value));
  } else {
    std::snprintf(buffer, sizeof(buffer), "%.17g", real_part(value));
  }
  return buffer;
}

template <class Value>
bool same_value(const Value& a, const Value& b) {
  return real_part(a) == real_part(b) && imag_part(a) == imag_part(b);
}

template <class Value>
bool is_zero(const Value& value) {
  return real_part(value) == 0.0 && imag_part(value) == 0.0;
}

// The value the upper-triangle partner of an entry must hold.
template <class Value>
Value mirrored(const Value& value, MmSymmetry symmetry) {
  switch (symmetry) {
    case MmSymmetry::skew_symmetric: return -value;
    case MmSymmetry::hermitian: return conjugate(value);
    default: return value;
  }
}

// Index of entry (row, col) in a matrix sorted by (row, col), or -1.
template <class Value>
index_type find_entry(const HostCoo<Value>& matrix, index_type row, index_type col) {
  index_type low = 0;
  index_type high = matrix.nnz();
  while (low < high) {
    const index_type middle = low + (high - low) / 2;
    const bool before = matrix.rows[middle] < row || (matrix.rows[middle] == row && matrix.cols[middle] < col);
    if (before) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  if (low < matrix.nnz() && matrix.rows[low] == row && matrix.cols[low] == col) return low;
  return -1;
}

// Throws unless storing only the lower triangle loses nothing: every entry's
// mirror holds exactly the mirrored value (a missing mirror counts as zero),
// skew-symmetric diagonals are zero and hermitian diagonals are real. For
// pattern output only the structure has to be symmetric.
template <class Value>
void verify_symmetry(const std::string& path, const HostCoo<Value>& matrix, MmSymmetry symmetry, bool pattern) {
  const std::string prefix = "write_matrix_market: cannot write " + path + " as " + to_string(symmetry) + ": ";
  STRATA_REQUIRE(matrix.num_rows == matrix.num_cols, prefix + "the matrix is " + std::to_string(matrix.num_rows) +
                                                         " x " + std::to_string(matrix.num_cols) +
                                                         ", not square");
  for (index_type k = 0; k < matrix.nnz(); ++k) {
    const index_type row = matrix.rows[k];
    const index_type col = matrix.cols[k];
    const Value& value = matrix.values[k];
    if (row == col) {
      if (pattern) continue;
      STRATA_REQUIRE(symmetry != MmSymmetry::skew_symmetric || is_zero(value),
                     prefix + "diagonal entry " + location(row, col) + " = " + describe(value) + " is not zero");
      STRATA_REQUIRE(symmetry != MmSymmetry::hermitian || imag_part(value) == 0.0,
                     prefix + "diagonal entry " + location(row, col) + " = " + describe(value) + " is not real");
      continue;
    }
    const index_type partner = find_entry(matrix, col, row);
    if (pattern) {
      STRATA_REQUIRE(partner >= 0, prefix + "entry " + location(row, col) + " has no partner " + location(col, row));
      continue;
    }
    const Value expected = mirrored(value, symmetry);
    const Value actual = partner >= 0 ? matrix.values[partner] : Value(0);
    STRATA_REQUIRE(same_value(expected, actual), prefix + "entry " + location(row, col) + " = " + describe(value) +
                                                     " but " + location(col, row) + " = " + describe(actual) +
                                                     (partner >= 0 ? "" : " (absent)"));
  }
}

// Output goes through one of two sinks; both are closed exactly once.
class OutputFile {
 public:
  OutputFile(const std::string& path, const std::string& temporary_path, bool gzip)
      : path_(path), temporary_path_(temporary_path) {
    errno = 0;
    if (gzip) {
      gzip_ = gzopen(temporary_path.c_str(), "wb6");
      if (gzip_ == nullptr) fail_errno("cannot create " + temporary_path);
      gzbuffer(gzip_, 1u << 18);
    } else {
      plain_ = std::fopen(temporary_path.c_str(), "wb");
      if (plain_ == nullptr) fail_errno("cannot create " + temporary_path);
    }
    created_ = true;
  }

  ~OutputFile() {
    abandon_handles();
    if (created_ && !committed_) std::remove(temporary_path_.c_str());
  }

  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(const std::string& bytes) {
    if (bytes.empty()) return;
    errno = 0;
    if (gzip_ != nullptr) {
      const int written = gzwrite(gzip_, bytes.data(), static_cast<unsigned>(bytes.size()));
      if (written <= 0 || static_cast<std::size_t>(written) != bytes.size()) fail_gzip("write error");
    } else {
      if (std::fwrite(bytes.data(), 1, bytes.size(), plain_) != bytes.size()) fail_errno("write error");
    }
  }

  // Flushes and closes the temporary file, then renames it over the target.
  void commit() {
    errno = 0;
    if (gzip_ != nullptr) {
      const int status = gzclose_w(gzip_);
      gzip_ = nullptr;
      if (status != Z_OK) {
        fail_errno(status == Z_ERRNO ? "write error on close" : "gzip error on close (zlib status " +
                                                                    std::to_string(status) + ")");
      }
    } else {
      const int status = std::fclose(plain_);
      plain_ = nullptr;
      if (status != 0) fail_errno("write error on close");
    }
    errno = 0;
    if (std::rename(temporary_path_.c_str(), path_.c_str()) != 0) {
      fail_errno("cannot rename " + temporary_path_ + " to the target");
    }
    committed_ = true;
  }

 private:
  void abandon_handles() {
    if (gzip_ != nullptr) gzclose_w(gzip_);
    if (plain_ != nullptr) std::fclose(plain_);
    gzip_ = nullptr;
    plain_ = nullptr;
  }

  [[noreturn]] void fail_errno(const std::string& what) {
    const int error = errno;
    throw Error("write_matrix_market: cannot write " + path_ + ": " + what +
                (error != 0 ? std::string(" (") + std::strerror(error) + ")" : std::string()));
  }

  [[noreturn]] void fail_gzip(const std::string& what) {
    int status = Z_OK;
    const char* message = gzerror(gzip_, &status);
    if (status == Z_ERRNO) fail_errno(what);
    std::string text = message != nullptr ? message : "unknown zlib error";
    // zlib prefixes its messages with the file name, which this message already names.
    const std::string prefix = temporary_path_ + ": ";
    if (text.compare(0, prefix.size(), prefix) == 0) text = text.substr(prefix.size());
    throw Error("write_matrix_market: cannot write " + path_ + ": " + what + " (" + text + ")");
  }

  std::string path_;
  std::string temporary_path_;
  std::FILE* plain_ = nullptr;
  gzFile gzip_ = nullptr;
  bool created_ = false;
  bool committed_ = false;
};

void append_index(std::string& out, index_type index) {
  char buffer[24];
  const std::to_chars_result result = std::to_chars(buffer, buffer + sizeof(buffer), index);
  out.append(buffer, result.ptr);
}

// Enough significant digits that reading the text back gives the same bits:
// 9 for float, 17 for double.
template <class Real>
void append_real(std::string& out, Real value) {
  char buffer[40];
  const int length = std::numeric_limits<Real>::digits > 24
                         ? std::snprintf(buffer, sizeof(buffer), "%.17g", static_cast<double>(value))
                         : std::snprintf(buffer, sizeof(buffer), "%.9g", static_cast<double>(value));
  out.append(buffer, static_cast<std::size_t>(length));
}

enum class WrittenField { real, integer, complex, pattern };

template <class Value>
void append_value(std::string& out, const Value& value, WrittenField field) {
  using Real = typename value_traits<Value>::real_type;
  switch (field) {
    case WrittenField::pattern: return;
    case WrittenField::integer: append_index(out, static_cast<index_type>(real_part(value))); return;
    case WrittenField::real: append_real(out, static_cast<Real>(real_part(value))); return;
    case WrittenField::complex:
      append_real(out, static_cast<Real>(real_part(value)));
      out += ' ';
      append_real(out, static_cast<Real>(imag_part(value)));
      return;
  }
}

const char* field_name(WrittenField field) {
  switch (field) {
    case WrittenField::real: return "real";
    case WrittenField::integer: return "integer";
    case WrittenField::complex: return "complex";
    case WrittenField::pattern: return "pattern";
  }
  return "real";
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Values are checked before anything is written, so a refused matrix never
// creates a file.
template <class Value>
void verify_values(const std::string& path, const HostCoo<Value>& matrix, WrittenField field) {
  const std::string prefix = "write_matrix_market: cannot write " + path + ": ";
  // 2^63 is exact in double; integers at or above it do not fit in the 64-bit integers the reader accepts.
  const double integer_limit = 9223372036854775808.0;
  for (index_type k = 0; k < matrix.nnz(); ++k) {
    const Value& value = matrix.values[k];
    const double re = real_part(value);
    const double im = imag_part(value);
    if (field == WrittenField::pattern) continue;
    STRATA_REQUIRE(std::isfinite(re) && std::isfinite(im),
                   prefix + "entry " + location(matrix.rows[k], matrix.cols[k]) + " = " + describe(value) +
                       " is not finite, which Matrix Market files cannot hold");
    if (field == WrittenField::integer) {
      STRATA_REQUIRE(im == 0.0 && std::trunc(re) == re && re >= -integer_limit && re < integer_limit,
                     prefix + "entry " + location(matrix.rows[k], matrix.cols[k]) + " = " + describe(value) +
                         " is not a 64-bit integer, as the integer field requires");
    }
  }
}

}  // namespace

template <class Value>
void write_matrix_market(const std::string& path, const HostCoo<Value>& input, const MatrixMarketWriteOptions& options) {
  const std::string prefix = "write_matrix_market: cannot write " + path + ": ";
  const bool is_complex = value_traits<Value>::is_complex;
  const MmSymmetry symmetry = options.symmetry;
  STRATA_REQUIRE(!(options.pattern && options.integer), prefix + "pattern and integer exclude each other");
  const WrittenField field = options.pattern   ? WrittenField::pattern
                             : options.integer ? WrittenField::integer
                             : is_complex      ? WrittenField::complex
                                               : WrittenField::real;
  STRATA_REQUIRE(!(options.format == MmFormat::array && field == WrittenField::pattern),
                 prefix + "the array format stores values and cannot be pattern");
  STRATA_REQUIRE(symmetry != MmSymmetry::hermitian || field == WrittenField::complex,
                 prefix + "hermitian needs complex values written as complex (use symmetric for real matrices)");
  STRATA_REQUIRE(!(symmetry == MmSymmetry::skew_symmetric && field == WrittenField::pattern),
                 prefix + "a pattern file cannot be skew-symmetric: signs need values");

  HostCoo<Value> matrix = input;
  try {
    matrix.validate();
  } catch (const Error& invalid) {
    throw Error(prefix + invalid.what());
  }
  matrix.sort_and_combine();
  verify_values(path, matrix, field);
  if (symmetry != MmSymmetry::general) verify_symmetry(path, matrix, symmetry, field == WrittenField::pattern);

  // Entries to write: all of a general matrix, else the lower triangle (without
  // the zero diagonal of a skew-symmetric one).
  const bool general = symmetry == MmSymmetry::general;
  const bool with_diagonal = symmetry != MmSymmetry::skew_symmetric;
  std::vector<index_type> stored;
  stored.reserve(static_cast<std::size_t>(matrix.nnz()));
  for (index_type k = 0; k < matrix.nnz(); ++k) {
    const index_type row = matrix.rows[k];
    const index_type col = matrix.cols[k];
    if (general || row > col || (with_diagonal && row == col)) stored.push_back(k);
  }

  const bool array = options.format == MmFormat::array;
  if (array) {
    // Array files list columns in order, each from its first stored row down.
    std::sort(stored.begin(), stored.end(), [&matrix](index_type a, index_type b) {
      return matrix.cols[a] < matrix.cols[b] || (matrix.cols[a] == matrix.cols[b] && matrix.rows[a] < matrix.rows[b]);
    });
  }

  std::string out;
  out.reserve(std::size_t{1} << 20);
  out += "%%MatrixMarket matrix ";
  out += to_string(options.format);
  out += ' ';
  out += field_name(field);
  out += ' ';
  out += to_string(symmetry);
  out += "\n% written by Strata\n";
  append_index(out, matrix.num_rows);
  out += ' ';
  append_index(out, matrix.num_cols);
  if (!array) {
    out += ' ';
    append_index(out, static_cast<index_type>(stored.size()));
  }
  out += '\n';

  const bool gzip = options.compression == MatrixMarketWriteOptions::Compression::gzip ||
                    (options.compression == MatrixMarketWriteOptions::Compression::by_extension &&
                     ends_with(path, ".gz"));
  OutputFile file(path, path + ".tmp." + std::to_string(static_cast<long long>(getpid())), gzip);
  const std::size_t flush_size = std::size_t{1} << 20;
  if (array) {
    const Value zero(0);
    std::size_t next = 0;
    // With no rows every column is empty; skipping them avoids a loop over a
    // possibly astronomical column count.
    const index_type columns = matrix.num_rows == 0 ? 0 : matrix.num_cols;
    for (index_type col = 0; col < columns; ++col) {
      const index_type first_row = general ? 0 : (with_diagonal ? col : col + 1);
      for (index_type row = first_row; row < matrix.num_rows; ++row) {
        const bool present =
            next < stored.size() && matrix.rows[stored[next]] == row && matrix.cols[stored[next]] == col;
        append_value(out, present ? matrix.values[stored[next]] : zero, field);
        if (present) ++next;
        out += '\n';
        if (out.size() >= flush_size) {
          file.write(out);
          out.clear();
        }
      }
    }
  } else {
    for (index_type k : stored) {
      append_index(out, matrix.rows[k] + 1);
      out += ' ';
      append_index(out, matrix.cols[k] + 1);
      if (field != WrittenField::pattern) out += ' ';
      append_value(out, matrix.values[k], field);
      out += '\n';
      if (out.size() >= flush_size) {
        file.write(out);
        out.clear();
      }
    }
  }
  file.write(out);
  file.commit();
}

#define STRATA_INSTANTIATE_MATRIX_MARKET_WRITER(Value)                                         \
  template void write_matrix_market<Value>(const std::string&, const HostCoo<Value>&, \
                                           const MatrixMarketWriteOptions&);

STRATA_INSTANTIATE_MATRIX_MARKET_WRITER(float)
STRATA_INSTANTIATE_MATRIX_MARKET_WRITER(double)
STRATA_INSTANTIATE_MATRIX_MARKET_WRITER(Kokkos::complex<float>)
STRATA_INSTANTIATE_MATRIX_MARKET_WRITER(Kokkos::complex<double>)

#undef STRATA_INSTANTIATE_MATRIX_MARKET_WRITER

}  // namespace strata
