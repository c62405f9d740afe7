#pragma once
// Deterministic input vectors for benchmarks and checks: the same seed gives
// the same entries on every machine and backend.
#include <strata/core/index.hpp>
#include <strata/core/value_traits.hpp>

#include <cstdint>
#include <vector>

namespace strata {

// The next value of splitmix64, advancing state.
inline std::uint64_t splitmix64(std::uint64_t& state) {
  state += 0x9E3779B97F4A7C15ull;
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// splitmix64 mapped to [-1, 1).
class SignedUnitSequence {
 public:
  explicit SignedUnitSequence(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  double next() { return static_cast<double>(splitmix64(state_) >> 11) * 0x1.0p-53 * 2.0 - 1.0; }

 private:
  std::uint64_t state_;
};

template <class Value>
std::vector<Value> pseudo_random_vector(index_type n, std::uint64_t seed) {
  std::vector<Value> v(static_cast<std::size_t>(n));
  SignedUnitSequence sequence(seed);
  for (auto& x : v) {
    const double re = sequence.next();
    const double im = sequence.next();
    x = value_from<Value>(re, im);
  }
  return v;
}

}  // namespace strata
