#include "command_line.hpp"
#include "commands.hpp"
#include "value_dispatch.hpp"

#include <strata/algorithms/add.hpp>
#include <strata/algorithms/measure/fenced_timing.hpp>
#include <strata/algorithms/reference/coo_add.hpp>
#include <strata/core/device_info.hpp>
#include <strata/core/value_conversion.hpp>
#include <strata/formats/hisparse/hisparse_convert.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace strata::cli {

namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;

const std::vector<OptionSpec> add_options = with_options({
    {"--transpose-a", false, "op(A) = A^T (default A)"},
    {"--transpose-b", false, "op(B) = B^T (default B)"},
    {"--alpha", true, "scale factor of op(A), a real number (default 1)"},
    {"--beta", true, "scale factor of op(B), a real number (default 1)"},
    {"--format", true, "hisparse (the only format strata::add supports so far; default)"},
    {"--precision", true, "double (default) or float; complex files use complex<double|float>"},
    {"--reps", true, "timed repetitions after one verified, untimed addition (default 10)"},
    {"--json", false, "machine-readable output on stdout"},
    {"--help", false, "this text"},
}, matrix_input_options());

double real_option(const ParsedArgs& parsed, const std::string& name) {
  const std::string text = parsed.get(name, "1");
  std::size_t used = 0;
  double value = 0.0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || used == 0 || !std::isfinite(value)) {
    throw UsageError("add: " + name + " must be a finite real number, got '" + text + "'");
  }
  return value;
}

struct Outcome {
  index_type rows = 0, cols = 0, nnz_a = 0, nnz_b = 0, nnz_c = 0;
  double convert_seconds = 0.0;
  measure::FencedTiming timing;
  std::size_t bytes_c = 0;
  bool verified = false;
  std::string failure;
};

template <class Value>
Outcome add_matrices(const HostCsr<Value>& a_csr, const HostCsr<Value>& b_csr, SpmvMode ma, SpmvMode mb, double alpha,
                     double beta, int reps) {
  ExecSpace space;
  Outcome o;
  const HostCoo<Value> a = to_coo(a_csr), b = to_coo(b_csr);
  o.nnz_a = a.nnz();
  o.nnz_b = b.nnz();
  Kokkos::Timer timer;
  const auto A = to_hisparse<Device>(a);
  const auto B = to_hisparse<Device>(b);
  space.fence();
  o.convert_seconds = timer.seconds();
  const Value va = value_from<Value>(alpha, 0.0), vb = value_from<Value>(beta, 0.0);
  // Verified once, then timed: the result of every timed call is the same matrix. One handle for
  // all of them, as a code adding repeatedly keeps one.
  AddHandle<ExecSpace, HiSparseMatrix<Value, Device>> handle;
  const auto C = add(space, handle, to_string(ma), va, A, to_string(mb), vb, B);
  o.rows = C.num_rows();
  o.cols = C.num_cols();
  o.nnz_c = C.nnz();
  o.bytes_c = static_cast<std::size_t>(C.pool_bytes());
  const auto acc = reference::check_add(to_host_coo(C), reference::coo_add(ma, va, a, mb, vb, b));
  o.verified = acc.passed;
  o.failure = acc.describe();
  if (o.verified) {
    o.timing = measure::time_between_fences(
        space, 0, reps, [&] { (void)add(space, handle, to_string(ma), va, A, to_string(mb), vb, B); });
  }
  return o;
}

}  // namespace

int add_command(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse("add", args, add_options, 2);
  if (parsed.has("--help")) {
    std::cout << "usage: strata add A B [--transpose-a] [--transpose-b] [--alpha a] [--beta b] [OPTIONS]\n\n"
                 "Computes C = alpha op(A) + beta op(B) with strata::add on the device (HiSparse), checks C against\n"
                 "the host reference (every coordinate of the union, every value within the rounding bound), then\n"
                 "times --reps more additions between fences. Exit code 1 if C does not match.\n"
                 "A and B are Matrix Market files or generator specs; op(A) and op(B) must have the same shape.\n\n"
                 "Options:\n"
              << format_options(add_options);
    return 0;
  }
  if (parsed.positional.size() != 2) throw UsageError("add: two matrices A and B are required");
  const std::string format = parsed.get_choice("--format", "hisparse", {"hisparse"});
  const std::string precision = parsed.get("--precision", "double");
  require_precision(precision, "add");
  const double alpha = real_option(parsed, "--alpha"), beta = real_option(parsed, "--beta");
  const int reps = static_cast<int>(parsed.get_int("--reps", 10, 1, 100000));
  const SpmvMode ma = parsed.has("--transpose-a") ? SpmvMode::transpose : SpmvMode::normal;
  const SpmvMode mb = parsed.has("--transpose-b") ? SpmvMode::transpose : SpmvMode::normal;
  const bool json = parsed.has("--json");
  const MatrixLoadOptions load_options = matrix_load_options(parsed);
  const LoadedMatrix ma_loaded = load_matrix(parsed.positional[0], &std::cerr, load_options);
  const LoadedMatrix mb_loaded = load_matrix(parsed.positional[1], &std::cerr, load_options);
  STRATA_REQUIRE(ma_loaded.is_complex == mb_loaded.is_complex,
                 "add: A (" + ma_loaded.name + ") holds " + (ma_loaded.is_complex ? "complex" : "real") +
                     " values and B (" + mb_loaded.name + ") " + (mb_loaded.is_complex ? "complex" : "real") +
                     " ones; both must be real or both complex");
  Outcome o;
  std::string value_name;
  if (ma_loaded.is_complex) {
    using C = Kokkos::complex<double>;
    using CF = Kokkos::complex<float>;
    if (precision == "double") {
      o = add_matrices<C>(ma_loaded.complex, mb_loaded.complex, ma, mb, alpha, beta, reps);
      value_name = value_traits<C>::name;
    } else {
      o = add_matrices<CF>(convert_values<CF>(ma_loaded.complex, load_options.values),
                           convert_values<CF>(mb_loaded.complex, load_options.values), ma, mb, alpha, beta, reps);
      value_name = value_traits<CF>::name;
    }
  } else if (precision == "double") {
    o = add_matrices<double>(ma_loaded.real, mb_loaded.real, ma, mb, alpha, beta, reps);
    value_name = "double";
  } else {
    o = add_matrices<float>(convert_values<float>(ma_loaded.real, load_options.values),
                            convert_values<float>(mb_loaded.real, load_options.values), ma, mb, alpha, beta, reps);
    value_name = "float";
  }
  std::ostringstream expression;
  expression << alpha << " " << ma_loaded.name << (ma == SpmvMode::transpose ? "^T" : "") << " + " << beta << " "
             << mb_loaded.name << (mb == SpmvMode::transpose ? "^T" : "");
  if (json) {
    std::cout << "{\"a\":" << json_string(ma_loaded.name) << ",\"b\":" << json_string(mb_loaded.name)
              << ",\"mode_a\":\"" << to_string(ma) << "\",\"mode_b\":\"" << to_string(mb) << "\",\"alpha\":" << alpha
              << ",\"beta\":" << beta << ",\"format\":" << json_string(format) << ",\"value_type\":"
              << json_string(value_name) << ",\"device\":" << json_string(device_info<ExecSpace>::describe())
              << ",\"rows\":" << o.rows << ",\"cols\":" << o.cols << ",\"nnz_a\":" << o.nnz_a << ",\"nnz_b\":"
              << o.nnz_b << ",\"nnz_c\":" << o.nnz_c << ",\"bytes_c\":" << o.bytes_c << ",\"convert_seconds\":"
              << o.convert_seconds << ",\"verified\":" << (o.verified ? "true" : "false");
    if (o.verified) {
      std::cout << ",\"median_seconds\":" << o.timing.median_seconds << ",\"best_seconds\":" << o.timing.best_seconds
                << ",\"repetitions\":" << o.timing.repetitions;
    }
    std::cout << "}\n";
  } else {
    std::printf("C        = %s (%s, %s)\n", expression.str().c_str(), format.c_str(), value_name.c_str());
    std::printf("device   %s\n", device_info<ExecSpace>::describe().c_str());
    std::printf("shape    %lld x %lld; nonzeros A %lld, B %lld, C %lld (%zu bytes)\n", static_cast<long long>(o.rows),
                static_cast<long long>(o.cols), static_cast<long long>(o.nnz_a), static_cast<long long>(o.nnz_b),
                static_cast<long long>(o.nnz_c), o.bytes_c);
    std::printf("convert  A and B to HiSparse: %.3f ms\n", o.convert_seconds * 1e3);
    std::printf("verified %s%s\n", o.verified ? "yes" : "NO: ", o.failure.c_str());
    if (o.verified) {
      std::printf("time     median %.3f ms, best %.3f ms over %d additions\n", o.timing.median_seconds * 1e3,
                  o.timing.best_seconds * 1e3, o.timing.repetitions);
    }
  }
  if (!o.verified) std::cerr << "strata add: C does not match the host reference: " << o.failure << "\n";
  return o.verified ? 0 : 1;
}

}  // namespace strata::cli
