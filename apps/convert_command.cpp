#include "command_line.hpp"
#include "commands.hpp"
#include "value_dispatch.hpp"

#include <strata/algorithms/measure/spmv_run.hpp>
#include <strata/core/device_info.hpp>

#include <cstdio>
#include <iostream>

namespace strata::cli {

namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;

const std::vector<OptionSpec> convert_options = with_options({
    {"--to", true, "target: a kernel name of `strata spmv --help` (csr, coo, dcsr, adcsr, hyb, hisparse, auto, ...)"},
    {"--precision", true, "double (default) or float; complex files use complex<double|float>"},
    {"--json", false, "machine-readable output on stdout"},
    {"--help", false, "this text"},
}, matrix_input_options());

struct Conversion {
  std::string chosen;
  double seconds = 0.0;
  double csr_upload_seconds = 0.0;
  std::size_t bytes = 0;
  std::size_t csr_bytes = 0;
  bool verified = false;
  std::string failure;
};

template <class Value>
Conversion convert(const HostCsr<Value>& host, const SpmvKernel& kernel) {
  ExecSpace space;
  Conversion c;
  // The CSR upload alone, so that the format's own conversion cost can be told apart.
  Kokkos::Timer csr_timer;
  const auto csr = make_spmv_matrix<Value>(space, host, find_spmv_kernel<ExecSpace>("csr"));
  space.fence();
  c.csr_upload_seconds = csr_timer.seconds();
  c.csr_bytes = memory_bytes(csr);
  Kokkos::Timer timer;
  const auto A = make_spmv_matrix<Value>(space, host, kernel);
  space.fence();
  c.seconds = timer.seconds();
  c.bytes = memory_bytes(A);
  // The converted matrix must multiply like the original.
  measure::SpmvRun<Value, ExecSpace> run(space, host, kernel, SpmvMode::normal, 1);
  const auto check = run.verify();
  c.chosen = run.describe();
  c.verified = check.passed;
  c.failure = check.failure;
  return c;
}

}  // namespace

int convert_command(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse("convert", args, convert_options, 1);
  if (parsed.has("--help")) {
    std::cout << "usage: strata convert MATRIX --to FORMAT [OPTIONS]\n\n"
                 "Converts MATRIX (uploaded as CSR) into FORMAT on the device and reports the time (host CSR ->\n"
                 "device format, including the upload), the bytes the format occupies against CSR, and whether a\n"
                 "product with the converted matrix matches the host reference. Exit code 1 if it does not.\n\n"
                 "Options:\n"
              << format_options(convert_options);
    return 0;
  }
  if (parsed.positional.empty()) throw UsageError("convert: MATRIX is required");
  if (!parsed.has("--to")) throw UsageError("convert: --to FORMAT is required");
  SpmvKernel kernel;
  try {
    kernel = find_spmv_kernel<ExecSpace>(parsed.get("--to", ""));
  } catch (const Error& e) {
    throw UsageError(std::string("convert: --to: ") + e.what());
  }
  const std::string precision = parsed.get("--precision", "double");
  require_precision(precision, "convert");
  const bool json = parsed.has("--json");
  const MatrixLoadOptions load_options = matrix_load_options(parsed);
  const LoadedMatrix m = load_matrix(parsed.positional[0], &std::cerr, load_options);
  Conversion c;
  const std::string value_name = with_value_type(m, precision, load_options.values, [&](const auto& host) { c = convert(host, kernel); });
  const double nnz = static_cast<double>(m.nnz() > 0 ? m.nnz() : 1);
  if (json) {
    std::cout << "{\"matrix\":" << json_string(m.name) << ",\"rows\":" << m.num_rows() << ",\"cols\":" << m.num_cols()
              << ",\"nnz\":" << m.nnz() << ",\"value_type\":" << json_string(value_name) << ",\"to\":"
              << json_string(kernel.name) << ",\"chosen\":" << json_string(c.chosen) << ",\"device\":"
              << json_string(device_info<ExecSpace>::describe()) << ",\"seconds\":" << c.seconds
              << ",\"csr_upload_seconds\":" << c.csr_upload_seconds << ",\"bytes\":" << c.bytes
              << ",\"csr_bytes\":" << c.csr_bytes << ",\"verified\":" << (c.verified ? "true" : "false") << "}\n";
  } else {
    std::printf("matrix   %s: %lld x %lld, %lld nonzeros, %s\n", m.name.c_str(), static_cast<long long>(m.num_rows()),
                static_cast<long long>(m.num_cols()), static_cast<long long>(m.nnz()), value_name.c_str());
    std::printf("device   %s\n", device_info<ExecSpace>::describe().c_str());
    std::printf("to       %s: %s\n", kernel.name.c_str(), c.chosen.c_str());
    std::printf("time     %.3f ms (CSR upload alone: %.3f ms, ratio %.2f)\n", c.seconds * 1e3,
                c.csr_upload_seconds * 1e3, c.csr_upload_seconds > 0 ? c.seconds / c.csr_upload_seconds : 0.0);
    std::printf("bytes    %zu (%.2f per nonzero; CSR %zu, ratio %.3f)\n", c.bytes, c.bytes / nnz, c.csr_bytes,
                c.csr_bytes ? static_cast<double>(c.bytes) / c.csr_bytes : 0.0);
    std::printf("verified %s%s\n", c.verified ? "yes" : "NO: ", c.failure.c_str());
  }
  if (!c.verified) std::cerr << "strata convert: the converted matrix does not multiply like the original\n";
  return c.verified ? 0 : 1;
}

}  // namespace strata::cli
