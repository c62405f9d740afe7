#pragma once
#include <string>
#include <vector>

namespace strata::cli {

// Each returns the process exit code; usage errors are thrown as UsageError.
int info_command(const std::vector<std::string>& args);
int spmv_command(const std::vector<std::string>& args);
int convert_command(const std::vector<std::string>& args);
int add_command(const std::vector<std::string>& args);

extern const char* const default_matrix;

}  // namespace strata::cli
