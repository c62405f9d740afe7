#pragma once
// The kernels of the COO SpMV. The portable implementation gives each chunk
// to one thread, which keeps a running row sum and flushes it when the row
// changes; the CUDA specialisation (cuda/coo_kernels_cuda.hpp) gives each chunk
// to a warp with strided lanes, register partial sums, a warp vote and the
// warp segmented scan. Both flush one sum per row segment per chunk.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/algorithms/spmv/coo_chunking.hpp>
#include <strata/algorithms/spmv/vectors.hpp>
#include <strata/core/atomic_add.hpp>
#include <strata/core/value_traits.hpp>

namespace strata::Impl {

// Where a chunk's row sums go. Atomic mode: straight into y with one atomic
// each. Deterministic mode: rows owned by one chunk are added without atomics;
// the chunk's first and last rows, which other chunks may share, are written to
// per-chunk slots that a fix-up pass adds in chunk order.
template <class Value, class Device>
struct CooBoundaryPartials {
  Kokkos::View<int*, Device> first_row;
  Kokkos::View<int*, Device> last_row;
  Kokkos::View<Value*, Device> first_sum;
  Kokkos::View<Value*, Device> last_sum;
};

template <class Value, class YView, class BoundaryPartials, class ExecSpace, bool Deterministic>
struct CooRowSink;

template <class Value, class YView, class BoundaryPartials, class ExecSpace>
struct CooRowSink<Value, YView, BoundaryPartials, ExecSpace, false> {
  YView y;
  Value alpha;

  KOKKOS_INLINE_FUNCTION void flush(std::int64_t, int row, const Value& sum) const {
    atomic_add<ExecSpace>(&y(row), alpha * sum);
  }
};

template <class Value, class YView, class BoundaryPartials, class ExecSpace>
struct CooRowSink<Value, YView, BoundaryPartials, ExecSpace, true> {
  YView y;
  Value alpha;
  BoundaryPartials partials;

  KOKKOS_INLINE_FUNCTION void flush(std::int64_t chunk, int row, const Value& sum) const {
    if (row == partials.first_row(chunk)) {
      partials.first_sum(chunk) = sum;
    } else if (row == partials.last_row(chunk)) {
      partials.last_sum(chunk) = sum;
    } else {
      y(row) += alpha * sum;
    }
  }
};

// The portable chunk kernel: one thread per chunk.
template <class Value, class Coo, class XView, class Sink>
struct CooChunkProduct {
  CooChunking chunking;
  Coo A;
  XView x;
  Sink sink;
  bool conjugate_values;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t chunk) const {
    const std::int64_t b = chunking.begin(chunk);
    const std::int64_t e = chunking.end(chunk);
    int row = A.rows(b);
    Value sum{};
    for (std::int64_t k = b; k < e; ++k) {
      const int r = A.rows(k);
      if (r != row) {
        sink.flush(chunk, row, sum);
        row = r;
        sum = Value{};
      }
      sum += conjugate_if(A.values(k), conjugate_values) * x(A.cols(k));
    }
    sink.flush(chunk, row, sum);
  }
};

template <class ExecSpace>
struct CooSpmvChunkKernel {
  template <class Value, class Coo, class XView, class Sink>
  static void run(const ExecSpace& space, const Coo& A, const XView& x, const Sink& sink, const CooChunking& chunking,
                  bool conjugate_values) {
    Kokkos::parallel_for("strata::coo_spmv::chunks", Kokkos::RangePolicy<ExecSpace>(space, 0, chunking.num_chunks),
                         CooChunkProduct<Value, Coo, XView, Sink>{chunking, A, x, sink, conjugate_values});
  }
};

}  // namespace strata::Impl

#if defined(KOKKOS_ENABLE_CUDA)
#include <strata/algorithms/spmv/cuda/coo_kernels_cuda.hpp>
#endif
