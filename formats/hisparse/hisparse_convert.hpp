#pragma once
// Public conversions to and from HiSparse: device COO views, DeviceCsr, and
// host COO (copied to the device, converted there). The inverse directions are
// in hisparse_to_coo.hpp.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/formats/hisparse/hisparse_from_coo.hpp>
#include <strata/formats/hisparse/hisparse_to_coo.hpp>

namespace strata {

constexpr int hisparse_default_log2_block = 7;  // d = 128

// Entries must be unique and inside num_rows x num_cols; any order.
template <class Value, class Device>
HiSparseMatrix<Value, Device> to_hisparse(const Kokkos::View<const index_type*, Device>& rows,
                                          const Kokkos::View<const index_type*, Device>& cols,
                                          const Kokkos::View<const Value*, Device>& values, index_type num_rows,
                                          index_type num_cols, int log2_block = hisparse_default_log2_block) {
  static_assert(is_supported_value<Value>::value, "to_hisparse: unsupported value type");
  return hisparse::Impl::FromCoo<Value, Device>::convert(rows, cols, values, num_rows, num_cols, log2_block);
}

template <class Value, class Device>
HiSparseMatrix<Value, Device> to_hisparse(const DeviceCoo<Value, Device>& coo,
                                          int log2_block = hisparse_default_log2_block) {
  return to_hisparse<Value, Device>(coo.rows, coo.cols, coo.values, coo.num_rows, coo.num_cols, log2_block);
}

template <class Value, class Device>
struct HiSparseExpandCsrRows {
  using csr = DeviceCsr<Value, Device>;
  typename csr::row_map_type row_map;
  typename csr::index_type entries;
  Kokkos::View<index_type*, Device> rows, cols;

  KOKKOS_INLINE_FUNCTION void operator()(const index_type i) const {
    for (auto k = row_map(i); k < row_map(i + 1); ++k) {
      rows(k) = i;
      cols(k) = entries(k);
    }
  }
};

template <class Value, class Device>
HiSparseMatrix<Value, Device> to_hisparse(const DeviceCsr<Value, Device>& A,
                                          int log2_block = hisparse_default_log2_block) {
  using exec = typename Device::execution_space;
  const index_type n = A.nnz();
  Kokkos::View<index_type*, Device> rows(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hisparse::csr_rows"), n);
  Kokkos::View<index_type*, Device> cols(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::hisparse::csr_cols"), n);
  const auto row_map = A.graph.row_map;
  const auto entries = A.graph.entries;
  Kokkos::parallel_for("strata::hisparse::expand_csr", Kokkos::RangePolicy<exec>(0, A.numRows()),
                       HiSparseExpandCsrRows<Value, Device>{row_map, entries, rows, cols});
  return to_hisparse<Value, Device>(rows, cols, A.values, A.numRows(), A.numCols(), log2_block);
}

template <class Device, class Value>
HiSparseMatrix<Value, Device> to_hisparse(const HostCoo<Value>& coo, int log2_block = hisparse_default_log2_block) {
  const index_type n = coo.nnz();
  STRATA_REQUIRE(coo.rows.size() == coo.values.size() && coo.cols.size() == coo.values.size(),
                 "to_hisparse: HostCoo arrays differ in length");
  Kokkos::View<index_type*, Device> rows("strata::hisparse::host_rows", n);
  Kokkos::View<index_type*, Device> cols("strata::hisparse::host_cols", n);
  Kokkos::View<Value*, Device> values("strata::hisparse::host_values", n);
  Kokkos::deep_copy(rows, Kokkos::View<const index_type*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                              coo.rows.data(), coo.rows.size()));
  Kokkos::deep_copy(cols, Kokkos::View<const index_type*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                              coo.cols.data(), coo.cols.size()));
  Kokkos::deep_copy(values, Kokkos::View<const Value*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                                coo.values.data(), coo.values.size()));
  return to_hisparse<Value, Device>(rows, cols, values, coo.num_rows, coo.num_cols, log2_block);
}

// The pool bytes in host memory (for byte-exact checks and the statistics).
template <class Value, class Device>
std::vector<std::uint64_t> pool_words_on_host(const HiSparseMatrix<Value, Device>& A) {
  const auto& words = A.storage()->words;
  std::vector<std::uint64_t> out(static_cast<std::size_t>(A.pool_bytes() / 8));
  Kokkos::deep_copy(Kokkos::View<std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                        out.data(), out.size()),
                    Kokkos::subview(words, std::make_pair(std::size_t(0), out.size())));
  return out;
}

}  // namespace strata
