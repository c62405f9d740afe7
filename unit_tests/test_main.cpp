#include "test_environment.hpp"

#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace strata::test {

std::string& matrix_dir_storage() {
  static std::string dir;
  return dir;
}

const std::string& matrix_dir() { return matrix_dir_storage(); }

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
