// C = alpha op(A) + beta op(B) in the four transpose combinations: strata::add on
// HiSparse against Kokkos Kernels' spadd and, in CUDA builds with cuSPARSE,
// cuSPARSE's csrgeam2 on CSR (op = T through each library's explicit transpose,
// timed as part of the addition), in the same run. B is
// overlapping_partner(A) (core/addition_partner.hpp), stored transposed where
// the modes differ so that op(B) has op(A)'s shape. Each result is checked once
// against the host reference (every coordinate of the union, every value
// within the rounding bound) before it is timed; every timing is between fences.
#include "benchmark_context.hpp"
#include "benchmark_matrices.hpp"
#include "spmv_measurement.hpp"

#include <strata/algorithms/add.hpp>
#include <strata/algorithms/baseline/csr_add.hpp>
#include <strata/algorithms/baseline/cusparse_add.hpp>
#include <strata/algorithms/reference/coo_add.hpp>
#include <strata/core/addition_partner.hpp>
#include <strata/core/matrix_source.hpp>
#include <strata/formats/hisparse/hisparse_convert.hpp>

#include <benchmark/benchmark.h>

#include <iostream>
#include <map>
#include <type_traits>

namespace strata::bench {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;

constexpr bool with_cusparse = baseline::cusparse_add_available<ExecSpace>::value;

// Seconds of each baseline per (operation, matrix, precision, modes), for the ratios of strata::add to them.
std::map<std::string, double>& baseline_seconds() {
  static std::map<std::string, double> seconds;
  return seconds;
}

void set_speedup(benchmark::State& state, const std::string& baseline, const std::string& key, double seconds) {
  const auto b = baseline_seconds().find(baseline + "/" + key);
  if (b != baseline_seconds().end()) state.counters["speedup_vs_" + baseline] = b->second / seconds;
}

template <class Value>
bool passes(benchmark::State& state, const HostCoo<Value>& C, const reference::AddReference<Value>& ref) {
  const auto acc = reference::check_add(C, ref);
  if (!acc.passed) {
    state.SkipWithError(("result differs from the host reference: " + acc.describe()).c_str());
  }
  return acc.passed;
}

// The host side of one (matrix, precision, modes): both terms and the reference, built once for the
// two operations that run on it one after the other (for the largest matrices this takes seconds).
template <class Value>
struct Terms {
  std::string key;
  HostCoo<Value> a, b;
  reference::AddReference<Value> ref;
};

template <class Value>
const Terms<Value>& terms_for(const std::string& key, const HostCsr<Value>& host, SpmvMode ma, SpmvMode mb,
                              const Value& alpha, const Value& beta) {
  static Terms<Value> current;
  if (current.key != key) {
    current = Terms<Value>{};
    current.a = to_coo(host);
    const HostCoo<Value> partner = overlapping_partner(current.a);
    current.b = is_transposed(ma) == is_transposed(mb) ? partner : transposed(partner);
    current.ref = reference::coo_add(ma, alpha, current.a, mb, beta, current.b);
    current.key = key;
  }
  return current;
}

template <class Value>
void run(benchmark::State& state, const HostCsr<Value>& host, const std::string& key, SpmvMode ma, SpmvMode mb,
         const std::string& operation) {
  const Value alpha = value_from<Value>(2.0, 0.0), beta = value_from<Value>(-0.5, 0.0);
  const Terms<Value>& t = terms_for(key, host, ma, mb, alpha, beta);
  const HostCoo<Value>& a = t.a;
  const HostCoo<Value>& b = t.b;
  const auto& ref = t.ref;
  state.counters["nnz_a"] = static_cast<double>(a.nnz());
  state.counters["nnz_b"] = static_cast<double>(b.nnz());
  state.counters["nnz_c"] = static_cast<double>(ref.values.size());
  if (operation == "kk_spadd" || operation == "cusparse_geam") {
    using csr_type = DeviceCsr<Value, Device>;
    const auto A = to_kokkos_crs<csr_type>(host, "strata::bench_a");
    const auto B = to_kokkos_crs<csr_type>(to_csr(b), "strata::bench_b");
    if (operation == "kk_spadd") {
      if (!passes(state, to_coo(from_kokkos_crs(baseline::kk_add(ma, alpha, A, mb, beta, B))), ref)) return;
      baseline_seconds()[operation + "/" + key] =
          time_between_fences(state, [&] { (void)baseline::kk_add(ma, alpha, A, mb, beta, B); });
      return;
    }
    if constexpr (with_cusparse) {
      // One handle for every addition, as a code adding repeatedly keeps it.
      baseline::CusparseAdd<Value, ExecSpace> cusparse;
      ExecSpace space;
      if (!passes(state, to_coo(from_kokkos_crs(cusparse.add(space, ma, alpha, A, mb, beta, B))), ref)) return;
      baseline_seconds()[operation + "/" + key] =
          time_between_fences(state, [&] { (void)cusparse.add(space, ma, alpha, A, mb, beta, B); });
      return;
    }
  }
  if (operation == "hisparse_add") {
    const auto A = to_hisparse<Device>(a);
    const auto B = to_hisparse<Device>(b);
    ExecSpace space;
    // One handle for every addition, as a code adding repeatedly keeps it.
    AddHandle<ExecSpace, HiSparseMatrix<Value, Device>> handle;
    if (!passes(state, to_host_coo(add(space, handle, to_string(ma), alpha, A, to_string(mb), beta, B)), ref)) return;
    const double s =
        time_between_fences(state, [&] { (void)add(space, handle, to_string(ma), alpha, A, to_string(mb), beta, B); });
    set_speedup(state, "kk_spadd", key, s);
    set_speedup(state, "cusparse_geam", key, s);
    return;
  }
  state.SkipWithError(("unknown operation " + operation).c_str());
}

void benchmark_operation(benchmark::State& state, const std::string& source, const std::string& precision,
                         const std::string& modes, const std::string& operation) {
  try {
    const LoadedMatrix& m = current_matrix(source);
    const SpmvMode ma = parse_spmv_mode(modes.substr(0, 1)), mb = parse_spmv_mode(modes.substr(1, 1));
    const std::string key = source + "/" + precision + "/" + modes;
    with_bench_value_type(m, precision, [&](const auto& host) {
      using Value = typename std::decay_t<decltype(host)>::value_type;
      run<Value>(state, host, key, ma, mb, operation);
    });
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

}  // namespace
}  // namespace strata::bench

int main(int argc, char** argv) {
  using namespace strata::bench;
  Kokkos::ScopeGuard kokkos(argc, argv);
  const char* notes =
      "Each (matrix, precision, modes) runs kk_spadd, cusparse_geam (CUDA builds with cuSPARSE), then hisparse_add,\n"
      "whose speedup_vs_kk_spadd and speedup_vs_cusparse_geam counters are the ratios of the times. Modes NN, TN,\n"
      "NT, TT: op(A), op(B). Additions repeat --reps / 10 times (at least 1).\n";
  if (print_help_if_asked(argc, argv, notes)) return 0;
  constexpr bool host_device =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, Kokkos::DefaultExecutionSpace::memory_space>::accessible;
  const std::vector<std::string> generated =
      host_device ? std::vector<std::string>{"gen:poisson3d:24", "gen:rmat:12"}
                  : std::vector<std::string>{"gen:poisson3d:100", "gen:rmat:18", "gen:hubs:200000:8:50:20000"};
  MatrixSelection selection;
  try {
    selection = parse_matrix_selection(&argc, argv, generated);
  } catch (const std::exception& e) {
    std::cerr << "strata_hisparse_add: " << e.what() << "\n";
    return 2;
  }
  const int reps = std::max(1, selection.repetitions / 10);
  std::vector<std::string> operations{"kk_spadd"};
  if (with_cusparse) operations.push_back("cusparse_geam");
  operations.push_back("hisparse_add");
  for (const auto& source : selection.sources) {
    for (const auto& precision : selection.precisions) {
      for (const std::string modes : {"NN", "TN", "NT", "TT"}) {
        for (const std::string& operation : operations) {
          const std::string name = operation + "/" + modes + "/" + precision + "/" + strata::matrix_name(source);
          benchmark::RegisterBenchmark(name.c_str(), benchmark_operation, source, precision, modes, operation)
              ->UseManualTime()
              ->Iterations(reps)
              ->Unit(benchmark::kMillisecond);
        }
      }
    }
  }
  return run_registered_benchmarks(argc, argv);
}
