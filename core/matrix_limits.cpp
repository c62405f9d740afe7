#include <strata/core/matrix_limits.hpp>

namespace strata {

namespace {
std::string exceeds(index_type value, index_type limit, const char* what, const MatrixLimits& limits) {
  return std::to_string(value) + " " + what + " exceed the limit of " + std::to_string(limit) + " " + what + " (" +
         limits.origin + ")";
}
}  // namespace

std::string matrix_limit_violation(const MatrixLimits& limits, index_type rows, index_type cols, index_type entries) {
  if (rows > limits.max_rows) return exceeds(rows, limits.max_rows, "rows", limits);
  if (cols > limits.max_cols) return exceeds(cols, limits.max_cols, "columns", limits);
  if (entries > limits.max_entries) return exceeds(entries, limits.max_entries, "entries", limits);
  return {};
}

}  // namespace strata
