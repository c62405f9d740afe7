#pragma once
// A batch of (row, col, value) entries on the device, checked against the
// matrix bounds and grouped by row (a counting sort: histogram, prefix sum,
// scatter), as DCSR insertion and the update baselines consume it.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/error.hpp>

#include <Kokkos_Core.hpp>

#include <string>

namespace strata::Impl {

template <class Device>
struct DcsrBatchByRow {
  Kokkos::View<int*, Device> offsets;      // num_rows + 1
  Kokkos::View<int*, Device> cols;         // batch columns grouped by row
  Kokkos::View<int*, Device> source;       // batch index of each grouped entry
  Kokkos::View<int*, Device> active_rows;  // rows with at least one batch entry
  int num_active = 0;
};

template <class RowView, class ColView>
struct DcsrBatchFirstOutOfRange {
  RowView rows;
  ColView cols;
  int num_rows;
  int num_cols;

  KOKKOS_INLINE_FUNCTION void operator()(const int i, int& bad) const {
    const bool ok = rows(i) >= 0 && rows(i) < num_rows && cols(i) >= 0 && cols(i) < num_cols;
    if (!ok && i < bad) bad = i;
  }
};

// Throws strata::Error naming the first batch entry outside the matrix.
template <class ExecSpace, class RowView, class ColView>
void require_batch_in_range(int num_rows, int num_cols, const RowView& rows, const ColView& cols, const char* who) {
  const int n = static_cast<int>(rows.extent(0));
  int first_bad = n;
  Kokkos::parallel_reduce("strata::dcsr::insert_validate", Kokkos::RangePolicy<ExecSpace>(0, n),
                          DcsrBatchFirstOutOfRange<RowView, ColView>{rows, cols, num_rows, num_cols},
                          Kokkos::Min<int>(first_bad));
  if (first_bad < n) {
    auto r = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(rows, first_bad));
    auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(cols, first_bad));
    throw Error(std::string(who) + ": batch entry " + std::to_string(first_bad) + " at (" + std::to_string(r()) +
                ", " + std::to_string(c()) + ") is outside the " + std::to_string(num_rows) + " x " +
                std::to_string(num_cols) + " matrix");
  }
}

// offsets(r + 1) counts row r's entries until the scan turns counts into offsets.
template <class Device, class RowView>
struct DcsrBatchCountRows {
  Kokkos::View<int*, Device> offsets;
  RowView rows;

  KOKKOS_INLINE_FUNCTION void operator()(const int i) const { Kokkos::atomic_add(&offsets(rows(i) + 1), 1); }
};

template <class Device>
struct DcsrBatchRowOffsets {
  Kokkos::View<int*, Device> offsets;

  KOKKOS_INLINE_FUNCTION void operator()(const int r, int& sum, const bool final) const {
    sum += offsets(r);
    if (final) offsets(r) = sum;
  }
};

template <class Device, class RowView, class ColView>
struct DcsrBatchScatter {
  RowView rows;
  ColView cols;
  Kokkos::View<int*, Device> offsets;
  Kokkos::View<int*, Device> fill;
  Kokkos::View<int*, Device> grouped_cols;
  Kokkos::View<int*, Device> source;

  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    const int r = static_cast<int>(rows(i));
    const int at = offsets(r) + Kokkos::atomic_fetch_add(&fill(r), 1);
    grouped_cols(at) = static_cast<int>(cols(i));
    source(at) = i;
  }
};

template <class Device>
struct DcsrBatchActiveRows {
  Kokkos::View<int*, Device> offsets;
  Kokkos::View<int*, Device> active;

  KOKKOS_INLINE_FUNCTION void operator()(const int r, int& count, const bool final) const {
    if (offsets(r + 1) > offsets(r)) {
      if (final) active(count) = r;
      ++count;
    }
  }
};

template <class Device, class RowView, class ColView>
DcsrBatchByRow<Device> group_batch_by_row(int num_rows, int num_cols, const RowView& rows, const ColView& cols,
                                          const char* who) {
  using ExecSpace = typename Device::execution_space;
  const int n = static_cast<int>(rows.extent(0));
  require_batch_in_range<ExecSpace>(num_rows, num_cols, rows, cols, who);
  DcsrBatchByRow<Device> g;
  g.offsets = Kokkos::View<int*, Device>("strata::dcsr::batch_offsets", num_rows + 1);
  const auto offsets = g.offsets;
  Kokkos::parallel_for("strata::dcsr::insert_count", Kokkos::RangePolicy<ExecSpace>(0, n),
                       DcsrBatchCountRows<Device, RowView>{offsets, rows});
  Kokkos::parallel_scan("strata::dcsr::insert_offsets", Kokkos::RangePolicy<ExecSpace>(0, num_rows + 1),
                        DcsrBatchRowOffsets<Device>{offsets});
  Kokkos::View<int*, Device> fill("strata::dcsr::batch_fill", num_rows);
  g.cols = Kokkos::View<int*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::dcsr::batch_cols"), n);
  g.source =
      Kokkos::View<int*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::dcsr::batch_source"), n);
  const auto grouped_cols = g.cols;
  const auto source = g.source;
  Kokkos::parallel_for("strata::dcsr::insert_scatter", Kokkos::RangePolicy<ExecSpace>(0, n),
                       DcsrBatchScatter<Device, RowView, ColView>{rows, cols, offsets, fill, grouped_cols, source});
  g.active_rows =
      Kokkos::View<int*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::dcsr::active_rows"), num_rows);
  const auto active = g.active_rows;
  Kokkos::parallel_scan("strata::dcsr::insert_active_rows", Kokkos::RangePolicy<ExecSpace>(0, num_rows),
                        DcsrBatchActiveRows<Device>{offsets, active}, g.num_active);
  return g;
}

}  // namespace strata::Impl
