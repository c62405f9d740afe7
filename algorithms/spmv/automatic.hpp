#pragma once
// Format::automatic: the format and kernel for this matrix on this device.
//
// The rule (choose_spmv_kernel) decides from the matrix's statistics and the
// modes it will be multiplied in (AutomaticOptions::modes; N and C weigh the
// rows, T and H the columns): even lengths go to Strata's CSR row kernel (or
// HYB when large, or in N and C only when every row is about as long as the
// mean), irregular ones to a nonzero-balanced kernel (cuSPARSE CSR or COO,
// Strata's COO without cuSPARSE; Strata's CSR nonzero-balanced kernel for T and
// H on irregular columns of a matrix whose values fit the L2 cache; for N and C
// on a large matrix with even columns and an x the L2 cannot hold, that kernel
// over column panels whose part of x it can). It is compiled in
// automatic_rule.cpp, with the measurements behind each threshold, so that
// refitting it rebuilds one file.
// With AutomaticOptions::measure the candidates are timed once instead and the
// fastest kept; the choice is cached per matrix signature for the process.
#include <strata/algorithms/measure/fenced_timing.hpp>
#include <strata/algorithms/spmv.hpp>
#include <strata/algorithms/spmv/automatic_rule.hpp>
#include <strata/algorithms/spmv/registry.hpp>
#include <strata/core/device_info.hpp>
#include <strata/core/matrix_statistics.hpp>

#include <algorithm>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

namespace strata {

struct AutomaticOptions {
  bool measure = false;             // time the candidates rather than apply the rule
  int repetitions = 10;             // timed products per candidate (median)
  SpmvModes modes = SpmvModes::all;  // the modes the matrix will be multiplied in
};

struct SpmvChoice {
  SpmvKernel kernel;
  std::string reason;
};

template <class Value, class ExecSpace>
SpmvChoice choose_spmv_kernel(const MatrixStatistics& s, SpmvModes modes = SpmvModes::all) {
  Impl::SpmvTarget target;
  target.on_host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  target.with_cusparse = Impl::cusparse_spmv_available<ExecSpace>::value;
  target.value_bytes = sizeof(Value);
  target.last_level_cache_bytes = last_level_cache_bytes<ExecSpace>::get();
  const auto rule = Impl::spmv_rule(s, target, modes);
  return {find_spmv_kernel<ExecSpace>(rule.kernel), rule.reason};
}

namespace Impl {

// Median seconds of one product in `mode` ("N" or "T") after one warm-up, timed
// between fences the way the measurement path times (measure/fenced_timing.hpp).
template <class Value, class ExecSpace, class Handle, class Matrix>
double time_spmv_mode(const ExecSpace& space, Handle& handle, const Matrix& A, const char* mode, index_type rows,
                      index_type cols, int repetitions) {
  using Device = typename Matrix::device_type;
  const bool t = mode[0] == 'T';
  Kokkos::View<Value*, Device> x("strata::automatic::x", static_cast<std::size_t>(t ? rows : cols));
  Kokkos::View<Value*, Device> y("strata::automatic::y", static_cast<std::size_t>(t ? cols : rows));
  Kokkos::deep_copy(space, x, Value(1));
  const auto product = [&] { strata::spmv(space, handle, mode, Value(1), A, x, Value(0), y); };
  return measure::time_between_fences(space, 1, repetitions, product).median_seconds;
}

// Seconds of one product with `kernel` in the modes asked: the median in N, or
// in T, or for all modes the larger of the two (the smallest worst case wins).
template <class Value, class ExecSpace>
double time_spmv_candidate(const ExecSpace& space, const HostCsr<Value>& host, const SpmvKernel& kernel,
                           int repetitions, SpmvModes modes) {
  using Device = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  const auto A = to_format<Value, Device>(host, kernel.format);
  SpmvHandle<ExecSpace, AnyMatrix<Value, Device>> handle(kernel.algorithm);
  double worst = 0.0;
  if (modes != SpmvModes::transposed) {
    worst = std::max(worst, time_spmv_mode<Value>(space, handle, A, "N", host.num_rows, host.num_cols, repetitions));
  }
  if (modes != SpmvModes::untransposed) {
    worst = std::max(worst, time_spmv_mode<Value>(space, handle, A, "T", host.num_rows, host.num_cols, repetitions));
  }
  return worst;
}

inline std::mutex& choice_cache_mutex() {
  static std::mutex m;
  return m;
}
inline std::map<std::string, std::pair<std::string, std::string>>& choice_cache() {
  static std::map<std::string, std::pair<std::string, std::string>> cache;  // signature -> (kernel, reason)
  return cache;
}

}  // namespace Impl

// Times every non-automatic kernel of the registry except the simple HiSparse
// traversal (the unscheduled reference, slower by design) on this matrix in the
// modes asked and returns the fastest; cached per (dimensions, nnz, row- and
// column-length spread, value type, execution space, modes).
template <class Value, class ExecSpace>
SpmvChoice choose_spmv_kernel_by_timing(const ExecSpace& space, const HostCsr<Value>& host, int repetitions,
                                        SpmvModes modes = SpmvModes::all) {
  const MatrixStatistics s = compute_statistics(host);
  std::ostringstream signature;
  signature << s.num_rows << "x" << s.num_cols << ":" << s.nnz << ":" << s.row_length_std << ":" << s.row_length_max
            << ":" << s.col_length_std << ":" << s.col_length_max << ":" << value_traits<Value>::name << ":"
            << ExecSpace::name() << ":" << to_string(modes);
  {
    std::lock_guard<std::mutex> lock(Impl::choice_cache_mutex());
    const auto it = Impl::choice_cache().find(signature.str());
    if (it != Impl::choice_cache().end()) {
      return {find_spmv_kernel<ExecSpace>(it->second.first), it->second.second + " (cached)"};
    }
  }
  std::ostringstream why;
  why.precision(3);
  why << "timed in modes " << to_string(modes) << ":";
  SpmvKernel best{};
  double best_seconds = 0.0;
  for (const auto& k : spmv_kernels<ExecSpace>()) {
    if (k.format == Format::automatic || k.format == Format::hisparse) continue;
    const double t = Impl::time_spmv_candidate(space, host, k, repetitions, modes);
    why << " " << k.name << " " << t * 1e6 << " us";
    if (best.name.empty() || t < best_seconds) {
      best = k;
      best_seconds = t;
    }
  }
  why << " -> " << best.name;
  std::lock_guard<std::mutex> lock(Impl::choice_cache_mutex());
  Impl::choice_cache()[signature.str()] = {best.name, why.str()};
  return {best, why.str()};
}

// The matrix in `format` on ExecSpace's memory space, with the SpMV algorithm
// to use as its hint; Format::automatic decides both (rule or timing).
template <class Value, class ExecSpace>
AnyMatrix<Value, Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>> make_spmv_matrix(
    const ExecSpace& space, const HostCsr<Value>& host, const SpmvKernel& kernel,
    const AutomaticOptions& options = {}) {
  using Device = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  if (kernel.format != Format::automatic) {
    auto A = to_format<Value, Device>(host, kernel.format);
    A.set_hint({kernel.algorithm, "requested: " + kernel.name});
    return A;
  }
  const SpmvChoice choice = (options.measure || kernel.measured_choice)
                                ? choose_spmv_kernel_by_timing(space, host, options.repetitions, options.modes)
                                : choose_spmv_kernel<Value, ExecSpace>(compute_statistics(host), options.modes);
  auto A = to_format<Value, Device>(host, choice.kernel.format);
  A.set_hint({choice.kernel.algorithm, choice.kernel.name + ", " + choice.reason});
  return A;
}

template <class Value, class ExecSpace>
AnyMatrix<Value, Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>> make_spmv_matrix(
    const ExecSpace& space, const HostCsr<Value>& host, Format format, const AutomaticOptions& options = {}) {
  if (format == Format::automatic) return make_spmv_matrix(space, host, find_spmv_kernel<ExecSpace>("auto"), options);
  return make_spmv_matrix(space, host, SpmvKernel{to_string(format), format, SpmvAlgorithm::format_default, false, ""},
                          options);
}

}  // namespace strata
