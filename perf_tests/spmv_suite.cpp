// The SpMV suite that judges every SpMV in Strata: for each matrix (generated
// ones sized for the device plus every real matrix) and precision it times
// Strata's load-balanced COO, Kokkos Kernels CSR (native, and merge path where
// available) and, in CUDA builds, cuSPARSE CSR and COO. Each product is timed
// between fences; each kernel is verified once against the host reference
// before timing. scripts/spmv_report.py turns the JSON output into the tables
// of docs/PERFORMANCE.md (wins, geometric means, slowdown-versus-best profile).
#include "benchmark_context.hpp"
#include "benchmark_matrices.hpp"
#include "spmv_measurement.hpp"

#include <strata/algorithms/baseline/cusparse_spmv.hpp>
#include <strata/algorithms/baseline/kokkos_kernels_spmv.hpp>
#include <strata/algorithms/reference/csr_spmv.hpp>
#include <strata/algorithms/spmv/coo_spmv.hpp>
#include <strata/core/matrix_statistics.hpp>
#include <strata/formats/coo/coo_csr_conversion.hpp>
#include <strata/algorithms/spmv_traffic.hpp>
#include <strata/core/matrix_source.hpp>
#include <strata/core/pseudo_random.hpp>

#include <benchmark/benchmark.h>

#include <functional>
#include <iostream>
#include <memory>

namespace strata::bench {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;

template <class Value>
using ApplyFunction = std::function<void(Value, const Kokkos::View<Value*, Device>&, Value,
                                         const Kokkos::View<Value*, Device>&)>;

template <class Value>
ApplyFunction<Value> make_kernel(const std::string& kernel, const DeviceCsr<Value, Device>& A) {
  ExecSpace space;
  if (kernel == "kk_native" || kernel == "kk_merge_path") {
    auto kk = std::make_shared<baseline::KokkosKernelsCsrSpmv<Value, ExecSpace>>(
        A, kernel == "kk_native" ? compat::KkSpmvAlgorithm::native : compat::KkSpmvAlgorithm::merge_path);
    return [kk, space](Value a, const auto& x, Value b, const auto& y) { kk->apply(space, "N", a, x, b, y); };
  }
  if (kernel == "strata_coo") {
    auto coo = std::make_shared<CooMatrix<Value, Device>>(coo_from_csr(A, "strata::bench_coo"));
    return [coo, space](Value a, const auto& x, Value b, const auto& y) { spmv(space, "N", a, *coo, x, b, y); };
  }
  if constexpr (baseline::cusparse_spmv_available<ExecSpace>::value) {
    if (kernel == "cusparse_csr") {
      auto cs = std::make_shared<baseline::CusparseCsrSpmv<Value, ExecSpace>>(A);
      return [cs, space](Value a, const auto& x, Value b, const auto& y) { cs->apply(space, "N", a, x, b, y); };
    }
    if (kernel == "cusparse_coo") {
      const auto coo = coo_from_csr(A, "strata::bench_cusparse_coo");
      auto cs = std::make_shared<baseline::CusparseCooSpmv<Value, ExecSpace>>(coo.num_rows(), coo.num_cols(),
                                                                               coo.rows(), coo.cols(), coo.values());
      return [cs, space](Value a, const auto& x, Value b, const auto& y) { cs->apply(space, "N", a, x, b, y); };
    }
  }
  throw Error("kernel " + kernel + " is not available in this build");
}

template <class Value>
void run_spmv(benchmark::State& state, const HostCsr<Value>& host, const std::string& kernel) {
  const auto A = to_kokkos_crs<DeviceCsr<Value, Device>>(host, "strata::bench_matrix");
  const auto x_host = pseudo_random_vector<Value>(host.num_cols, 11);
  Kokkos::View<Value*, Device> x("strata::bench_x", host.num_cols);
  Kokkos::View<Value*, Device> y("strata::bench_y", host.num_rows);
  upload_vector(x, x_host);
  auto apply = make_kernel<Value>(kernel, A);
  const Value one = value_from<Value>(1.0, 0.0);
  const Value zero = value_from<Value>(0.0, 0.0);
  const auto product = [&] { apply(one, x, zero, y); };
  double max_error_over_bound = 0.0;
  if (!verify_spmv(state, host, x_host, y, product, &max_error_over_bound)) return;
  const double seconds = time_between_fences(state, product, 3);
  const bool coo_format = kernel == "strata_coo" || kernel == "cusparse_coo";
  const auto traffic =
      coo_format ? coo_spmv_traffic(host.num_rows, host.num_cols, host.nnz(), sizeof(Value), sizeof(int),
                                    value_traits<Value>::is_complex, false, false)
                 : csr_spmv_traffic(host.num_rows, host.num_cols, host.nnz(), sizeof(Value), sizeof(int), sizeof(int),
                                    value_traits<Value>::is_complex, false, false);
  const MatrixStatistics stats = compute_statistics(host);
  record_rates(state, traffic, seconds);
  const double gb_per_s = traffic.bytes / seconds * 1e-9;
  state.counters["copy_fraction"] = copy_bandwidth_gb_per_s() > 0 ? gb_per_s / copy_bandwidth_gb_per_s() : 0.0;
  state.counters["nnz"] = static_cast<double>(host.nnz());
  state.counters["rows"] = static_cast<double>(host.num_rows);
  state.counters["max_error_over_bound"] = max_error_over_bound;
  state.counters["row_length_cv"] = stats.row_length_mean > 0 ? stats.row_length_std / stats.row_length_mean : 0.0;
}

void benchmark_spmv(benchmark::State& state, const std::string& source, const std::string& precision,
                    const std::string& kernel) {
  try {
    const LoadedMatrix& m = current_matrix(source);
    if (m.is_complex) {
      if (precision == "double") {
        run_spmv<Kokkos::complex<double>>(state, m.complex, kernel);
      } else {
        run_spmv<Kokkos::complex<float>>(state, convert_values<Kokkos::complex<float>>(m.complex), kernel);
      }
    } else if (precision == "double") {
      run_spmv<double>(state, m.real, kernel);
    } else {
      run_spmv<float>(state, convert_values<float>(m.real), kernel);
    }
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

}  // namespace
}  // namespace strata::bench

int main(int argc, char** argv) {
  using namespace strata::bench;
  Kokkos::ScopeGuard kokkos(argc, argv);
  if (print_help_if_asked(argc, argv, "")) return 0;
  constexpr bool host_device =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, Kokkos::DefaultExecutionSpace::memory_space>::accessible;
  const std::vector<std::string> generated = host_device
                                                 ? std::vector<std::string>{"gen:poisson3d:64", "gen:rmat:16"}
                                                 : std::vector<std::string>{"gen:poisson3d:160", "gen:rmat:22",
                                                                            "gen:hubs:4000000:8:40:200000"};
  MatrixSelection selection;
  try {
    selection = parse_matrix_selection(&argc, argv, generated);
  } catch (const std::exception& e) {
    std::cerr << "strata_spmv_suite: " << e.what() << "\n";
    return 2;
  }
  std::vector<std::string> kernels{"strata_coo", "kk_native"};
  if (strata::compat::kk_has_merge_path) kernels.push_back("kk_merge_path");
  if (strata::baseline::cusparse_spmv_available<Kokkos::DefaultExecutionSpace>::value) {
    kernels.push_back("cusparse_csr");
    kernels.push_back("cusparse_coo");
  }

  for (const auto& source : selection.sources) {
    for (const auto& precision : selection.precisions) {
      for (const auto& kernel : kernels) {
        const std::string name = "spmv/" + kernel + "/" + precision + "/" + strata::matrix_name(source);
        benchmark::RegisterBenchmark(name.c_str(), benchmark_spmv, source, precision, kernel)
            ->UseManualTime()
            ->Iterations(selection.repetitions)
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  record_context();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
