#pragma once
// SpmvHandle: the per-matrix state of strata::spmv. A handle is tied to one
// matrix (the first one it is used with) and owns that matrix's analysis —
// COO chunking and the autotuned omega, ADCSR bins, the HiSparse leaf list,
// cuSPARSE descriptors and buffers, Kokkos Kernels SpMV handles, scratch —
// plus the options that choose and tune the kernel. Using it with another
// matrix throws strata::Error rather than computing with stale analysis.
//
// Each format plugs in through three specialisations:
//  - Impl::SpmvFormat (algorithms/spmv/interface/<format>.hpp): what a call is
//    checked against, without kernels: name, supports(algorithm),
//    algorithm_list, check_settings(settings), check_mode(settings, mode),
//    identity(A), rows(A), cols(A);
//  - Impl::SpmvState and Impl::SpmvKernels (algorithms/spmv/<format>.hpp): the
//    analysis a handle keeps, and analyze(space, settings, A, state),
//    apply(...), describe(settings, state), optionally refit(space, settings,
//    A, state): what reanalyze of the same matrix does instead of a new
//    analysis (DCSR keeps bins that still fit).
// The handle's members that analyse (prepare, reanalyze, describe) are defined
// in algorithms/spmv/definitions.hpp, with the kernels: a translation unit that
// includes only <strata/algorithms/spmv.hpp> uses the library's compiled
// handles and parses no kernel (spmv_eti.hpp).
#include <strata/algorithms/spmv/algorithm.hpp>
#include <strata/algorithms/spmv/mode.hpp>
#include <strata/core/error.hpp>
#include <strata/core/index.hpp>
#include <strata/core/row_teams.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>

namespace strata {

// What a handle carries besides the analysis. Which fields apply depends on
// the algorithm; the handle's setters refuse the ones that do not.
struct SpmvSettings {
  SpmvAlgorithm algorithm = SpmvAlgorithm::format_default;
  int omega = 0;               // load_balanced (COO, CSR): chunks per SM/thread; 0 = by nnz
  bool deterministic = false;  // COO load_balanced: bitwise reproducible, modes N and C
  bool autotune = false;       // COO load_balanced: time a ladder of omega on first use
  int lanes = 0;               // CSR and DCSR row_vectors: vector lanes per row, 1-32 (power of two);
                               // 0 = from the mean row length (core/row_teams.cpp)
  bool bin_always = false;     // DCSR binned_rows: the binned launch even where binning would not pay
};

// Which matrix a handle was analysed for: the address of storage the matrix
// owns (shared by its copies), a sub-key where one storage holds several
// matrices (HiSparse roots), and the stored dimensions.
struct MatrixIdentity {
  const void* storage = nullptr;
  std::uint64_t sub_key = 0;
  index_type rows = 0;
  index_type cols = 0;

  bool operator==(const MatrixIdentity& o) const {
    return storage == o.storage && sub_key == o.sub_key && rows == o.rows && cols == o.cols;
  }
  std::string describe() const {
    std::ostringstream s;
    s << rows << " x " << cols << " matrix (storage " << storage;
    if (sub_key) s << ", root " << sub_key;
    s << ")";
    return s.str();
  }
};

namespace Impl {

// Specialised per format in algorithms/spmv/interface/<format>.hpp.
template <class ExecSpace, class Matrix, class Enable = void>
struct SpmvFormat {
  static constexpr bool available = false;
};

// Specialised per format in algorithms/spmv/<format>.hpp, beside its kernels.
template <class ExecSpace, class Matrix>
struct SpmvState;
template <class ExecSpace, class Matrix>
struct SpmvKernels;

// Options that belong to the nonzero-balanced kernels (COO's load_balanced; omega also CSR's),
// refused by every other kernel.
inline void refuse_coo_options(const char* format, const SpmvSettings& s) {
  STRATA_REQUIRE(s.omega == 0 && !s.deterministic && !s.autotune,
                 std::string("strata::SpmvHandle<") + format +
                     ">: omega, deterministic and autotune are options of the COO load_balanced kernel "
                     "(omega also of CSR load_balanced)");
}

// omega, the chunks per SM of the nonzero-balanced kernels: 0 (by the nonzero count) or more.
inline void check_omega(const char* format, const SpmvSettings& s) {
  STRATA_REQUIRE(s.omega >= 0, std::string("strata::SpmvHandle<") + format +
                                   ">: omega must be >= 0 (0 = by nnz), got " + std::to_string(s.omega));
}

// The lane count of the row kernels: 0 (from the mean row length) or a power
// of two up to 32, and only for the row_vectors kernel of `format`.
inline void check_row_lanes(const char* format, const SpmvSettings& s, bool row_kernel) {
  STRATA_REQUIRE(s.lanes == 0 || row_kernel,
                 std::string("strata::SpmvHandle<") + format + ">: lanes is an option of the row_vectors kernel (CSR, "
                     "DCSR), not of " + to_string(s.algorithm));
  STRATA_REQUIRE(s.lanes == 0 || valid_row_lanes(s.lanes),
                 std::string("strata::SpmvHandle<") + format + ">: lanes must be " + valid_row_lanes_list + " (0 = from the "
                     "mean row length), got " + std::to_string(s.lanes));
}

template <class Kernels, class = void>
struct has_refit : std::false_type {};
template <class Kernels>
struct has_refit<Kernels, std::void_t<decltype(&Kernels::refit)>> : std::true_type {};

}  // namespace Impl

template <class ExecSpace, class Matrix>
struct is_spmv_format : std::bool_constant<Impl::SpmvFormat<ExecSpace, Matrix>::available> {};

template <class ExecSpace, class Matrix>
class SpmvHandle {
  static_assert(Kokkos::is_execution_space<ExecSpace>::value,
                "strata::SpmvHandle: the first template argument must be a Kokkos execution space");
  static_assert(is_spmv_format<ExecSpace, Matrix>::value,
                "strata::SpmvHandle: Matrix is not a Strata format (KokkosSparse::CrsMatrix, CooMatrix, DcsrMatrix, "
                "HybMatrix, HiSparseMatrix, AnyMatrix) or its header is not included (<strata/strata.hpp>)");
  using format = Impl::SpmvFormat<ExecSpace, Matrix>;

 public:
  using execution_space = ExecSpace;
  using matrix_type = Matrix;
  using state_type = Impl::SpmvState<ExecSpace, Matrix>;

  SpmvHandle() = default;
  explicit SpmvHandle(SpmvAlgorithm algorithm) { set_algorithm(algorithm); }
  explicit SpmvHandle(const SpmvSettings& settings) { set_settings(settings); }
  SpmvHandle(const SpmvHandle&) = delete;
  SpmvHandle& operator=(const SpmvHandle&) = delete;
  SpmvHandle(SpmvHandle&&) noexcept = default;
  SpmvHandle& operator=(SpmvHandle&&) noexcept = default;

  // Setters drop the analysis (it is redone on the next product) but keep the binding.
  void set_algorithm(SpmvAlgorithm algorithm) {
    SpmvSettings s = settings_;
    s.algorithm = algorithm;
    set_settings(s);
  }
  void set_omega(int omega) {
    SpmvSettings s = settings_;
    s.omega = omega;
    set_settings(s);
  }
  void set_deterministic(bool on) {
    SpmvSettings s = settings_;
    s.deterministic = on;
    set_settings(s);
  }
  void set_autotune(bool on) {
    SpmvSettings s = settings_;
    s.autotune = on;
    set_settings(s);
  }
  void set_lanes(int lanes) {
    SpmvSettings s = settings_;
    s.lanes = lanes;
    set_settings(s);
  }
  void set_bin_always(bool on) {
    SpmvSettings s = settings_;
    s.bin_always = on;
    set_settings(s);
  }
  void set_settings(const SpmvSettings& s) {
    STRATA_REQUIRE(format::supports(s.algorithm), std::string("strata::SpmvHandle<") + format::name +
                                                      ">: algorithm " + to_string(s.algorithm) +
                                                      " does not apply to this format (available here: " +
                                                      format::algorithm_list() + ")");
    STRATA_REQUIRE(!s.bin_always || s.algorithm == SpmvAlgorithm::binned_rows,
                   std::string("strata::SpmvHandle<") + format::name +
                       ">: bin_always is an option of binned_rows, not of " + to_string(s.algorithm));
    format::check_settings(s);
    settings_ = s;
    state_.reset();
  }
  const SpmvSettings& settings() const { return settings_; }

  // Throws before any work when the handle's options cannot compute `mode`.
  void require_mode(SpmvMode mode) const { format::check_mode(settings_, mode); }

  bool is_bound() const { return bound_; }
  const MatrixIdentity& bound_matrix() const { return identity_; }

  // Ties the handle to A (if not yet tied) and returns its analysis, computing
  // it on first use. Throws when the handle belongs to another matrix.
  state_type& prepare(const ExecSpace& space, const Matrix& A);

  // Binds the handle to A and redoes the analysis now (after a DCSR matrix
  // has changed shape, or to move the handle to another matrix). For the
  // matrix it is bound to, a format may refit its analysis instead, keeping
  // what still holds (DCSR binned_rows keeps bins that still fit).
  void reanalyze(const ExecSpace& space, const Matrix& A);

  // The kernel and its parameters, e.g. "COO load_balanced(omega=32)".
  std::string describe() const;

 private:
  SpmvSettings settings_;
  // Shared only so that the handle's type is complete without the state's
  // definition; a handle is never copied.
  std::shared_ptr<state_type> state_;
  MatrixIdentity identity_;
  bool bound_ = false;
};

}  // namespace strata
