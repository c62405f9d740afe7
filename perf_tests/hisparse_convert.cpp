// HiSparse conversion cost: CSR -> HiSparse and HiSparse -> CSR on the device,
// each relative to a CSR -> CSR device copy (deep_copy of the three arrays)
// measured in the same run. Every timing is between fences; the round trip is
// checked once against the source matrix (exact) before timing.
#include "benchmark_context.hpp"
#include "benchmark_matrices.hpp"
#include "spmv_measurement.hpp"

#include <strata/core/generators.hpp>
#include <strata/core/matrix_source.hpp>
#include <strata/core/pseudo_random.hpp>
#include <strata/formats/hisparse/hisparse_convert.hpp>

#include <benchmark/benchmark.h>

#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <type_traits>

namespace strata::bench {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;

// Seconds per CSR -> CSR copy of each (matrix, precision), the yardstick of the conversions.
std::map<std::string, double>& copy_seconds() {
  static std::map<std::string, double> seconds;
  return seconds;
}

// Times `step` between fences for the benchmark's iterations; returns the mean seconds.
template <class Value>
void run(benchmark::State& state, const HostCsr<Value>& host, const std::string& key, const std::string& operation) {
  using csr_type = DeviceCsr<Value, Device>;
  const auto A = to_kokkos_crs<csr_type>(host, "strata::bench_matrix");
  const double csr_bytes = static_cast<double>(host.nnz()) * (sizeof(Value) + sizeof(int)) +
                           static_cast<double>(host.num_rows + 1) * sizeof(int);
  state.counters["nnz"] = static_cast<double>(host.nnz());
  state.counters["rows"] = static_cast<double>(host.num_rows);
  if (operation == "csr_copy") {
    auto row_map = typename csr_type::row_map_type::non_const_type("strata::bench_row_map", A.graph.row_map.extent(0));
    auto entries = typename csr_type::index_type::non_const_type("strata::bench_entries", A.graph.entries.extent(0));
    auto values = typename csr_type::values_type::non_const_type("strata::bench_values", A.values.extent(0));
    const double s = time_between_fences(state, [&] {
      Kokkos::deep_copy(row_map, A.graph.row_map);
      Kokkos::deep_copy(entries, A.graph.entries);
      Kokkos::deep_copy(values, A.values);
    });
    copy_seconds()[key] = s;
    state.counters["GB/s"] = 2.0 * csr_bytes / s * 1e-9;
    return;
  }
  const auto it = copy_seconds().find(key);
  const double copy = it == copy_seconds().end() ? 0.0 : it->second;
  if (operation == "csr_to_hisparse" || operation == "hisparse_to_csr") {
    auto H = to_hisparse(A);
    const auto back = from_kokkos_crs(to_device_csr(H));
    if (back.row_offsets != host.row_offsets || back.cols != host.cols || !(back.values == host.values)) {
      state.SkipWithError("HiSparse round trip differs from the source matrix");
      return;
    }
    const double s = operation == "csr_to_hisparse" ? time_between_fences(state, [&] { H = to_hisparse(A); })
                                                    : time_between_fences(state, [&] { (void)to_device_csr(H); });
    state.counters["vs_csr_copy"] = copy > 0 ? s / copy : 0.0;
    state.counters["hisparse_bytes_per_nnz"] =
        static_cast<double>(H.pool_bytes()) / static_cast<double>(std::max<index_type>(1, host.nnz()));
    return;
  }
  // (HiSparse SpMV is timed by strata_spmv_suite --formats=hisparse,csr with every other kernel.)
  state.SkipWithError(("unknown operation " + operation).c_str());
}

void benchmark_operation(benchmark::State& state, const std::string& source, const std::string& precision,
                         const std::string& operation) {
  try {
    const LoadedMatrix& m = current_matrix(source);
    const std::string key = source + "/" + precision;
    with_bench_value_type(m, precision, [&](const auto& host) {
      using Value = typename std::decay_t<decltype(host)>::value_type;
      run<Value>(state, host, key, operation);
    });
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

// Generated matrices and, of the real ones, only the largest (by stored entries in its header).
std::vector<std::string> generated_and_largest_real(const std::vector<std::string>& sources) {
  std::vector<std::string> out;
  std::string largest;
  index_type largest_entries = -1;
  for (const auto& s : sources) {
    if (is_generator_spec(s)) {
      out.push_back(s);
      continue;
    }
    const auto header = read_matrix_market_header(s);
    if (header.stored_entries > largest_entries) {
      largest_entries = header.stored_entries;
      largest = s;
    }
  }
  if (!largest.empty()) out.push_back(largest);
  return out;
}

}  // namespace
}  // namespace strata::bench

int main(int argc, char** argv) {
  using namespace strata::bench;
  Kokkos::ScopeGuard kokkos(argc, argv);
  const char* notes =
      "Of the real matrices only the largest is run. Conversions repeat --reps / 10 times (at least 1).\n";
  if (print_help_if_asked(argc, argv, notes)) return 0;
  constexpr bool host_device =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, Kokkos::DefaultExecutionSpace::memory_space>::accessible;
  const std::vector<std::string> generated = host_device ? std::vector<std::string>{"gen:poisson3d:32"}
                                                         : std::vector<std::string>{"gen:poisson3d:128"};
  MatrixSelection selection;
  std::vector<std::string> sources;
  try {
    selection = parse_matrix_selection(&argc, argv, generated);
    sources = generated_and_largest_real(selection.sources);
  } catch (const std::exception& e) {
    std::cerr << "strata_hisparse_convert: " << e.what() << "\n";
    return 2;
  }
  const int conversion_reps = std::max(1, selection.repetitions / 10);
  for (const auto& source : sources) {
    for (const auto& precision : selection.precisions) {
      for (const std::string operation :
           {"csr_copy", "csr_to_hisparse", "hisparse_to_csr"}) {
        const std::string name = operation + "/" + precision + "/" + strata::matrix_name(source);
        const bool conversion = operation == "csr_to_hisparse" || operation == "hisparse_to_csr";
        benchmark::RegisterBenchmark(name.c_str(), benchmark_operation, source, precision, operation)
            ->UseManualTime()
            ->Iterations(conversion ? conversion_reps : selection.repetitions)
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
  return run_registered_benchmarks(argc, argv);
}
