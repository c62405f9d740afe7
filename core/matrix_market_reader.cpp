#include <strata/core/matrix_market.hpp>

#include <strata/core/error.hpp>
#include <strata/core/value_conversion.hpp>
#include <strata/core/value_traits.hpp>

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

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

// ---- bytes --------------------------------------------------------------------

// A failure of the byte stream itself (I/O, gzip). The line reader adds the
// number of the last complete line and turns it into a FileError.
struct StreamFailure {
  std::string reason;
};

// Where the bytes of an input come from: a file, memory, or a decoder over either.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Up to `capacity` (> 0) bytes into `out`; 0 only at the end. Throws StreamFailure.
  virtual std::size_t read(char* out, std::size_t capacity) = 0;
};

class FileBytes final : public ByteSource {
 public:
  explicit FileBytes(const std::string& path) : file_(std::fopen(path.c_str(), "rb")) {
    if (file_ == nullptr) fail(path, 0, std::string("cannot open: ") + std::strerror(errno));
  }
  ~FileBytes() override { std::fclose(file_); }
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;

  std::size_t read(char* out, std::size_t capacity) override {
    const std::size_t got = std::fread(out, 1, capacity, file_);
    if (std::ferror(file_)) throw StreamFailure{std::string("read error: ") + std::strerror(errno)};
    return got;
  }

 private:
  std::FILE* file_;
};

class MemoryBytes final : public ByteSource {
 public:
  MemoryBytes(const char* data, std::size_t size) : next_(data), left_(size) {}

  std::size_t read(char* out, std::size_t capacity) override {
    const std::size_t count = std::min(capacity, left_);
    if (count > 0) std::memcpy(out, next_, count);
    next_ += count;
    left_ -= count;
    return count;
  }

 private:
  const char* next_;
  std::size_t left_;
};

// The bytes of `source` with the first two, read to look for the gzip magic,
// put back in front.
class PeekedBytes final : public ByteSource {
 public:
  explicit PeekedBytes(ByteSource& source) : source_(source) {
    while (peeked_ < sizeof(head_)) {
      const std::size_t got = source_.read(head_ + peeked_, sizeof(head_) - peeked_);
      if (got == 0) break;
      peeked_ += got;
    }
  }

  bool starts_with_gzip_magic() const {
    return peeked_ == 2 && static_cast<unsigned char>(head_[0]) == 0x1f && static_cast<unsigned char>(head_[1]) == 0x8b;
  }

  std::size_t read(char* out, std::size_t capacity) override {
    if (delivered_ < peeked_) {
      const std::size_t count = std::min(capacity, peeked_ - delivered_);
      std::memcpy(out, head_ + delivered_, count);
      delivered_ += count;
      return count;
    }
    return source_.read(out, capacity);
  }

 private:
  ByteSource& source_;
  char head_[2] = {0, 0};
  std::size_t peeked_ = 0;
  std::size_t delivered_ = 0;
};

// Inflates gzip data in chunks as it is read (zlib's stream API), so memory does
// not grow with the text. Several members are one text (RFC 1952 section 2.2,
// as gzip -d reads them); anything else after the last member is an error.
class GzipBytes final : public ByteSource {
 public:
  explicit GzipBytes(ByteSource& compressed) : compressed_(compressed), input_(std::size_t{1} << 16) {
    stream_.zalloc = Z_NULL;
    stream_.zfree = Z_NULL;
    stream_.opaque = Z_NULL;
    stream_.next_in = Z_NULL;
    stream_.avail_in = 0;
    // 16 + MAX_WBITS: gzip wrapper only, with its CRC-32 and length checked.
    if (inflateInit2(&stream_, 16 + MAX_WBITS) != Z_OK) throw std::bad_alloc();
  }
  ~GzipBytes() override { inflateEnd(&stream_); }
  GzipBytes(const GzipBytes&) = delete;
  GzipBytes& operator=(const GzipBytes&) = delete;

  std::size_t read(char* out, std::size_t capacity) override {
    if (failed_) throw StreamFailure{"the gzip stream failed earlier"};
    const uInt wanted = static_cast<uInt>(std::min<std::size_t>(capacity, std::size_t{1} << 30));
    stream_.next_out = reinterpret_cast<Bytef*>(out);
    stream_.avail_out = wanted;
    while (stream_.avail_out == wanted && !finished_) {
      if (member_ended_) {
        if (!another_member_follows()) {
          finished_ = true;
          break;
        }
        inflateReset(&stream_);
        member_ended_ = false;
      }
      if (stream_.avail_in == 0 && !input_ended_) refill();
      const int status = inflate(&stream_, Z_NO_FLUSH);
      if (status == Z_STREAM_END) {
        member_ended_ = true;
      } else if (status == Z_DATA_ERROR || status == Z_NEED_DICT || status == Z_STREAM_ERROR) {
        failed_ = true;
        throw StreamFailure{std::string("corrupt gzip data (") + (stream_.msg != nullptr ? stream_.msg : "invalid data") +
                            ")"};
      } else if (status == Z_MEM_ERROR) {
        failed_ = true;
        throw std::bad_alloc();
      } else if (status == Z_BUF_ERROR && stream_.avail_in == 0 && input_ended_) {
        failed_ = true;
        throw StreamFailure{"truncated gzip file: the compressed stream ends early (unexpected end of file)"};
      }
    }
    return wanted - stream_.avail_out;
  }

  bool failed() const { return failed_; }

 private:
  // Keeps unconsumed input and appends what the source has next.
  void refill() {
    if (stream_.avail_in > 0 && stream_.next_in != reinterpret_cast<Bytef*>(input_.data())) {
      std::memmove(input_.data(), stream_.next_in, stream_.avail_in);
    }
    stream_.next_in = reinterpret_cast<Bytef*>(input_.data());
    const std::size_t got = compressed_.read(input_.data() + stream_.avail_in, input_.size() - stream_.avail_in);
    if (got == 0) input_ended_ = true;
    consumed_offset_ += got;
    stream_.avail_in += static_cast<uInt>(got);
  }

  // After a member: true when another gzip member starts, false at the end of
  // the input; any other byte is trailing garbage.
  bool another_member_follows() {
    while (stream_.avail_in < 2 && !input_ended_) refill();
    if (stream_.avail_in == 0) return false;
    const unsigned char first = stream_.next_in[0];
    if (stream_.avail_in >= 2 && first == 0x1f && stream_.next_in[1] == 0x8b) return true;
    failed_ = true;
    char byte[8];
    std::snprintf(byte, sizeof(byte), "0x%02x", first);
    throw StreamFailure{"trailing garbage after the gzip data: the byte at offset " +
                        std::to_string(consumed_offset_ - stream_.avail_in) + " (" + byte +
                        ") does not start another gzip member"};
  }

  ByteSource& compressed_;
  std::vector<char> input_;
  z_stream stream_{};
  std::uint64_t consumed_offset_ = 0;  // compressed bytes read from the source so far
  bool input_ended_ = false;
  bool member_ended_ = false;
  bool finished_ = false;
  bool failed_ = false;
};

// The text of an input: its bytes, inflated when they start with the gzip magic.
class TextInput {
 public:
  explicit TextInput(ByteSource& raw) : peeked_(raw) {
    if (peeked_.starts_with_gzip_magic()) gzip_.emplace(peeked_);
  }

  ByteSource& text() { return gzip_ ? static_cast<ByteSource&>(*gzip_) : peeked_; }

  // A corrupt deflate stream can inflate to garbage before zlib notices (the
  // CRC-32 comes last), so a parse error inside gzip data may really be
  // corruption. This inflates up to `limit` more bytes and throws the
  // StreamFailure if the stream is bad; it returns when the stream is sound,
  // was not gzip, had already failed, or is longer than the limit.
  void check_rest_of_gzip(std::size_t limit) {
    if (!gzip_ || gzip_->failed()) return;
    std::vector<char> scratch(std::size_t{1} << 16);
    for (std::size_t inflated = 0; inflated < limit;) {
      const std::size_t got = gzip_->read(scratch.data(), scratch.size());
      if (got == 0) return;
      inflated += got;
    }
  }

 private:
  PeekedBytes peeked_;
  std::optional<GzipBytes> gzip_;
};

// Splits a byte stream into lines ('\n'-terminated; a final line may lack it)
// and counts them, so every message can name its line. Holds one buffer of at
// most kMaxLineBytes: memory does not depend on the length of the input.
class LineReader {
 public:
  static constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

  LineReader(ByteSource& source, const std::string& name)
      : source_(source), name_(name), buffer_(std::size_t{1} << 16) {}

  // The line stays valid until the next call.
  bool next(const char*& line_begin, const char*& line_end) {
    std::size_t searched = start_;
    for (;;) {
      const void* newline = std::memchr(buffer_.data() + searched, '\n', filled_ - searched);
      if (newline != nullptr) {
        line_begin = buffer_.data() + start_;
        line_end = static_cast<const char*>(newline);
        start_ = static_cast<std::size_t>(line_end - buffer_.data()) + 1;
        ++line_number_;
        return true;
      }
      searched = filled_;
      if (ended_) {
        if (start_ == filled_) return false;
        line_begin = buffer_.data() + start_;
        line_end = buffer_.data() + filled_;
        start_ = filled_;
        ++line_number_;
        return true;
      }
      searched -= start_;
      fill();
    }
  }

  std::int64_t line_number() const { return line_number_; }

 private:
  // Moves the partial line to the front, grows the buffer if the line fills
  // it, and appends the next bytes of the source.
  void fill() {
    if (start_ > 0) {
      std::memmove(buffer_.data(), buffer_.data() + start_, filled_ - start_);
      filled_ -= start_;
      start_ = 0;
    }
    if (filled_ == buffer_.size()) {
      if (buffer_.size() >= kMaxLineBytes) {
        fail(name_, line_number_ + 1,
             "line longer than " + std::to_string(kMaxLineBytes) +
                 " bytes; Matrix Market lines are short (is this a Matrix Market file?)");
      }
      buffer_.resize(std::min(2 * buffer_.size(), kMaxLineBytes));
    }
    std::size_t got = 0;
    try {
      got = source_.read(buffer_.data() + filled_, buffer_.size() - filled_);
    } catch (const StreamFailure& failure) {
      fail(name_, line_number_, failure.reason);
    }
    if (got == 0) ended_ = true;
    filled_ += got;
  }

  ByteSource& source_;
  const std::string& name_;
  std::vector<char> buffer_;
  std::size_t start_ = 0;   // first byte of the current line
  std::size_t filled_ = 0;  // bytes in the buffer
  bool ended_ = false;
  std::int64_t line_number_ = 0;
};

// ---- numbers ------------------------------------------------------------------

enum class NumberStatus { ok, malformed, out_of_range };

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

// [+-]? followed by one of "inf", "infinity", "nan", in any case.
bool is_non_finite_word(const Token& token) {
  const char* first = token.begin;
  if (first != token.end && (*first == '+' || *first == '-')) ++first;
  const Token word{first, token.end};
  return equals_ignoring_case(word, "inf") || equals_ignoring_case(word, "infinity") ||
         equals_ignoring_case(word, "nan");
}

// [+-]? 0x: strtod would read hexadecimal floating point, which Matrix Market
// (a decimal format) does not define.
bool is_hexadecimal(const Token& token) {
  const char* first = token.begin;
  if (first != token.end && (*first == '+' || *first == '-')) ++first;
  return token.end - first >= 2 && first[0] == '0' && (first[1] == 'x' || first[1] == 'X');
}

// The decimal syntax: [+-] digits [. digits] [(e|E) [+-] digits], with at least
// one digit before or after the point. Sets `nonzero` when a mantissa digit is
// not 0, which tells underflow (1e-400) from an exact zero (0e5).
bool is_decimal(const Token& token, bool& nonzero) {
  const char* c = token.begin;
  const auto digits = [&](bool& any_nonzero) {
    const char* start = c;
    while (c != token.end && std::isdigit(static_cast<unsigned char>(*c))) {
      any_nonzero = any_nonzero || *c != '0';
      ++c;
    }
    return c != start;
  };
  nonzero = false;
  if (c != token.end && (*c == '+' || *c == '-')) ++c;
  bool mantissa = digits(nonzero);
  if (c != token.end && *c == '.') {
    ++c;
    mantissa = digits(nonzero) || mantissa;
  }
  if (!mantissa) return false;
  if (c != token.end && (*c == 'e' || *c == 'E')) {
    ++c;
    if (c != token.end && (*c == '+' || *c == '-')) ++c;
    bool exponent_nonzero = false;
    if (!digits(exponent_nonzero)) return false;
  }
  return c == token.end;
}

enum class RealStatus { ok, malformed, hexadecimal, out_of_range, underflow, not_finite };

// A decimal number (or inf/nan) in double. Underflow, a nonzero decimal that
// rounds to zero, leaves the signed zero in `value` for callers that accept it;
// not_finite leaves the inf or nan. strtod runs on a terminated copy so it can
// never read past the token.
RealStatus parse_real(const Token& token, double& value) {
  if (is_hexadecimal(token)) return RealStatus::hexadecimal;
  const bool non_finite = is_non_finite_word(token);
  bool nonzero = false;
  if (!non_finite && !is_decimal(token, nonzero)) return RealStatus::malformed;
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
  char* parsed_end = nullptr;
  value = std::strtod(terminated, &parsed_end);
  if (parsed_end != terminated + token.size()) return RealStatus::malformed;
  if (non_finite) return RealStatus::not_finite;
  if (std::isinf(value)) return RealStatus::out_of_range;
  if (value == 0.0 && nonzero) return RealStatus::underflow;
  return RealStatus::ok;
}

// ---- header -------------------------------------------------------------------

struct ParsedHeader {
  MatrixMarketHeader header;
  std::int64_t size_line = 0;
};

bool is_comment(const Token& first_token) { return *first_token.begin == '%'; }

// Reads the banner, comments and size line. `real_value_type` names the value
// type a complex file must not be read into, or is null when any field fits.
// The declared size is checked against `limits`, when given, before the caller
// allocates anything for it.
ParsedHeader parse_header(LineReader& cursor, const std::string& name, const char* real_value_type,
                          const MatrixLimits* limits) {
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
  if (limits != nullptr) {
    const std::string violation =
        matrix_limit_violation(*limits, header.num_rows, header.num_cols, header.stored_entries);
    if (!violation.empty()) {
      fail(name, size_line,
           "the size line declares a matrix larger than this reader accepts: " + violation +
               (coordinate ? "" : "; an array file stores every position"));
    }
  }
  return parsed;
}

// ---- entries ------------------------------------------------------------------

template <class Value>
class EntryParser {
 public:
  EntryParser(LineReader& cursor, const std::string& name, const ParsedHeader& parsed,
              const MatrixMarketReadOptions& options)
      : cursor_(cursor), name_(name), header_(parsed.header), size_line_(parsed.size_line), options_(options) {}

  HostCoo<Value> parse(MatrixMarketReport* report) {
    HostCoo<Value> matrix(header_.num_rows, header_.num_cols);
    // The size line is untrusted and the text's length unknown while streaming:
    // reserve a bounded start and let storage grow geometrically with the
    // entries actually read, so a lying header cannot exhaust memory.
    constexpr index_type initial_reserve = index_type{1} << 12;
    const bool mirrored = header_.symmetry != MmSymmetry::general;
    matrix.reserve(static_cast<std::size_t>(std::min(header_.stored_entries, initial_reserve)));

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
      const Value value = value_from<Value>(re, im);
      const index_type stored_now = mirrored && row != col ? 2 : 1;
      if (matrix.nnz() > options_.limits.max_entries - stored_now) {
        fail(name_, line(),
             entry_label(found) + "the matrix grows beyond the limit of " +
                 std::to_string(options_.limits.max_entries) + " stored entries (" + options_.limits.origin +
                 (mirrored ? "; symmetric files store both triangles)" : ")"));
      }
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
    parse_real_part(token, header_.field == MmField::complex ? "real part" : "value", entry, re);
    if (header_.field == MmField::complex) {
      Token imaginary;
      if (!tokens.next(imaginary)) {
        fail(name_, line(), entry_label(entry) + "the imaginary part is missing; a complex file expects " + entry_form());
      }
      parse_real_part(imaginary, "imaginary part", entry, im);
    }
  }

  // One real number of an entry, checked for what the value type can hold.
  void parse_real_part(const Token& token, const char* what, index_type entry, double& value) const {
    using Real = typename value_traits<Value>::real_type;
    const RealStatus status = parse_real(token, value);
    // The subject of a message is built only on failure: this runs for every value of a file.
    const auto subject = [&] { return entry_label(entry) + what + " " + quoted(token) + " "; };
    switch (status) {
      case RealStatus::ok: break;
      case RealStatus::malformed: fail(name_, line(), subject() + "is not a number");
      case RealStatus::hexadecimal:
        fail(name_, line(), subject() + "is hexadecimal floating point; Matrix Market numbers are decimal");
      case RealStatus::out_of_range:
        fail(name_, line(), subject() + "is out of range for double (largest finite magnitude 1.79769e+308)");
      case RealStatus::underflow:
        if (!options_.values.allow_underflow) {
          fail(name_, line(), subject() + describe_conversion_problem<double>(ConversionProblem::underflow));
        }
        break;
      case RealStatus::not_finite:
        if (!options_.values.allow_non_finite) {
          fail(name_, line(), subject() + describe_conversion_problem<double>(ConversionProblem::non_finite));
        }
        break;
    }
    const ConversionProblem narrowing = narrowing_problem<Real>(value, options_.values);
    if (narrowing != ConversionProblem::none) {
      fail(name_, line(), subject() + describe_conversion_problem<Value>(narrowing));
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

  Value mirror(const Value& value) const {
    switch (header_.symmetry) {
      case MmSymmetry::skew_symmetric: return -value;
      case MmSymmetry::hermitian: return conjugate(value);
      default: return value;
    }
  }

  LineReader& cursor_;
  const std::string& name_;
  const MatrixMarketHeader header_;
  const std::int64_t size_line_;
  const MatrixMarketReadOptions& options_;
};

// Array files store every position, explicit zeros included; those zeros are
// kept (and mirrored) as entries, so reading an array file gives the dense
// structure the file describes. Only the skew-symmetric diagonal, which the file
// does not store, is left out.
//
// Every entry point comes here with the raw bytes of its input, so the path and
// the in-memory entries (and the fuzzer, which uses the latter) run the same
// decoding and parsing.
template <class Value>
HostCoo<Value> read_bytes(ByteSource& raw, const std::string& name, const MatrixMarketReadOptions& options,
                          MatrixMarketReport* report) {
  // A corrupt gzip stream found while checking the rest after a parse error is
  // reported at the parse error's line.
  std::int64_t failed_line = 0;
  try {
    TextInput input(raw);
    LineReader lines(input.text(), name);
    try {
      const ParsedHeader parsed = parse_header(
          lines, name, value_traits<Value>::is_complex ? nullptr : value_traits<Value>::name, &options.limits);
      return EntryParser<Value>(lines, name, parsed, options).parse(report);
    } catch (const FileError&) {
      failed_line = lines.line_number();
      constexpr std::size_t check_limit = std::size_t{64} << 20;
      input.check_rest_of_gzip(check_limit);
      throw;
    }
  } catch (const StreamFailure& failure) {
    throw FileError(name, failed_line, failure.reason);
  }
}

}  // namespace

template <class Value>
HostCoo<Value> read_matrix_market(const std::string& path, const MatrixMarketReadOptions& options,
                                  MatrixMarketReport* report) {
  FileBytes file(path);
  return read_bytes<Value>(file, path, options, report);
}

template <class Value>
HostCoo<Value> read_matrix_market(const std::string& path, MatrixMarketReport* report) {
  return read_matrix_market<Value>(path, MatrixMarketReadOptions{}, report);
}

template <class Value>
HostCoo<Value> parse_matrix_market(const std::string& bytes, const std::string& name,
                                   const MatrixMarketReadOptions& options, MatrixMarketReport* report) {
  MemoryBytes memory(bytes.data(), bytes.size());
  return read_bytes<Value>(memory, name, options, report);
}

template <class Value>
HostCoo<Value> parse_matrix_market(const std::string& bytes, const std::string& name, MatrixMarketReport* report) {
  return parse_matrix_market<Value>(bytes, name, MatrixMarketReadOptions{}, report);
}

MatrixMarketHeader read_matrix_market_header(const std::string& path) {
  FileBytes file(path);
  try {
    TextInput input(file);
    LineReader lines(input.text(), path);
    return parse_header(lines, path, nullptr, nullptr).header;
  } catch (const StreamFailure& failure) {
    throw FileError(path, 0, failure.reason);
  }
}

#define STRATA_INSTANTIATE_MATRIX_MARKET_READER(Value)                                                   \
  template HostCoo<Value> read_matrix_market<Value>(const std::string&, MatrixMarketReport*);           \
  template HostCoo<Value> read_matrix_market<Value>(const std::string&, const MatrixMarketReadOptions&, \
                                                    MatrixMarketReport*);                               \
  template HostCoo<Value> parse_matrix_market<Value>(const std::string&, const std::string&,            \
                                                     MatrixMarketReport*);                              \
  template HostCoo<Value> parse_matrix_market<Value>(const std::string&, const std::string&,            \
                                                     const MatrixMarketReadOptions&, MatrixMarketReport*);

STRATA_INSTANTIATE_MATRIX_MARKET_READER(float)
STRATA_INSTANTIATE_MATRIX_MARKET_READER(double)
STRATA_INSTANTIATE_MATRIX_MARKET_READER(Kokkos::complex<float>)
STRATA_INSTANTIATE_MATRIX_MARKET_READER(Kokkos::complex<double>)

#undef STRATA_INSTANTIATE_MATRIX_MARKET_READER

}  // namespace strata
