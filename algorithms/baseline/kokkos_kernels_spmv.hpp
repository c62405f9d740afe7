#pragma once
// The in-tree baseline every Strata SpMV is measured against: Kokkos Kernels'
// own CSR SpMV (native row kernel, or merge path where the library has it).
#include <strata/core/kokkos_crs.hpp>

#include <string>

namespace strata::baseline {

template <class Value, class ExecSpace>
class KokkosKernelsCsrSpmv {
 public:
  using device_type = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  using matrix_type = DeviceCsr<Value, device_type>;
  using vector_type = Kokkos::View<Value*, device_type>;

  KokkosKernelsCsrSpmv(matrix_type A, compat::KkSpmvAlgorithm algorithm)
      : A_(std::move(A)), algorithm_(algorithm), plan_(algorithm) {}

  std::string name() const {
    return std::string("kokkos_kernels_csr_") + compat::to_string(algorithm_);
  }

  // y := alpha * op(A) * x + beta * y with mode "N", "T", "C" or "H".
  void apply(const ExecSpace& space, const char mode[], Value alpha, const vector_type& x, Value beta,
             const vector_type& y) {
    plan_.apply(space, mode, alpha, A_, x, beta, y);
  }

  const matrix_type& matrix() const { return A_; }

 private:
  matrix_type A_;
  compat::KkSpmvAlgorithm algorithm_;
  compat::KkSpmvPlan<ExecSpace, matrix_type, vector_type, vector_type> plan_;
};

}  // namespace strata::baseline
