#pragma once
// Implementation of the COO SpMV behind strata::spmv (algorithms/spmv/coo_spmv.hpp).
#include <strata/algorithms/spmv/coo_spmv_kernels.hpp>
#include <strata/core/device_info.hpp>
#include <strata/core/error.hpp>
#include <strata/formats/coo/coo_matrix.hpp>

namespace strata {

struct CooSpmvOptions {
  // Chunks per execution unit (SM on a GPU, thread on a host); 0 picks the
  // paper's level by nnz (8 / 32 / 128), see coo_default_omega().
  int omega = 0;
  // Bitwise reproducible results run to run (and independent of scheduling):
  // no atomics in the chunked kernel; costs a fix-up pass over chunk
  // boundaries. Modes N and C only.
  bool deterministic = false;
  // Measure a ladder of omega on this matrix the first time a matrix with its
  // signature is multiplied, and reuse the fastest (overrides omega).
  bool autotune = false;
};

namespace Impl {

template <class ExecSpace, class Value, class Device, class YView>
void scale_output(const ExecSpace& space, const Value& beta, const YView& y) {
  if (beta == Value(1)) return;
  if (beta == Value(0)) {
    // A fill (a memset on GPUs) rather than a kernel: it overwrites NaN as BLAS requires.
    Kokkos::deep_copy(space, y, Value(0));
    return;
  }
  Kokkos::parallel_for(
      "strata::coo_spmv::scale_y", Kokkos::RangePolicy<ExecSpace>(space, 0, y.extent(0)),
      KOKKOS_LAMBDA(const std::size_t i) { y(i) = beta * y(i); });
}

template <class ExecSpace, class Value, class Device, class XView, class YView>
void scatter_transposed(const ExecSpace& space, const CooView<Value, Device>& A, const Value& alpha, const XView& x,
                        const YView& y, bool conjugate_values) {
  Kokkos::parallel_for(
      "strata::coo_spmv::transposed", Kokkos::RangePolicy<ExecSpace>(space, 0, A.nnz()),
      KOKKOS_LAMBDA(const std::int64_t k) {
        atomic_add<ExecSpace>(&y(A.cols(k)), alpha * maybe_conjugate(A.values(k), conjugate_values) * x(A.rows(k)));
      });
}

template <class ExecSpace, class Value, class Device, class YView>
void add_boundary_rows(const ExecSpace& space, const CooBoundaryPartials<Value, Device>& p, std::int64_t num_chunks,
                       const Value& alpha, const YView& y) {
  // Each boundary row is owned by the first chunk that holds it, which adds the
  // partial sums of all chunks holding it in chunk order: a fixed order, so the
  // result does not depend on scheduling.
  Kokkos::parallel_for(
      "strata::coo_spmv::boundary_rows", Kokkos::RangePolicy<ExecSpace>(space, 0, num_chunks),
      KOKKOS_LAMBDA(const std::int64_t c) {
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
      });
}

template <class ExecSpace, class Value, class Device, class XView, class YView>
void coo_spmv(const ExecSpace& space, const char mode, const Value& alpha, const CooView<Value, Device>& A,
              const XView& x, const Value& beta, const YView& y, const CooSpmvOptions& options) {
  scale_output<ExecSpace, Value, Device>(space, beta, y);
  if (A.nnz() == 0 || alpha == Value(0)) return;
  const bool conjugate_values = mode == 'C' || mode == 'H';
  if (mode == 'T' || mode == 'H') {
    STRATA_REQUIRE(!options.deterministic, "strata::spmv (COO): deterministic mode supports modes N and C only");
    scatter_transposed<ExecSpace>(space, A, alpha, x, y, conjugate_values);
    return;
  }
  const int omega = options.omega > 0 ? options.omega : coo_default_omega(A.nnz());
  const CooChunking chunking = make_coo_chunking(A.nnz(), omega, execution_units<ExecSpace>::count(space));
  using Partials = CooBoundaryPartials<Value, Device>;
  Partials partials;
  if (options.deterministic) {
    const std::size_t n = static_cast<std::size_t>(chunking.num_chunks);
    partials.first_row = Kokkos::View<int*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::coo_spmv::first_row"), n);
    partials.last_row = Kokkos::View<int*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::coo_spmv::last_row"), n);
    partials.first_sum = Kokkos::View<Value*, Device>("strata::coo_spmv::first_sum", n);
    partials.last_sum = Kokkos::View<Value*, Device>("strata::coo_spmv::last_sum", n);
    const Partials p = partials;
    Kokkos::parallel_for(
        "strata::coo_spmv::chunk_rows", Kokkos::RangePolicy<ExecSpace>(space, 0, chunking.num_chunks),
        KOKKOS_LAMBDA(const std::int64_t c) {
          p.first_row(c) = A.rows(chunking.begin(c));
          p.last_row(c) = A.rows(chunking.end(c) - 1);
        });
  }
  if (options.deterministic) {
    const CooRowSink<Value, YView, Partials, ExecSpace, true> sink{y, alpha, partials};
    CooSpmvChunkKernel<ExecSpace>::template run<Value>(space, A, x, sink, chunking, conjugate_values);
    add_boundary_rows<ExecSpace>(space, partials, chunking.num_chunks, alpha, y);
  } else {
    const CooRowSink<Value, YView, Partials, ExecSpace, false> sink{y, alpha};
    CooSpmvChunkKernel<ExecSpace>::template run<Value>(space, A, x, sink, chunking, conjugate_values);
  }
}

}  // namespace Impl

}  // namespace strata
