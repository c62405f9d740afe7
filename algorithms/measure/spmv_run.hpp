#pragma once
// One SpMV kernel on one matrix, ready to be verified and timed: the single
// measurement path of the `strata` command and the benchmarks. It converts the
// host matrix to the kernel's format, binds a handle (all through the public
// API: make_spmv_matrix + strata::spmv), checks the product against the
// sequential host reference (beta = 0 over a NaN-filled y, then a general
// alpha/beta update), and times products between fences.
#include <strata/algorithms/measure/fenced_timing.hpp>
#include <strata/algorithms/reference/csr_spmv.hpp>
#include <strata/algorithms/spmv/automatic.hpp>
#include <strata/algorithms/spmv_traffic.hpp>
#include <strata/core/pseudo_random.hpp>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

namespace strata::measure {

// Handle options a run may set (those that do not apply to the kernel are refused by the handle).
// Format::automatic is told the run's mode (AutomaticOptions::modes is set from it).
struct SpmvRunOptions {
  SpmvSettings settings;
  AutomaticOptions automatic;
};

struct SpmvCheck {
  bool passed = false;
  double max_error_over_bound = 0.0;
  std::string failure;  // which check failed and where
};

using SpmvTiming = FencedTiming;

template <class Value, class ExecSpace>
class SpmvRun {
 public:
  using device_type = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  using matrix_type = AnyMatrix<Value, device_type>;
  using vector_type = Kokkos::View<Value*, device_type>;
  using multivector_type = Kokkos::View<Value**, Kokkos::LayoutLeft, device_type>;

  // vectors == 1: rank-1 x and y; more: rank-2 (LayoutLeft) with that many
  // columns. `host` must outlive the run (the checks read it).
  SpmvRun(const ExecSpace& space, const HostCsr<Value>& host, const SpmvKernel& kernel, SpmvMode mode, int vectors,
          const SpmvRunOptions& options = {});

  const SpmvKernel& kernel() const { return kernel_; }
  std::string describe() const { return handle_.describe(); }
  double setup_seconds() const { return setup_seconds_; }
  std::size_t matrix_bytes() const;
  int vectors() const { return vectors_; }
  SpmvTraffic traffic() const;

  // y := alpha op(A) x + beta y on the run's vectors.
  void product(const Value& alpha, const Value& beta);
  // Both checks against the host reference; y is left holding op(A) x afterwards.
  SpmvCheck verify();
  // One product y = op(A) x between fences.
  double time_once();
  // Seconds per product over `products` products y = op(A) x launched back to
  // back between two fences: what an iterative solver sees. Unlike time_once
  // it leaves out the launch latency and host jitter of every single product,
  // which dominate products of 10-20 us.
  double time_back_to_back(int products);
  SpmvTiming time(int warmup, int repetitions);

 private:
  void upload(const std::vector<Value>& data, bool to_x);
  std::vector<Value> download_y() const;
  SpmvCheck check(const Value& alpha, const Value& beta, const std::vector<Value>& y0, const std::string& what);

  ExecSpace space_;
  const HostCsr<Value>& host_;
  SpmvKernel kernel_;
  SpmvMode mode_;
  int vectors_;
  index_type in_len_ = 0, out_len_ = 0;
  matrix_type matrix_;
  SpmvHandle<ExecSpace, matrix_type> handle_;
  std::vector<Value> x_host_;
  vector_type x1_, y1_;
  multivector_type xk_, yk_;
  double setup_seconds_ = 0.0;
};

// Compiled once per value type in the library (spmv_run_*.cpp) for the default
// execution space, so that the command, the benchmarks and the tests do not
// instantiate every format's kernels again.
#define STRATA_SPMV_RUN_INSTANCE(EXTERN, VALUE) EXTERN template class SpmvRun<VALUE, Kokkos::DefaultExecutionSpace>;
STRATA_SPMV_RUN_INSTANCE(extern, float)
STRATA_SPMV_RUN_INSTANCE(extern, double)
STRATA_SPMV_RUN_INSTANCE(extern, Kokkos::complex<float>)
STRATA_SPMV_RUN_INSTANCE(extern, Kokkos::complex<double>)

}  // namespace strata::measure
