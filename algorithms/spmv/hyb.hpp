#pragma once
// strata::spmv's kernels on HybMatrix (its checks: interface/hyb.hpp): the ELL part row by row (column-major slots, so
// neighbouring threads read neighbouring words, beta applied there), then the
// COO overflow added by the load-balanced COO kernel (coo_product.hpp): equal
// nonzero chunks per warp and one atomic per row segment of a chunk, so a long
// row's overflow does not serialise on one address (an atomic per entry did:
// 5.95 ms on the hubs generator, whose 40 rows of 200000 entries overflow).
// N and C read the ELL columns as 16-bit offsets (ell_offsets_coo, the default): the handle encodes
// them once, slot by slot for tiles of 32 rows (a warp's rows), as a 32-bit base per tile and slot
// plus a 16-bit offset per entry, an empty slot marked in the offset, so a product reads 2 bytes of
// column and no fill count per slot instead of 4 bytes and 4 per row: on Poisson 256^3, 6.1 instead
// of 8.6 bytes per float entry besides x. A tile's slot whose columns span 65535 or more keeps them
// in 32 bits beside the offsets (describe() counts them). The encoding is redone at the first
// product after an insertion into the matrix (HybMatrix::insertions).
// T and H scatter both parts into y with atomics over the 32-bit columns; rank-2 x/y are multiplied
// column by column.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/algorithms/spmv/coo_product.hpp>
#include <strata/algorithms/spmv/definitions.hpp>
#include <strata/algorithms/spmv/interface/hyb.hpp>
#include <strata/algorithms/spmv/vectors.hpp>
#include <strata/core/atomic_add.hpp>
#include <strata/formats/hyb/hyb_matrix.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <utility>

namespace strata::Impl {

// T and H, ELL part: row r of A scatters into y at its columns.
template <class ExecSpace, class Value, class Device, class XView, class YView>
struct HybEllScatterTransposed {
  HybView<Value, Device> v;
  XView x;
  YView y;
  Value alpha;
  bool conjugate;

  KOKKOS_INLINE_FUNCTION void operator()(const int r) const {
    for (int j = 0; j < v.ell_fill(r); ++j) {
      const std::size_t at = static_cast<std::size_t>(j) * v.num_rows + r;
      atomic_add<ExecSpace>(&y(v.ell_cols(at)), alpha * conjugate_if(v.ell_values(at), conjugate) * x(r));
    }
  }
};

// N and C, ELL part: one thread per row writes y(r), beta applied here.
template <class Value, class Device, class XView, class YView>
struct HybEllProduct {
  HybView<Value, Device> v;
  XView x;
  YView y;
  Value alpha, beta;
  bool conjugate;

  KOKKOS_INLINE_FUNCTION void operator()(const int r) const {
    Value sum = Value(0);
    for (int j = 0; j < v.ell_fill(r); ++j) {
      const std::size_t at = static_cast<std::size_t>(j) * v.num_rows + r;
      sum += conjugate_if(v.ell_values(at), conjugate) * x(v.ell_cols(at));
    }
    y(r) = beta == Value(0) ? alpha * sum : alpha * sum + beta * y(r);
  }
};

// The ELL columns as 16-bit offsets: slot j of row r holds column
// bases(j * tiles + r / tile_rows) + offsets(j * rows + r), or nothing where the offset is `empty`.
// A tile's slot whose columns span more than 16 bits can hold (on Poisson 256^3 the tiles of a
// plane's last line, whose last row's slot after a missing neighbour holds its next plane's column)
// keeps them in 32 bits: its base is -1 - k, its offsets 0 (or empty), and its rows' columns are
// escapes(k * tile_rows + row - tile's first), 0 where empty.
template <class Device>
struct HybEllOffsets {
  static constexpr int tile_rows = 32;           // a warp's rows: its base is one broadcast word per slot
  static constexpr int empty = 0xFFFF;           // so a tile's slot may span at most 65534 columns
  static constexpr int too_wide = -1;            // a tile slot's base between the two encoding passes
  Kokkos::View<std::uint16_t*, Device> offsets;  // width x rows, column-major like ell_cols
  Kokkos::View<int*, Device> bases;              // width x tiles, slot-major
  Kokkos::View<int*, Device> escapes;            // tile_rows per tile slot too wide for offsets
  int tiles = 0;
  int escaped = 0;  // tile slots in `escapes`
};

// First pass: each tile's base in each slot (its least column), or too_wide; counts the tile's slots
// that are too wide.
template <class Value, class Device>
struct HybEllTileBases {
  HybView<Value, Device> v;
  HybEllOffsets<Device> e;

  KOKKOS_INLINE_FUNCTION void operator()(const int t, int& too_wide) const {
    const int begin = t * HybEllOffsets<Device>::tile_rows;
    const int end =
        begin + HybEllOffsets<Device>::tile_rows < v.num_rows ? begin + HybEllOffsets<Device>::tile_rows : v.num_rows;
    for (int j = 0; j < v.width; ++j) {
      int least = 0, most = -1;
      for (int r = begin; r < end; ++r) {
        if (j >= v.ell_fill(r)) continue;
        const int c = v.ell_cols(static_cast<std::size_t>(j) * v.num_rows + r);
        least = most < 0 || c < least ? c : least;
        most = c > most ? c : most;
      }
      const bool fits = most - least < HybEllOffsets<Device>::empty;
      e.bases(static_cast<std::size_t>(j) * e.tiles + t) = fits ? least : HybEllOffsets<Device>::too_wide;
      too_wide += fits ? 0 : 1;
    }
  }
};

// Second pass, a scan over the tiles: the too-wide slots get their places in `escapes`, in order.
template <class Device>
struct HybEllEscapePlaces {
  HybEllOffsets<Device> e;
  int width;

  KOKKOS_INLINE_FUNCTION void operator()(const int t, int& next, const bool final) const {
    for (int j = 0; j < width; ++j) {
      int& base = e.bases(static_cast<std::size_t>(j) * e.tiles + t);
      if (base != HybEllOffsets<Device>::too_wide) continue;
      if (final) base = -1 - next;
      ++next;
    }
  }
};

// Third pass, a thread per row: its offsets, and its columns in the escaped slots.
template <class Value, class Device>
struct HybEllTileOffsets {
  HybView<Value, Device> v;
  HybEllOffsets<Device> e;

  KOKKOS_INLINE_FUNCTION void operator()(const int r) const {
    const int t = r / HybEllOffsets<Device>::tile_rows;
    const int fill = v.ell_fill(r);
    for (int j = 0; j < v.width; ++j) {
      const std::size_t at = static_cast<std::size_t>(j) * v.num_rows + r;
      const int base = e.bases(static_cast<std::size_t>(j) * e.tiles + t);
      const int col = j < fill ? v.ell_cols(at) : 0;
      if (base < 0) {
        e.escapes(static_cast<std::size_t>(-1 - base) * HybEllOffsets<Device>::tile_rows +
                  (r - t * HybEllOffsets<Device>::tile_rows)) = col;
      }
      e.offsets(at) = static_cast<std::uint16_t>(j >= fill ? HybEllOffsets<Device>::empty : base < 0 ? 0 : col - base);
    }
  }
};

// N and C, ELL part through the offsets: one thread per row writes y(r), beta applied here. Slots are
// taken `group` at a time in phases, so that each phase's loads leave together: every slot's offset,
// value and base (a group past the last slot reads the last one again and drops it); the columns, an
// escaped slot's read from `escapes` under a branch its warp takes as one (a warp's rows are a tile);
// x at every column (an empty slot's clamped into x, its product dropped by a select, so that an
// infinite x there does not make a NaN). A branch per slot on its offset made the loads of each slot
// wait for the previous slot's x: 483 us against the 32-bit kernel's 340 on Poisson 256^3 in float
// (H200, 2026-12-02 17:14). Needs num_cols > 0 (the caller runs the 32-bit kernel otherwise).
template <class Value, class Device, class XView, class YView>
struct HybEllOffsetsProduct {
  static constexpr int group = 4;
  Kokkos::View<Value*, Device> values;
  HybEllOffsets<Device> e;
  int num_rows, num_cols, width;
  XView x;
  YView y;
  Value alpha, beta;
  bool conjugate;

  KOKKOS_INLINE_FUNCTION void operator()(const int r) const {
    constexpr int tile_rows = HybEllOffsets<Device>::tile_rows;
    const int t = r / tile_rows;
    Value sum = Value(0);
    for (int j = 0; j < width; j += group) {
      int offset[group], base[group];
      Value value[group];
      for (int k = 0; k < group; ++k) {
        const int slot = j + k < width ? j + k : width - 1;
        const std::size_t at = static_cast<std::size_t>(slot) * num_rows + r;
        const int stored_offset = e.offsets(at);
        offset[k] = j + k < width ? stored_offset : HybEllOffsets<Device>::empty;
        value[k] = values(at);
        base[k] = e.bases(static_cast<std::size_t>(slot) * e.tiles + t);
      }
      int col[group];
      for (int k = 0; k < group; ++k) {
        // Unsigned: an empty slot's offset may take a base near the last column past INT_MAX.
        const unsigned c = static_cast<unsigned>(base[k]) + static_cast<unsigned>(offset[k]);
        col[k] = c < static_cast<unsigned>(num_cols) ? static_cast<int>(c) : num_cols - 1;
        if (base[k] < 0) {
          col[k] = e.escapes(static_cast<std::size_t>(-1 - base[k]) * tile_rows + (r - t * tile_rows));
        }
      }
      Value xv[group];
      for (int k = 0; k < group; ++k) xv[k] = x(col[k]);
      for (int k = 0; k < group; ++k) {
        sum += offset[k] != HybEllOffsets<Device>::empty ? conjugate_if(value[k], conjugate) * xv[k] : Value(0);
      }
    }
    y(r) = beta == Value(0) ? alpha * sum : alpha * sum + beta * y(r);
  }
};

template <class ExecSpace, class Value, class Device>
struct SpmvState<ExecSpace, HybMatrix<Value, Device>> {
  // The overflow's chunks (none before the first product with an overflow), redone when
  // insertions have changed its length.
  CooProduct<ExecSpace, Value, Device> overflow;
  // The ELL columns' offsets (ell_offsets_coo), encoded for the matrix after `encoded_after` insertions;
  // by default not used (nor finished) where over a quarter of the tile slots are too wide for them.
  HybEllOffsets<Device> offsets;
  std::uint64_t encoded_after = std::numeric_limits<std::uint64_t>::max();
  bool use_offsets = false;
};

template <class ExecSpace, class Value, class Device>
struct SpmvKernels<ExecSpace, HybMatrix<Value, Device>> {
  using format = SpmvFormat<ExecSpace, HybMatrix<Value, Device>>;
  using matrix_type = typename format::matrix_type;
  using value_type = typename format::value_type;
  using State = SpmvState<ExecSpace, HybMatrix<Value, Device>>;

  static void analyze(const ExecSpace&, const SpmvSettings&, const matrix_type&, State&) {}

  template <class XView, class YView>
  static void apply(const ExecSpace& space, const SpmvSettings& s, State& state, SpmvMode mode, Value alpha,
                    const matrix_type& A, const XView& x, Value beta, const YView& y) {
    if constexpr (XView::rank == 2) {
      for_each_column(x, y, [&](const auto& xj, const auto& yj) { apply(space, s, state, mode, alpha, A, xj, beta, yj); });
    } else {
      const auto v = A.view();
      const bool conjugate = is_conjugated(mode);
      if (is_transposed(mode)) {
        scale_output(space, beta, y);
        if (alpha == Value(0)) return;
        Kokkos::parallel_for(
            "strata::hyb::spmv_ell_transposed", Kokkos::RangePolicy<ExecSpace>(space, 0, v.num_rows),
            HybEllScatterTransposed<ExecSpace, Value, Device, XView, YView>{v, x, y, alpha, conjugate});
      } else if (s.algorithm != SpmvAlgorithm::ell_coo && v.num_cols > 0 && encode_offsets(space, s, A, state)) {
        Kokkos::parallel_for(
            "strata::hyb::spmv_ell_offsets", Kokkos::RangePolicy<ExecSpace>(space, 0, v.num_rows),
            HybEllOffsetsProduct<Value, Device, XView, YView>{v.ell_values, state.offsets, v.num_rows, v.num_cols,
                                                              v.width, x, y, alpha, beta, conjugate});
      } else {
        Kokkos::parallel_for("strata::hyb::spmv_ell", Kokkos::RangePolicy<ExecSpace>(space, 0, v.num_rows),
                             HybEllProduct<Value, Device, XView, YView>{v, x, y, alpha, beta, conjugate});
      }
      if (v.coo_nnz == 0 || alpha == Value(0)) return;  // no second launch when every row fits the ELL part
      // The overflow adds to what the ELL part wrote: beta is already applied.
      const auto overflow = overflow_view(v);
      if (state.overflow.chunking.nnz != overflow.nnz()) {
        state.overflow = CooProduct<ExecSpace, Value, Device>::make(space, overflow, 0, false);
      }
      state.overflow.run(space, mode, alpha, overflow, x, Value(1), y);
    }
  }

  static std::string describe(const SpmvSettings& s, const State& state) {
    std::string d;
    if (s.algorithm == SpmvAlgorithm::ell_coo) {
      d = "ell_coo";
    } else if (state.encoded_after == std::numeric_limits<std::uint64_t>::max()) {
      // The default's choice between offsets and stored columns waits for the encoding's count of wide slots.
      d = s.algorithm == SpmvAlgorithm::ell_offsets_coo
              ? "ell_offsets_coo (encoded at the first product in mode N or C)"
              : "format_default (16-bit column offsets or the stored columns: decided at the first product in mode N "
                "or C)";
    } else {
      const auto& e = state.offsets;
      const std::string wide = std::to_string(e.escaped) + " of " + std::to_string(e.bases.extent(0)) + " tile slots";
      d = state.use_offsets
              ? "ell_offsets_coo (16-bit column offsets in " + std::to_string(HybEllOffsets<Device>::tile_rows) +
                    "-row tiles; " + wide + " in 32 bits)"
              : "ell_coo (" + wide + " too wide for 16-bit offsets: over a quarter)";
    }
    if (state.overflow.chunking.nnz == 0) return d;
    return d + " + overflow load_balanced, omega=" + std::to_string(state.overflow.omega);
  }

 private:
  // Encodes the ELL columns as offsets unless they already are for A's insertions; says whether the
  // product reads them. The default does not where over a quarter of the tile slots are too wide: each
  // of those costs 2 bytes of offset and 4 of column per entry where the 32-bit kernel reads 4 (random
  // columns, as on the hubs generator: 438 against 398 us in double on the H200, 2026-12-02 17:36).
  static bool encode_offsets(const ExecSpace& space, const SpmvSettings& s, const matrix_type& A, State& state) {
    if (state.encoded_after == A.insertions()) return state.use_offsets;
    const auto v = A.view();
    auto& e = state.offsets;
    e.tiles = (v.num_rows + HybEllOffsets<Device>::tile_rows - 1) / HybEllOffsets<Device>::tile_rows;
    const std::size_t slots = static_cast<std::size_t>(v.width) * v.num_rows;
    if (e.offsets.extent(0) != slots) {
      e.offsets = Kokkos::View<std::uint16_t*, Device>(
          Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "strata::hyb::ell_offsets"), slots);
      e.bases =
          Kokkos::View<int*, Device>(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "strata::hyb::ell_bases"),
                                     static_cast<std::size_t>(v.width) * e.tiles);
    }
    int too_wide = 0;
    Kokkos::parallel_reduce("strata::hyb::ell_tile_bases", Kokkos::RangePolicy<ExecSpace>(space, 0, e.tiles),
                            HybEllTileBases<Value, Device>{v, e}, too_wide);
    e.escaped = too_wide;
    state.encoded_after = A.insertions();
    state.use_offsets =
        s.algorithm == SpmvAlgorithm::ell_offsets_coo || static_cast<std::size_t>(too_wide) * 4 <= e.bases.extent(0);
    if (!state.use_offsets) return false;
    if (too_wide > 0) {
      Kokkos::parallel_scan("strata::hyb::ell_escape_places", Kokkos::RangePolicy<ExecSpace>(space, 0, e.tiles),
                            HybEllEscapePlaces<Device>{e, v.width});
    }
    if (e.escapes.extent(0) != static_cast<std::size_t>(too_wide) * HybEllOffsets<Device>::tile_rows) {
      e.escapes =
          Kokkos::View<int*, Device>(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "strata::hyb::ell_escapes"),
                                     static_cast<std::size_t>(too_wide) * HybEllOffsets<Device>::tile_rows);
    }
    Kokkos::parallel_for("strata::hyb::ell_tile_offsets", Kokkos::RangePolicy<ExecSpace>(space, 0, v.num_rows),
                         HybEllTileOffsets<Value, Device>{v, e});
    return true;
  }

  // The COO overflow's used entries (insertions may leave spare room after them).
  static CooView<Value, Device> overflow_view(const HybView<Value, Device>& v) {
    const auto used = std::make_pair(std::size_t{0}, static_cast<std::size_t>(v.coo_nnz));
    return {Kokkos::subview(v.coo_rows, used), Kokkos::subview(v.coo_cols, used), Kokkos::subview(v.coo_values, used),
            v.num_rows, v.num_cols};
  }
};

}  // namespace strata::Impl
