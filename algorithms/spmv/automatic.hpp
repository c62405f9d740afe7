#pragma once
// Format::automatic: the format and kernel for this matrix on this device.
//
// The rule (choose_spmv_kernel), from the H100 suites of 2026-11-23 (25 matrices,
// modes N and T; docs/PERFORMANCE.md). The format is chosen before the mode is
// known, so each choice is the kernel with the smallest worst case over N and T.
// Lengths are "even" when their std/mean is at most 1.2 and the longest is at
// most 8 x the mean, for rows and for columns (T runs over the columns):
//  * even, at least 2^23 nonzeros, on a device: HYB, whose column-major ELL
//    slots give coalesced loads to a thread per row (poisson3d:160: 1.00x the
//    best in N, 1.07x in T; 0.77x the time of cuSPARSE CSR);
//  * even, below 2^23 nonzeros, on a device: CSR with Strata's row kernels
//    (csr-rows). These products are launch-bound (13-40 us on the H100); the
//    row kernel is one launch with beta inside, in T over A^T's rows kept by the
//    handle, where every other kernel pays a scale pass and atomics (cuSPARSE
//    COO was up to 1.30x the best; Kokkos Kernels' CSR, fastest on several in
//    N, lost 2-6x in T: mhd1280b, w156, young1c);
//  * irregular, at least 2^20 nonzeros, where cuSPARSE exists: cuSPARSE CSR
//    (the fastest kernel on rmat:22 and hubs in N and T; the row kernels are
//    6-56x slower there);
//  * irregular, below 2^20, on a device with cuSPARSE: cuSPARSE COO, whose
//    nonzero-balanced chunks do not wait on one long row;
//  * host backends, or devices without cuSPARSE: CSR with Kokkos Kernels'
//    native kernel when even, Strata's load-balanced COO when irregular.
// Why these thresholds (suite of 2026-11-23):
//  * longest <= 8 x mean: the row kernel gives a row at most a warp, so one
//    long row is a tail. cyl6 (longest 721, 13.8 x its mean of 52; std/mean
//    0.15) took 1.25x the time of cuSPARSE COO in N; ct2010 (10.6 x) and
//    netscience (9.9 x) were within 1.07x on either kernel. Below 8 x (at
//    most 4.5 x in the suite) the row kernel was the best or within 1.1x of it
//    but on ch8-8-b3 in N. TSOPF_RS_b39_c30 has even rows but a column of
//    30002 entries: the row kernel took 714 us in T against cuSPARSE's 99 us.
//  * std/mean <= 1.2: bayer10 (1.05 rows, 1.09 columns, longest 4.5 x) was
//    fastest with the row kernel in N and T, 1.13x faster than cuSPARSE COO;
//    the next spread in the suite, HEP-th (1.26 rows, 3.13 columns), lost
//    2-5x with it.
// With AutomaticOptions::measure the candidates are timed once instead and the
// fastest kept; the choice is cached per matrix signature for the process.
#include <strata/algorithms/spmv.hpp>
#include <strata/algorithms/spmv/registry.hpp>
#include <strata/core/matrix_statistics.hpp>

#include <algorithm>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

namespace strata {

struct AutomaticOptions {
  bool measure = false;  // time the candidates rather than apply the rule
  int repetitions = 10;  // timed products per candidate (median)
};

struct SpmvChoice {
  SpmvKernel kernel;
  std::string reason;
};

// Thresholds of "even" lengths; see the rule above for the matrices behind them.
inline constexpr double even_length_max_cv = 1.2;
inline constexpr double even_length_max_longest_over_mean = 8.0;

// Lengths spread little (std/mean <= 1.2) and none is over 8 x the mean.
inline bool even_lengths(double mean, double cv, index_type longest) {
  if (mean <= 0) return true;
  return cv <= even_length_max_cv && static_cast<double>(longest) <= even_length_max_longest_over_mean * mean;
}

template <class ExecSpace>
SpmvChoice choose_spmv_kernel(const MatrixStatistics& s) {
  std::ostringstream why;
  why.precision(3);
  why << "rule: row length std/mean " << s.row_length_cv() << ", longest " << s.row_length_max << " vs mean "
      << s.row_length_mean << "; column length std/mean " << s.col_length_cv() << ", longest " << s.col_length_max
      << " vs mean " << s.col_length_mean;
  constexpr bool on_host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
  constexpr bool with_cusparse = Impl::cusparse_spmv_available<ExecSpace>::value;
  // Rows and columns both: T and H run over the columns.
  const bool even = s.nnz == 0 || (even_lengths(s.row_length_mean, s.row_length_cv(), s.row_length_max) &&
                                   even_lengths(s.col_length_mean, s.col_length_cv(), s.col_length_max));
  if (even && !on_host && s.nnz >= (index_type(1) << 23)) {
    why << ", " << s.nnz << " nonzeros -> even rows and columns, bandwidth-bound: HYB (coalesced ELL)";
    return {find_spmv_kernel<ExecSpace>("hyb"), why.str()};
  }
  if (!even && with_cusparse && s.nnz >= (index_type(1) << 20)) {
    why << ", " << s.nnz << " nonzeros -> irregular rows or columns, bandwidth-bound: cuSPARSE CSR (nonzero-balanced)";
    return {find_spmv_kernel<ExecSpace>("cusparse-csr"), why.str()};
  }
  if (even && !on_host) {
    why << ", " << s.nnz << " nonzeros -> even rows and columns, launch-bound: Strata CSR rows (one launch in every mode)";
    return {find_spmv_kernel<ExecSpace>("csr-rows"), why.str()};
  }
  if (with_cusparse) {
    why << ", " << s.nnz << " nonzeros -> irregular rows or columns, launch-bound: cuSPARSE COO (nonzero-balanced)";
    return {find_spmv_kernel<ExecSpace>("cusparse-coo"), why.str()};
  }
  if (even) {
    why << " -> even rows and columns: CSR, Kokkos Kernels' row kernel";
    return {find_spmv_kernel<ExecSpace>("csr"), why.str()};
  }
  why << " -> irregular rows or columns: nonzero-balanced COO";
  return {find_spmv_kernel<ExecSpace>("coo"), why.str()};
}

namespace Impl {

// Median seconds of one product y = A x with `kernel`, after a warm-up.
template <class Value, class ExecSpace>
double time_spmv_candidate(const ExecSpace& space, const HostCsr<Value>& host, const SpmvKernel& kernel,
                           int repetitions) {
  using Device = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  const auto A = to_format<Value, Device>(host, kernel.format);
  SpmvHandle<ExecSpace, AnyMatrix<Value, Device>> handle(kernel.algorithm);
  Kokkos::View<Value*, Device> x("strata::automatic::x", static_cast<std::size_t>(host.num_cols));
  Kokkos::View<Value*, Device> y("strata::automatic::y", static_cast<std::size_t>(host.num_rows));
  Kokkos::deep_copy(space, x, Value(1));
  strata::spmv(space, handle, "N", Value(1), A, x, Value(0), y);
  space.fence();
  std::vector<double> seconds;
  for (int r = 0; r < std::max(1, repetitions); ++r) {
    Kokkos::Timer timer;
    strata::spmv(space, handle, "N", Value(1), A, x, Value(0), y);
    space.fence();
    seconds.push_back(timer.seconds());
  }
  std::sort(seconds.begin(), seconds.end());
  return seconds[seconds.size() / 2];
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
// traversal (the unscheduled reference, slower by design) on this matrix and
// returns the fastest; cached per (dimensions, nnz, row-length spread, value
// type, execution space).
template <class Value, class ExecSpace>
SpmvChoice choose_spmv_kernel_by_timing(const ExecSpace& space, const HostCsr<Value>& host, int repetitions) {
  const MatrixStatistics s = compute_statistics(host);
  std::ostringstream signature;
  signature << s.num_rows << "x" << s.num_cols << ":" << s.nnz << ":" << s.row_length_std << ":" << s.row_length_max
            << ":" << value_traits<Value>::name << ":" << ExecSpace::name();
  {
    std::lock_guard<std::mutex> lock(Impl::choice_cache_mutex());
    const auto it = Impl::choice_cache().find(signature.str());
    if (it != Impl::choice_cache().end()) {
      return {find_spmv_kernel<ExecSpace>(it->second.first), it->second.second + " (cached)"};
    }
  }
  std::ostringstream why;
  why.precision(3);
  why << "timed:";
  SpmvKernel best{};
  double best_seconds = 0.0;
  for (const auto& k : spmv_kernels<ExecSpace>()) {
    if (k.format == Format::automatic || k.format == Format::hisparse) continue;
    const double t = Impl::time_spmv_candidate(space, host, k, repetitions);
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
                                ? choose_spmv_kernel_by_timing(space, host, options.repetitions)
                                : choose_spmv_kernel<ExecSpace>(compute_statistics(host));
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
