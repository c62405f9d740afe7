#include <strata/algorithms/baseline/kokkos_kernels_spmv.hpp>
#include <strata/core/generators.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  using Exec = Kokkos::DefaultExecutionSpace;
  using Device = Kokkos::Device<Exec, Exec::memory_space>;
  const auto host = strata::gen::poisson2d_5pt(16);
  const auto A = strata::to_kokkos_crs<strata::DeviceCsr<double, Device>>(host, "consumer::A");
  strata::baseline::KokkosKernelsCsrSpmv<double, Exec> spmv(A, strata::compat::KkSpmvAlgorithm::native);
  Kokkos::View<double*, Device> x("consumer::x", host.num_cols), y("consumer::y", host.num_rows);
  Kokkos::deep_copy(x, 1.0);
  spmv.apply(Exec(), "N", 1.0, x, 0.0, y);
  double sum = 0.0;
  Kokkos::parallel_reduce("consumer::sum", Kokkos::RangePolicy<Exec>(0, host.num_rows),
                          KOKKOS_LAMBDA(int i, double& s) { s += y(i); }, sum);
  // Row sums of the 5-point Laplacian: 4 - (number of neighbours); on a 16x16
  // grid they add up to the 4*16 boundary edges.
  std::printf("strata consumer: sum(A * 1) = %g (expected 64)\n", sum);
  return sum == 64.0 ? 0 : 1;
}
