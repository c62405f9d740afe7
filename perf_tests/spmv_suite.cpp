// The SpMV suite that judges every SpMV in Strata: for each matrix (generated
// ones sized for the device plus every real matrix), precision, mode and
// kernel of the registry (every format, the baselines, and what `auto`
// picks), one benchmark. Each goes through the measurement path the `strata`
// command uses (algorithms/measure/spmv_run.hpp): convert, bind a handle,
// verify against the host reference, then time products between fences.
// scripts/spmv_report.py turns the JSON output into the tables of
// docs/PERFORMANCE.md (one table of every kernel side by side, wins,
// geometric means, slowdown-versus-best profiles, what auto picked).
#include "benchmark_context.hpp"
#include "benchmark_matrices.hpp"
#include "spmv_measurement.hpp"

#include <strata/algorithms/measure/fenced_timing.hpp>
#include <strata/algorithms/measure/spmv_run.hpp>
#include <strata/core/matrix_statistics.hpp>

#include <benchmark/benchmark.h>

#include <cstring>
#include <iostream>
#include <sstream>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata::bench {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;

struct SuiteOptions {
  std::vector<SpmvKernel> kernels;
  std::vector<SpmvMode> modes{SpmvMode::normal};
  int vectors = 1;
};

template <class Value>
void run_spmv(benchmark::State& state, const HostCsr<Value>& host, const SpmvKernel& kernel, SpmvMode mode,
              int vectors) {
  measure::SpmvRun<Value, ExecSpace> run(ExecSpace(), host, kernel, mode, vectors);
  const auto check = run.verify();
  if (!check.passed) {
    state.SkipWithError(("differs from the host reference: " + check.failure).c_str());
    return;
  }
  for (int i = 0; i < 3; ++i) run.time_once();  // warm-up
  std::vector<double> per_product;
  per_product.reserve(static_cast<std::size_t>(state.max_iterations));
  for (auto _ : state) {
    const double seconds = run.time_once();
    state.SetIterationTime(seconds);
    per_product.push_back(seconds);
  }
  const auto timing = measure::summarize_timings(std::move(per_product));
  const double seconds = timing.mean_seconds;
  // The mean (Google Benchmark's real_time) takes every host hiccup of a
  // launch-bound product at full weight: one 5 ms stall in 1000 products of
  // 15 us adds a third. The median is what scripts/spmv_report.py ranks by.
  state.counters["median_us"] = timing.median_seconds * 1e6;
  state.counters["min_us"] = timing.best_seconds * 1e6;
  // The same products launched back to back (median of 5 batches of 100), as
  // an iterative solver runs them; spmv_report.py --statistic back_to_back.
  std::vector<double> batches;
  for (int b = 0; b < 5; ++b) batches.push_back(run.time_back_to_back(100));
  state.counters["back_to_back_us"] = measure::summarize_timings(std::move(batches)).median_seconds * 1e6;
  const SpmvTraffic traffic = run.traffic();
  record_rates(state, traffic, seconds);
  const MatrixStatistics stats = compute_statistics(host);
  const double gb_per_s = traffic.bytes / seconds * 1e-9;
  state.counters["copy_fraction"] = copy_bandwidth_gb_per_s() > 0 ? gb_per_s / copy_bandwidth_gb_per_s() : 0.0;
  state.counters["nnz"] = static_cast<double>(host.nnz());
  state.counters["rows"] = static_cast<double>(host.num_rows);
  state.counters["max_error_over_bound"] = check.max_error_over_bound;
  state.counters["row_length_cv"] = stats.row_length_cv();
  state.counters["setup_seconds"] = run.setup_seconds();
  state.counters["matrix_bytes"] = static_cast<double>(run.matrix_bytes());
  state.SetLabel(run.describe());
}

void benchmark_spmv(benchmark::State& state, const std::string& source, const std::string& precision,
                    const SpmvKernel& kernel, SpmvMode mode, int vectors) {
  try {
    const LoadedMatrix& m = current_matrix(source);
    with_bench_value_type(m, precision, [&](const auto& host) {
      using Value = typename std::decay_t<decltype(host)>::value_type;
      run_spmv<Value>(state, host, kernel, mode, vectors);
    });
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

// Consumes --formats=, --modes= and --vectors= from argv.
SuiteOptions parse_suite_options(int* argc, char** argv) {
  SuiteOptions o;
  std::string formats = "all";
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    const std::string arg = argv[i];
    auto value_of = [&](const char* prefix) -> const char* {
      return arg.rfind(prefix, 0) == 0 ? argv[i] + std::strlen(prefix) : nullptr;
    };
    if (const char* v = value_of("--formats=")) {
      formats = v;
    } else if (const char* v = value_of("--modes=")) {
      o.modes.clear();
      std::stringstream in(v);
      std::string item;
      while (std::getline(in, item, ',')) o.modes.push_back(parse_spmv_mode(item));
      STRATA_REQUIRE(!o.modes.empty(), "--modes= needs at least one of N, T, C, H");
    } else if (const char* v = value_of("--vectors=")) {
      char* end = nullptr;
      const long k = std::strtol(v, &end, 10);
      STRATA_REQUIRE(end && *end == '\0' && k >= 1 && k <= 1024, std::string("--vectors: '") + v +
                                                                      "' is not an integer in [1, 1024]");
      o.vectors = static_cast<int>(k);
    } else {
      argv[kept++] = argv[i];
    }
  }
  *argc = kept;
  if (formats == "all") {
    o.kernels = spmv_kernels<ExecSpace>();
  } else {
    std::stringstream in(formats);
    std::string item;
    while (std::getline(in, item, ',')) o.kernels.push_back(find_spmv_kernel<ExecSpace>(item));
  }
  return o;
}

}  // namespace
}  // namespace strata::bench

int main(int argc, char** argv) {
  using namespace strata::bench;
  Kokkos::ScopeGuard kokkos(argc, argv);
  const std::string extra =
      "  --formats=LIST           kernels of the registry, comma-separated, or all (default): " +
      strata::spmv_kernel_names<Kokkos::DefaultExecutionSpace>() +
      "\n  --modes=LIST             N,T,C,H (default N)\n"
      "  --vectors=K              vectors per product; K > 1 multiplies a K-column multi-vector (default 1)\n";
  if (print_help_if_asked(argc, argv, extra)) return 0;
  constexpr bool host_device =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, Kokkos::DefaultExecutionSpace::memory_space>::accessible;
  const std::vector<std::string> generated = host_device
                                                 ? std::vector<std::string>{"gen:poisson3d:64", "gen:rmat:16"}
                                                 : std::vector<std::string>{"gen:poisson3d:160", "gen:rmat:22",
                                                                            "gen:hubs:4000000:8:40:200000"};
  MatrixSelection selection;
  SuiteOptions options;
  try {
    options = parse_suite_options(&argc, argv);
    selection = parse_matrix_selection(&argc, argv, generated);
  } catch (const std::exception& e) {
    std::cerr << "strata_spmv_suite: " << e.what() << "\n";
    return 2;
  }
  for (const auto& source : selection.sources) {
    for (const auto& precision : selection.precisions) {
      for (const auto mode : options.modes) {
        for (const auto& kernel : options.kernels) {
          // Name: spmv/KERNEL/PRECISION/MODE[xK]/MATRIX (scripts/spmv_report.py reads it).
          std::string name = "spmv/" + kernel.name + "/" + precision + "/" + strata::to_string(mode);
          if (options.vectors > 1) name += "x" + std::to_string(options.vectors);
          name += "/" + strata::matrix_name(source);
          benchmark::RegisterBenchmark(name.c_str(), benchmark_spmv, source, precision, kernel, mode, options.vectors)
              ->UseManualTime()
              ->Iterations(selection.repetitions)
              ->Unit(benchmark::kMillisecond);
        }
      }
    }
  }
  return run_registered_benchmarks(argc, argv);
}
