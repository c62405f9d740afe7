#pragma once
// Defragmentation: a prefix sum over row sizes gives every row one contiguous
// segment (no sort); rows may be placed grouped by length, which the ADCSR
// bins then read contiguously.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/row_teams.hpp>
#include <strata/formats/dcsr/dcsr_matrix.hpp>
#include <strata/formats/dcsr/dcsr_rows.hpp>

namespace strata {

enum class DcsrRowOrder { by_index, by_length };

namespace Impl {

// One row per team thread, its entries spread over the vector lanes (core/row_teams.hpp).
template <class Value, class Device>
struct DcsrGatherRows {
  using member_type = typename Kokkos::TeamPolicy<typename Device::execution_space>::member_type;

  DcsrView<Value, Device> A;
  Kokkos::View<int*, Device> row_begin;
  Kokkos::View<int*, Device> cols;
  Kokkos::View<Value*, Device> values;
  int n;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    const int r = member.league_rank() * member.team_size() + member.team_rank();
    if (r >= n) return;
    const int begin = row_begin(r);
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(member, A.row_sizes(r)), [&](const int p) {
      const int source = A.pool_index(r, p);
      cols(begin + p) = A.cols(source);
      values(begin + p) = A.values(source);
    });
  }
};

// Copies the live entries of row r to cols/values from row_begin(r) on, in
// the row's order: the one kernel behind defragmentation and DCSR -> CSR.
template <class Value, class Device>
void gather_dcsr_rows(const DcsrView<Value, Device>& A, const Kokkos::View<int*, Device>& row_begin,
                      const Kokkos::View<int*, Device>& cols, const Kokkos::View<Value*, Device>& values) {
  using ExecSpace = typename Device::execution_space;
  const int n = A.num_rows;
  index_type total = 0;
  const auto sizes = A.row_sizes;
  Kokkos::parallel_reduce("strata::dcsr::nnz", Kokkos::RangePolicy<ExecSpace>(0, n), DcsrCountSum<Device>{sizes},
                          total);
  const int lanes = lanes_for_mean_length(n > 0 ? static_cast<double>(total) / n : 0.0);
  const auto teams = row_teams(ExecSpace(), n, lanes);
  Kokkos::parallel_for("strata::dcsr::gather_rows", teams.policy(),
                       DcsrGatherRows<Value, Device>{A, row_begin, cols, values, n});
}

// Live entries plus the reserve, i.e. the slots the rebuilt pool must hold.
template <class Device>
struct DcsrRebuiltSizeSum {
  Kokkos::View<int*, Device> sizes;
  Kokkos::View<int*, Device> reserve;
  bool has_reserve;

  KOKKOS_INLINE_FUNCTION void operator()(const int r, index_type& sum) const {
    sum += sizes(r) + (has_reserve ? reserve(r) : 0);
  }
};

// The i-th row in pool order gets the segment that starts where the rows before it end.
template <class Value, class Device>
struct DcsrPlaceRebuiltRows {
  DcsrView<Value, Device> fresh;
  Kokkos::View<int*, Device> row_begin;
  Kokkos::View<int*, Device> sizes;
  Kokkos::View<int*, Device> reserve;
  Kokkos::View<int*, Device> placement;
  bool has_reserve;
  bool has_placement;

  KOKKOS_INLINE_FUNCTION void operator()(const int i, int& begin, const bool final) const {
    const int r = has_placement ? placement(i) : i;
    const int length = sizes(r) + (has_reserve ? reserve(r) : 0);
    if (final) {
      fresh.set_segment(r, 0, begin, begin + length);
      row_begin(r) = begin;
    }
    begin += length;
  }
};

// New storage in which row r holds one segment of row_sizes(r) + reserve(r)
// slots (reserve may be empty: no reserve). The old storage is untouched, so a
// failed allocation leaves the matrix as it was.
template <class Value, class Device>
DcsrView<Value, Device> rebuild_dcsr_pool(const DcsrView<Value, Device>& old, const Kokkos::View<int*, Device>& reserve,
                                          index_type new_capacity, DcsrRowOrder order, const std::string& what) {
  using ExecSpace = typename Device::execution_space;
  const int n = old.num_rows;
  Kokkos::View<int*, Device> placement;  // rows in pool order; empty means index order
  if (order == DcsrRowOrder::by_length) placement = dcsr_bin_rows(ExecSpace(), old.row_sizes).rows;
  const bool has_reserve = reserve.extent(0) > 0;
  const bool has_placement = placement.extent(0) > 0;
  const auto sizes = old.row_sizes;

  index_type needed = 0;
  Kokkos::parallel_reduce("strata::dcsr::defragment_size", Kokkos::RangePolicy<ExecSpace>(0, n),
                          DcsrRebuiltSizeSum<Device>{sizes, reserve, has_reserve}, needed);
  STRATA_REQUIRE(needed <= new_capacity, what + ": " + std::to_string(needed) +
                                             " entries do not fit the requested pool of " +
                                             std::to_string(new_capacity));

  DcsrView<Value, Device> fresh = allocate_dcsr<Value, Device>(n, old.num_cols, old.max_segments, new_capacity, what);
  Kokkos::View<int*, Device> row_begin(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::dcsr::row_begin"), n);
  Kokkos::parallel_scan(
      "strata::dcsr::defragment_offsets", Kokkos::RangePolicy<ExecSpace>(0, n),
      DcsrPlaceRebuiltRows<Value, Device>{fresh, row_begin, sizes, reserve, placement, has_reserve, has_placement});
  gather_dcsr_rows<Value, Device>(old, row_begin, fresh.cols, fresh.values);
  Kokkos::deep_copy(fresh.row_sizes, sizes);
  Kokkos::deep_copy(fresh.allocated, static_cast<int>(needed));
  return fresh;
}

}  // namespace Impl

// Compacts every row into one contiguous segment in a pool of the same
// capacity; the matrix stays logically identical. by_length places rows of
// equal ADCSR bin together.
template <class Value, class Device>
void dcsr_defragment(DcsrMatrix<Value, Device>& A, DcsrRowOrder order = DcsrRowOrder::by_index) {
  A.replace_storage(Impl::rebuild_dcsr_pool(A.view(), Kokkos::View<int*, Device>(), A.capacity(), order,
                                            "dcsr_defragment"));
}

}  // namespace strata
