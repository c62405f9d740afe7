#pragma once
// The one place where Kokkos 3.4 (Debian 12's Trilinos packaging) and Kokkos /
// Kokkos Kernels 4.x differ for Strata. Everything else includes this header
// instead of testing versions itself.
#include <Kokkos_Core.hpp>
#include <KokkosKernels_config.h>
#include <KokkosSparse_spmv.hpp>

#include <string>
#include <type_traits>
#include <vector>

#if KOKKOS_VERSION >= 40000
#include <Kokkos_NestedSort.hpp>
#else
#include <KokkosKernels_Sorting.hpp>
#endif

#if defined(KOKKOSKERNELS_VERSION) && (KOKKOSKERNELS_VERSION >= 40300)
#define STRATA_KOKKOSKERNELS_HAS_SPMV_HANDLE 1
#include <KokkosSparse_spmv_handle.hpp>
#else
#define STRATA_KOKKOSKERNELS_HAS_SPMV_HANDLE 0
#include <KokkosKernels_Controls.hpp>
#include <Kokkos_ArithTraits.hpp>
#endif

// Kokkos Kernels' sparse utilities (transpose_matrix, ...) live in
// KokkosKernels::Impl up to 3.x and in KokkosSparse::Impl from 4.0; callers
// include the header that declares them (KokkosSparse_spadd.hpp does in both).
#if KOKKOS_VERSION >= 40000
namespace KokkosSparse::Impl {}
#else
namespace KokkosKernels::Impl {}
#endif

namespace strata::compat {

constexpr int kokkos_version = KOKKOS_VERSION;

#if KOKKOS_VERSION >= 40000
namespace kk_sparse_utils = ::KokkosSparse::Impl;
#else
namespace kk_sparse_utils = ::KokkosKernels::Impl;
#endif

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
#if defined(KOKKOS_ENABLE_SERIAL)
    // Kokkos Kernels 3.4's Serial shortcut for rank-1 untransposed products
    // (which also serves rank-2 vectors of one column) ignores its conjugate
    // flag: mode "C" would compute A x, not conj(A) x.
    if constexpr (std::is_same_v<ExecSpace, Kokkos::Serial> && Kokkos::Details::ArithTraits<Scalar>::is_complex) {
      if (mode[0] == 'C' && (XVector::rank == 1 || x.extent(1) == 1)) {
        conjugate_product_serial(alpha, A, x, beta, y);
        return;
      }
    }
#endif
    KokkosSparse::spmv(controls_, mode, alpha, A, x, beta, y);
#endif
  }

 private:
#if !STRATA_KOKKOSKERNELS_HAS_SPMV_HANDLE && defined(KOKKOS_ENABLE_SERIAL)
  // y := alpha conj(A) x + beta y on the host for each column, beta == 0 overwriting y.
  template <class Scalar>
  static void conjugate_product_serial(Scalar alpha, const Matrix& A, const XVector& x, Scalar beta,
                                       const YVector& y) {
    using ATS = Kokkos::Details::ArithTraits<Scalar>;
    const std::size_t columns = XVector::rank == 1 ? 1 : x.extent(1);
    for (std::size_t c = 0; c < columns; ++c) {
      for (decltype(A.numRows()) i = 0; i < A.numRows(); ++i) {
        Scalar sum(0);
        for (auto k = A.graph.row_map(i); k < A.graph.row_map(i + 1); ++k) {
          sum += ATS::conj(A.values(k)) * entry(x, A.graph.entries(k), c);
        }
        auto& out = entry(y, i, c);
        out = beta == Scalar(0) ? Scalar(alpha * sum) : Scalar(beta * out + alpha * sum);
      }
    }
  }
  template <class View>
  static auto& entry(const View& v, std::size_t i, std::size_t c) {
    if constexpr (View::rank == 1) {
      return v(i);
    } else {
      return v(i, c);
    }
  }
#endif

#if STRATA_KOKKOSKERNELS_HAS_SPMV_HANDLE
  KokkosSparse::SPMVHandle<ExecSpace, Matrix, XVector, YVector> handle_;
#else
  KokkosKernels::Experimental::Controls controls_;
#endif
};

// Host memory a device copies into directly (page-locked where the backend has it): a read of a
// few control words is then one copy on the caller's stream and a wait for that stream, not a
// staged copy between two device-wide synchronisations. Kokkos 3.4 has no portable name for it.
#if KOKKOS_VERSION >= 40000
using pinned_host_space = Kokkos::SharedHostPinnedSpace;
#else
using pinned_host_space = Kokkos::HostSpace;
#endif

// n execution space instances for independent work that may overlap (the
// length bins of ADCSR). Device backends get instances of their own (streams);
// host backends, whose launches block the caller and whose partitions would
// split the thread pool, get the default instance n times, and so does Kokkos
// 3.4, which has no partition_space: there the work runs in sequence.
template <class ExecSpace>
std::vector<ExecSpace> execution_space_instances(int n) {
#if KOKKOS_VERSION >= 40000
  if constexpr (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible) {
    return Kokkos::Experimental::partition_space(ExecSpace(), std::vector<int>(static_cast<std::size_t>(n), 1));
  }
#endif
  return std::vector<ExecSpace>(static_cast<std::size_t>(n), ExecSpace());
}

// Sorts keys[0, n) ascending inside a team, applying the same swaps to
// perm[0, n) (not stable). Kokkos 4.x provides it; Kokkos 3.4 only has the
// Kokkos Kernels team bitonic sort.
template <class TeamMember, class Key, class Perm>
KOKKOS_INLINE_FUNCTION void team_sort_by_key(const TeamMember& member, Key* keys, Perm* perm, int n) {
#if KOKKOS_VERSION >= 40000
  Kokkos::View<Key*, Kokkos::AnonymousSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> key_view(keys, n);
  Kokkos::View<Perm*, Kokkos::AnonymousSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> perm_view(perm, n);
  Kokkos::Experimental::sort_by_key_team(member, key_view, perm_view);
#else
  KokkosKernels::Impl::TeamBitonicSort2<int, Key, Perm, TeamMember>(keys, perm, n, member);
#endif
}

}  // namespace strata::compat
