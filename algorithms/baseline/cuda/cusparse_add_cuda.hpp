#pragma once
// Kokkos::Cuda specialisation of the cuSPARSE addition baseline; included only
// from ../cusparse_add.hpp under KOKKOS_ENABLE_CUDA && STRATA_ENABLE_CUSPARSE.
#include <strata/algorithms/spmv/cusparse.hpp>
#include <strata/core/error.hpp>

#include <cuComplex.h>
#include <cusparse.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace strata::baseline {

template <>
struct cusparse_add_available<Kokkos::Cuda> : std::true_type {};

namespace cuda_detail {

// csrgeam2 exists once per value type (S, D, C, Z); Kokkos::complex has the
// layout of cuComplex / cuDoubleComplex.
template <class Value>
struct Geam2;

#define STRATA_CUSPARSE_GEAM2(VALUE, NATIVE, LETTER)                                                              \
  template <>                                                                                                     \
  struct Geam2<VALUE> {                                                                                           \
    static const NATIVE* in(const VALUE* p) { return reinterpret_cast<const NATIVE*>(p); }                       \
    static NATIVE* out(VALUE* p) { return reinterpret_cast<NATIVE*>(p); }                                         \
    template <class... Args>                                                                                      \
    static cusparseStatus_t buffer_size(Args... args) {                                                          \
      return cusparse##LETTER##csrgeam2_bufferSizeExt(args...);                                                   \
    }                                                                                                             \
    template <class... Args>                                                                                      \
    static cusparseStatus_t compute(Args... args) {                                                              \
      return cusparse##LETTER##csrgeam2(args...);                                                                 \
    }                                                                                                             \
  };
STRATA_CUSPARSE_GEAM2(float, float, S)
STRATA_CUSPARSE_GEAM2(double, double, D)
STRATA_CUSPARSE_GEAM2(Kokkos::complex<float>, cuComplex, C)
STRATA_CUSPARSE_GEAM2(Kokkos::complex<double>, cuDoubleComplex, Z)
#undef STRATA_CUSPARSE_GEAM2

using Impl::cuda_detail::check;

}  // namespace cuda_detail

template <class Value>
class CusparseAdd<Value, Kokkos::Cuda> {
 public:
  using matrix_type = DeviceCsr<Value, Kokkos::Device<Kokkos::Cuda, Kokkos::CudaSpace>>;

  CusparseAdd() {
    cuda_detail::check(cusparseCreate(&handle_), "cusparseCreate");
    cuda_detail::check(cusparseCreateMatDescr(&descr_), "cusparseCreateMatDescr");
    cusparseSetMatType(descr_, CUSPARSE_MATRIX_TYPE_GENERAL);
    cusparseSetMatIndexBase(descr_, CUSPARSE_INDEX_BASE_ZERO);
  }
  CusparseAdd(const CusparseAdd&) = delete;
  CusparseAdd& operator=(const CusparseAdd&) = delete;
  ~CusparseAdd() {
    cusparseDestroyMatDescr(descr_);
    cusparseDestroy(handle_);
  }

  matrix_type add(const Kokkos::Cuda& space, SpmvMode mode_a, const Value& alpha, const matrix_type& A,
                  SpmvMode mode_b, const Value& beta, const matrix_type& B) {
    cuda_detail::check(cusparseSetStream(handle_, space.cuda_stream()), "cusparseSetStream");
    cuda_detail::check(cusparseSetPointerMode(handle_, CUSPARSE_POINTER_MODE_HOST), "cusparseSetPointerMode");
    require_same_op_shape("baseline::CusparseAdd", op_shape(mode_a, A.numRows(), A.numCols()),
                          op_shape(mode_b, B.numRows(), B.numCols()));
    const matrix_type a = apply_mode(mode_a, A);
    const matrix_type b = apply_mode(mode_b, B);
    using G = cuda_detail::Geam2<Value>;
    const int m = a.numRows(), n = a.numCols();
    if (m == 0 || n == 0) {
      // csrgeam2 writes no row offsets for an empty shape (the H100 left garbage in C's one offset).
      return matrix_type("strata::cusparse_add::sum", m, n, 0, values_view(),
                         row_map_view("strata::cusparse_add::row_map", m + 1), entries_view());
    }
    const int nnz_a = static_cast<int>(a.nnz()), nnz_b = static_cast<int>(b.nnz());
    row_map_view row_map(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "strata::cusparse_add::row_map"),
                         m + 1);
    std::size_t bytes = 0;
    cuda_detail::check(G::buffer_size(handle_, m, n, G::in(&alpha), descr_, nnz_a, G::in(a.values.data()),
                                      a.graph.row_map.data(), a.graph.entries.data(), G::in(&beta), descr_, nnz_b,
                                      G::in(b.values.data()), b.graph.row_map.data(), b.graph.entries.data(), descr_,
                                      G::in(static_cast<const Value*>(nullptr)), row_map.data(),
                                      static_cast<const int*>(nullptr), &bytes),
                       "cusparse?csrgeam2_bufferSizeExt");
    char* const buffer = work_buffer(bytes);
    int nnz_c = 0;
    cuda_detail::check(cusparseXcsrgeam2Nnz(handle_, m, n, descr_, nnz_a, a.graph.row_map.data(),
                                            a.graph.entries.data(), descr_, nnz_b, b.graph.row_map.data(),
                                            b.graph.entries.data(), descr_, row_map.data(), &nnz_c, buffer),
                       "cusparseXcsrgeam2Nnz");
    entries_view entries(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "strata::cusparse_add::entries"),
                         nnz_c);
    values_view values(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "strata::cusparse_add::values"), nnz_c);
    cuda_detail::check(G::compute(handle_, m, n, G::in(&alpha), descr_, nnz_a, G::in(a.values.data()),
                                  a.graph.row_map.data(), a.graph.entries.data(), G::in(&beta), descr_, nnz_b,
                                  G::in(b.values.data()), b.graph.row_map.data(), b.graph.entries.data(), descr_,
                                  G::out(values.data()), row_map.data(), entries.data(), buffer),
                       "cusparse?csrgeam2");
    return matrix_type("strata::cusparse_add::sum", m, n, nnz_c, values, row_map, entries);
  }

 private:
  using row_map_view = typename matrix_type::row_map_type::non_const_type;
  using entries_view = typename matrix_type::index_type::non_const_type;
  using values_view = typename matrix_type::values_type::non_const_type;
  using buffer_view = Kokkos::View<char*, Kokkos::CudaSpace>;

  // The work buffer of csrgeam2 and of the transpose, kept from one addition to the next (grown
  // when short), as a code adding repeatedly keeps it and as strata::add's handle keeps its
  // scratch. The calls that use it run in order on the handle's stream; growing releases the
  // old buffer, which synchronises the device first.
  char* work_buffer(std::size_t bytes) {
    const std::size_t needed = std::max<std::size_t>(bytes, 1);  // a valid pointer even for 0 bytes
    if (buffer_.extent(0) < needed) {
      buffer_ = buffer_view(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::cusparse_add::buffer"), needed);
    }
    return buffer_.data();
  }

  // op(A) for op N (A itself, shared) or T (cusparseCsr2cscEx2: A's CSC arrays are op(A)'s CSR, rows sorted).
  matrix_type apply_mode(SpmvMode mode, const matrix_type& A) {
    STRATA_REQUIRE(mode == SpmvMode::normal || mode == SpmvMode::transpose,
                   std::string("baseline::CusparseAdd: mode ") + to_string(mode) + " (only N and T are measured)");
    if (mode == SpmvMode::normal) return A;
    if (A.nnz() == 0) {
      // cuSPARSE's transpose has nothing to do; op(A) is the empty cols x rows matrix.
      return matrix_type("strata::cusparse_add::transpose", A.numCols(), A.numRows(), 0, values_view(),
                         row_map_view("strata::cusparse_add::transpose_row_map", A.numCols() + 1), entries_view());
    }
    const int rows = A.numRows(), cols = A.numCols(), nnz = static_cast<int>(A.nnz());
    row_map_view t_row_map("strata::cusparse_add::transpose_row_map", cols + 1);
    entries_view t_entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::cusparse_add::transpose_entries"),
                           nnz);
    values_view t_values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::cusparse_add::transpose_values"),
                         nnz);
    constexpr cudaDataType type = Impl::cuda_detail::cuda_data_type<Value>();
    std::size_t bytes = 0;
    cuda_detail::check(cusparseCsr2cscEx2_bufferSize(handle_, rows, cols, nnz, A.values.data(), A.graph.row_map.data(),
                                                     A.graph.entries.data(), t_values.data(), t_row_map.data(),
                                                     t_entries.data(), type, CUSPARSE_ACTION_NUMERIC,
                                                     CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &bytes),
                       "cusparseCsr2cscEx2_bufferSize");
    cuda_detail::check(cusparseCsr2cscEx2(handle_, rows, cols, nnz, A.values.data(), A.graph.row_map.data(),
                                          A.graph.entries.data(), t_values.data(), t_row_map.data(), t_entries.data(),
                                          type, CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO,
                                          CUSPARSE_CSR2CSC_ALG1, work_buffer(bytes)),
                       "cusparseCsr2cscEx2");
    return matrix_type("strata::cusparse_add::transpose", cols, rows, nnz, t_values, t_row_map, t_entries);
  }

  buffer_view buffer_;
  cusparseHandle_t handle_ = nullptr;
  cusparseMatDescr_t descr_ = nullptr;
};

}  // namespace strata::baseline
