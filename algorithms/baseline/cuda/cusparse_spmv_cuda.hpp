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

namespace cuda_detail {

// Handle, matrix descriptor and per-operation buffers shared by the CSR and
// COO baselines; the subclass creates the descriptor.
template <class Value>
class CusparseSpmvCore {
 public:
  using vector_type = Kokkos::View<Value*, Kokkos::Device<Kokkos::Cuda, Kokkos::CudaSpace>>;

  CusparseSpmvCore(const CusparseSpmvCore&) = delete;
  CusparseSpmvCore& operator=(const CusparseSpmvCore&) = delete;

  void apply(const Kokkos::Cuda& space, const char mode[], Value alpha, const vector_type& x, Value beta,
             const vector_type& y) {
    const cusparseOperation_t op = to_operation(mode);
    constexpr cudaDataType type = cuda_data_type<Value>();
    check(cusparseSetStream(handle_, space.cuda_stream()), "cusparseSetStream");
    cusparseDnVecDescr_t vx = nullptr;
    cusparseDnVecDescr_t vy = nullptr;
    check(cusparseCreateDnVec(&vx, x.extent(0), const_cast<Value*>(x.data()), type), "cusparseCreateDnVec(x)");
    check(cusparseCreateDnVec(&vy, y.extent(0), y.data(), type), "cusparseCreateDnVec(y)");
    auto& buffer = buffers_[static_cast<int>(op)];
    auto& prepared = prepared_[static_cast<int>(op)];
    if (!prepared) {
      // Buffer and preprocessing are per operation and reused by every later
      // product, as an iterative solver would use them.
      std::size_t bytes = 0;
      check(cusparseSpMV_bufferSize(handle_, op, &alpha, matrix_, vx, &beta, vy, type, CUSPARSE_SPMV_ALG_DEFAULT,
                                    &bytes),
            "cusparseSpMV_bufferSize");
      buffer = Kokkos::View<char*, Kokkos::CudaSpace>(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::cusparse_spmv_buffer"), bytes > 0 ? bytes : 1);
      check(cusparseSpMV_preprocess(handle_, op, &alpha, matrix_, vx, &beta, vy, type, CUSPARSE_SPMV_ALG_DEFAULT,
                                    buffer.data()),
            "cusparseSpMV_preprocess");
      prepared = true;
    }
    const cusparseStatus_t status =
        cusparseSpMV(handle_, op, &alpha, matrix_, vx, &beta, vy, type, CUSPARSE_SPMV_ALG_DEFAULT, buffer.data());
    cusparseDestroyDnVec(vx);
    cusparseDestroyDnVec(vy);
    check(status, "cusparseSpMV");
  }

 protected:
  CusparseSpmvCore() { check(cusparseCreate(&handle_), "cusparseCreate"); }
  ~CusparseSpmvCore() {
    if (matrix_) cusparseDestroySpMat(matrix_);
    cusparseDestroy(handle_);
  }

  cusparseHandle_t handle_ = nullptr;
  cusparseSpMatDescr_t matrix_ = nullptr;

 private:
  std::array<Kokkos::View<char*, Kokkos::CudaSpace>, 3> buffers_;
  std::array<bool, 3> prepared_{false, false, false};
};

}  // namespace cuda_detail

template <class Value>
class CusparseCsrSpmv<Value, Kokkos::Cuda> : public cuda_detail::CusparseSpmvCore<Value> {
 public:
  using device_type = Kokkos::Device<Kokkos::Cuda, Kokkos::CudaSpace>;
  using matrix_type = DeviceCsr<Value, device_type>;

  explicit CusparseCsrSpmv(matrix_type A) : A_(std::move(A)) {
    cuda_detail::check(
        cusparseCreateCsr(&this->matrix_, A_.numRows(), A_.numCols(), A_.nnz(),
                          const_cast<int*>(A_.graph.row_map.data()), const_cast<int*>(A_.graph.entries.data()),
                          const_cast<Value*>(A_.values.data()), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                          CUSPARSE_INDEX_BASE_ZERO, cuda_detail::cuda_data_type<Value>()),
        "cusparseCreateCsr");
  }

  std::string name() const { return "cusparse_csr"; }

 private:
  matrix_type A_;
};

// COO from three device arrays sorted by row (Strata's CooMatrix holds them).
template <class Value>
class CusparseCooSpmv<Value, Kokkos::Cuda> : public cuda_detail::CusparseSpmvCore<Value> {
 public:
  using index_view = Kokkos::View<int*, Kokkos::Device<Kokkos::Cuda, Kokkos::CudaSpace>>;
  using value_view = Kokkos::View<Value*, Kokkos::Device<Kokkos::Cuda, Kokkos::CudaSpace>>;

  CusparseCooSpmv(int num_rows, int num_cols, index_view rows, index_view cols, value_view values)
      : rows_(rows), cols_(cols), values_(values) {
    cuda_detail::check(cusparseCreateCoo(&this->matrix_, num_rows, num_cols, static_cast<int64_t>(values.extent(0)),
                                         rows_.data(), cols_.data(), values_.data(), CUSPARSE_INDEX_32I,
                                         CUSPARSE_INDEX_BASE_ZERO, cuda_detail::cuda_data_type<Value>()),
                       "cusparseCreateCoo");
  }

  std::string name() const { return "cusparse_coo"; }

 private:
  index_view rows_;
  index_view cols_;
  value_view values_;
};

}  // namespace strata::baseline
