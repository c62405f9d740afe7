#include "command_line.hpp"
#include "commands.hpp"
#include "value_dispatch.hpp"

#include <strata/algorithms/measure/spmv_run.hpp>
#include <strata/core/copy_bandwidth.hpp>
#include <strata/core/device_info.hpp>
#include <strata/core/generators.hpp>
#include <strata/core/matrix_source.hpp>
#include <strata/core/row_teams.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

namespace strata::cli {

const char* const default_matrix = "gen:poisson3d:128";

namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;

const std::vector<OptionSpec> spmv_options = with_options({
    {"--format", true,
     "comma list of kernels, or all (default: auto); this build has: " + spmv_kernel_names<ExecSpace>()},
    {"--mode", true, "N (y = A x, default), T (A^T x), C (conj(A) x) or H (A^H x)"},
    {"--vectors", true, "number of vectors K: 1 (default) multiplies a vector, K > 1 a K-column multi-vector"},
    {"--precision", true, "double (default) or float; complex files use complex<double|float>"},
    {"--omega", true, "coo and csr-balanced: chunks per SM/thread (default by nnz: 8/32/128, csr-balanced 288 from 10M)"},
    {"--autotune", false, "COO load_balanced: time a ladder of omega on this matrix and use the fastest"},
    {"--deterministic", false, "COO load_balanced: bitwise reproducible results (modes N and C)"},
    {"--lanes", true, "csr-rows and dcsr: vector lanes per row, 1, 2, 4, 8, 16 or 32 (default: from the mean row length)"},
    {"--reps", true, "timed repetitions (default 50)"},
    {"--warmup", true, "untimed repetitions first (default 5)"},
    {"--copy-mib", true, "buffer size of the copy-bandwidth measurement in MiB (default 1024 on GPUs, 256 on hosts)"},
    {"--json", false, "machine-readable output on stdout"},
    {"--help", false, "this text"},
}, matrix_input_options());

struct Options {
  std::vector<SpmvKernel> kernels;
  SpmvMode mode = SpmvMode::normal;
  int vectors = 1;
  SpmvSettings coo;  // omega / autotune / deterministic, for the COO load_balanced kernel only
  int lanes = 0;     // for the row kernels (csr-rows, dcsr) only; 0 = from the mean row length
  int reps = 50;
  int warmup = 5;
};

struct KernelResult {
  std::string kernel;
  std::string chosen;  // the handle's description: format, kernel, parameters, why
  bool verified = false;
  std::string failure;
  double max_error_over_bound = 0.0;
  double setup_seconds = 0.0;
  std::size_t matrix_bytes = 0;
  measure::SpmvTiming timing;
  double gflops = 0.0;
  double gb_per_s = 0.0;
  double fraction_of_copy = 0.0;
};

bool takes_coo_options(const SpmvKernel& k) {
  return k.format == Format::coo && k.algorithm == SpmvAlgorithm::load_balanced;
}

// The nonzero-balanced kernels, COO's and CSR's, split the nonzeros into omega chunks per SM.
bool takes_omega(const SpmvKernel& k) {
  return (k.format == Format::coo || k.format == Format::csr) && k.algorithm == SpmvAlgorithm::load_balanced;
}

bool takes_row_lanes(const SpmvKernel& k) {
  return (k.format == Format::csr || k.format == Format::dcsr) && k.algorithm == SpmvAlgorithm::row_vectors;
}

std::vector<SpmvKernel> parse_kernels(const std::string& text) {
  if (text == "all") return spmv_kernels<ExecSpace>();
  std::vector<SpmvKernel> kernels;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    try {
      kernels.push_back(find_spmv_kernel<ExecSpace>(item));
    } catch (const Error& e) {
      throw UsageError(std::string("spmv: --format: ") + e.what());
    }
  }
  if (kernels.empty()) throw UsageError("spmv: --format is empty");
  return kernels;
}

// Checks every option against every kernel before any work starts.
Options parse_options(const ParsedArgs& parsed) {
  Options o;
  o.kernels = parse_kernels(parsed.get("--format", "auto"));
  try {
    o.mode = parse_spmv_mode(parsed.get("--mode", "N"));
  } catch (const Error& e) {
    throw UsageError(std::string("spmv: --mode: ") + e.what());
  }
  o.vectors = static_cast<int>(parsed.get_int("--vectors", 1, 1, 1024));
  o.reps = static_cast<int>(parsed.get_int("--reps", 50, 1, 1000000));
  o.warmup = static_cast<int>(parsed.get_int("--warmup", 5, 0, 1000000));
  o.coo.omega = static_cast<int>(parsed.get_int("--omega", 0, 1, 65536));
  o.coo.autotune = parsed.has("--autotune");
  o.coo.deterministic = parsed.has("--deterministic");
  const bool coo_options = o.coo.autotune || o.coo.deterministic;
  if (coo_options && std::none_of(o.kernels.begin(), o.kernels.end(), takes_coo_options)) {
    throw UsageError("spmv: --autotune and --deterministic apply to the coo kernel, which --format does not name");
  }
  if (parsed.has("--omega") && std::none_of(o.kernels.begin(), o.kernels.end(), takes_omega)) {
    throw UsageError(
        "spmv: --omega applies to the nonzero-balanced kernels coo and csr-balanced, which --format "
        "does not name");
  }
  o.lanes = static_cast<int>(parsed.get_int("--lanes", 0, 1, 32));
  if (parsed.has("--lanes")) {
    if (!valid_row_lanes(o.lanes)) {
      throw UsageError(std::string("spmv: --lanes must be ") + valid_row_lanes_list + ", got " + std::to_string(o.lanes));
    }
    if (std::none_of(o.kernels.begin(), o.kernels.end(), takes_row_lanes)) {
      throw UsageError("spmv: --lanes applies to the row kernels csr-rows and dcsr, which --format does not name");
    }
  }
  if (o.coo.deterministic && is_transposed(o.mode)) {
    throw UsageError(std::string("spmv: --deterministic computes modes N and C only, not --mode ") + to_string(o.mode));
  }
  return o;
}

template <class Value>
std::vector<KernelResult> run_kernels(const HostCsr<Value>& host, const Options& options, const CopyBandwidth& copy,
                                      bool progress) {
  ExecSpace space;
  std::vector<KernelResult> results;
  for (const auto& kernel : options.kernels) {
    if (progress) std::cerr << "spmv: " << kernel.name << " ...\n";
    measure::SpmvRunOptions run_options;
    if (takes_coo_options(kernel)) {
      run_options.settings = options.coo;
    } else if (takes_omega(kernel)) {
      run_options.settings.omega = options.coo.omega;
    }
    if (takes_row_lanes(kernel)) run_options.settings.lanes = options.lanes;
    KernelResult r;
    r.kernel = kernel.name;
    std::unique_ptr<measure::SpmvRun<Value, ExecSpace>> run_ptr;
    try {
      run_ptr = std::make_unique<measure::SpmvRun<Value, ExecSpace>>(space, host, kernel, options.mode,
                                                                     options.vectors, run_options);
    } catch (const Error& e) {
      // A kernel this matrix does not fit (a format's limit) fails alone; the others still run.
      if (options.kernels.size() == 1) throw;
      r.failure = std::string("not run: ") + e.what();
      results.push_back(r);
      continue;
    }
    auto& run = *run_ptr;
    r.setup_seconds = run.setup_seconds();
    r.matrix_bytes = run.matrix_bytes();
    const auto check = run.verify();
    r.chosen = run.describe();
    r.verified = check.passed;
    r.failure = check.failure;
    r.max_error_over_bound = check.max_error_over_bound;
    r.timing = run.time(options.warmup, options.reps);
    const SpmvTraffic traffic = run.traffic();
    r.gflops = traffic.flops / r.timing.median_seconds * 1e-9;
    r.gb_per_s = traffic.bytes / r.timing.median_seconds * 1e-9;
    r.fraction_of_copy = copy.median_gb_per_s() > 0 ? r.gb_per_s / copy.median_gb_per_s() : 0.0;
    results.push_back(r);
  }
  return results;
}

void print_results(const LoadedMatrix& m, const std::string& value_name, const Options& options,
                   const CopyBandwidth& copy, const std::vector<KernelResult>& results, bool json) {
  const std::string device = device_info<ExecSpace>::describe();
  if (json) {
    std::cout << "{\"matrix\":" << json_string(m.name) << ",\"rows\":" << m.num_rows() << ",\"cols\":"
              << m.num_cols() << ",\"nnz\":" << m.nnz() << ",\"value_type\":" << json_string(value_name)
              << ",\"mode\":" << json_string(to_string(options.mode)) << ",\"vectors\":" << options.vectors
              << ",\"device\":" << json_string(device) << ",\"kokkos_version\":" << compat::kokkos_version
              << ",\"reps\":" << options.reps << ",\"copy_bandwidth_gb_per_s\":" << copy.median_gb_per_s()
              << ",\"kernels\":[";
    for (std::size_t i = 0; i < results.size(); ++i) {
      const auto& r = results[i];
      std::cout << (i ? "," : "") << "{\"kernel\":" << json_string(r.kernel) << ",\"chosen\":" << json_string(r.chosen)
                << ",\"verified\":" << (r.verified ? "true" : "false") << ",\"failure\":" << json_string(r.failure)
                << ",\"max_error_over_bound\":" << r.max_error_over_bound << ",\"setup_seconds\":" << r.setup_seconds
                << ",\"matrix_bytes\":" << r.matrix_bytes << ",\"median_seconds\":" << r.timing.median_seconds
                << ",\"best_seconds\":" << r.timing.best_seconds << ",\"gflops\":" << r.gflops
                << ",\"gb_per_s\":" << r.gb_per_s << ",\"fraction_of_copy_bandwidth\":" << r.fraction_of_copy << "}";
    }
    std::cout << "]}\n";
    return;
  }
  std::printf("matrix   %s: %lld x %lld, %lld nonzeros, %s, mode %s, %d vector%s\n", m.name.c_str(),
              static_cast<long long>(m.num_rows()), static_cast<long long>(m.num_cols()),
              static_cast<long long>(m.nnz()), value_name.c_str(), to_string(options.mode), options.vectors,
              options.vectors == 1 ? "" : "s");
  std::printf("device   %s; Kokkos %d\n", device.c_str(), compat::kokkos_version);
  std::printf("copy     %.1f GB/s (median of copies of %.0f MiB)\n", copy.median_gb_per_s(),
              copy.bytes_moved / 2.0 / (1 << 20));
  // The kernel column as wide as the longest name run (at least the header's 13).
  int width = 13;
  for (const auto& r : results) width = std::max(width, static_cast<int>(r.kernel.size()));
  std::printf("%-*s %10s %10s %9s %9s %8s %9s %9s  %s\n", width, "kernel", "median ms", "best ms", "GFLOP/s", "GB/s",
              "of copy", "setup ms", "MB", "verified (max error / bound)");
  for (const auto& r : results) {
    if (r.timing.repetitions == 0) {
      std::printf("%-*s %s\n", width, r.kernel.c_str(), "NOT RUN (see below)");
      continue;
    }
    std::printf("%-*s %10.4f %10.4f %9.2f %9.1f %7.1f%% %9.2f %9.2f  %s (%.3g)\n", width, r.kernel.c_str(),
                r.timing.median_seconds * 1e3, r.timing.best_seconds * 1e3, r.gflops, r.gb_per_s,
                100.0 * r.fraction_of_copy, r.setup_seconds * 1e3, r.matrix_bytes / 1e6, r.verified ? "yes" : "NO",
                r.max_error_over_bound);
  }
  std::printf("kernels run:\n");
  for (const auto& r : results) {
    std::printf("  %-*s %s\n", width - 2, r.kernel.c_str(), r.chosen.c_str());
    if (!r.verified) std::printf("  %-*s FAILED: %s\n", width - 2, "", r.failure.c_str());
  }
  std::printf("(%d timed repetitions after %d warm-up; GB/s by the CSR bytes model for every format, see "
              "docs/PERFORMANCE.md; setup = conversion + analysis + first product)\n",
              options.reps, options.warmup);
}

}  // namespace

int spmv_command(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse("spmv", args, spmv_options, 1);
  if (parsed.has("--help")) {
    std::cout << "usage: strata spmv [MATRIX] [OPTIONS]\n\n"
                 "Times y = alpha*op(A)*x + beta*y with the chosen kernels, all through strata::spmv, after\n"
                 "verifying each against a sequential double-precision host reference (beta = 0 over NaN, and a\n"
                 "general alpha/beta update). Reports GFLOP/s, effective GB/s and the fraction of the device copy\n"
                 "bandwidth measured in the same run. Exit code 1 if any check fails, 2 on a usage error.\n"
                 "MATRIX defaults to "
              << default_matrix << ".\n\nKernels:\n";
    // The names' column as wide as the longest name (hisparse-persist) and two spaces.
    const auto kernels = spmv_kernels<ExecSpace>();
    std::size_t width = 0;
    for (const auto& k : kernels) width = std::max(width, k.name.size());
    for (const auto& k : kernels) {
      std::printf("  %-*s  %s\n", static_cast<int>(width), k.name.c_str(), k.summary);
    }
    std::cout << "\nOptions:\n" << format_options(spmv_options) << "\nGenerator specs:\n" << generator_help();
    return 0;
  }
  const Options options = parse_options(parsed);
  const std::string precision = parsed.get("--precision", "double");
  require_precision(precision, "spmv");
  constexpr bool host_device = Kokkos::SpaceAccessibility<Kokkos::HostSpace, ExecSpace::memory_space>::accessible;
  const long long copy_mib = parsed.get_int("--copy-mib", host_device ? 256 : 1024, 1, 65536);
  const bool json = parsed.has("--json");
  const std::string source = parsed.positional.empty() ? default_matrix : parsed.positional[0];

  const MatrixLoadOptions load_options = matrix_load_options(parsed);
  const LoadedMatrix m = load_matrix(source, &std::cerr, load_options);
  const CopyBandwidth copy = measure_copy_bandwidth<ExecSpace>(static_cast<std::size_t>(copy_mib) << 20, 20);
  std::vector<KernelResult> results;
  const std::string value_name = with_value_type(m, precision, load_options.values, [&](const auto& host) {
    results = run_kernels(host, options, copy, !json);
  });
  print_results(m, value_name, options, copy, results, json);
  const bool all_verified = std::all_of(results.begin(), results.end(),
                                        [](const KernelResult& r) { return r.verified; });
  if (!all_verified) std::cerr << "strata spmv: verification FAILED for at least one kernel\n";
  return all_verified ? 0 : 1;
}

}  // namespace strata::cli
