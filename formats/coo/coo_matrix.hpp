#pragma once
// A sparse matrix on the device as coordinate triplets sorted by row, then
// column: the input of the load-balanced COO SpMV. 32-bit indices, like the
// CSR baseline; an owning container plus a trivially copyable view for kernels.
#include <strata/core/host_csr.hpp>
#include <strata/core/kokkos_crs.hpp>

#include <limits>
#include <string>

namespace strata {

template <class Value, class Device>
struct CooView {
  Kokkos::View<const int*, Device> rows;
  Kokkos::View<const int*, Device> cols;
  Kokkos::View<const Value*, Device> values;
  int num_rows = 0;
  int num_cols = 0;

  KOKKOS_INLINE_FUNCTION std::int64_t nnz() const { return static_cast<std::int64_t>(values.extent(0)); }
};

template <class Value, class Device>
class CooMatrix {
 public:
  using value_type = Value;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using index_view = Kokkos::View<int*, Device>;
  using value_view = Kokkos::View<Value*, Device>;

  CooMatrix() = default;
  CooMatrix(int num_rows, int num_cols, index_view rows, index_view cols, value_view values)
      : num_rows_(num_rows), num_cols_(num_cols), rows_(rows), cols_(cols), values_(values) {
    STRATA_REQUIRE(rows.extent(0) == values.extent(0) && cols.extent(0) == values.extent(0),
                   "CooMatrix: rows, cols and values have different lengths");
  }

  int num_rows() const { return num_rows_; }
  int num_cols() const { return num_cols_; }
  std::int64_t nnz() const { return static_cast<std::int64_t>(values_.extent(0)); }
  const index_view& rows() const { return rows_; }
  const index_view& cols() const { return cols_; }
  const value_view& values() const { return values_; }

  CooView<Value, Device> view() const { return {rows_, cols_, values_, num_rows_, num_cols_}; }

 private:
  int num_rows_ = 0;
  int num_cols_ = 0;
  index_view rows_;
  index_view cols_;
  value_view values_;
};

namespace coo_detail {
inline void require_int_sized(index_type rows, index_type cols, index_type nnz, const std::string& label) {
  STRATA_REQUIRE(rows <= std::numeric_limits<int>::max() && cols <= std::numeric_limits<int>::max() &&
                     nnz <= std::numeric_limits<int>::max(),
                 label + ": " + std::to_string(rows) + " x " + std::to_string(cols) + " with " + std::to_string(nnz) +
                     " nonzeros exceeds the 32-bit indices of the device COO format");
}
}  // namespace coo_detail

// From host triplets in any order; duplicates are summed (as the Matrix Market reader does).
template <class Value, class Device, class HostValue>
CooMatrix<Value, Device> coo_from_host(HostCoo<HostValue> host, const std::string& label) {
  static_assert(!value_traits<HostValue>::is_complex || value_traits<Value>::is_complex,
                "coo_from_host: a complex matrix cannot be stored with a real value type");
  host.validate();
  host.sort_and_combine();
  coo_detail::require_int_sized(host.num_rows, host.num_cols, host.nnz(), label);
  const std::size_t nnz = static_cast<std::size_t>(host.nnz());
  Kokkos::View<int*, Device> rows(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::rows"), nnz);
  Kokkos::View<int*, Device> cols(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::cols"), nnz);
  Kokkos::View<Value*, Device> values(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::values"), nnz);
  auto rows_h = Kokkos::create_mirror_view(rows);
  auto cols_h = Kokkos::create_mirror_view(cols);
  auto values_h = Kokkos::create_mirror_view(values);
  for (std::size_t k = 0; k < nnz; ++k) {
    rows_h(k) = static_cast<int>(host.rows[k]);
    cols_h(k) = static_cast<int>(host.cols[k]);
    values_h(k) = value_from<Value>(real_part(host.values[k]), imag_part(host.values[k]));
  }
  Kokkos::deep_copy(rows, rows_h);
  Kokkos::deep_copy(cols, cols_h);
  Kokkos::deep_copy(values, values_h);
  return CooMatrix<Value, Device>(static_cast<int>(host.num_rows), static_cast<int>(host.num_cols), rows, cols,
                                  values);
}

template <class Value, class Device, class HostValue>
CooMatrix<Value, Device> coo_from_host(const HostCsr<HostValue>& host, const std::string& label) {
  return coo_from_host<Value, Device>(to_coo(host), label);
}

template <class Value, class Device>
HostCoo<Value> coo_to_host(const CooMatrix<Value, Device>& A) {
  auto rows_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.rows());
  auto cols_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.cols());
  auto values_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.values());
  HostCoo<Value> host(A.num_rows(), A.num_cols());
  host.reserve(static_cast<std::size_t>(A.nnz()));
  for (std::size_t k = 0; k < static_cast<std::size_t>(A.nnz()); ++k) host.push_back(rows_h(k), cols_h(k), values_h(k));
  return host;
}

}  // namespace strata
