#pragma once
// Kokkos::Cuda specialisation of the cuSPARSE baseline; included only from
// cusparse_spmv.hpp under KOKKOS_ENABLE_CUDA && STRATA_ENABLE_CUSPARSE.
#include <strata/core/error.hpp>
#include <strata/core/kokkos_crs.hpp>

#include <cusparse.h>

#include <array>
#include <string>

namespace strata::baseline {

template <>
struct cusparse_spmv_available<Kokkos::Cuda> : std::true_type {};

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

inline cusparseOperation_t to_operation(const char mode[]) {
  switch (mode[0]) {
    case 'N': return CUSPARSE_OPERATION_NON_TRANSPOSE;
    case 'T': return CUSPARSE_OPERATION_TRANSPOSE;
    case 'H': return CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
    default: throw Error(std::string("cuSPARSE SpMV: mode '") + mode + "' is not one of N, T, H");
  }
}

}  // namespace cuda_detail

template <class Value>
class CusparseCsrSpmv<Value, Kokkos::Cuda> {
 public:
  using device_type = Kokkos::Device<Kokkos::Cuda, Kokkos::CudaSpace>;
  using matrix_type = DeviceCsr<Value, device_type>;
  using vector_type = Kokkos::View<Value*, device_type>;

  explicit CusparseCsrSpmv(matrix_type A) : A_(std::move(A)) {
    cuda_detail::check(cusparseCreate(&handle_), "cusparseCreate");
    cuda_detail::check(
        cusparseCreateCsr(&matrix_, A_.numRows(), A_.numCols(), A_.nnz(),
                          const_cast<int*>(A_.graph.row_map.data()), const_cast<int*>(A_.graph.entries.data()),
                          const_cast<Value*>(A_.values.data()), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                          CUSPARSE_INDEX_BASE_ZERO, cuda_detail::cuda_data_type<Value>()),
        "cusparseCreateCsr");
  }
  CusparseCsrSpmv(const CusparseCsrSpmv&) = delete;
  CusparseCsrSpmv& operator=(const CusparseCsrSpmv&) = delete;
  ~CusparseCsrSpmv() {
    cusparseDestroySpMat(matrix_);
    cusparseDestroy(handle_);
  }

  std::string name() const { return "cusparse_csr"; }

  void apply(const Kokkos::Cuda& space, const char mode[], Value alpha, const vector_type& x, Value beta,
             const vector_type& y) {
    const cusparseOperation_t op = cuda_detail::to_operation(mode);
    constexpr cudaDataType type = cuda_detail::cuda_data_type<Value>();
    cuda_detail::check(cusparseSetStream(handle_, space.cuda_stream()), "cusparseSetStream");
    cusparseDnVecDescr_t vx = nullptr;
    cusparseDnVecDescr_t vy = nullptr;
    cuda_detail::check(cusparseCreateDnVec(&vx, x.extent(0), const_cast<Value*>(x.data()), type),
                       "cusparseCreateDnVec(x)");
    cuda_detail::check(cusparseCreateDnVec(&vy, y.extent(0), y.data(), type), "cusparseCreateDnVec(y)");
    auto& buffer = buffers_[static_cast<int>(op)];
    auto& prepared = prepared_[static_cast<int>(op)];
    if (!prepared) {
      // Buffer and preprocessing are per operation and reused by every later
      // product, as an iterative solver would use them.
      std::size_t bytes = 0;
      cuda_detail::check(cusparseSpMV_bufferSize(handle_, op, &alpha, matrix_, vx, &beta, vy, type,
                                                 CUSPARSE_SPMV_ALG_DEFAULT, &bytes),
                         "cusparseSpMV_bufferSize");
      buffer = Kokkos::View<char*, Kokkos::CudaSpace>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::cusparse_spmv_buffer"), bytes > 0 ? bytes : 1);
      cuda_detail::check(cusparseSpMV_preprocess(handle_, op, &alpha, matrix_, vx, &beta, vy, type,
                                                 CUSPARSE_SPMV_ALG_DEFAULT, buffer.data()),
                         "cusparseSpMV_preprocess");
      prepared = true;
    }
    const cusparseStatus_t status = cusparseSpMV(handle_, op, &alpha, matrix_, vx, &beta, vy, type,
                                                 CUSPARSE_SPMV_ALG_DEFAULT, buffer.data());
    cusparseDestroyDnVec(vx);
    cusparseDestroyDnVec(vy);
    cuda_detail::check(status, "cusparseSpMV");
  }

 private:
  matrix_type A_;
  cusparseHandle_t handle_ = nullptr;
  cusparseSpMatDescr_t matrix_ = nullptr;
  std::array<Kokkos::View<char*, Kokkos::CudaSpace>, 3> buffers_;
  std::array<bool, 3> prepared_{false, false, false};
};

}  // namespace strata::baseline
