#pragma once
// One prepared COO product: the chunking of A's nonzeros for a given omega
// and, in deterministic mode, the per-chunk boundary slots with their rows
// (computed once, at analysis). Everything a repeated product needs, so a
// product is the chunk kernel plus at most one fix-up pass.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/algorithms/spmv/coo_kernels.hpp>
#include <strata/core/device_info.hpp>
#include <strata/core/error.hpp>
#include <strata/formats/coo/coo_matrix.hpp>

#include <type_traits>

namespace strata::Impl {

template <class ExecSpace, class Value, class Device, class XView, class YView>
struct CooScatterTransposed {
  CooView<Value, Device> A;
  Value alpha;
  XView x;
  YView y;
  bool conjugate_values;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k) const {
    atomic_add<ExecSpace>(&y(A.cols(k)), alpha * conjugate_if(A.values(k), conjugate_values) * x(A.rows(k)));
  }
};

template <class ExecSpace, class Value, class Device, class XView, class YView>
void coo_scatter_transposed(const ExecSpace& space, const CooView<Value, Device>& A, const Value& alpha,
                            const XView& x, const YView& y, bool conjugate_values) {
  Kokkos::parallel_for("strata::coo_spmv::transposed", Kokkos::RangePolicy<ExecSpace>(space, 0, A.nnz()),
                       CooScatterTransposed<ExecSpace, Value, Device, XView, YView>{A, alpha, x, y, conjugate_values});
}

// The multi-vector products (rank-2 x and y, atomic mode). One thread per
// (chunk, column), columns fastest: the threads of a chunk load the same
// entries (one memory access, broadcast) and neighbouring columns of x and y,
// so the matrix is read from memory about once for all columns rather than
// once per column. A thread keeps its chunk's running row sum for its column
// and flushes it with one atomic per row segment.
template <class ExecSpace, class Value, class Device, class XView, class YView>
struct CooChunkMultivectorProduct {
  CooView<Value, Device> A;
  CooChunking chunking;
  Value alpha;
  XView x;
  YView y;
  bool conjugate_values;
  std::int64_t columns;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t) const {
    const std::int64_t chunk = t / columns;
    const std::int64_t j = t % columns;
    const std::int64_t b = chunking.begin(chunk);
    const std::int64_t e = chunking.end(chunk);
    int row = A.rows(b);
    Value sum{};
    for (std::int64_t k = b; k < e; ++k) {
      const int r = A.rows(k);
      if (r != row) {
        atomic_add<ExecSpace>(&y(row, j), alpha * sum);
        row = r;
        sum = Value{};
      }
      sum += conjugate_if(A.values(k), conjugate_values) * x(A.cols(k), j);
    }
    atomic_add<ExecSpace>(&y(row, j), alpha * sum);
  }
};

template <class ExecSpace, class Value, class Device, class XView, class YView>
void coo_chunks_multivector(const ExecSpace& space, const CooView<Value, Device>& A, const CooChunking& chunking,
                            const Value& alpha, const XView& x, const YView& y, bool conjugate_values) {
  const std::int64_t columns = static_cast<std::int64_t>(x.extent(1));
  Kokkos::parallel_for(
      "strata::coo_spmv::chunks_multivector", Kokkos::RangePolicy<ExecSpace>(space, 0, chunking.num_chunks * columns),
      CooChunkMultivectorProduct<ExecSpace, Value, Device, XView, YView>{A, chunking, alpha, x, y, conjugate_values,
                                                                         columns});
}

// One thread per (entry, column), columns fastest.
template <class ExecSpace, class Value, class Device, class XView, class YView>
struct CooScatterTransposedMultivector {
  CooView<Value, Device> A;
  Value alpha;
  XView x;
  YView y;
  bool conjugate_values;
  std::int64_t columns;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t) const {
    const std::int64_t k = t / columns;
    const std::int64_t j = t % columns;
    atomic_add<ExecSpace>(&y(A.cols(k), j), alpha * conjugate_if(A.values(k), conjugate_values) * x(A.rows(k), j));
  }
};

template <class ExecSpace, class Value, class Device, class XView, class YView>
void coo_scatter_transposed_multivector(const ExecSpace& space, const CooView<Value, Device>& A, const Value& alpha,
                                        const XView& x, const YView& y, bool conjugate_values) {
  const std::int64_t columns = static_cast<std::int64_t>(x.extent(1));
  Kokkos::parallel_for(
      "strata::coo_spmv::transposed_multivector", Kokkos::RangePolicy<ExecSpace>(space, 0, A.nnz() * columns),
      CooScatterTransposedMultivector<ExecSpace, Value, Device, XView, YView>{A, alpha, x, y, conjugate_values,
                                                                              columns});
}

// Each boundary row is owned by the first chunk that holds it, which adds the
// partial sums of all chunks holding it in chunk order: a fixed order, so the
// result does not depend on scheduling.
template <class Value, class Device, class YView>
struct CooBoundaryRowAdd {
  CooBoundaryPartials<Value, Device> p;
  std::int64_t num_chunks;
  Value alpha;
  YView y;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t c) const {
    auto add_row_from = [&](const int row, Value total) {
      for (std::int64_t v = c + 1; v < num_chunks && p.first_row(v) == row; ++v) {
        total += p.first_sum(v);
        if (p.last_row(v) != row) break;
      }
      y(row) += alpha * total;
    };
    const int first = p.first_row(c);
    const bool owns_first = c == 0 || p.last_row(c - 1) != first;
    if (owns_first) {
      if (p.last_row(c) == first) {
        add_row_from(first, p.first_sum(c));
      } else {
        y(first) += alpha * p.first_sum(c);
      }
    }
    if (p.last_row(c) != first) add_row_from(p.last_row(c), p.last_sum(c));
  }
};

template <class ExecSpace, class Value, class Device, class YView>
void coo_add_boundary_rows(const ExecSpace& space, const CooBoundaryPartials<Value, Device>& p,
                           std::int64_t num_chunks, const Value& alpha, const YView& y) {
  Kokkos::parallel_for("strata::coo_spmv::boundary_rows", Kokkos::RangePolicy<ExecSpace>(space, 0, num_chunks),
                       CooBoundaryRowAdd<Value, Device, YView>{p, num_chunks, alpha, y});
}

// Deterministic mode: the rows a chunk's boundary slots belong to, fixed at analysis.
template <class Value, class Device>
struct CooChunkBoundaryRows {
  CooBoundaryPartials<Value, Device> partials;
  CooChunking chunking;
  CooView<Value, Device> A;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t c) const {
    partials.first_row(c) = A.rows(chunking.begin(c));
    partials.last_row(c) = A.rows(chunking.end(c) - 1);
  }
};

template <class ExecSpace, class Value, class Device>
struct CooProduct {
  int omega = 0;
  bool deterministic = false;
  CooChunking chunking;
  // Chunks of the multi-vector kernel, whose threads each take a chunk for one
  // column: on devices one 32-entry line per chunk (enough threads to fill the
  // GPU), on host backends the same chunks as the vector kernel.
  CooChunking multivector_chunking;
  CooBoundaryPartials<Value, Device> partials;  // deterministic mode only

  static CooProduct make(const ExecSpace& space, const CooView<Value, Device>& A, int omega, bool deterministic) {
    CooProduct p;
    p.omega = omega > 0 ? omega : coo_default_omega(A.nnz());
    p.deterministic = deterministic;
    p.chunking = make_coo_chunking(A.nnz(), p.omega, execution_units<ExecSpace>::count(space));
    constexpr bool on_host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Device::memory_space>::accessible;
    p.multivector_chunking = on_host ? p.chunking : make_coo_chunking(A.nnz(), 1, static_cast<int>(p.chunking.lines));
    if (deterministic && p.chunking.num_chunks > 0) {
      const std::size_t n = static_cast<std::size_t>(p.chunking.num_chunks);
      auto& q = p.partials;
      q.first_row = Kokkos::View<int*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::coo_spmv::first_row"), n);
      q.last_row = Kokkos::View<int*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::coo_spmv::last_row"), n);
      q.first_sum = Kokkos::View<Value*, Device>("strata::coo_spmv::first_sum", n);
      q.last_sum = Kokkos::View<Value*, Device>("strata::coo_spmv::last_sum", n);
      const auto partials = q;
      const CooChunking chunking = p.chunking;
      Kokkos::parallel_for(
          "strata::coo_spmv::chunk_rows", Kokkos::RangePolicy<ExecSpace>(space, 0, chunking.num_chunks),
          CooChunkBoundaryRows<Value, Device>{partials, chunking, A});
    }
    return p;
  }

  // y := alpha * op(A) x + beta * y for rank-1 x and y, and for rank-2 x and y
  // in atomic mode (deterministic mode multiplies rank-2 column by column).
  template <class XView, class YView>
  void run(const ExecSpace& space, SpmvMode mode, const Value& alpha, const CooView<Value, Device>& A, const XView& x,
           const Value& beta, const YView& y) const {
    const gathered_vector_t<XView> x_internal = x;
    scale_output(space, beta, y);
    if (A.nnz() == 0 || alpha == Value(0)) return;
    const bool conjugate_values = is_conjugated(mode);
    if constexpr (XView::rank == 2) {
      STRATA_REQUIRE(!deterministic, "CooProduct: deterministic mode multiplies one column at a time");
      if (x.extent(1) == 0) return;
      if (is_transposed(mode)) {
        coo_scatter_transposed_multivector<ExecSpace>(space, A, alpha, x_internal, y, conjugate_values);
      } else {
        coo_chunks_multivector<ExecSpace>(space, A, multivector_chunking, alpha, x_internal, y, conjugate_values);
      }
    } else {
      if (is_transposed(mode)) {
        coo_scatter_transposed<ExecSpace>(space, A, alpha, x_internal, y, conjugate_values);
        return;
      }
      using Partials = CooBoundaryPartials<Value, Device>;
      if (deterministic) {
        const CooRowSink<Value, YView, Partials, ExecSpace, true> sink{y, alpha, partials};
        CooSpmvChunkKernel<ExecSpace>::template run<Value>(space, A, x_internal, sink, chunking, conjugate_values);
        coo_add_boundary_rows<ExecSpace>(space, partials, chunking.num_chunks, alpha, y);
      } else {
        const CooRowSink<Value, YView, Partials, ExecSpace, false> sink{y, alpha};
        CooSpmvChunkKernel<ExecSpace>::template run<Value>(space, A, x_internal, sink, chunking, conjugate_values);
      }
    }
  }
};

}  // namespace strata::Impl
