// A downstream program as a Kokkos user writes it: one include, one handle, one call.
#include <strata/core/generators.hpp>
#include <strata/strata.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  using Exec = Kokkos::DefaultExecutionSpace;
  using Device = Kokkos::Device<Exec, Exec::memory_space>;
  const auto host = strata::gen::poisson2d_5pt(16);
  auto A = strata::make_spmv_matrix<double>(Exec(), host, strata::Format::automatic);
  strata::SpmvHandle<Exec, decltype(A)> handle;
  Kokkos::View<double*, Device> x("consumer::x", host.num_cols), y("consumer::y", host.num_rows);
  Kokkos::deep_copy(x, 1.0);
  strata::spmv(Exec(), handle, "N", 1.0, A, x, 0.0, y);
  double sum = 0.0;
  Kokkos::parallel_reduce("consumer::sum", Kokkos::RangePolicy<Exec>(0, host.num_rows),
                          KOKKOS_LAMBDA(int i, double& s) { s += y(i); }, sum);
  // Row sums of the 5-point Laplacian: 4 - (number of neighbours); on a 16x16
  // grid they add up to the 4*16 boundary edges.
  std::printf("strata consumer: %s; sum(A * 1) = %g (expected 64)\n", handle.describe().c_str(), sum);
  return sum == 64.0 ? 0 : 1;
}
