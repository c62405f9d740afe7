#pragma once
#include <strata/core/host_csr.hpp>

#include <KokkosSparse_CrsMatrix.hpp>

#include <limits>
#include <string>
#include <type_traits>

namespace strata {

// The CSR layout of the Kokkos Kernels baseline: 32-bit column indices and
// row offsets, as cuSPARSE's fastest path uses too.
template <class Value, class Device>
using DeviceCsr = KokkosSparse::CrsMatrix<Value, int, Device, void, int>;

// Copies a host CSR matrix into a KokkosSparse::CrsMatrix in any memory space.
// Throws strata::Error when the dimensions or nnz do not fit the matrix's
// ordinal and offset types.
template <class CrsMatrix, class HostValue>
CrsMatrix to_kokkos_crs(const HostCsr<HostValue>& host, const std::string& label) {
  using value_type = typename CrsMatrix::non_const_value_type;
  using ordinal_type = typename CrsMatrix::non_const_ordinal_type;
  using size_type = typename CrsMatrix::non_const_size_type;
  static_assert(!value_traits<HostValue>::is_complex || value_traits<value_type>::is_complex,
                "to_kokkos_crs: a complex matrix cannot be stored with a real value type");
  STRATA_REQUIRE(host.num_rows <= std::numeric_limits<ordinal_type>::max() &&
                     host.num_cols <= std::numeric_limits<ordinal_type>::max(),
                 label + ": dimensions " + std::to_string(host.num_rows) + " x " + std::to_string(host.num_cols) +
                     " exceed the CrsMatrix ordinal type");
  STRATA_REQUIRE(static_cast<unsigned long long>(host.nnz()) <=
                     static_cast<unsigned long long>(std::numeric_limits<size_type>::max()),
                 label + ": " + std::to_string(host.nnz()) + " nonzeros exceed the CrsMatrix offset type");

  using row_map_type = typename CrsMatrix::row_map_type::non_const_type;
  using index_view = typename CrsMatrix::index_type::non_const_type;
  using values_view = typename CrsMatrix::values_type::non_const_type;
  row_map_type row_map(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::row_map"),
                       static_cast<std::size_t>(host.num_rows) + 1);
  index_view entries(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::entries"),
                     static_cast<std::size_t>(host.nnz()));
  values_view values(Kokkos::view_alloc(Kokkos::WithoutInitializing, label + "::values"),
                     static_cast<std::size_t>(host.nnz()));
  auto row_map_h = Kokkos::create_mirror_view(row_map);
  auto entries_h = Kokkos::create_mirror_view(entries);
  auto values_h = Kokkos::create_mirror_view(values);
  for (std::size_t i = 0; i < host.row_offsets.size(); ++i) row_map_h(i) = static_cast<size_type>(host.row_offsets[i]);
  for (std::size_t k = 0; k < host.cols.size(); ++k) {
    entries_h(k) = static_cast<ordinal_type>(host.cols[k]);
    values_h(k) = value_from<value_type>(real_part(host.values[k]), imag_part(host.values[k]));
  }
  Kokkos::deep_copy(row_map, row_map_h);
  Kokkos::deep_copy(entries, entries_h);
  Kokkos::deep_copy(values, values_h);
  return CrsMatrix(label, static_cast<ordinal_type>(host.num_rows), static_cast<ordinal_type>(host.num_cols),
                   static_cast<size_type>(host.nnz()), values, row_map, entries);
}

// Copies any KokkosSparse::CrsMatrix back to host CSR with the same value type.
template <class CrsMatrix>
HostCsr<typename CrsMatrix::non_const_value_type> from_kokkos_crs(const CrsMatrix& A) {
  using value_type = typename CrsMatrix::non_const_value_type;
  auto row_map_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.graph.row_map);
  auto entries_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.graph.entries);
  auto values_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.values);
  HostCsr<value_type> host;
  host.num_rows = A.numRows();
  host.num_cols = A.numCols();
  // A matrix without rows may carry an empty row map rather than {0}.
  host.row_offsets.assign(static_cast<std::size_t>(host.num_rows) + 1, 0);
  for (std::size_t i = 0; i < row_map_h.extent(0) && i < host.row_offsets.size(); ++i) {
    host.row_offsets[i] = static_cast<index_type>(row_map_h(i));
  }
  const std::size_t nnz = static_cast<std::size_t>(host.row_offsets.back());
  host.cols.resize(nnz);
  host.values.resize(nnz);
  for (std::size_t k = 0; k < nnz; ++k) {
    host.cols[k] = static_cast<index_type>(entries_h(k));
    host.values[k] = values_h(k);
  }
  return host;
}

}  // namespace strata
