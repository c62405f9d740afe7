#pragma once
// Google Benchmark glue for SpMV products that are not built from a host matrix
// by the registry (DCSR matrices grown by insertion, HiSparse trees): upload
// the input vector, check one product against the host reference before
// timing, time products between fences in the benchmark loop, and report GB/s
// and GFLOP/s. Registry kernels go through algorithms/measure/spmv_run.hpp.
#include <strata/algorithms/measure/fenced_timing.hpp>
#include <strata/algorithms/reference/csr_spmv.hpp>
#include <strata/algorithms/spmv_traffic.hpp>

#include <Kokkos_Core.hpp>
#include <benchmark/benchmark.h>

#include <string>
#include <utility>
#include <vector>

namespace strata::bench {

template <class View, class Value>
void upload_vector(const View& device, const std::vector<Value>& host) {
  auto mirror = Kokkos::create_mirror_view(device);
  for (std::size_t i = 0; i < host.size(); ++i) mirror(i) = host[i];
  Kokkos::deep_copy(device, mirror);
}

// Runs `product` (y := A x) once and compares y with the host reference. On a
// mismatch the benchmark is marked as failed, naming the worst row, and false returned.
template <class Value, class YView, class Product>
bool verify_spmv(benchmark::State& state, const HostCsr<Value>& A, const std::vector<Value>& x, const YView& y,
                 Product&& product, double* max_error_over_bound = nullptr) {
  product();
  Kokkos::fence();
  auto y_mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  const std::vector<Value> y_host(y_mirror.data(), y_mirror.data() + y_mirror.extent(0));
  const Value zero = value_from<Value>(0.0, 0.0);
  const auto ref = reference::csr_spmv(SpmvMode::normal, value_from<Value>(1.0, 0.0), A, x, zero,
                                       std::vector<Value>(static_cast<std::size_t>(A.num_rows), zero));
  const auto accuracy = reference::check_spmv(y_host, ref);
  if (max_error_over_bound) *max_error_over_bound = accuracy.max_scaled_error;
  if (!accuracy.passed) {
    state.SkipWithError(
        ("result differs from the host reference at row " + std::to_string(accuracy.worst_entry)).c_str());
  }
  return accuracy.passed;
}

// Times each iteration of `step` between fences (manual time) after `warmup`
// untimed runs; returns the mean seconds per iteration and records the median as
// the counter median_us, which a host hiccup in a launch-bound step does not move
// (as strata_spmv_suite's median_us).
template <class Step>
double time_between_fences(benchmark::State& state, Step&& step, int warmup = 1) {
  for (int i = 0; i < warmup; ++i) step();
  Kokkos::fence();
  std::vector<double> per_iteration;
  per_iteration.reserve(static_cast<std::size_t>(state.max_iterations));
  for (auto _ : state) {
    Kokkos::Timer timer;
    step();
    Kokkos::fence();
    const double seconds = timer.seconds();
    state.SetIterationTime(seconds);
    per_iteration.push_back(seconds);
  }
  const auto timing = measure::summarize_timings(std::move(per_iteration));
  state.counters["median_us"] = timing.median_seconds * 1e6;
  return timing.mean_seconds;
}

inline void record_rates(benchmark::State& state, const SpmvTraffic& traffic, double seconds_per_product) {
  state.counters["GB/s"] = traffic.bytes / seconds_per_product * 1e-9;
  state.counters["GFLOP/s"] = traffic.flops / seconds_per_product * 1e-9;
}

}  // namespace strata::bench
