#pragma once
// What the randomized property tests share: how many seeded cases to run and
// the one random draw they all use.
#include <cstdint>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>

namespace strata::test {

// The number of seeded cases: `full` unless STRATA_PROPERTY_CASES asks for
// fewer. Under compute-sanitizer every kernel launch costs milliseconds, so
// scripts/gpu_check.sh runs the first seeds only; a value that is not a
// positive integer, or exceeds `full`, is an error rather than a silent default.
inline std::uint64_t property_cases(std::uint64_t full) {
  const char* env = std::getenv("STRATA_PROPERTY_CASES");
  if (env == nullptr || *env == '\0') return full;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(env, &end, 10);
  if (*end != '\0' || n == 0 || n > full || env[0] == '-') {
    throw std::invalid_argument("STRATA_PROPERTY_CASES='" + std::string(env) + "': expected an integer in [1, " +
                                std::to_string(full) + "]");
  }
  return n;
}

inline int uniform(std::mt19937_64& random, int low, int high) {
  return std::uniform_int_distribution<int>(low, high)(random);
}

}  // namespace strata::test
