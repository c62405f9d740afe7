#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

namespace strata {

// Every error Strata reports on bad input or a failed request is a strata::Error,
// so callers can catch one type and print what() to a user.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// A request the caller can fix by changing its arguments (a malformed generator
// spec, a size beyond a limit), as opposed to bad input data or a failed
// resource; the strata command reports it as a usage error (exit code 2).
class ArgumentError : public Error {
 public:
  using Error::Error;
};

// An error located in an input file; line is 1-based, 0 when no line applies
// (e.g. a corrupt gzip stream detected before any line was complete).
class FileError : public Error {
 public:
  FileError(std::string path, std::int64_t line, const std::string& reason);
  const std::string& path() const noexcept { return path_; }
  std::int64_t line() const noexcept { return line_; }
  const std::string& reason() const noexcept { return reason_; }

 private:
  std::string path_;
  std::int64_t line_;
  std::string reason_;
};

// Throws strata::Error(message) when condition is false; used for argument checks
// whose message is built only on failure.
#define STRATA_REQUIRE(condition, message_expression)          \
  do {                                                         \
    if (!(condition)) throw ::strata::Error(message_expression); \
  } while (false)

// The same, throwing strata::ArgumentError: for checks of what a caller asked for.
#define STRATA_REQUIRE_ARGUMENT(condition, message_expression)          \
  do {                                                                  \
    if (!(condition)) throw ::strata::ArgumentError(message_expression); \
  } while (false)

}  // namespace strata
