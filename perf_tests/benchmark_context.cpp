#include "benchmark_context.hpp"

#include <strata/core/device_info.hpp>
#include <strata/core/kokkos_compat.hpp>

#include <benchmark/benchmark.h>

#include <sstream>

namespace strata::bench {

namespace {
double measured_copy_gb_per_s = 0.0;
}

void record_context() {
  using ExecSpace = Kokkos::DefaultExecutionSpace;
  benchmark::AddCustomContext("strata_git_hash", STRATA_GIT_HASH);
  benchmark::AddCustomContext("kokkos_version", std::to_string(compat::kokkos_version));
  benchmark::AddCustomContext("kokkos_execution_space", ExecSpace::name());
  benchmark::AddCustomContext("device", device_info<ExecSpace>::describe());
  std::ostringstream config;
  Kokkos::print_configuration(config, false);
  std::string flat = config.str();
  for (char& c : flat) {
    if (c == '\n') c = ';';
  }
  benchmark::AddCustomContext("kokkos_configuration", flat);
  constexpr bool host_device = Kokkos::SpaceAccessibility<Kokkos::HostSpace, ExecSpace::memory_space>::accessible;
  const std::size_t bytes = host_device ? (std::size_t{256} << 20) : (std::size_t{1} << 30);
  const CopyBandwidth copy = measure_copy_bandwidth<ExecSpace>(bytes, 20);
  measured_copy_gb_per_s = copy.median_gb_per_s();
  benchmark::AddCustomContext("copy_bandwidth_gb_per_s", std::to_string(measured_copy_gb_per_s));
}

double copy_bandwidth_gb_per_s() { return measured_copy_gb_per_s; }

int run_registered_benchmarks(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  record_context();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace strata::bench
