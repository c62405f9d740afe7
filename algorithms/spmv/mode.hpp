#pragma once
// The four operations of strata::spmv, spelled as Kokkos Kernels spells them:
// "N" y = A x, "T" y = A^T x, "C" y = conj(A) x, "H" y = A^H x (conjugate
// transpose). For real values C equals N and H equals T.
#include <strata/core/error.hpp>
#include <strata/core/index.hpp>

#include <string>

namespace strata {

enum class SpmvMode { normal, transpose, conjugate, conjugate_transpose };

// `operation` names the caller in the error (strata::spmv, strata::add).
inline SpmvMode parse_spmv_mode(const char* mode, const char* operation = "strata::spmv") {
  const std::string m = mode ? mode : "";
  if (m == "N") return SpmvMode::normal;
  if (m == "T") return SpmvMode::transpose;
  if (m == "C") return SpmvMode::conjugate;
  if (m == "H") return SpmvMode::conjugate_transpose;
  throw Error(std::string(operation) + ": mode '" + m + "' is not one of N, T, C, H");
}

inline SpmvMode parse_spmv_mode(const std::string& mode, const char* operation = "strata::spmv") {
  return parse_spmv_mode(mode.c_str(), operation);
}

constexpr bool is_transposed(SpmvMode m) { return m == SpmvMode::transpose || m == SpmvMode::conjugate_transpose; }
constexpr bool is_conjugated(SpmvMode m) { return m == SpmvMode::conjugate || m == SpmvMode::conjugate_transpose; }

// The dimensions of op(M) for a rows x cols matrix M.
struct OpShape {
  index_type rows = 0, cols = 0;
};
constexpr OpShape op_shape(SpmvMode m, index_type rows, index_type cols) {
  return is_transposed(m) ? OpShape{cols, rows} : OpShape{rows, cols};
}

// The check of every addition (strata::add's terms, the host reference, the baselines):
// op(A) and op(B) must have the same dimensions; `operation` names the caller in the error.
inline void require_same_op_shape(const char* operation, OpShape a, OpShape b) {
  STRATA_REQUIRE(a.rows == b.rows && a.cols == b.cols,
                 std::string(operation) + ": op(A) is " + std::to_string(a.rows) + " x " + std::to_string(a.cols) +
                     " but op(B) is " + std::to_string(b.rows) + " x " + std::to_string(b.cols));
}

// The modes a matrix will be multiplied in, as Format::automatic weighs them:
// N and C run over the rows, T and H over the columns.
enum class SpmvModes { all, untransposed, transposed };

constexpr SpmvModes modes_of(SpmvMode m) { return is_transposed(m) ? SpmvModes::transposed : SpmvModes::untransposed; }

inline const char* to_string(SpmvModes m) {
  switch (m) {
    case SpmvModes::all: return "N, C, T and H";
    case SpmvModes::untransposed: return "N and C";
    case SpmvModes::transposed: return "T and H";
  }
  return "?";
}

inline const char* to_string(SpmvMode m) {
  switch (m) {
    case SpmvMode::normal: return "N";
    case SpmvMode::transpose: return "T";
    case SpmvMode::conjugate: return "C";
    case SpmvMode::conjugate_transpose: return "H";
  }
  return "?";
}

}  // namespace strata
