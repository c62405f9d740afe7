#pragma once
// The update baseline DCSR is measured against: merge the batch into a CSR
// matrix by re-forming it, A := A + B, with Kokkos Kernels' sparse add
// (entries of equal coordinates are summed).
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/core/kokkos_crs.hpp>
#include <strata/formats/dcsr/dcsr_batch.hpp>

#include <KokkosKernels_Handle.hpp>
#include <KokkosSparse_spadd.hpp>

namespace strata::baseline {

// The batch's values in the row-grouped order of its CSR matrix B.
template <class BatchValues, class ValueView, class Source>
struct CsrRebuildGather {
  BatchValues b_values;
  ValueView values;
  Source source;

  KOKKOS_INLINE_FUNCTION void operator()(const int i) const { b_values(i) = values(source(i)); }
};

template <class Value, class ExecSpace>
class CsrRebuild {
 public:
  using device_type = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;
  using matrix_type = DeviceCsr<Value, device_type>;

  explicit CsrRebuild(matrix_type A) : A_(std::move(A)) {}

  const matrix_type& matrix() const { return A_; }

  // Groups the batch by row into a CSR matrix B and replaces A by A + B.
  template <class RowView, class ColView, class ValueView>
  void insert(const RowView& rows, const ColView& cols, const ValueView& values) {
    static_assert(Kokkos::is_view<RowView>::value && Kokkos::is_view<ColView>::value &&
                      Kokkos::is_view<ValueView>::value,
                  "CsrRebuild::insert: rows, cols and values must be Kokkos Views");
    STRATA_REQUIRE(rows.extent(0) == cols.extent(0) && rows.extent(0) == values.extent(0),
                   "CsrRebuild::insert: rows, cols and values differ in length");
    if (rows.extent(0) == 0 || A_.numRows() == 0) return;
    const int n = static_cast<int>(rows.extent(0));
    // The grouping's scratch is kept across batches, as DCSR keeps it: the baseline pays
    // what re-forming CSR costs, not allocations DCSR avoids.
    workspace_.prepare(A_.numRows(), n);
    const auto g = Impl::group_batch_in_row_order<device_type>(workspace_, A_.numRows(), A_.numCols(), rows, cols);
    workspace_.wait_for_control();
    workspace_.require_batch_inside(A_.numRows(), A_.numCols(), rows, cols, "CsrRebuild::insert");
    workspace_.batch_completed();
    typename matrix_type::values_type::non_const_type b_values(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::csr_rebuild::batch_values"), n);
    const auto source = g.source;
    using gather_type = CsrRebuildGather<decltype(b_values), ValueView, decltype(g.source)>;
    Kokkos::parallel_for("strata::csr_rebuild::gather", Kokkos::RangePolicy<ExecSpace>(0, n),
                         gather_type{b_values, values, source});
    const matrix_type B("strata::csr_rebuild::batch", A_.numRows(), A_.numCols(), n, b_values, g.offsets, g.cols);
    using handle_type = KokkosKernels::Experimental::KokkosKernelsHandle<int, int, Value, ExecSpace,
                                                                         typename ExecSpace::memory_space,
                                                                         typename ExecSpace::memory_space>;
    handle_type handle;
    handle.create_spadd_handle(false);  // batch rows are not sorted
    matrix_type C;
    KokkosSparse::spadd_symbolic(&handle, A_, B, C);
    KokkosSparse::spadd_numeric(&handle, Value(1), A_, Value(1), B, C);
    handle.destroy_spadd_handle();
    // spadd sizes C's columns from its entries; A's column count is kept.
    A_ = matrix_type("strata::csr_rebuild::matrix", A_.numRows(), A_.numCols(), C.nnz(), C.values, C.graph.row_map,
                     C.graph.entries);
  }

 private:
  matrix_type A_;
  Impl::DcsrBatchWorkspace<device_type> workspace_;
};

}  // namespace strata::baseline
