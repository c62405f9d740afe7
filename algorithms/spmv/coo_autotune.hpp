#pragma once
// Autotuning of the COO SpMV oversubscription: time a ladder of omega values on
// the actual matrix (into scratch vectors, so the caller's y is untouched). The
// handle that asked keeps the winner (algorithms/spmv/coo.hpp).
#include <strata/algorithms/measure/fenced_timing.hpp>
#include <strata/algorithms/spmv/coo_product.hpp>

#include <algorithm>
#include <vector>

namespace strata::Impl {

struct CooOmegaMeasurement {
  int omega;
  double median_seconds;
};

inline const std::vector<int>& coo_omega_ladder() {
  static const std::vector<int> ladder{1, 2, 4, 8, 16, 32, 64, 128, 256};
  return ladder;
}

// Median of `repetitions` products (after one warm-up) for every omega of the ladder.
template <class ExecSpace, class Value, class Device>
std::vector<CooOmegaMeasurement> measure_coo_omegas(const ExecSpace& space, const CooView<Value, Device>& A,
                                                    bool deterministic, int repetitions = 10) {
  Kokkos::View<Value*, Device> x("strata::coo_autotune::x", static_cast<std::size_t>(A.num_cols));
  Kokkos::View<Value*, Device> y("strata::coo_autotune::y", static_cast<std::size_t>(A.num_rows));
  Kokkos::deep_copy(space, x, Value(1));
  std::vector<CooOmegaMeasurement> results;
  for (int omega : coo_omega_ladder()) {
    const auto product = CooProduct<ExecSpace, Value, Device>::make(space, A, omega, deterministic);
    auto once = [&]() { product.run(space, SpmvMode::normal, Value(1), A, x, Value(0), y); };
    results.push_back({omega, measure::time_between_fences(space, 1, repetitions, once).median_seconds});
  }
  return results;
}

inline int fastest_omega(const std::vector<CooOmegaMeasurement>& measured) {
  const auto best = std::min_element(measured.begin(), measured.end(), [](const auto& a, const auto& b) {
    return a.median_seconds < b.median_seconds;
  });
  return best->omega;
}

}  // namespace strata::Impl
