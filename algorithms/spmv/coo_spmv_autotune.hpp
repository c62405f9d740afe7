#pragma once
// Autotuning of the COO SpMV oversubscription: time a ladder of omega values on
// the actual matrix (into a scratch output, so the caller's y is untouched) and
// remember the fastest per matrix signature for the rest of the process.
#include <strata/algorithms/spmv/coo_spmv_impl.hpp>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <typeinfo>
#include <vector>

namespace strata {

struct CooOmegaMeasurement {
  int omega;
  double median_seconds;
};

// Ladder measured by the autotuner.
inline const std::vector<int>& coo_omega_ladder() {
  static const std::vector<int> ladder{1, 2, 4, 8, 16, 32, 64, 128, 256};
  return ladder;
}

// Times every omega of the ladder (median of `repetitions` products after a warm-up).
template <class ExecSpace, class Value, class Device>
std::vector<CooOmegaMeasurement> measure_coo_omegas(const ExecSpace& space, const CooMatrix<Value, Device>& A,
                                                    bool deterministic, int repetitions = 10) {
  Kokkos::View<Value*, Device> x("strata::coo_autotune::x", static_cast<std::size_t>(A.num_cols()));
  Kokkos::View<Value*, Device> y("strata::coo_autotune::y", static_cast<std::size_t>(A.num_rows()));
  Kokkos::deep_copy(x, Value(1));
  Kokkos::View<const Value*, Device, Kokkos::MemoryTraits<Kokkos::RandomAccess>> x_internal = x;
  std::vector<CooOmegaMeasurement> results;
  for (int omega : coo_omega_ladder()) {
    CooSpmvOptions options;
    options.omega = omega;
    options.deterministic = deterministic;
    auto once = [&]() { Impl::coo_spmv(space, 'N', Value(1), A.view(), x_internal, Value(0), y, options); };
    once();
    space.fence();
    std::vector<double> seconds;
    for (int r = 0; r < repetitions; ++r) {
      Kokkos::Timer timer;
      once();
      space.fence();
      seconds.push_back(timer.seconds());
    }
    std::sort(seconds.begin(), seconds.end());
    results.push_back({omega, seconds[seconds.size() / 2]});
  }
  return results;
}

// The cached choice for A's signature (dimensions, nnz, value type, execution
// space, determinism), measuring it on first use.
template <class ExecSpace, class Value, class Device>
int autotuned_coo_omega(const ExecSpace& space, const CooMatrix<Value, Device>& A, bool deterministic) {
  static std::mutex mutex;
  static std::map<std::string, int> cache;
  const std::string signature = std::to_string(A.num_rows()) + "x" + std::to_string(A.num_cols()) + ":" +
                                std::to_string(A.nnz()) + ":" + value_traits<Value>::name + ":" +
                                ExecSpace::name() + (deterministic ? ":deterministic" : "");
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(signature);
    if (it != cache.end()) return it->second;
  }
  const auto measured = measure_coo_omegas(space, A, deterministic);
  int best = measured.front().omega;
  double best_seconds = measured.front().median_seconds;
  for (const auto& m : measured) {
    if (m.median_seconds < best_seconds) {
      best = m.omega;
      best_seconds = m.median_seconds;
    }
  }
  std::lock_guard<std::mutex> lock(mutex);
  cache[signature] = best;
  return best;
}

}  // namespace strata
