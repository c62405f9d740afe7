#pragma once
// The one place where Kokkos 3.4 (Debian 12's Trilinos packaging) and Kokkos /
// Kokkos Kernels 4.x differ for Strata. Everything else includes this header
// instead of testing versions itself.
#include <Kokkos_Core.hpp>
#include <KokkosKernels_config.h>
#include <KokkosSparse_spmv.hpp>

#include <string>

#if defined(KOKKOSKERNELS_VERSION) && (KOKKOSKERNELS_VERSION >= 40300)
#define STRATA_KOKKOSKERNELS_HAS_SPMV_HANDLE 1
#include <KokkosSparse_spmv_handle.hpp>
#else
#define STRATA_KOKKOSKERNELS_HAS_SPMV_HANDLE 0
#include <KokkosKernels_Controls.hpp>
#endif

namespace strata::compat {

constexpr int kokkos_version = KOKKOS_VERSION;

// Which Kokkos Kernels SpMV implementation a baseline run asks for. "native"
// is Kokkos Kernels' own CSR kernel even where a vendor library is enabled.
enum class KkSpmvAlgorithm { native, merge_path };

// Merge-path SpMV arrived with the handle interface (Kokkos Kernels 4.x).
constexpr bool kk_has_merge_path = STRATA_KOKKOSKERNELS_HAS_SPMV_HANDLE == 1;

inline const char* to_string(KkSpmvAlgorithm a) {
  return a == KkSpmvAlgorithm::native ? "native" : "merge_path";
}

// A reusable Kokkos Kernels SpMV: on 4.x it owns an SPMVHandle (whose setup is
// amortised over repeated products, as in a solver), on 3.4 the Controls object.
template <class ExecSpace, class Matrix, class XVector, class YVector>
class KkSpmvPlan {
 public:
  explicit KkSpmvPlan(KkSpmvAlgorithm algorithm)
#if STRATA_KOKKOSKERNELS_HAS_SPMV_HANDLE
      : handle_(algorithm == KkSpmvAlgorithm::native ? KokkosSparse::SPMV_NATIVE
                                                     : KokkosSparse::SPMV_NATIVE_MERGE_PATH)
#endif
  {
#if !STRATA_KOKKOSKERNELS_HAS_SPMV_HANDLE
    if (algorithm == KkSpmvAlgorithm::merge_path) {
      throw std::runtime_error("Kokkos Kernels before 4.3 has no merge-path SpMV");
    }
    controls_.setParameter("algorithm", "native");
#endif
  }

  template <class Scalar>
  void apply(const ExecSpace& space, const char mode[], Scalar alpha, const Matrix& A, const XVector& x,
             Scalar beta, const YVector& y) {
#if STRATA_KOKKOSKERNELS_HAS_SPMV_HANDLE
    KokkosSparse::spmv(space, &handle_, mode, alpha, A, x, beta, y);
#else
    (void)space;  // Kokkos Kernels 3.4 launches on the default instance only.
    // Kokkos Kernels 3.4's transposed product scales y by beta = 0 by
    // multiplication, so NaN in y survives; BLAS semantics say y is overwritten.
    if (mode[0] != 'N' && mode[0] != 'C' && beta == Scalar(0)) Kokkos::deep_copy(y, Scalar(0));
    KokkosSparse::spmv(controls_, mode, alpha, A, x, beta, y);
#endif
  }

 private:
#if STRATA_KOKKOSKERNELS_HAS_SPMV_HANDLE
  KokkosSparse::SPMVHandle<ExecSpace, Matrix, XVector, YVector> handle_;
#else
  KokkosKernels::Experimental::Controls controls_;
#endif
};

}  // namespace strata::compat
