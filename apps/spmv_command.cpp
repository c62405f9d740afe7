#include "command_line.hpp"
#include "commands.hpp"

#include <strata/algorithms/baseline/cusparse_spmv.hpp>
#include <strata/algorithms/baseline/kokkos_kernels_spmv.hpp>
#include <strata/algorithms/reference/csr_spmv.hpp>
#include <strata/algorithms/spmv/coo_spmv.hpp>
#include <strata/formats/coo/coo_csr_conversion.hpp>
#include <strata/algorithms/spmv_traffic.hpp>
#include <strata/core/copy_bandwidth.hpp>
#include <strata/core/device_info.hpp>
#include <strata/core/generators.hpp>
#include <strata/core/matrix_source.hpp>
#include <strata/core/pseudo_random.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <sstream>

namespace strata::cli {

const char* const default_matrix = "gen:poisson3d:128";

namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;

const std::vector<OptionSpec> spmv_options = {
    {"--precision", true, "double (default) or float; complex files use complex<double|float>"},
    {"--mode", true, "N (y = A x, default) or T (y = A^T x)"},
    {"--kernels", true,
     "comma list of kk, kk-merge, cusparse (CSR), coo (Strata), cusparse-coo, or all (default: all this build has)"},
    {"--format", true, "csr or coo: only the kernels of that format (default: both)"},
    {"--omega", true, "Strata COO: chunks per SM/thread (default: 8/32/128 by nnz)"},
    {"--autotune", false, "Strata COO: measure a ladder of omega on this matrix and use the fastest"},
    {"--deterministic", false, "Strata COO: bitwise reproducible results (no atomics)"},
    {"--reps", true, "timed repetitions (default 50)"},
    {"--warmup", true, "untimed repetitions first (default 5)"},
    {"--copy-mib", true, "buffer size of the copy-bandwidth measurement in MiB (default 1024 on GPUs, 256 on hosts)"},
    {"--json", false, "machine-readable output on stdout"},
    {"--help", false, "this text"},
};

struct Options {
  std::string mode = "N";
  CooSpmvOptions coo;
  std::vector<std::string> kernels;
  int reps = 50;
  int warmup = 5;
};

struct KernelResult {
  std::string kernel;
  bool verified = false;
  double max_scaled_error = 0.0;
  double median_seconds = 0.0;
  double best_seconds = 0.0;
  double gflops = 0.0;
  double gb_per_s = 0.0;
  double fraction_of_copy = 0.0;
};

bool is_coo_kernel(const std::string& k) { return k == "coo" || k == "cusparse-coo"; }

std::vector<std::string> available_kernels() {
  std::vector<std::string> k{"kk"};
  if (compat::kk_has_merge_path) k.push_back("kk-merge");
  if (baseline::cusparse_spmv_available<ExecSpace>::value) k.push_back("cusparse");
  k.push_back("coo");
  if (baseline::cusparse_spmv_available<ExecSpace>::value) k.push_back("cusparse-coo");
  return k;
}

std::vector<std::string> parse_kernel_list(const std::string& text, const std::string& format) {
  const auto available = available_kernels();
  if (text == "all") {
    std::vector<std::string> kernels;
    for (const auto& k : available) {
      if (format.empty() || (format == "coo") == is_coo_kernel(k)) kernels.push_back(k);
    }
    return kernels;
  }
  std::vector<std::string> kernels;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item != "kk" && item != "kk-merge" && item != "cusparse" && item != "coo" && item != "cusparse-coo") {
      throw UsageError("spmv: unknown kernel '" + item +
                       "' in --kernels (expected kk, kk-merge, cusparse, coo, cusparse-coo or all)");
    }
    if (!format.empty() && (format == "coo") != is_coo_kernel(item)) {
      throw UsageError("spmv: kernel '" + item + "' is not a " + format + " kernel (--format " + format + ")");
    }
    if (std::find(available.begin(), available.end(), item) == available.end()) {
      throw Error("kernel '" + item + "' is not available in this build (execution space " +
                  std::string(ExecSpace::name()) +
                  (item.rfind("cusparse", 0) == 0 ? "; cuSPARSE needs a CUDA build with STRATA_ENABLE_CUSPARSE)"
                                      : "; merge-path SpMV needs Kokkos Kernels 4.3 or newer)"));
    }
    kernels.push_back(item);
  }
  if (kernels.empty()) throw UsageError("spmv: --kernels is empty");
  return kernels;
}

template <class View, class Value>
void copy_to_device(const View& device, const std::vector<Value>& host) {
  auto mirror = Kokkos::create_mirror_view(device);
  for (std::size_t i = 0; i < host.size(); ++i) mirror(i) = host[i];
  Kokkos::deep_copy(device, mirror);
}

template <class View>
auto copy_to_host(const View& device) {
  auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), device);
  std::vector<typename View::non_const_value_type> host(mirror.extent(0));
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = mirror(i);
  return host;
}

template <class Value>
std::vector<KernelResult> run_kernels(const HostCsr<Value>& host_matrix, const Options& options,
                                      const CopyBandwidth& copy) {
  using device_type = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  using matrix_type = DeviceCsr<Value, device_type>;
  using vector_type = Kokkos::View<Value*, device_type>;
  const bool transposed = options.mode == "T";
  const index_type in_len = transposed ? host_matrix.num_rows : host_matrix.num_cols;
  const index_type out_len = transposed ? host_matrix.num_cols : host_matrix.num_rows;

  const matrix_type A = to_kokkos_crs<matrix_type>(host_matrix, "strata::spmv_matrix");
  const CooMatrix<Value, device_type> A_coo = coo_from_csr(A, "strata::spmv_coo");
  const auto x_host = pseudo_random_vector<Value>(in_len, 11);
  const auto y0_host = pseudo_random_vector<Value>(out_len, 12);
  vector_type x(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::spmv_x"), in_len);
  vector_type y(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::spmv_y"), out_len);
  copy_to_device(x, x_host);

  const auto mode_enum = reference::parse_spmv_mode(options.mode);
  const Value one = value_from<Value>(1.0, 0.0);
  const Value zero = value_from<Value>(0.0, 0.0);
  const Value alpha2 = value_from<Value>(2.0, 0.5);
  const Value beta2 = value_from<Value>(-1.0, 0.25);
  const auto ref_overwrite = reference::csr_spmv(mode_enum, one, host_matrix, x_host, zero, y0_host);
  const auto ref_update = reference::csr_spmv(mode_enum, alpha2, host_matrix, x_host, beta2, y0_host);
  const auto csr_traffic = csr_spmv_traffic(host_matrix.num_rows, host_matrix.num_cols, host_matrix.nnz(),
                                            sizeof(Value), sizeof(int), sizeof(int), value_traits<Value>::is_complex,
                                            transposed, false);
  const auto coo_traffic = coo_spmv_traffic(host_matrix.num_rows, host_matrix.num_cols, host_matrix.nnz(),
                                            sizeof(Value), sizeof(int), value_traits<Value>::is_complex, transposed,
                                            false);
  const std::vector<Value> nan_host(static_cast<std::size_t>(out_len),
                                    value_from<Value>(std::numeric_limits<double>::quiet_NaN(), 0.0));

  ExecSpace space;
  std::vector<KernelResult> results;
  auto measure = [&](const std::string& name_key, const std::string& name,
                     const std::function<void(Value, Value)>& apply) {
    KernelResult r;
    r.kernel = name;
    // beta = 0 must overwrite whatever y holds, NaN included.
    copy_to_device(y, nan_host);
    apply(one, zero);
    space.fence();
    const auto check_overwrite = reference::check_spmv(copy_to_host(y), ref_overwrite);
    copy_to_device(y, y0_host);
    apply(alpha2, beta2);
    space.fence();
    const auto check_update = reference::check_spmv(copy_to_host(y), ref_update);
    r.verified = check_overwrite.passed && check_update.passed;
    r.max_scaled_error = std::max(check_overwrite.max_scaled_error, check_update.max_scaled_error);

    for (int i = 0; i < options.warmup; ++i) apply(one, zero);
    space.fence();
    std::vector<double> seconds;
    for (int i = 0; i < options.reps; ++i) {
      Kokkos::Timer timer;
      apply(one, zero);
      space.fence();
      seconds.push_back(timer.seconds());
    }
    std::sort(seconds.begin(), seconds.end());
    r.median_seconds = seconds[seconds.size() / 2];
    r.best_seconds = seconds.front();
    const SpmvTraffic& traffic = is_coo_kernel(name_key) ? coo_traffic : csr_traffic;
    r.gflops = traffic.flops / r.median_seconds * 1e-9;
    r.gb_per_s = traffic.bytes / r.median_seconds * 1e-9;
    r.fraction_of_copy = copy.median_gb_per_s() > 0 ? r.gb_per_s / copy.median_gb_per_s() : 0.0;
    results.push_back(r);
  };

  for (const auto& kernel : options.kernels) {
    if (kernel == "kk" || kernel == "kk-merge") {
      baseline::KokkosKernelsCsrSpmv<Value, ExecSpace> kk(
          A, kernel == "kk" ? compat::KkSpmvAlgorithm::native : compat::KkSpmvAlgorithm::merge_path);
      measure(kernel, kk.name(), [&](Value a, Value b) { kk.apply(space, options.mode.c_str(), a, x, b, y); });
    } else if (kernel == "coo") {
      // Resolve omega here (tuning first if asked) so the report names the value used.
      CooSpmvOptions coo = options.coo;
      std::string name = "strata_coo";
      if (coo.deterministic) name += "_deterministic";
      if (coo.autotune) {
        coo.omega = autotuned_coo_omega(space, A_coo, coo.deterministic);
        coo.autotune = false;
        name += "_autotuned";
      } else if (coo.omega == 0) {
        coo.omega = coo_default_omega(A_coo.nnz());
      }
      name += "(omega=" + std::to_string(coo.omega) + ")";
      measure(kernel, name, [&, coo](Value a, Value b) { spmv(space, options.mode.c_str(), a, A_coo, x, b, y, coo); });
    } else if constexpr (baseline::cusparse_spmv_available<ExecSpace>::value) {
      if (kernel == "cusparse") {
        baseline::CusparseCsrSpmv<Value, ExecSpace> cusparse(A);
        measure(kernel, cusparse.name(),
                [&](Value a, Value b) { cusparse.apply(space, options.mode.c_str(), a, x, b, y); });
      } else if (kernel == "cusparse-coo") {
        baseline::CusparseCooSpmv<Value, ExecSpace> cusparse(A_coo.num_rows(), A_coo.num_cols(), A_coo.rows(),
                                                             A_coo.cols(), A_coo.values());
        measure(kernel, cusparse.name(),
                [&](Value a, Value b) { cusparse.apply(space, options.mode.c_str(), a, x, b, y); });
      }
    }
  }
  return results;
}

void print_results(const LoadedMatrix& m, const std::string& value_name, const Options& options,
                   const CopyBandwidth& copy, const std::vector<KernelResult>& results, bool json) {
  const std::string device = device_info<ExecSpace>::describe();
  if (json) {
    std::cout << "{\"matrix\":" << json_string(m.name) << ",\"rows\":" << m.num_rows() << ",\"cols\":"
              << m.num_cols() << ",\"nnz\":" << m.nnz() << ",\"value_type\":" << json_string(value_name)
              << ",\"mode\":" << json_string(options.mode) << ",\"device\":" << json_string(device)
              << ",\"kokkos_version\":" << compat::kokkos_version << ",\"reps\":" << options.reps
              << ",\"copy_bandwidth_gb_per_s\":" << copy.median_gb_per_s() << ",\"kernels\":[";
    for (std::size_t i = 0; i < results.size(); ++i) {
      const auto& r = results[i];
      std::cout << (i ? "," : "") << "{\"kernel\":" << json_string(r.kernel) << ",\"verified\":"
                << (r.verified ? "true" : "false") << ",\"max_error_over_bound\":" << r.max_scaled_error
                << ",\"median_seconds\":" << r.median_seconds << ",\"best_seconds\":" << r.best_seconds
                << ",\"gflops\":" << r.gflops << ",\"gb_per_s\":" << r.gb_per_s
                << ",\"fraction_of_copy_bandwidth\":" << r.fraction_of_copy << "}";
    }
    std::cout << "]}\n";
    return;
  }
  std::printf("matrix   %s: %lld x %lld, %lld nonzeros, %s, mode %s\n", m.name.c_str(),
              static_cast<long long>(m.num_rows()), static_cast<long long>(m.num_cols()),
              static_cast<long long>(m.nnz()), value_name.c_str(), options.mode.c_str());
  std::printf("device   %s; Kokkos %d\n", device.c_str(), compat::kokkos_version);
  std::printf("copy     %.1f GB/s (median of device-to-device copies of %.0f MiB)\n", copy.median_gb_per_s(),
              copy.bytes_moved / 2.0 / (1 << 20));
  std::printf("%-34s %11s %11s %9s %9s %8s  %s\n", "kernel", "median ms", "best ms", "GFLOP/s", "GB/s", "of copy",
              "verified (max error / bound)");
  for (const auto& r : results) {
    std::printf("%-34s %11.4f %11.4f %9.2f %9.1f %7.1f%%  %s (%.3g)\n", r.kernel.c_str(), r.median_seconds * 1e3,
                r.best_seconds * 1e3, r.gflops, r.gb_per_s, 100.0 * r.fraction_of_copy,
                r.verified ? "yes" : "NO", r.max_scaled_error);
  }
  std::printf("(%d timed repetitions after %d warm-up; GB/s by each format's bytes model in docs/PERFORMANCE.md)\n",
              options.reps, options.warmup);
}

}  // namespace

int spmv_command(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse("spmv", args, spmv_options, 1);
  if (parsed.has("--help")) {
    std::cout << "usage: strata spmv [MATRIX] [OPTIONS]\n\n"
                 "Times y = alpha*op(A)*x + beta*y with the baselines (Kokkos Kernels CSR, cuSPARSE in CUDA\n"
                 "builds), verifies each against a sequential double-precision host reference (beta = 0 over\n"
                 "NaN, and a general alpha/beta update), and reports GFLOP/s, effective GB/s and the fraction\n"
                 "of the device copy bandwidth measured in the same run. Exit code 1 if any check fails.\n"
                 "MATRIX defaults to "
              << default_matrix << ".\n\nOptions:\n"
              << format_options(spmv_options) << "\nGenerator specs:\n"
              << generator_help();
    return 0;
  }
  Options options;
  const std::string source = parsed.positional.empty() ? default_matrix : parsed.positional[0];
  options.mode = parsed.get("--mode", "N");
  if (options.mode != "N" && options.mode != "T") throw UsageError("spmv: --mode must be N or T, got '" + options.mode + "'");
  const std::string precision = parsed.get("--precision", "double");
  if (precision != "double" && precision != "float") {
    throw UsageError("spmv: --precision must be double or float, got '" + precision + "'");
  }
  options.reps = static_cast<int>(parsed.get_int("--reps", 50, 1));
  options.warmup = static_cast<int>(parsed.get_int("--warmup", 5, 0));
  const std::string format = parsed.get("--format", "");
  if (!format.empty() && format != "csr" && format != "coo") {
    throw UsageError("spmv: --format must be csr or coo, got '" + format + "'");
  }
  options.kernels = parse_kernel_list(parsed.get("--kernels", "all"), format);
  options.coo.omega = static_cast<int>(parsed.get_int("--omega", 0, 1));
  options.coo.autotune = parsed.has("--autotune");
  options.coo.deterministic = parsed.has("--deterministic");
  constexpr bool host_device = Kokkos::SpaceAccessibility<Kokkos::HostSpace, ExecSpace::memory_space>::accessible;
  const long long copy_mib = parsed.get_int("--copy-mib", host_device ? 256 : 1024, 1);
  const bool json = parsed.has("--json");

  const LoadedMatrix m = load_matrix(source, &std::cerr);
  const CopyBandwidth copy = measure_copy_bandwidth<ExecSpace>(static_cast<std::size_t>(copy_mib) << 20, 20);

  std::vector<KernelResult> results;
  std::string value_name;
  if (m.is_complex) {
    if (precision == "double") {
      value_name = value_traits<Kokkos::complex<double>>::name;
      results = run_kernels(m.complex, options, copy);
    } else {
      value_name = value_traits<Kokkos::complex<float>>::name;
      results = run_kernels(convert_values<Kokkos::complex<float>>(m.complex), options, copy);
    }
  } else if (precision == "double") {
    value_name = "double";
    results = run_kernels(m.real, options, copy);
  } else {
    value_name = "float";
    results = run_kernels(convert_values<float>(m.real), options, copy);
  }
  print_results(m, value_name, options, copy, results, json);
  const bool all_verified =
      std::all_of(results.begin(), results.end(), [](const KernelResult& r) { return r.verified; });
  if (!all_verified) std::cerr << "strata spmv: verification FAILED for at least one kernel\n";
  return all_verified ? 0 : 1;
}

}  // namespace strata::cli
