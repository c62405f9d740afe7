// Dynamic CSR update benchmarks (King, Gilray, Kirby, Might):
//   stream/FORMAT      build each matrix entirely by batched insertion (entries/s)
//   iterative/FORMAT   50 steps of: insert 0.2% new random nonzeros, then 5 SpMV; ms_per_step from
//                      the median of 5 passes over the same steps, 11 for files under 2M nonzeros
//                      (ms_per_step_mean: their mean); ADCSR's passes paired with DCSR passes
//                      (over_dcsr_paired: the median of the pairs' ratios);
//                      profile_*_us: one more pass, fenced between phases (insert, refit, products)
//   spmv/KERNEL        DCSR and ADCSR, fragmented and defragmented, against CSR and HYB (GB/s, GFLOP/s);
//                      ADCSR also binned where its rule would run the row kernel (_always_binned);
//                      ADCSR's products also paired with DCSR's on the same matrix (over_dcsr_paired)
//   memory/FORMAT      device bytes of DCSR (k = 2, 3, 4) built by streaming, CSR and HYB
//   convert/OPERATION  conversion times relative to a device copy of the CSR arrays
//   insert_batch/dcsr_POLICY/.../batch:N  one insertion of N random entries into
//                      the DCSR of the matrix (entries/s), N = 1e3 ... 1e7
// FORMAT is dcsr, hyb (ELL width mu + sorted COO) or csr_rebuild (Kokkos Kernels
// sparse add). Every timed region lies between fences; SpMV results are
// checked once against the host reference before timing.
// scripts/dcsr_report.py turns the JSON of a run into the tables of docs/PERFORMANCE.md.
#include "benchmark_context.hpp"
#include "benchmark_matrices.hpp"
#include "spmv_measurement.hpp"

#include <strata/algorithms/baseline/csr_rebuild.hpp>
#include <strata/algorithms/measure/fenced_timing.hpp>
#include <strata/algorithms/reference/csr_spmv.hpp>
#include <strata/algorithms/spmv.hpp>
#include <strata/algorithms/spmv_traffic.hpp>
#include <strata/core/generators.hpp>
#include <strata/core/matrix_source.hpp>
#include <strata/core/pseudo_random.hpp>
#include <strata/formats/dcsr/dcsr_convert.hpp>
#include <strata/formats/hyb/hyb_matrix.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <functional>
#include <iostream>
#include <memory>
#include <numeric>
#include <utility>
#include <vector>

namespace strata::bench {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;

constexpr int stream_batches = 10;
constexpr int iterative_steps = 50;
constexpr int spmv_per_step = 5;
constexpr double iterative_fraction = 0.002;
constexpr int hyb_width = 4;  // mu of the paper's HYB comparison
constexpr int insert_batch_seed = 23;

template <class Value>
struct DeviceBatch {
  Kokkos::View<int*, Device> rows, cols;
  Kokkos::View<Value*, Device> values;
  int size() const { return static_cast<int>(rows.extent(0)); }
};

template <class Value>
DeviceBatch<Value> upload(const std::vector<int>& r, const std::vector<int>& c, const std::vector<Value>& v,
                          std::size_t begin, std::size_t end) {
  const int n = static_cast<int>(end - begin);
  DeviceBatch<Value> b{Kokkos::View<int*, Device>("strata::bench::batch_rows", n),
                       Kokkos::View<int*, Device>("strata::bench::batch_cols", n),
                       Kokkos::View<Value*, Device>("strata::bench::batch_values", n)};
  auto rh = Kokkos::create_mirror_view(b.rows);
  auto ch = Kokkos::create_mirror_view(b.cols);
  auto vh = Kokkos::create_mirror_view(b.values);
  for (int i = 0; i < n; ++i) {
    rh(i) = r[begin + i];
    ch(i) = c[begin + i];
    vh(i) = v[begin + i];
  }
  Kokkos::deep_copy(b.rows, rh);
  Kokkos::deep_copy(b.cols, ch);
  Kokkos::deep_copy(b.values, vh);
  return b;
}

// n entries at uniformly random coordinates of a rows x cols matrix.
template <class Value>
DeviceBatch<Value> random_batch(SignedUnitSequence& random, index_type rows, index_type cols, std::size_t n) {
  std::vector<int> r(n), c(n);
  std::vector<Value> v(n);
  for (std::size_t k = 0; k < n; ++k) {
    r[k] = static_cast<int>((random.next() + 1.0) * 0.5 * static_cast<double>(rows)) % static_cast<int>(rows);
    c[k] = static_cast<int>((random.next() + 1.0) * 0.5 * static_cast<double>(cols)) % static_cast<int>(cols);
    v[k] = value_from<Value>(random.next(), random.next());
  }
  return upload(r, c, v, 0, n);
}

// Everything the benchmarks of one matrix and precision share.
template <class Value>
struct Workload {
  HostCsr<Value> host;
  DeviceCsr<Value, Device> csr;
  std::vector<DeviceBatch<Value>> stream;     // the matrix's entries, shuffled, in batches
  std::vector<DeviceBatch<Value>> iterative;  // 0.2% random new nonzeros per step
};

template <class Value>
std::unique_ptr<Workload<Value>> make_workload(HostCsr<Value> host) {
  STRATA_REQUIRE(host.num_rows > 0 && host.num_cols > 0, "dcsr_updates: the matrix has no rows or columns");
  auto w = std::make_unique<Workload<Value>>();
  w->csr = to_kokkos_crs<DeviceCsr<Value, Device>>(host, "strata::bench::csr");
  const auto coo = to_coo(host);
  std::vector<std::size_t> order(static_cast<std::size_t>(coo.nnz()));
  std::iota(order.begin(), order.end(), std::size_t{0});
  SignedUnitSequence random(17);
  for (std::size_t i = order.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>((random.next() + 1.0) * 0.5 * static_cast<double>(i)) % i;
    std::swap(order[i - 1], order[j]);
  }
  std::vector<int> r(order.size()), c(order.size());
  std::vector<Value> v(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    r[k] = static_cast<int>(coo.rows[order[k]]);
    c[k] = static_cast<int>(coo.cols[order[k]]);
    v[k] = coo.values[order[k]];
  }
  for (int b = 0; b < stream_batches; ++b) {
    w->stream.push_back(upload(r, c, v, order.size() * b / stream_batches, order.size() * (b + 1) / stream_batches));
  }
  const std::size_t per_step = std::max<std::size_t>(1, static_cast<std::size_t>(iterative_fraction * host.nnz()));
  for (int s = 0; s < iterative_steps; ++s) {
    w->iterative.push_back(random_batch<Value>(random, host.num_rows, host.num_cols, per_step));
  }
  w->host = std::move(host);
  return w;
}

// Benchmarks run matrix by matrix: keep only the current workload, released
// by release_workload() before Kokkos finalizes.
std::shared_ptr<void> current_workload_holder;
std::string current_workload_key;

void release_workload() {
  current_workload_holder.reset();
  current_workload_key.clear();
}

template <class Value>
Workload<Value>& current_workload(const std::string& source) {
  const std::string key = source + "|" + value_traits<Value>::name;
  if (!current_workload_holder || current_workload_key != key) {
    release_workload();
    LoadedMatrix m = load_matrix(source, &std::cerr);
    std::shared_ptr<Workload<Value>> w;
    if constexpr (value_traits<Value>::is_complex) {
      STRATA_REQUIRE(m.is_complex, "dcsr_updates: complex workload for a real matrix");
      w = make_workload<Value>(convert_values<Value>(m.complex, bench_float_conversion));
    } else {
      STRATA_REQUIRE(!m.is_complex, "dcsr_updates: real workload for a complex matrix");
      w = make_workload<Value>(convert_values<Value>(m.real, bench_float_conversion));
    }
    current_workload_holder = w;
    current_workload_key = key;
  }
  return *static_cast<Workload<Value>*>(current_workload_holder.get());
}

DcsrParameters stream_parameters(int k) {
  DcsrParameters p;
  p.max_segments = k;
  return p;
}

template <class Value>
DcsrMatrix<Value, Device> stream_dcsr(const Workload<Value>& w, int k) {
  auto A = dcsr_blank<Value, Device>(w.host.num_rows, w.host.num_cols, stream_parameters(k));
  for (const auto& b : w.stream) dcsr_insert(A, b.rows, b.cols, b.values, DuplicatePolicy::keep_separate);
  return A;
}

template <class Value>
DeviceCsr<Value, Device> empty_csr(index_type rows, index_type cols) {
  HostCsr<Value> h;
  h.num_rows = rows;
  h.num_cols = cols;
  h.row_offsets.assign(static_cast<std::size_t>(rows) + 1, 0);
  return to_kokkos_crs<DeviceCsr<Value, Device>>(h, "strata::bench::empty");
}

template <class Value>
HybMatrix<Value, Device> stream_hyb(const Workload<Value>& w) {
  auto A = hyb_from_csr<Value, Device>(empty_csr<Value>(w.host.num_rows, w.host.num_cols), hyb_width);
  for (const auto& b : w.stream) A.insert(b.rows, b.cols, b.values);
  return A;
}

template <class Value>
void run_stream(benchmark::State& state, const Workload<Value>& w, const std::string& format) {
  ExecSpace space;
  double total = 0.0;
  for (auto _ : state) {
    space.fence();
    Kokkos::Timer timer;
    if (format == "dcsr") {
      auto A = stream_dcsr(w, 4);
      space.fence();
      state.counters["capacity_over_nnz"] = static_cast<double>(A.capacity()) / static_cast<double>(w.host.nnz());
    } else if (format == "hyb") {
      auto A = stream_hyb(w);
      space.fence();
    } else {
      baseline::CsrRebuild<Value, ExecSpace> A(empty_csr<Value>(w.host.num_rows, w.host.num_cols));
      for (const auto& b : w.stream) A.insert(b.rows, b.cols, b.values);
      space.fence();
    }
    const double seconds = timer.seconds();
    state.SetIterationTime(seconds);
    total += seconds;
  }
  state.counters["entries/s"] = static_cast<double>(w.host.nnz()) * state.iterations() / total;
  state.counters["nnz"] = static_cast<double>(w.host.nnz());
  state.counters["rows"] = static_cast<double>(w.host.num_rows);
}

// ADCSR timed against DCSR in pairs, the partner first in every other pair: a stall of the host
// slows one pair and moves its ratio, not the median of the ratios, where it moved the ratio of
// two benchmarks run one after the other (whole benchmarks of one binary came out 2.3-2.4x
// another run of it on the H100, 2026-11-28 02:59).
struct PairedTimes {
  std::vector<double> measured, partner, ratio;  // seconds of each pair's two, and their ratio

  // Calls both (each returns its seconds); returns the measured one's.
  template <class Measured, class Partner>
  double time(Measured&& measured_once, Partner&& partner_once) {
    const bool partner_first = ratio.size() % 2 == 1;
    const double before = partner_first ? partner_once() : 0.0;
    const double m = measured_once();
    const double p = partner_first ? before : partner_once();
    measured.push_back(m);
    partner.push_back(p);
    ratio.push_back(m / p);
    return m;
  }
  static double median(const std::vector<double>& v) { return measure::summarize_timings(v).median_seconds; }
};

// Where one update step's time goes, from a pass with a fence after each phase (the timed
// passes have none between the insertion's own wait and the step's end): medians over the steps.
struct StepPhases {
  std::vector<double> insert, refit, products;
};

// One pass: the same 50 steps from the same starting matrix, built outside the timed region.
// Returns the seconds of the steps; with `phases`, the refit is fenced too and every phase
// is recorded.
template <class Value>
double replay_iterative_steps(const Workload<Value>& w, const std::string& format,
                              const Kokkos::View<Value*, Device>& x, const Kokkos::View<Value*, Device>& y,
                              std::string& label, index_type& rebuilds, StepPhases* phases) {
  ExecSpace space;
  const Value one = value_from<Value>(1.0, 0.0);
  const Value zero = value_from<Value>(0.0, 0.0);
  std::unique_ptr<DcsrMatrix<Value, Device>> dcsr;
  std::unique_ptr<HybMatrix<Value, Device>> hyb;
  std::unique_ptr<baseline::CsrRebuild<Value, ExecSpace>> csr;
  if (format == "dcsr" || format == "adcsr") {
    dcsr = std::make_unique<DcsrMatrix<Value, Device>>(dcsr_from_csr<Value, Device>(w.csr));
  }
  if (format == "hyb") hyb = std::make_unique<HybMatrix<Value, Device>>(hyb_from_csr<Value, Device>(w.csr, hyb_width));
  if (format == "csr_rebuild") csr = std::make_unique<baseline::CsrRebuild<Value, ExecSpace>>(w.csr);
  // One handle per matrix for the whole pass; ADCSR re-bins after insertions (timed) as its refit decides.
  SpmvHandle<ExecSpace, DcsrMatrix<Value, Device>> dcsr_handle(
      format == "adcsr" ? SpmvAlgorithm::binned_rows : SpmvAlgorithm::row_vectors);
  SpmvHandle<ExecSpace, HybMatrix<Value, Device>> hyb_handle;
  space.fence();
  double seconds = 0.0;
  for (const auto& b : w.iterative) {
    Kokkos::Timer timer;
    if (dcsr) {
      dcsr_insert(*dcsr, b.rows, b.cols, b.values, DuplicatePolicy::sum);
    } else if (hyb) {
      hyb->insert(b.rows, b.cols, b.values);
    } else {
      csr->insert(b.rows, b.cols, b.values);
    }
    space.fence();
    const double inserted = timer.seconds();
    double refitted = inserted;
    if (dcsr) {
      dcsr_handle.reanalyze(space, *dcsr);  // lanes (DCSR) or bins (ADCSR) for the grown rows
      if (phases) {
        space.fence();
        refitted = timer.seconds();
      }
      for (int s = 0; s < spmv_per_step; ++s) strata::spmv(space, dcsr_handle, "N", one, *dcsr, x, zero, y);
    } else if (hyb) {
      for (int s = 0; s < spmv_per_step; ++s) strata::spmv(space, hyb_handle, "N", one, *hyb, x, zero, y);
    } else {
      // The rebuilt CSR is a new matrix every step: a one-shot product each time.
      for (int s = 0; s < spmv_per_step; ++s) strata::spmv(space, "N", one, csr->matrix(), x, zero, y);
    }
    space.fence();
    const double step = timer.seconds();
    seconds += step;
    if (phases) {
      phases->insert.push_back(inserted);
      phases->refit.push_back(refitted - inserted);
      phases->products.push_back(step - refitted);
    }
  }
  if (dcsr) {
    label = dcsr_handle.describe();
    rebuilds += dcsr->pool_rebuilds();
  }
  return seconds;
}

template <class Value>
void run_iterative(benchmark::State& state, const Workload<Value>& w, const std::string& format) {
  const Value one = value_from<Value>(1.0, 0.0);
  Kokkos::View<Value*, Device> x("strata::bench_x", w.host.num_cols), y("strata::bench_y", w.host.num_rows);
  Kokkos::deep_copy(x, one);
  double total = 0.0;
  std::vector<double> pass_seconds;
  index_type rebuilds = 0;
  std::string label;
  // ADCSR's passes are paired with DCSR passes, untimed for this benchmark.
  const bool paired = format == "adcsr";
  PairedTimes pairs;
  std::string dcsr_label;
  index_type dcsr_rebuilds = 0;
  for (auto _ : state) {
    const auto pass = [&] { return replay_iterative_steps(w, format, x, y, label, rebuilds, nullptr); };
    const auto dcsr_pass = [&] { return replay_iterative_steps(w, "dcsr", x, y, dcsr_label, dcsr_rebuilds, nullptr); };
    const double seconds = paired ? pairs.time(pass, dcsr_pass) : pass();
    state.SetIterationTime(seconds);
    total += seconds;
    pass_seconds.push_back(seconds);
  }
  if (!label.empty()) state.SetLabel(label);
  if (paired) {
    state.counters["dcsr_paired_ms_per_step"] = PairedTimes::median(pairs.partner) / iterative_steps * 1e3;
    state.counters["over_dcsr_paired"] = PairedTimes::median(pairs.ratio);
  }
  StepPhases phases;
  index_type profile_rebuilds = 0;
  replay_iterative_steps(w, format, x, y, label, profile_rebuilds, &phases);
  // Each phase's median step and its slowest (a pool rebuild, a rebinning).
  const auto record_phase = [&](const std::string& phase, const std::vector<double>& seconds) {
    const auto timing = measure::summarize_timings(seconds);
    state.counters["profile_" + phase + "_us"] = timing.median_seconds * 1e6;
    state.counters["profile_" + phase + "_us_max"] = *std::max_element(seconds.begin(), seconds.end()) * 1e6;
    return timing;
  };
  const auto insertion = record_phase("insert", phases.insert);
  state.counters["profile_insert_us_mean"] = insertion.mean_seconds * 1e6;  // pool rebuilds included
  // The insertion rate of the profile pass's median step (its insertion is fenced in every pass).
  state.counters["insert_entries/s"] = static_cast<double>(w.iterative.front().size()) / insertion.median_seconds;
  if (format == "dcsr" || format == "adcsr") record_phase("refit", phases.refit);
  record_phase("products", phases.products);
  // Every pass replays the same steps, pool rebuilds included, so the median pass keeps each
  // step's own costs and drops a pass slowed by the host: the mean over passes of a small matrix
  // came out 2-2.5x that of another run of the same build on the H100, for DCSR and ADCSR alike
  // (ani4, 2026-11-27 08:33).
  state.counters["ms_per_step"] =
      measure::summarize_timings(std::move(pass_seconds)).median_seconds / iterative_steps * 1e3;
  state.counters["ms_per_step_mean"] = total / (iterative_steps * state.iterations()) * 1e3;
  state.counters["nnz"] = static_cast<double>(w.host.nnz());
  if (format == "dcsr" || format == "adcsr") {
    state.counters["pool_rebuilds_per_step"] = static_cast<double>(rebuilds) / (iterative_steps * state.iterations());
  }
}

template <class Value>
void run_spmv(benchmark::State& state, const Workload<Value>& w, const std::string& kernel) {
  ExecSpace space;
  const Value one = value_from<Value>(1.0, 0.0);
  const Value zero = value_from<Value>(0.0, 0.0);
  const auto x_host = pseudo_random_vector<Value>(w.host.num_cols, 11);
  Kokkos::View<Value*, Device> x("strata::bench_x", w.host.num_cols), y("strata::bench_y", w.host.num_rows);
  upload_vector(x, x_host);
  std::function<void()> apply;
  std::function<std::string()> describe;  // the kernel DCSR's handle runs, for the label
  std::function<void()> dcsr_partner;     // ADCSR kernels: DCSR's row kernel on the same matrix
  const bool binned = kernel.rfind("adcsr", 0) == 0;
  if (kernel == "csr_kk") {
    auto handle = std::make_shared<SpmvHandle<ExecSpace, DeviceCsr<Value, Device>>>();
    const auto A = w.csr;
    apply = [=]() { strata::spmv(space, *handle, "N", one, A, x, zero, y); };
  } else if (kernel == "hyb") {
    auto A = std::make_shared<HybMatrix<Value, Device>>(stream_hyb(w));
    auto handle = std::make_shared<SpmvHandle<ExecSpace, HybMatrix<Value, Device>>>();
    apply = [=]() { strata::spmv(space, *handle, "N", one, *A, x, zero, y); };
  } else {
    auto A = std::make_shared<DcsrMatrix<Value, Device>>(stream_dcsr(w, 4));
    if (kernel.find("_defragmented") != std::string::npos) {
      dcsr_defragment(*A, kernel.find("by_length") != std::string::npos ? DcsrRowOrder::by_length : DcsrRowOrder::by_index);
    }
    auto handle = std::make_shared<SpmvHandle<ExecSpace, DcsrMatrix<Value, Device>>>(
        binned ? SpmvAlgorithm::binned_rows : SpmvAlgorithm::row_vectors);
    if (kernel.find("_always_binned") != std::string::npos) handle->set_bin_always(true);
    apply = [=]() { strata::spmv(space, *handle, "N", one, *A, x, zero, y); };
    describe = [=]() { return handle->describe(); };
    if (binned) {
      auto rows_handle =
          std::make_shared<SpmvHandle<ExecSpace, DcsrMatrix<Value, Device>>>(SpmvAlgorithm::row_vectors);
      dcsr_partner = [=]() { strata::spmv(space, *rows_handle, "N", one, *A, x, zero, y); };
    }
  }
  double max_error_over_bound = 0.0;
  if (!verify_spmv(state, w.host, x_host, y, apply, &max_error_over_bound)) return;
  if (describe) state.SetLabel(describe());
  const double seconds = time_between_fences(state, apply, 3);
  if (dcsr_partner) {
    // ADCSR's products again, each paired with DCSR's row kernel on the same matrix.
    if (!verify_spmv(state, w.host, x_host, y, dcsr_partner)) return;
    for (int i = 0; i < 3; ++i) dcsr_partner();
    PairedTimes pairs;
    for (benchmark::IterationCount i = 0; i < state.iterations(); ++i) {
      pairs.time([&] { return measure::time_once_between_fences(space, apply); },
                 [&] { return measure::time_once_between_fences(space, dcsr_partner); });
    }
    state.counters["paired_median_us"] = PairedTimes::median(pairs.measured) * 1e6;
    state.counters["dcsr_paired_median_us"] = PairedTimes::median(pairs.partner) * 1e6;
    state.counters["over_dcsr_paired"] = PairedTimes::median(pairs.ratio);
  }
  // The CSR model (values, 32-bit columns and offsets, x and y once) for every
  // kernel, so that GB/s compare formats on the same useful traffic.
  const auto traffic = csr_spmv_traffic(w.host.num_rows, w.host.num_cols, w.host.nnz(), sizeof(Value), sizeof(int),
                                        sizeof(int), value_traits<Value>::is_complex, false, false);
  record_rates(state, traffic, seconds);
  state.counters["max_error_over_bound"] = max_error_over_bound;
}

template <class Value>
void run_memory(benchmark::State& state, const Workload<Value>& w, const std::string& format) {
  std::size_t bytes = 0;
  for (auto _ : state) {
    Kokkos::Timer timer;
    if (format == "csr") {
      bytes = w.csr.graph.row_map.span() * sizeof(int) + w.csr.graph.entries.span() * sizeof(int) +
              w.csr.values.span() * sizeof(Value);
    } else if (format == "hyb") {
      bytes = stream_hyb(w).memory_bytes();
    } else {
      const int k = format.back() - '0';
      auto A = stream_dcsr(w, k);
      bytes = A.memory_bytes();
      state.counters["pool_used_fraction"] = static_cast<double>(A.allocated()) / static_cast<double>(A.capacity());
    }
    ExecSpace().fence();
    state.SetIterationTime(timer.seconds());
  }
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["bytes_per_nnz"] = static_cast<double>(bytes) / static_cast<double>(w.host.nnz());
}

// A device copy of the CSR arrays into fresh allocations: the unit every
// conversion time is expressed in.
template <class Value>
void copy_csr_arrays(const Workload<Value>& w) {
  Kokkos::View<int*, Device> r(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::bench::copy_rows"),
                               w.csr.graph.row_map.extent(0));
  Kokkos::View<int*, Device> e(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::bench::copy_entries"),
                               w.csr.graph.entries.extent(0));
  Kokkos::View<Value*, Device> v(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::bench::copy_values"),
                                 w.csr.values.extent(0));
  Kokkos::deep_copy(r, w.csr.graph.row_map);
  Kokkos::deep_copy(e, w.csr.graph.entries);
  Kokkos::deep_copy(v, w.csr.values);
}

template <class Value>
double csr_copy_seconds(const Workload<Value>& w) {
  return measure::time_between_fences(ExecSpace(), 0, 7, [&] { copy_csr_arrays(w); }).median_seconds;
}

template <class Value>
void run_convert(benchmark::State& state, const Workload<Value>& w, const std::string& operation) {
  const double copy = csr_copy_seconds(w);
  double total = 0.0;
  for (auto _ : state) {
    std::unique_ptr<DcsrMatrix<Value, Device>> fragmented;
    if (operation == "dcsr_defragment" || operation == "dcsr_defragment_by_length" || operation == "dcsr_to_csr") {
      fragmented = std::make_unique<DcsrMatrix<Value, Device>>(stream_dcsr(w, 4));
    }
    ExecSpace().fence();
    Kokkos::Timer timer;
    if (operation == "csr_copy") {
      copy_csr_arrays(w);
    } else if (operation == "dcsr_from_csr") {
      auto A = dcsr_from_csr<Value, Device>(w.csr);
    } else if (operation == "dcsr_to_csr") {
      auto C = dcsr_to_csr(*fragmented);
    } else if (operation == "dcsr_defragment") {
      dcsr_defragment(*fragmented);
    } else if (operation == "dcsr_defragment_by_length") {
      dcsr_defragment(*fragmented, DcsrRowOrder::by_length);
    } else {
      auto H = hyb_from_csr<Value, Device>(w.csr, hyb_width);
    }
    ExecSpace().fence();
    const double seconds = timer.seconds();
    state.SetIterationTime(seconds);
    total += seconds;
  }
  state.counters["relative_to_csr_copy"] = total / state.iterations() / copy;
  state.counters["csr_copy_ms"] = copy * 1e3;
}

// Throughput of one batch into the matrix's DCSR; the DCSR is rebuilt from the
// CSR before every timed insertion.
template <class Value>
void run_insert_batch(benchmark::State& state, const Workload<Value>& w, const std::string& format,
                      std::size_t batch_size) {
  STRATA_REQUIRE(format == "dcsr_keep" || format == "dcsr_sum", "insert_batch: unknown format " + format);
  const DuplicatePolicy policy = format == "dcsr_keep" ? DuplicatePolicy::keep_separate : DuplicatePolicy::sum;
  SignedUnitSequence random(insert_batch_seed);
  const auto b = random_batch<Value>(random, w.host.num_rows, w.host.num_cols, batch_size);
  ExecSpace space;
  double total = 0.0;
  int grew = 0;
  index_type capacity_after = 0;
  for (auto _ : state) {
    auto A = dcsr_from_csr<Value, Device>(w.csr);
    const index_type capacity_before = A.capacity();
    space.fence();
    Kokkos::Timer timer;
    dcsr_insert(A, b.rows, b.cols, b.values, policy);
    space.fence();
    const double seconds = timer.seconds();
    state.SetIterationTime(seconds);
    total += seconds;
    if (A.capacity() > capacity_before) ++grew;
    capacity_after = A.capacity();
    const index_type nnz = A.nnz();
    const index_type start = w.host.nnz();
    const index_type batch = static_cast<index_type>(batch_size);
    const bool counted = policy == DuplicatePolicy::keep_separate ? nnz == start + batch
                                                                  : nnz >= start && nnz <= start + batch;
    if (!counted) {
      state.SkipWithError(("insert_batch: " + std::to_string(nnz) + " entries after inserting " +
                           std::to_string(batch) + " into " + std::to_string(start))
                              .c_str());
      return;
    }
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["entries/s"] = static_cast<double>(batch_size) * n / total;
  state.counters["batch"] = static_cast<double>(batch_size);
  state.counters["nnz"] = static_cast<double>(w.host.nnz());
  state.counters["grew_fraction"] = grew / n;
  state.counters["capacity_over_nnz"] = static_cast<double>(capacity_after) / static_cast<double>(w.host.nnz());
}

template <class Value>
void dispatch(benchmark::State& state, const std::string& source, const std::string& group, const std::string& what,
              std::size_t batch_size) {
  const auto& w = current_workload<Value>(source);
  if (group == "stream") run_stream(state, w, what);
  if (group == "iterative") run_iterative(state, w, what);
  if (group == "spmv") run_spmv(state, w, what);
  if (group == "memory") run_memory(state, w, what);
  if (group == "convert") run_convert(state, w, what);
  if (group == "insert_batch") run_insert_batch(state, w, what, batch_size);
}

// batch_size is used by the insert_batch group only.
void benchmark_dcsr(benchmark::State& state, const std::string& source, const std::string& precision,
                    const std::string& group, const std::string& what, bool is_complex, std::size_t batch_size) {
  try {
    if (is_complex) {
      if (precision == "double") dispatch<Kokkos::complex<double>>(state, source, group, what, batch_size);
      else dispatch<Kokkos::complex<float>>(state, source, group, what, batch_size);
    } else if (precision == "double") {
      dispatch<double>(state, source, group, what, batch_size);
    } else {
      dispatch<float>(state, source, group, what, batch_size);
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
  const char* group_help =
      "Benchmark groups: stream, iterative, spmv, memory, convert, insert_batch (select with --benchmark_filter).\n";
  if (print_help_if_asked(argc, argv, group_help)) return 0;
  constexpr bool host_device =
      Kokkos::SpaceAccessibility<Kokkos::HostSpace, Kokkos::DefaultExecutionSpace::memory_space>::accessible;
  const std::vector<std::string> generated =
      host_device ? std::vector<std::string>{"gen:rmat:14"} : std::vector<std::string>{"gen:rmat:20", "gen:rmat:21"};
  MatrixSelection selection;
  try {
    selection = parse_matrix_selection(&argc, argv, generated);
  } catch (const std::exception& e) {
    std::cerr << "strata_dcsr_updates: " << e.what() << "\n";
    return 2;
  }
  // Updates rebuild whole matrices per repetition: fewer repetitions than SpMV. A pass of the
  // iterative group over a small matrix lasts a few ms, as long as a stall of the host: on the
  // H100, whole benchmarks of 5 passes came out 2x another run of the same binary (cage11 and
  // bayer10, 2026-11-28 02:59), so the files' matrices under small_matrix_nnz get 11 passes.
  const int update_reps = std::max(1, std::min(5, selection.repetitions));
  constexpr strata::index_type small_matrix_nnz = 2000000;
  const int small_update_reps = std::max(update_reps, std::min(11, selection.repetitions));
  const int insert_batch_reps = std::max(1, std::min(5, selection.repetitions));
  const std::vector<std::size_t> insert_batch_sizes{1000, 10000, 100000, 1000000, 10000000};
  const std::vector<std::pair<std::string, std::vector<std::string>>> groups{
      {"stream", {"dcsr", "hyb", "csr_rebuild"}},
      {"iterative", {"dcsr", "adcsr", "hyb", "csr_rebuild"}},
      {"spmv",
       {"dcsr_fragmented", "adcsr_fragmented", "adcsr_always_binned_fragmented", "dcsr_defragmented",
        "adcsr_defragmented", "adcsr_defragmented_by_length", "csr_kk", "hyb"}},
      {"memory", {"dcsr_k2", "dcsr_k3", "dcsr_k4", "csr", "hyb"}},
      {"convert",
       {"csr_copy", "dcsr_from_csr", "dcsr_to_csr", "dcsr_defragment", "dcsr_defragment_by_length", "hyb_from_csr"}}};
  for (const auto& source : selection.sources) {
    // Whether a file holds complex values is known from its header; generators are real.
    bool is_complex = false;
    strata::index_type file_nnz = 0;
    if (!strata::is_generator_spec(source)) {
      try {
        const auto loaded = strata::load_matrix(source);
        is_complex = loaded.is_complex;
        file_nnz = loaded.nnz();
      } catch (const std::exception& e) {
        std::cerr << "strata_dcsr_updates: " << e.what() << "\n";
        return 2;
      }
    }
    for (const auto& precision : selection.precisions) {
      for (const auto& [group, items] : groups) {
        for (const auto& what : items) {
          const std::string name = group + "/" + what + "/" + precision + "/" + strata::matrix_name(source);
          int reps = group == "spmv" ? selection.repetitions : (group == "memory" ? 1 : update_reps);
          if (group == "iterative" && file_nnz > 0 && file_nnz < small_matrix_nnz) reps = small_update_reps;
          benchmark::RegisterBenchmark(name.c_str(), benchmark_dcsr, source, precision, group, what, is_complex,
                                       std::size_t{0})
              ->UseManualTime()
              ->Iterations(reps)
              ->Unit(benchmark::kMillisecond);
        }
      }
      for (const std::string what : {"dcsr_keep", "dcsr_sum"}) {
        for (const std::size_t batch : insert_batch_sizes) {
          const std::string name = "insert_batch/" + what + "/" + precision + "/" + strata::matrix_name(source) +
                                   "/batch:" + std::to_string(batch);
          benchmark::RegisterBenchmark(name.c_str(), benchmark_dcsr, source, precision, std::string("insert_batch"),
                                       what, is_complex, batch)
              ->UseManualTime()
              ->Iterations(insert_batch_reps)
              ->Unit(benchmark::kMillisecond);
        }
      }
    }
  }
  const int status = run_registered_benchmarks(argc, argv);
  release_workload();
  return status;
}
