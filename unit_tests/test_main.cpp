#include "test_environment.hpp"

#include <strata/core/matrix_files.hpp>
#include <strata/core/matrix_market.hpp>

#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace strata::test {

std::string& matrix_dir_storage() {
  static std::string dir;
  return dir;
}

const std::string& matrix_dir() { return matrix_dir_storage(); }

namespace {

// $STRATA_TEST_MATRIX_MAX_ENTRIES, or 0 where it is not set.
long long max_matrix_entries() {
  const char* env = std::getenv("STRATA_TEST_MATRIX_MAX_ENTRIES");
  if (env == nullptr) return 0;
  char* end = nullptr;
  const long long limit = std::strtoll(env, &end, 10);
  if (*env == '\0' || *end != '\0' || limit <= 0) {
    throw std::invalid_argument(std::string("STRATA_TEST_MATRIX_MAX_ENTRIES='") + env +
                                "': expected a positive number of stored entries");
  }
  return limit;
}

}  // namespace

std::vector<std::string> real_matrix_files() {
  const std::string& dir = matrix_dir();
  // (No directory: no files, and the tests say where they looked.)
  if (dir.empty() || !std::filesystem::is_directory(dir)) return {};
  const std::vector<std::string> files = matrix_files_in(dir);
  const long long limit = max_matrix_entries();
  if (limit == 0) return files;
  std::vector<std::string> kept;
  std::string left_out;
  for (const std::string& file : files) {
    const long long entries = static_cast<long long>(read_matrix_market_header(file).stored_entries);
    if (entries <= limit) {
      kept.push_back(file);
    } else {
      left_out += "\n  " + std::filesystem::path(file).filename().string() + ": " + std::to_string(entries);
    }
  }
  if (!left_out.empty()) {
    std::printf("[ matrices ] STRATA_TEST_MATRIX_MAX_ENTRIES=%lld: %zu of %zu files left out (stored entries):%s\n",
                limit, files.size() - kept.size(), files.size(), left_out.c_str());
  }
  return kept;
}

}  // namespace strata::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (const char* env = std::getenv("STRATA_MATRIX_DIR")) strata::test::matrix_dir_storage() = env;
  for (int i = 1; i < argc; ++i) {
    const char* prefix = "--matrix-dir=";
    if (std::strncmp(argv[i], prefix, std::strlen(prefix)) == 0) {
      strata::test::matrix_dir_storage() = argv[i] + std::strlen(prefix);
    }
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  return RUN_ALL_TESTS();
}
