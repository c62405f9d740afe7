#include <strata/core/error.hpp>

namespace strata {

namespace {
std::string locate(const std::string& path, std::int64_t line, const std::string& reason) {
  std::string where = path;
  if (line > 0) where += ":" + std::to_string(line);
  return where + ": " + reason;
}
}  // namespace

FileError::FileError(std::string path, std::int64_t line, const std::string& reason)
    : Error(locate(path, line, reason)), path_(std::move(path)), line_(line), reason_(reason) {}

}  // namespace strata
