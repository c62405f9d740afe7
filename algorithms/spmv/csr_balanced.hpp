#pragma once
// Strata's nonzero-balanced CSR kernel (SpmvAlgorithm::load_balanced on CSR):
// the COO kernel's equal chunks of whole 32-entry lines (coo_chunking.hpp), but
// each entry's row comes from the row offsets instead of a 4-byte row index per
// entry, so a product moves CSR's bytes (issue 16: 13.3 instead of 17.3 bytes
// per nonzero on R-MAT 22 in double) and no row waits on a long one.
//
// Who writes a row, so that beta is applied inside the kernel without atomics
// on finished rows: chunk c starts in row s_c (the row holding its first entry;
// s_0 = 0, s_C = rows) and *finishes* rows [s_c, s_{c+1}): it writes them with
// y := alpha * (its part of the row) + beta * y, empty rows included. The row
// s_{c+1} may begin inside chunk c: that part is chunk c's carry, added by a
// fix-up launch after the product (an atomic add per chunk, rows being finished
// by then). One launch for the product, one small one for the carries.
//
// The portable kernel gives a chunk to a thread, which walks the row offsets as
// it goes; the CUDA specialisation (cuda/csr_balanced_cuda.hpp) gives it to a
// warp: lanes read 32 consecutive entries, find their rows by a binary search
// over 32 row ends the warp loaded together (shuffles), and reduce by row with
// the warp segmented scan.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/algorithms/spmv/coo_chunking.hpp>
#include <strata/algorithms/spmv/csr_rows.hpp>
#include <strata/algorithms/spmv/vectors.hpp>
#include <strata/core/atomic_add.hpp>
#include <strata/core/device_info.hpp>
#include <strata/core/light_weight_launch.hpp>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace strata::Impl {

// The chunks of one row structure (A's rows, or A^T's for T and H) and where
// their carries go. Built once per structure by the handle's analysis.
template <class Value, class Device>
struct CsrBalancedChunks {
  CooChunking chunking;
  int omega = 0;
  index_type rows = 0;
  Kokkos::View<int*, Device> first_row;  // num_chunks + 1: s_c, then rows
  Kokkos::View<int*, Device> carry_row;  // per chunk: the row its carry goes to, -1 for none
  Kokkos::View<Value*, Device> carry;    // per chunk: its part of carry_row's sum
  bool built = false;
};

// Chunks per SM (per thread on host backends) when the handle leaves omega at 0:
// the COO kernel's ladder, but 288 rather than 128 from 10M nonzeros. An SM holds
// 48 of the kernel's warps (six blocks of eight), so 128 chunks per SM run as 2.67
// waves with the last one a third empty; on the H100 (2026-11-27, hubs and R-MAT 22,
// double and float) every multiple of 48 tried (48 to 288) beat 128, and 288 (six
// full waves) the most, by 3-6%.
inline int csr_balanced_default_omega(std::int64_t nnz) { return nnz < 10000000 ? coo_default_omega(nnz) : 288; }

// s_c: the row holding chunk c's first entry (the last row starting at or before it).
template <class RowMap>
struct CsrChunkFirstRows {
  RowMap row_map;
  CooChunking chunking;
  Kokkos::View<int*, typename RowMap::device_type> first_row;
  int rows;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t c) const {
    if (c == 0 || c == chunking.num_chunks) {
      first_row(c) = c == 0 ? 0 : rows;
      return;
    }
    const std::int64_t entry = chunking.begin(c);
    int lo = 0, hi = rows - 1;  // the last row r with row_map(r) <= entry
    while (lo < hi) {
      const int mid = lo + (hi - lo + 1) / 2;
      if (static_cast<std::int64_t>(row_map(mid)) <= entry) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    first_row(c) = lo;
  }
};

template <class Value, class Device, class ExecSpace, class RowMap>
CsrBalancedChunks<Value, Device> make_csr_balanced_chunks(const ExecSpace& space, const RowMap& row_map,
                                                          index_type rows, std::int64_t nnz, int omega) {
  CsrBalancedChunks<Value, Device> b;
  b.omega = omega > 0 ? omega : csr_balanced_default_omega(nnz);
  b.rows = rows;
  b.chunking = make_coo_chunking(nnz, b.omega, execution_units<ExecSpace>::count(space));
  const auto n = static_cast<std::size_t>(b.chunking.num_chunks);
  b.first_row = Kokkos::View<int*, Device>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::csr_balanced::first_row"), n + 1);
  b.carry_row =
      Kokkos::View<int*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::csr_balanced::carry_row"), n);
  b.carry =
      Kokkos::View<Value*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strata::csr_balanced::carry"), n);
  if (n > 0) {
    Kokkos::parallel_for("strata::csr_balanced::first_rows", Kokkos::RangePolicy<ExecSpace>(space, 0, n + 1),
                         CsrChunkFirstRows<RowMap>{row_map, b.chunking, b.first_row, static_cast<int>(rows)});
  }
  b.built = true;
  return b;
}

// What one chunk kernel reads and writes for column j of x and y: the row
// operands of csr_rows.hpp (term, store with beta), the chunks, and the carries.
template <class Operands, class Chunks>
struct CsrBalancedOperands {
  Operands op;
  Chunks chunks;
  std::size_t column = 0;
};

// Host backends and the fallback: one thread per chunk, walking the row offsets.
template <class Value, class Operands, class Chunks>
struct CsrBalancedChunkProduct {
  CsrBalancedOperands<Operands, Chunks> in;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t c) const {
    const auto& op = in.op;
    const auto& ch = in.chunks;
    const std::size_t j = in.column;
    const std::int64_t b = ch.chunking.begin(c), e = ch.chunking.end(c);
    const int finished_end = ch.first_row(c + 1);  // rows below it are finished by this chunk
    int row = ch.first_row(c);
    Value sum{};
    for (std::int64_t k = b; k < e; ++k) {
      while (static_cast<std::int64_t>(op.row_map(row + 1)) <= k) {
        op.store(row, j, sum);
        sum = Value{};
        ++row;
      }
      sum += op.term(k, j);
    }
    for (; row < finished_end; ++row) {
      op.store(row, j, sum);
      sum = Value{};
    }
    // row == finished_end: the row holding the next chunk's first entry; its part here is the carry.
    const bool carries = row < ch.rows && static_cast<std::int64_t>(op.row_map(row)) < e;
    ch.carry_row(c) = carries ? row : -1;
    ch.carry(c) = sum;
  }
};

template <class ExecSpace>
struct CsrBalancedChunkKernel {
  template <class Value, class Operands, class Chunks>
  static void run(const ExecSpace& space, const CsrBalancedOperands<Operands, Chunks>& in) {
    light_weight_parallel_for("strata::csr_balanced::chunks",
                              Kokkos::RangePolicy<ExecSpace>(space, 0, in.chunks.chunking.num_chunks),
                              CsrBalancedChunkProduct<Value, Operands, Chunks>{in});
  }
};

// After the chunks: each carry into its row, which its finishing chunk has written.
template <class ExecSpace, class Value, class Operands, class Chunks>
struct CsrBalancedCarries {
  CsrBalancedOperands<Operands, Chunks> in;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t c) const {
    const int row = in.chunks.carry_row(c);
    if (row >= 0) atomic_add<ExecSpace>(&vector_at(in.op.y, row, in.column), in.op.alpha * in.chunks.carry(c));
  }
};

}  // namespace strata::Impl

#if defined(KOKKOS_ENABLE_CUDA)
#include <strata/algorithms/spmv/cuda/csr_balanced_cuda.hpp>
#endif

namespace strata::Impl {

// y := alpha * op(A) x + beta * y over the structure `row_map`/`cols` (A's, or
// A^T's with Gathered values), every column of x and y in turn.
template <bool Gathered, class ExecSpace, class Value, class Device, class RowMap, class Cols, class Positions,
          class Values, class XView, class YView>
void launch_csr_balanced(const ExecSpace& space, const CsrBalancedChunks<Value, Device>& chunks, const RowMap& row_map,
                         const Cols& cols, const Positions& positions, const Values& values, bool conjugate,
                         Value alpha, const XView& x, Value beta, const YView& y) {
  if (chunks.chunking.num_chunks == 0) {
    scale_output(space, beta, y);
    return;
  }
  using Operands = CsrRowOperands<Gathered, RowMap, Cols, Positions, Values, XView, YView>;
  using Chunks = CsrBalancedChunks<Value, Device>;
  const Operands op{row_map, cols, positions, values, x, y, alpha, beta, conjugate};
  const std::size_t columns = op.columns();
  for (std::size_t j = 0; j < columns; ++j) {
    const CsrBalancedOperands<Operands, Chunks> in{op, chunks, j};
    CsrBalancedChunkKernel<ExecSpace>::template run<Value>(space, in);
    // Light-weight: this functor holds every operand, past the 512 bytes over which a plain
    // launch would wait for the previous one (core/light_weight_launch.hpp).
    light_weight_parallel_for("strata::csr_balanced::carries",
                              Kokkos::RangePolicy<ExecSpace>(space, 0, chunks.chunking.num_chunks),
                              CsrBalancedCarries<ExecSpace, Value, Operands, Chunks>{in});
  }
}

}  // namespace strata::Impl
