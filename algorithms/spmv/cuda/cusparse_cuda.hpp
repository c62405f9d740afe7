#pragma once
// Kokkos::Cuda specialisation of the cuSPARSE SpMV; included only from
// ../cusparse.hpp under KOKKOS_ENABLE_CUDA && STRATA_ENABLE_CUSPARSE.
#include <strata/core/error.hpp>

#include <cusparse.h>

#include <array>
#include <cstdint>
#include <string>

namespace strata::Impl {

namespace cuda_detail {

inline void check(cusparseStatus_t status, const char* call) {
  if (status != CUSPARSE_STATUS_SUCCESS) {
    throw Error(std::string("cuSPARSE ") + call + " failed: " + cusparseGetErrorString(status));
  }
}

template <class Value>
constexpr cudaDataType cuda_data_type() {
  if constexpr (std::is_same_v<Value, float>) return CUDA_R_32F;
  if constexpr (std::is_same_v<Value, double>) return CUDA_R_64F;
  if constexpr (std::is_same_v<Value, Kokkos::complex<float>>) return CUDA_C_32F;
  if constexpr (std::is_same_v<Value, Kokkos::complex<double>>) return CUDA_C_64F;
}

inline cusparseOperation_t to_operation(SpmvMode mode) {
  switch (mode) {
    case SpmvMode::normal: return CUSPARSE_OPERATION_NON_TRANSPOSE;
    case SpmvMode::transpose: return CUSPARSE_OPERATION_TRANSPOSE;
    case SpmvMode::conjugate_transpose: return CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
    default: break;
  }
  throw Error("strata::spmv (cusparse): mode C reaches cuSPARSE only through apply_cusparse");
}

}  // namespace cuda_detail

template <class Value>
class CusparseSpmv<Value, Kokkos::Cuda> {
 public:

  // CSR with 32-bit offsets and indices.
  static std::unique_ptr<CusparseSpmv> csr(std::int64_t rows, std::int64_t cols, std::int64_t nnz,
                                           const int* row_map, const int* entries, const Value* values) {
    std::unique_ptr<CusparseSpmv> s(new CusparseSpmv(rows, cols));
    cuda_detail::check(cusparseCreateCsr(&s->matrix_, rows, cols, nnz, const_cast<int*>(row_map),
                                         const_cast<int*>(entries), const_cast<Value*>(values), CUSPARSE_INDEX_32I,
                                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                         cuda_detail::cuda_data_type<Value>()),
                       "cusparseCreateCsr");
    return s;
  }

  // COO sorted by row, 32-bit indices.
  static std::unique_ptr<CusparseSpmv> coo(std::int64_t rows, std::int64_t cols, std::int64_t nnz, const int* row,
                                           const int* col, const Value* values) {
    std::unique_ptr<CusparseSpmv> s(new CusparseSpmv(rows, cols));
    cuda_detail::check(cusparseCreateCoo(&s->matrix_, rows, cols, nnz, const_cast<int*>(row), const_cast<int*>(col),
                                         const_cast<Value*>(values), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                         cuda_detail::cuda_data_type<Value>()),
                       "cusparseCreateCoo");
    return s;
  }

  CusparseSpmv(const CusparseSpmv&) = delete;
  CusparseSpmv& operator=(const CusparseSpmv&) = delete;
  ~CusparseSpmv() {
    if (matrix_) cusparseDestroySpMat(matrix_);
    cusparseDestroy(handle_);
  }

  // y := alpha * op(A) x + beta * y on contiguous, 16-byte aligned vectors.
  void apply(const Kokkos::Cuda& space, SpmvMode mode, Value alpha, const Value* x, Value beta, Value* y) {
    const cusparseOperation_t op = cuda_detail::to_operation(mode);
    const bool t = is_transposed(mode);
    constexpr cudaDataType type = cuda_detail::cuda_data_type<Value>();
    cuda_detail::check(cusparseSetStream(handle_, space.cuda_stream()), "cusparseSetStream");
    cusparseDnVecDescr_t vx = nullptr;
    cusparseDnVecDescr_t vy = nullptr;
    cuda_detail::check(cusparseCreateDnVec(&vx, t ? rows_ : cols_, const_cast<Value*>(x), type), "cusparseCreateDnVec(x)");
    cuda_detail::check(cusparseCreateDnVec(&vy, t ? cols_ : rows_, y, type), "cusparseCreateDnVec(y)");
    auto& buffer = buffers_[static_cast<int>(op)];
    auto& prepared = prepared_[static_cast<int>(op)];
    if (!prepared) {
      // Buffer and preprocessing per operation, reused by every later product
      // (as an iterative solver uses them).
      std::size_t bytes = 0;
      cuda_detail::check(cusparseSpMV_bufferSize(handle_, op, &alpha, matrix_, vx, &beta, vy, type,
                                                 CUSPARSE_SPMV_ALG_DEFAULT, &bytes),
                         "cusparseSpMV_bufferSize");
      buffer = Kokkos::View<char*, Kokkos::CudaSpace>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::cusparse::buffer"), bytes > 0 ? bytes : 1);
      cuda_detail::check(cusparseSpMV_preprocess(handle_, op, &alpha, matrix_, vx, &beta, vy, type,
                                                 CUSPARSE_SPMV_ALG_DEFAULT, buffer.data()),
                         "cusparseSpMV_preprocess");
      prepared = true;
    }
    const cusparseStatus_t status =
        cusparseSpMV(handle_, op, &alpha, matrix_, vx, &beta, vy, type, CUSPARSE_SPMV_ALG_DEFAULT, buffer.data());
    cusparseDestroyDnVec(vx);
    cusparseDestroyDnVec(vy);
    cuda_detail::check(status, "cusparseSpMV");
  }

  // Contiguous stand-ins for vectors cuSPARSE cannot take (strided columns,
  // misaligned column starts).
  VectorScratch<Value, Kokkos::CudaSpace>& scratch() { return scratch_; }

 private:
  CusparseSpmv(std::int64_t rows, std::int64_t cols) : rows_(rows), cols_(cols) {
    cuda_detail::check(cusparseCreate(&handle_), "cusparseCreate");
  }

  std::int64_t rows_, cols_;
  cusparseHandle_t handle_ = nullptr;
  cusparseSpMatDescr_t matrix_ = nullptr;
  std::array<Kokkos::View<char*, Kokkos::CudaSpace>, 3> buffers_;
  std::array<bool, 3> prepared_{false, false, false};
  VectorScratch<Value, Kokkos::CudaSpace> scratch_;
};

}  // namespace strata::Impl
