#pragma once
// Member definitions of measure::SpmvRun; included only by the library's
// instantiation files (spmv_run_*.cpp) and by code that needs SpmvRun for
// another execution space or value type.
#include <strata/algorithms/measure/spmv_run.hpp>

namespace strata::measure {

template <class Value, class ExecSpace>
SpmvRun<Value, ExecSpace>::SpmvRun(const ExecSpace& space, const HostCsr<Value>& host, const SpmvKernel& kernel,
                                   SpmvMode mode, int vectors, const SpmvRunOptions& options)
    : space_(space), host_(host), kernel_(kernel), mode_(mode), vectors_(vectors) {
  STRATA_REQUIRE(vectors >= 1, "SpmvRun: vectors must be at least 1, got " + std::to_string(vectors));
  Kokkos::Timer timer;
  // A run multiplies in one mode: Format::automatic chooses for that mode.
  AutomaticOptions automatic = options.automatic;
  automatic.modes = modes_of(mode);
  matrix_ = make_spmv_matrix<Value>(space, host, kernel, automatic);
  SpmvSettings settings = options.settings;
  settings.algorithm = SpmvAlgorithm::format_default;  // the matrix's hint says which kernel
  handle_.set_settings(settings);
  const bool t = is_transposed(mode);
  in_len_ = t ? host.num_rows : host.num_cols;
  out_len_ = t ? host.num_cols : host.num_rows;
  x_host_ = pseudo_random_vector<Value>(in_len_ * vectors, 11);
  if (vectors == 1) {
    x1_ = vector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::measure::x"), in_len_);
    y1_ = vector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::measure::y"), out_len_);
  } else {
    xk_ = multivector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::measure::x"), in_len_, vectors);
    yk_ = multivector_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::measure::y"), out_len_, vectors);
  }
  upload(x_host_, /*to_x=*/true);
  // The first product binds the handle and runs the analysis: part of the setup.
  product(value_from<Value>(1.0, 0.0), value_from<Value>(0.0, 0.0));
  space_.fence();
  setup_seconds_ = timer.seconds();
}

template <class Value, class ExecSpace>
std::size_t SpmvRun<Value, ExecSpace>::matrix_bytes() const {
  return memory_bytes(matrix_);
}

template <class Value, class ExecSpace>
SpmvTraffic SpmvRun<Value, ExecSpace>::traffic() const {
  return csr_spmv_traffic(host_.num_rows, host_.num_cols, host_.nnz(), sizeof(Value), sizeof(int), sizeof(int),
                          value_traits<Value>::is_complex, is_transposed(mode_), false, vectors_);
}

template <class Value, class ExecSpace>
void SpmvRun<Value, ExecSpace>::product(const Value& alpha, const Value& beta) {
  if (vectors_ == 1) {
    strata::spmv(space_, handle_, to_string(mode_), alpha, matrix_, x1_, beta, y1_);
  } else {
    strata::spmv(space_, handle_, to_string(mode_), alpha, matrix_, xk_, beta, yk_);
  }
}

template <class Value, class ExecSpace>
SpmvCheck SpmvRun<Value, ExecSpace>::verify() {
  const Value one = value_from<Value>(1.0, 0.0);
  const Value zero = value_from<Value>(0.0, 0.0);
  const std::vector<Value> nan_y(static_cast<std::size_t>(out_len_ * vectors_),
                                 value_from<Value>(std::numeric_limits<double>::quiet_NaN(), 0.0));
  const std::vector<Value> y0 = pseudo_random_vector<Value>(out_len_ * vectors_, 12);
  const SpmvCheck overwrite = check(one, zero, nan_y, "beta = 0 over NaN");
  const SpmvCheck update = check(value_from<Value>(2.0, 0.5), value_from<Value>(-1.0, 0.25), y0, "alpha/beta update");
  SpmvCheck result;
  result.max_error_over_bound = std::max(overwrite.max_error_over_bound, update.max_error_over_bound);
  result.passed = overwrite.passed && update.passed;
  result.failure = !overwrite.passed ? overwrite.failure : update.failure;
  product(one, zero);
  space_.fence();
  return result;
}

template <class Value, class ExecSpace>
double SpmvRun<Value, ExecSpace>::time_once() {
  return time_once_between_fences(space_, [&] { product(value_from<Value>(1.0, 0.0), value_from<Value>(0.0, 0.0)); });
}

template <class Value, class ExecSpace>
double SpmvRun<Value, ExecSpace>::time_back_to_back(int products) {
  STRATA_REQUIRE(products >= 1, "SpmvRun::time_back_to_back: products must be at least 1");
  const Value one = value_from<Value>(1.0, 0.0), zero = value_from<Value>(0.0, 0.0);
  return time_once_between_fences(space_, [&] {
           for (int i = 0; i < products; ++i) product(one, zero);
         }) /
         products;
}

template <class Value, class ExecSpace>
SpmvTiming SpmvRun<Value, ExecSpace>::time(int warmup, int repetitions) {
  STRATA_REQUIRE(repetitions >= 1, "SpmvRun::time: repetitions must be at least 1");
  return time_between_fences(space_, warmup, repetitions,
                             [&] { product(value_from<Value>(1.0, 0.0), value_from<Value>(0.0, 0.0)); });
}

// Column j of the host data lives at [j * len, (j + 1) * len).
template <class Value, class ExecSpace>
void SpmvRun<Value, ExecSpace>::upload(const std::vector<Value>& data, bool to_x) {
  if (vectors_ == 1) {
    auto mirror = Kokkos::create_mirror_view(to_x ? x1_ : y1_);
    for (std::size_t i = 0; i < mirror.extent(0); ++i) mirror(i) = data[i];
    Kokkos::deep_copy(to_x ? x1_ : y1_, mirror);
  } else {
    auto mirror = Kokkos::create_mirror_view(to_x ? xk_ : yk_);
    for (std::size_t j = 0; j < mirror.extent(1); ++j) {
      for (std::size_t i = 0; i < mirror.extent(0); ++i) mirror(i, j) = data[j * mirror.extent(0) + i];
    }
    Kokkos::deep_copy(to_x ? xk_ : yk_, mirror);
  }
}

template <class Value, class ExecSpace>
std::vector<Value> SpmvRun<Value, ExecSpace>::download_y() const {
  std::vector<Value> out(static_cast<std::size_t>(out_len_ * vectors_));
  if (vectors_ == 1) {
    auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y1_);
    for (std::size_t i = 0; i < m.extent(0); ++i) out[i] = m(i);
  } else {
    auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), yk_);
    for (std::size_t j = 0; j < m.extent(1); ++j) {
      for (std::size_t i = 0; i < m.extent(0); ++i) out[j * m.extent(0) + i] = m(i, j);
    }
  }
  return out;
}

template <class Value, class ExecSpace>
SpmvCheck SpmvRun<Value, ExecSpace>::check(const Value& alpha, const Value& beta, const std::vector<Value>& y0,
                                           const std::string& what) {
  upload(y0, /*to_x=*/false);
  product(alpha, beta);
  space_.fence();
  const std::vector<Value> y = download_y();
  SpmvCheck result;
  result.passed = true;
  const auto len_in = static_cast<std::size_t>(in_len_), len_out = static_cast<std::size_t>(out_len_);
  for (int j = 0; j < vectors_; ++j) {
    const std::vector<Value> xj(x_host_.begin() + j * len_in, x_host_.begin() + (j + 1) * len_in);
    const std::vector<Value> y0j(y0.begin() + j * len_out, y0.begin() + (j + 1) * len_out);
    const std::vector<Value> yj(y.begin() + j * len_out, y.begin() + (j + 1) * len_out);
    const auto ref = reference::csr_spmv(mode_, alpha, host_, xj, beta, y0j);
    const auto acc = reference::check_spmv(yj, ref);
    result.max_error_over_bound = std::max(result.max_error_over_bound, acc.max_scaled_error);
    if (!acc.passed && result.passed) {
      result.passed = false;
      result.failure = what + ": column " + std::to_string(j) + ", entry " + std::to_string(acc.worst_entry) +
                       " is off by " + std::to_string(acc.max_scaled_error) + " times the rounding bound";
    }
  }
  return result;
}

}  // namespace strata::measure
