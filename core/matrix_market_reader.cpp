#include <strata/core/matrix_market.hpp>

#include <strata/core/error.hpp>
#include <strata/core/value_traits.hpp>

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <system_error>

#include <sys/stat.h>

namespace strata {

const char* to_string(MmFormat format) {
  switch (format) {
    case MmFormat::coordinate: return "coordinate";
    case MmFormat::array: return "array";
  }
  return "unknown-format";
}

const char* to_string(MmField field) {
  switch (field) {
    case MmField::real: return "real";
    case MmField::integer: return "integer";
    case MmField::complex: return "complex";
    case MmField::pattern: return "pattern";
  }
  return "unknown-field";
}

const char* to_string(MmSymmetry symmetry) {
  switch (symmetry) {
    case MmSymmetry::general: return "general";
    case MmSymmetry::symmetric: return "symmetric";
    case MmSymmetry::skew_symmetric: return "skew-symmetric";
    case MmSymmetry::hermitian: return "hermitian";
  }
  return "unknown-symmetry";
}

namespace {

constexpr index_type max_index = std::numeric_limits<index_type>::max();
constexpr const char* banner_form = "'%%MatrixMarket matrix <coordinate|array> <real|integer|complex|pattern> "
                                    "<general|symmetric|skew-symmetric|hermitian>'";

[[noreturn]] void fail(const std::string& name, std::int64_t line, const std::string& reason) {
  throw FileError(name, line, reason);
}

// Products of header dimensions can exceed 64 bits for the 2^40-sized matrices
// Strata addresses; saturating keeps the limit checks meaningful without overflow.
index_type saturating_product(index_type a, index_type b) {
  if (a == 0 || b == 0) return 0;
  if (a > max_index / b) return max_index;
  return a * b;
}

// Entries of one triangle of an n x n matrix, with or without its diagonal.
index_type triangle_entries(index_type n, bool with_diagonal) {
  if (n == 0) return 0;
  if (n == max_index) return max_index;
  const index_type a = with_diagonal ? n : n - 1;
  const index_type b = with_diagonal ? n + 1 : n;
  return a % 2 == 0 ? saturating_product(a / 2, b) : saturating_product(a, b / 2);
}

// Stored entries a header allows: the whole matrix for general files, the lower
// triangle (strictly lower for skew-symmetric) otherwise.
index_type storable_entries(MmSymmetry symmetry, index_type rows, index_type cols) {
  switch (symmetry) {
    case MmSymmetry::general: return saturating_product(rows, cols);
    case MmSymmetry::skew_symmetric: return triangle_entries(rows, false);
    case MmSymmetry::symmetric:
    case MmSymmetry::hermitian: return triangle_entries(rows, true);
  }
  return 0;
}

// ---- tokens -------------------------------------------------------------------

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

struct Token {
  const char* begin = nullptr;
  const char* end = nullptr;
  std::size_t size() const { return static_cast<std::size_t>(end - begin); }
};

// A token for an error message: bounded in length and printable, since the
// input may be binary garbage.
std::string quoted(const char* begin, const char* end) {
  const std::size_t limit = 40;
  const std::size_t length = static_cast<std::size_t>(end - begin);
  std::string text = "'";
  for (std::size_t k = 0; k < length && k < limit; ++k) {
    const unsigned char c = static_cast<unsigned char>(begin[k]);
    text += std::isprint(c) ? static_cast<char>(c) : '?';
  }
  if (length > limit) text += "...";
  return text + "'";
}

std::string quoted(const Token& token) { return quoted(token.begin, token.end); }

bool equals_ignoring_case(const Token& token, const char* word) {
  const std::size_t length = std::strlen(word);
  if (token.size() != length) return false;
  for (std::size_t k = 0; k < length; ++k) {
    if (std::tolower(static_cast<unsigned char>(token.begin[k])) != std::tolower(static_cast<unsigned char>(word[k]))) {
      return false;
    }
  }
  return true;
}

bool starts_with_banner(const Token& token) {
  const char* banner = "%%MatrixMarket";
  const std::size_t length = std::strlen(banner);
  return token.size() >= length && equals_ignoring_case(Token{token.begin, token.begin + length}, banner);
}

// Whitespace-separated tokens of one line, scanned in place.
class LineTokens {
 public:
  LineTokens(const char* begin, const char* end) : cursor_(begin), end_(end) {}

  bool next(Token& token) {
    while (cursor_ != end_ && is_blank(*cursor_)) ++cursor_;
    if (cursor_ == end_) return false;
    token.begin = cursor_;
    while (cursor_ != end_ && !is_blank(*cursor_)) ++cursor_;
    token.end = cursor_;
    return true;
  }

 private:
  const char* cursor_;
  const char* end_;
};

// Splits text into lines ('\n'-terminated; a final line may lack it) and
// counts them, so every message can name its line.
class LineCursor {
 public:
  LineCursor(const char* begin, const char* end) : position_(begin), end_(end) {}

  bool next(const char*& line_begin, const char*& line_end) {
    if (position_ == end_) return false;
    const void* newline = std::memchr(position_, '\n', static_cast<std::size_t>(end_ - position_));
    line_begin = position_;
    line_end = newline ? static_cast<const char*>(newline) : end_;
    position_ = newline ? line_end + 1 : end_;
    ++line_number_;
    return true;
  }

  std::int64_t line_number() const { return line_number_; }
  std::size_t remaining_bytes() const { return static_cast<std::size_t>(end_ - position_); }

 private:
  const char* position_;
  const char* end_;
  std::int64_t line_number_ = 0;
};

// ---- numbers ------------------------------------------------------------------

enum class NumberStatus { ok, malformed, out_of_range, not_finite };

// A decimal integer with optional sign; std::from_chars alone rejects '+'.
NumberStatus parse_integer(const Token& token, std::int64_t& value) {
  const char* first = token.begin;
  if (first != token.end && *first == '+') ++first;
  if (first == token.end || !(std::isdigit(static_cast<unsigned char>(*first)) || (*first == '-' && first == token.begin))) {
    return NumberStatus::malformed;
  }
  const std::from_chars_result result = std::from_chars(first, token.end, value);
  if (result.ec == std::errc::result_out_of_range) return NumberStatus::out_of_range;
  if (result.ec != std::errc() || result.ptr != token.end) return NumberStatus::malformed;
  return NumberStatus::ok;
}

// Any strtod number (decimal or hexadecimal, with exponent and sign) that is
// finite in double; strtod runs on a terminated copy so it can never read past
// the token.
NumberStatus parse_real(const Token& token, double& value) {
  char local[64];
  std::string long_copy;
  const char* terminated = local;
  if (token.size() < sizeof(local)) {
    std::memcpy(local, token.begin, token.size());
    local[token.size()] = '\0';
  } else {
    long_copy.assign(token.begin, token.end);
    terminated = long_copy.c_str();
  }
  if (token.size() == 0) return NumberStatus::malformed;
  char* parsed_end = nullptr;
  errno = 0;
  value = std::strtod(terminated, &parsed_end);
  if (parsed_end != terminated + token.size()) return NumberStatus::malformed;
  if (std::isnan(value)) return NumberStatus::not_finite;
  if (std::isinf(value)) return errno == ERANGE ? NumberStatus::out_of_range : NumberStatus::not_finite;
  return NumberStatus::ok;
}

std::string number_problem(NumberStatus status, const Token& token, const char* what) {
  switch (status) {
    case NumberStatus::out_of_range: return what + std::string(" ") + quoted(token) + " is out of range";
    case NumberStatus::not_finite:
      return what + std::string(" ") + quoted(token) + " is not finite (inf and nan are not accepted)";
    default: return what + std::string(" ") + quoted(token) + " is not a number";
  }
}

// ---- header -------------------------------------------------------------------

struct ParsedHeader {
  MatrixMarketHeader header;
  std::int64_t size_line = 0;
};

bool is_comment(const Token& first_token) { return *first_token.begin == '%'; }

// Reads the banner, comments and size line. `real_value_type` names the value
// type a complex file must not be read into, or is null when any field fits.
ParsedHeader parse_header(LineCursor& cursor, const std::string& name, const char* real_value_type) {
  ParsedHeader parsed;
  MatrixMarketHeader& header = parsed.header;
  const char* line_begin = nullptr;
  const char* line_end = nullptr;
  if (!cursor.next(line_begin, line_end)) {
    fail(name, 0, std::string("file is empty; expected the banner ") + banner_form);
  }
  const std::int64_t banner_line = cursor.line_number();
  LineTokens banner(line_begin, line_end);
  Token token;
  if (!banner.next(token) || !equals_ignoring_case(token, "%%MatrixMarket")) {
    fail(name, banner_line,
         std::string("not a Matrix Market file: expected the banner ") + banner_form + ", found " +
             quoted(line_begin, line_end));
  }
  if (!banner.next(token)) fail(name, banner_line, std::string("the banner ends early; expected ") + banner_form);
  if (!equals_ignoring_case(token, "matrix")) {
    fail(name, banner_line,
         "the banner names object " + quoted(token) + "; only 'matrix' is supported (expected " + banner_form + ")");
  }

  if (!banner.next(token)) fail(name, banner_line, "the banner lacks the format (coordinate or array)");
  if (equals_ignoring_case(token, "coordinate")) {
    header.format = MmFormat::coordinate;
  } else if (equals_ignoring_case(token, "array")) {
    header.format = MmFormat::array;
  } else {
    fail(name, banner_line, "unknown format " + quoted(token) + " in the banner (expected coordinate or array)");
  }

  if (!banner.next(token)) fail(name, banner_line, "the banner lacks the field (real, integer, complex or pattern)");
  if (equals_ignoring_case(token, "real")) {
    header.field = MmField::real;
  } else if (equals_ignoring_case(token, "integer")) {
    header.field = MmField::integer;
  } else if (equals_ignoring_case(token, "complex")) {
    header.field = MmField::complex;
  } else if (equals_ignoring_case(token, "pattern")) {
    header.field = MmField::pattern;
  } else {
    fail(name, banner_line,
         "unknown field " + quoted(token) + " in the banner (expected real, integer, complex or pattern)");
  }

  if (!banner.next(token)) {
    fail(name, banner_line, "the banner lacks the symmetry (general, symmetric, skew-symmetric or hermitian)");
  }
  if (equals_ignoring_case(token, "general")) {
    header.symmetry = MmSymmetry::general;
  } else if (equals_ignoring_case(token, "symmetric")) {
    header.symmetry = MmSymmetry::symmetric;
  } else if (equals_ignoring_case(token, "skew-symmetric")) {
    header.symmetry = MmSymmetry::skew_symmetric;
  } else if (equals_ignoring_case(token, "hermitian")) {
    header.symmetry = MmSymmetry::hermitian;
  } else {
    fail(name, banner_line,
         "unknown symmetry " + quoted(token) +
             " in the banner (expected general, symmetric, skew-symmetric or hermitian)");
  }
  if (banner.next(token)) fail(name, banner_line, "unexpected " + quoted(token) + " after the banner's symmetry");

  if (header.format == MmFormat::array && header.field == MmField::pattern) {
    fail(name, banner_line, "'array pattern' is not valid Matrix Market: an array file stores values");
  }
  if (header.symmetry == MmSymmetry::hermitian && header.field != MmField::complex) {
    fail(name, banner_line,
         std::string("'hermitian' requires the complex field, but the field is '") + to_string(header.field) + "'");
  }
  if (header.symmetry == MmSymmetry::skew_symmetric && header.field == MmField::pattern) {
    fail(name, banner_line, "'pattern skew-symmetric' is not valid Matrix Market: signs need values");
  }
  if (header.field == MmField::complex && real_value_type != nullptr) {
    fail(name, banner_line,
         std::string("the file is complex but the requested value type '") + real_value_type +
             "' is real; read it as a complex type");
  }

  // Comments and blank lines may precede the size line.
  for (;;) {
    if (!cursor.next(line_begin, line_end)) {
      fail(name, cursor.line_number(), "the file ends before the size line");
    }
    LineTokens tokens(line_begin, line_end);
    if (tokens.next(token) && !is_comment(token)) break;
  }
  parsed.size_line = cursor.line_number();
  const std::int64_t size_line = parsed.size_line;
  const bool coordinate = header.format == MmFormat::coordinate;
  const char* expected_size_line = coordinate ? "'rows cols entries'" : "'rows cols'";
  const char* size_names[3] = {"rows", "cols", "entries"};
  const int size_count = coordinate ? 3 : 2;
  index_type sizes[3] = {0, 0, 0};
  LineTokens size_tokens(line_begin, line_end);
  for (int k = 0; k < size_count; ++k) {
    if (!size_tokens.next(token)) {
      fail(name, size_line,
           std::string("the size line lacks ") + size_names[k] + "; expected " + expected_size_line + ", found " +
               quoted(line_begin, line_end));
    }
    const NumberStatus status = parse_integer(token, sizes[k]);
    if (status != NumberStatus::ok || sizes[k] < 0) {
      fail(name, size_line,
           std::string("size line: ") + size_names[k] + " " + quoted(token) +
               " is not a non-negative 64-bit integer (expected " + expected_size_line + ")");
    }
  }
  if (size_tokens.next(token)) {
    fail(name, size_line,
         "unexpected " + quoted(token) + " on the size line; a " + to_string(header.format) + " file expects " +
             expected_size_line);
  }
  header.num_rows = sizes[0];
  header.num_cols = sizes[1];
  if (header.symmetry != MmSymmetry::general && header.num_rows != header.num_cols) {
    fail(name, size_line,
         std::string("a ") + to_string(header.symmetry) + " matrix must be square, but the size line says " +
             std::to_string(header.num_rows) + " x " + std::to_string(header.num_cols));
  }
  const index_type storable = storable_entries(header.symmetry, header.num_rows, header.num_cols);
  if (coordinate) {
    header.stored_entries = sizes[2];
    if (header.stored_entries > storable) {
      fail(name, size_line,
           "the size line declares " + std::to_string(header.stored_entries) + " entries, more than the " +
               std::to_string(storable) + " positions of a " + std::to_string(header.num_rows) + " x " +
               std::to_string(header.num_cols) + " " + to_string(header.symmetry) + " matrix" +
               (header.symmetry == MmSymmetry::general ? "" : " (lower triangle)"));
    }
  } else {
    header.stored_entries = storable;
  }
  return parsed;
}

// ---- entries ------------------------------------------------------------------

template <class Value>
class EntryParser {
 public:
  EntryParser(LineCursor& cursor, const std::string& name, const ParsedHeader& parsed)
      : cursor_(cursor), name_(name), header_(parsed.header), size_line_(parsed.size_line) {}

  HostCoo<Value> parse(MatrixMarketReport* report) {
    HostCoo<Value> matrix(header_.num_rows, header_.num_cols);
    // The size line is untrusted: reserve no more than the remaining text can hold
    // (an entry takes at least two bytes), so a lying header cannot exhaust memory.
    const index_type holdable = static_cast<index_type>(cursor_.remaining_bytes() / 2 + 1);
    const index_type expected_stored = std::min(header_.stored_entries, holdable);
    const bool mirrored = header_.symmetry != MmSymmetry::general;
    matrix.reserve(static_cast<std::size_t>(mirrored ? 2 * expected_stored : expected_stored));

    const bool coordinate = header_.format == MmFormat::coordinate;
    index_type array_row = 0;
    index_type array_col = 0;
    if (!coordinate) {
      array_row = first_array_row(0);
      skip_finished_array_columns(array_row, array_col);
    }

    index_type found = 0;
    const char* line_begin = nullptr;
    const char* line_end = nullptr;
    while (cursor_.next(line_begin, line_end)) {
      LineTokens tokens(line_begin, line_end);
      Token first;
      if (!tokens.next(first)) continue;  // blank lines are tolerated anywhere
      if (is_comment(first)) {
        if (starts_with_banner(first)) {
          fail(name_, line(), "a second '%%MatrixMarket' banner among the entries (two files concatenated?)");
        }
        continue;
      }
      if (found == header_.stored_entries) {
        fail(name_, line(),
             "surplus entry: the size line (line " + std::to_string(size_line_) + ") declares " +
                 std::to_string(header_.stored_entries) + " entries, and this line holds one more");
      }
      ++found;
      index_type row = 0;
      index_type col = 0;
      Token value_token = first;
      bool have_value_token = true;
      if (coordinate) {
        row = parse_index(first, "row", header_.num_rows, found);
        Token col_token;
        if (!tokens.next(col_token)) {
          fail(name_, line(), entry_label(found) + "lacks the column index; expected " + coordinate_form());
        }
        col = parse_index(col_token, "column", header_.num_cols, found);
        have_value_token = tokens.next(value_token);
      } else {
        row = array_row;
        col = array_col;
      }
      double re = 1.0;
      double im = 0.0;
      parse_value(tokens, have_value_token, value_token, found, re, im);
      Token extra;
      if (tokens.next(extra)) {
        fail(name_, line(),
             entry_label(found) + "unexpected " + quoted(extra) + " after the entry; expected " + entry_form());
      }
      check_symmetry(row, col, im, found);
      const Value value = to_value(re, im, found);
      matrix.push_back(row, col, value);
      if (mirrored && row != col) matrix.push_back(col, row, mirror(value));
      if (!coordinate) {
        ++array_row;
        skip_finished_array_columns(array_row, array_col);
      }
    }
    if (found < header_.stored_entries) {
      fail(name_, line(),
           "the file ends after " + std::to_string(found) + " of the " + std::to_string(header_.stored_entries) +
               " entries the size line (line " + std::to_string(size_line_) + ") declares");
    }

    const index_type merged = matrix.sort_and_combine();
    if (report != nullptr) {
      report->header = header_;
      report->entries = matrix.nnz();
      report->duplicates_summed = merged;
      if (mirrored) {
        // Mirroring a duplicated off-diagonal entry duplicates its mirror too; only
        // stored entries count: each stored position appears once in the lower triangle.
        index_type lower_positions = 0;
        for (std::size_t k = 0; k < matrix.rows.size(); ++k) lower_positions += matrix.rows[k] >= matrix.cols[k];
        report->duplicates_summed = found - lower_positions;
      }
    }
    return matrix;
  }

 private:
  std::int64_t line() const { return cursor_.line_number(); }

  static std::string entry_label(index_type entry) { return "entry " + std::to_string(entry) + ": "; }

  std::string coordinate_form() const {
    switch (header_.field) {
      case MmField::pattern: return "'row col'";
      case MmField::complex: return "'row col real imaginary'";
      default: return "'row col value'";
    }
  }

  std::string array_form() const {
    return header_.field == MmField::complex ? "'real imaginary' (one entry per line)" : "'value' (one entry per line)";
  }

  std::string entry_form() const {
    return header_.format == MmFormat::coordinate ? coordinate_form() : array_form();
  }

  // Array files list each column from the diagonal down (general: from row 0;
  // skew-symmetric: below the diagonal).
  index_type first_array_row(index_type col) const {
    switch (header_.symmetry) {
      case MmSymmetry::general: return 0;
      case MmSymmetry::skew_symmetric: return col + 1;
      default: return col;
    }
  }

  void skip_finished_array_columns(index_type& row, index_type& col) const {
    if (header_.num_rows == 0) {  // no rows: every column is empty, however many there are
      col = header_.num_cols;
      return;
    }
    while (row >= header_.num_rows && col < header_.num_cols) {
      ++col;
      row = first_array_row(col);
    }
  }

  index_type parse_index(const Token& token, const char* what, index_type dimension, index_type entry) const {
    index_type index = 0;
    const NumberStatus status = parse_integer(token, index);
    if (status != NumberStatus::ok) {
      fail(name_, line(),
           entry_label(entry) + what + " index " + quoted(token) + " is not an integer; expected " +
               coordinate_form());
    }
    if (index < 1 || index > dimension) {
      fail(name_, line(),
           entry_label(entry) + what + " index " + std::to_string(index) + " is outside 1.." +
               std::to_string(dimension) + " (indices are 1-based)");
    }
    return index - 1;
  }

  void parse_value(LineTokens& tokens, bool have_token, const Token& token, index_type entry, double& re,
                   double& im) const {
    if (header_.field == MmField::pattern) {
      if (have_token) {
        fail(name_, line(),
             entry_label(entry) + "unexpected " + quoted(token) + " after the indices; a pattern file expects " +
                 coordinate_form());
      }
      return;
    }
    if (!have_token) fail(name_, line(), entry_label(entry) + "the value is missing; expected " + entry_form());
    if (header_.field == MmField::integer) {
      std::int64_t integer = 0;
      const NumberStatus status = parse_integer(token, integer);
      if (status != NumberStatus::ok) {
        fail(name_, line(),
             entry_label(entry) + (status == NumberStatus::out_of_range
                                       ? "integer value " + quoted(token) + " is out of the 64-bit range"
                                       : "value " + quoted(token) + " is not an integer, as the integer field requires"));
      }
      re = static_cast<double>(integer);
      return;
    }
    NumberStatus status = parse_real(token, re);
    if (status != NumberStatus::ok) {
      fail(name_, line(),
           entry_label(entry) + number_problem(status, token, header_.field == MmField::complex ? "real part" : "value"));
    }
    if (header_.field == MmField::complex) {
      Token imaginary;
      if (!tokens.next(imaginary)) {
        fail(name_, line(), entry_label(entry) + "the imaginary part is missing; a complex file expects " + entry_form());
      }
      status = parse_real(imaginary, im);
      if (status != NumberStatus::ok) {
        fail(name_, line(), entry_label(entry) + number_problem(status, imaginary, "imaginary part"));
      }
    }
  }

  void check_symmetry(index_type row, index_type col, double im, index_type entry) const {
    if (header_.symmetry == MmSymmetry::general) return;
    if (row < col) {
      fail(name_, line(),
           entry_label(entry) + "(" + std::to_string(row + 1) + ", " + std::to_string(col + 1) +
               ") lies above the diagonal; a " + to_string(header_.symmetry) +
               " file stores only the lower triangle");
    }
    if (row == col && header_.symmetry == MmSymmetry::skew_symmetric) {
      fail(name_, line(),
           entry_label(entry) + "diagonal entry (" + std::to_string(row + 1) + ", " + std::to_string(col + 1) +
               ") in a skew-symmetric file, whose diagonal is zero and not stored");
    }
    if (row == col && header_.symmetry == MmSymmetry::hermitian && im != 0.0) {
      fail(name_, line(),
           entry_label(entry) + "diagonal entry (" + std::to_string(row + 1) + ", " + std::to_string(col + 1) +
               ") of a hermitian matrix has a nonzero imaginary part");
    }
  }

  Value to_value(double re, double im, index_type entry) const {
    const Value value = value_from<Value>(re, im);
    if (!std::isfinite(real_part(value)) || !std::isfinite(imag_part(value))) {
      fail(name_, line(),
           entry_label(entry) + "value overflows the requested type " + value_traits<Value>::name);
    }
    return value;
  }

  Value mirror(const Value& value) const {
    switch (header_.symmetry) {
      case MmSymmetry::skew_symmetric: return -value;
      case MmSymmetry::hermitian: return conjugate(value);
      default: return value;
    }
  }

  LineCursor& cursor_;
  const std::string& name_;
  const MatrixMarketHeader header_;
  const std::int64_t size_line_;
};

// Array files store every position, explicit zeros included; those zeros are
// kept (and mirrored) as entries, so reading an array file gives the dense
// structure the file describes. Only the skew-symmetric diagonal, which the file
// does not store, is left out.
template <class Value>
HostCoo<Value> parse_text(const char* begin, const char* end, const std::string& name, MatrixMarketReport* report) {
  LineCursor cursor(begin, end);
  const ParsedHeader parsed =
      parse_header(cursor, name, value_traits<Value>::is_complex ? nullptr : value_traits<Value>::name);
  return EntryParser<Value>(cursor, name, parsed).parse(report);
}

// ---- files --------------------------------------------------------------------

std::int64_t complete_lines(const std::string& text) {
  return static_cast<std::int64_t>(std::count(text.begin(), text.end(), '\n'));
}

// A file opened for reading, plain or gzip; gzip is recognised by its magic
// bytes so that misnamed files still read.
class InputFile {
 public:
  explicit InputFile(const std::string& path) : path_(path) {
    plain_ = std::fopen(path.c_str(), "rb");
    if (plain_ == nullptr) fail(path_, 0, std::string("cannot open: ") + std::strerror(errno));
    const std::size_t magic_read = std::fread(magic_, 1, sizeof(magic_), plain_);
    if (std::ferror(plain_)) {
      const int error = errno;
      close();
      fail(path_, 0, std::string("cannot read: ") + std::strerror(error));
    }
    if (magic_read == 2 && static_cast<unsigned char>(magic_[0]) == 0x1f &&
        static_cast<unsigned char>(magic_[1]) == 0x8b) {
      close();
      errno = 0;
      gzip_ = gzopen(path.c_str(), "rb");
      if (gzip_ == nullptr) {
        fail(path_, 0, std::string("cannot open gzip file: ") + (errno != 0 ? std::strerror(errno) : "out of memory"));
      }
      gzbuffer(gzip_, 1u << 18);
    } else {
      pending_magic_ = magic_read;
    }
  }

  ~InputFile() { close(); }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // Appends up to max_bytes of (decompressed) text; false once the input is
  // exhausted and verified complete. Throws FileError on read errors and on
  // truncated or corrupt gzip data, naming the last complete line of `text`.
  bool append(std::string& text, std::size_t max_bytes) {
    const std::size_t old_size = text.size();
    if (pending_magic_ > 0) {
      text.append(magic_, pending_magic_);
      pending_magic_ = 0;
      return true;
    }
    if (gzip_ == nullptr && plain_ == nullptr) return false;
    text.resize(old_size + max_bytes);
    if (gzip_ != nullptr) {
      const int got = gzread(gzip_, &text[old_size], static_cast<unsigned>(std::min<std::size_t>(max_bytes, INT_MAX)));
      int status = Z_OK;
      const char* message = gzerror(gzip_, &status);
      text.resize(old_size + static_cast<std::size_t>(got > 0 ? got : 0));
      if (got < 0 || (status != Z_OK && status != Z_BUF_ERROR)) {
        const std::string reason = status == Z_ERRNO ? std::string(std::strerror(errno)) : without_path(message);
        close();
        fail(path_, complete_lines(text), "corrupt gzip data (" + reason + ")");
      }
      if (status == Z_BUF_ERROR) {
        close();
        fail(path_, complete_lines(text),
             "truncated gzip file: the compressed stream ends early (unexpected end of file)");
      }
      if (got == 0) {
        const int close_status = gzclose_r(gzip_);
        gzip_ = nullptr;
        if (close_status != Z_OK) {
          fail(path_, complete_lines(text), "gzip stream did not end cleanly (zlib status " +
                                                std::to_string(close_status) + ")");
        }
        return false;
      }
      return true;
    }
    const std::size_t got = std::fread(&text[old_size], 1, max_bytes, plain_);
    text.resize(old_size + got);
    if (std::ferror(plain_)) {
      const int error = errno;
      close();
      fail(path_, complete_lines(text), std::string("read error: ") + std::strerror(error));
    }
    if (got == 0) {
      close();
      return false;
    }
    return true;
  }

  std::size_t plain_size_hint() const {
    struct stat info;
    if (plain_ != nullptr && fstat(fileno(plain_), &info) == 0 && info.st_size > 0) {
      return static_cast<std::size_t>(info.st_size);
    }
    return 0;
  }

 private:
  void close() {
    if (plain_ != nullptr) std::fclose(plain_);
    if (gzip_ != nullptr) gzclose_r(gzip_);
    plain_ = nullptr;
    gzip_ = nullptr;
  }

  // zlib prefixes its messages with the path, which FileError already shows.
  std::string without_path(const char* message) const {
    const std::string text = message != nullptr ? message : "unknown zlib error";
    const std::string prefix = path_ + ": ";
    return text.compare(0, prefix.size(), prefix) == 0 ? text.substr(prefix.size()) : text;
  }

  std::string path_;
  std::FILE* plain_ = nullptr;
  gzFile gzip_ = nullptr;
  char magic_[2] = {0, 0};
  std::size_t pending_magic_ = 0;
};

// The whole (decompressed) text: gzip integrity is verified before any of it is
// interpreted, so a corrupt file is reported as corrupt rather than as whatever
// parse error its garbage happens to cause.
std::string load_text(const std::string& path) {
  InputFile input(path);
  std::string text;
  const std::size_t chunk = std::size_t{1} << 20;
  // One chunk beyond the size, so the final read that finds the end does not
  // double the buffer.
  text.reserve(input.plain_size_hint() + chunk);
  while (input.append(text, chunk)) {
  }
  return text;
}

// Decides, as text arrives, when it holds the size line (or enough to know the
// banner is wrong), scanning each byte once however the text is chunked.
class HeaderScanner {
 public:
  bool complete(const std::string& text) {
    for (;;) {
      const void* newline = std::memchr(text.data() + searched_, '\n', text.size() - searched_);
      if (newline == nullptr) {
        searched_ = text.size();
        return !banner_seen_ && first_line_cannot_be_banner(text);
      }
      const std::size_t line_end = static_cast<std::size_t>(static_cast<const char*>(newline) - text.data());
      LineTokens tokens(text.data() + line_start_, text.data() + line_end);
      Token token;
      const bool has_token = tokens.next(token);
      if (!banner_seen_) {
        if (!has_token || !equals_ignoring_case(token, "%%MatrixMarket")) return true;
        banner_seen_ = true;
      } else if (has_token && !is_comment(token)) {
        return true;
      }
      line_start_ = searched_ = line_end + 1;
    }
  }

 private:
  bool first_line_cannot_be_banner(const std::string& text) const {
    const char* banner = "%%MatrixMarket";
    const std::size_t length = std::strlen(banner);
    if (text.size() < length) return false;
    return !equals_ignoring_case(Token{text.data(), text.data() + length}, banner);
  }

  std::size_t line_start_ = 0;
  std::size_t searched_ = 0;
  bool banner_seen_ = false;
};

}  // namespace

template <class Value>
HostCoo<Value> parse_matrix_market(const std::string& text, const std::string& name, MatrixMarketReport* report) {
  return parse_text<Value>(text.data(), text.data() + text.size(), name, report);
}

template <class Value>
HostCoo<Value> read_matrix_market(const std::string& path, MatrixMarketReport* report) {
  const std::string text = load_text(path);
  return parse_text<Value>(text.data(), text.data() + text.size(), path, report);
}

MatrixMarketHeader read_matrix_market_header(const std::string& path) {
  InputFile input(path);
  std::string text;
  const std::size_t chunk = std::size_t{1} << 16;
  HeaderScanner scanner;
  while (!scanner.complete(text) && input.append(text, chunk)) {
  }
  LineCursor cursor(text.data(), text.data() + text.size());
  return parse_header(cursor, path, nullptr).header;
}

#define STRATA_INSTANTIATE_MATRIX_MARKET_READER(Value)                                                  \
  template HostCoo<Value> read_matrix_market<Value>(const std::string&, MatrixMarketReport*);          \
  template HostCoo<Value> parse_matrix_market<Value>(const std::string&, const std::string&,           \
                                                     MatrixMarketReport*);

STRATA_INSTANTIATE_MATRIX_MARKET_READER(float)
STRATA_INSTANTIATE_MATRIX_MARKET_READER(double)
STRATA_INSTANTIATE_MATRIX_MARKET_READER(Kokkos::complex<float>)
STRATA_INSTANTIATE_MATRIX_MARKET_READER(Kokkos::complex<double>)

#undef STRATA_INSTANTIATE_MATRIX_MARKET_READER

}  // namespace strata
