#pragma once
// Kokkos::Cuda specialisation of the nonzero-balanced CSR chunk kernel; included
// only under KOKKOS_ENABLE_CUDA. One warp per chunk (TeamPolicy, vector length
// 32), as the COO kernel (cuda/coo_kernels_cuda.hpp), with the rows found
// instead of loaded: the warp loads the ends of 32 consecutive rows, one per
// lane, starting at the chunk's first row, and each lane finds its entry's row by
// a binary search over those ends held in the lanes (five shuffles). The window
// stays while the entries lie in its rows; where they pass its end (after 32
// rows, or in a run of short and empty rows) the warp loads the next 32 ends and
// searches again. The lines become row sums as in the COO kernel
// (cuda::WarpRowSums); finished rows wait in the warp's ring of rows in shared
// memory (RowStage) and leave it in contiguous runs, stored with beta by the row
// operands' store; the chunk's last row, if it goes on in the next chunk,
// becomes the chunk's carry.
#include <strata/core/light_weight_launch.hpp>
#include <strata/core/streaming_load.hpp>
#include <strata/core/cuda/warp_row_sums_cuda.hpp>

#include <type_traits>

namespace strata::Impl {

namespace cuda_detail {

// Six 256-thread blocks resident per SM (48 warps, at most 40 registers), as the
// COO kernel. More blocks cap the registers lower: on the H100, eight made double
// 19% slower on the hubs (spills), and float 1.7% slower on the hubs and 3.1% on
// R-MAT 22 (2026-11-27 16:13, against the six-block build in the same run); with
// the row ring, seven in float (32 registers, spills) were 1-2% slower on the hubs
// and 2-3% on R-MAT 22 (22:53).
using CsrBalancedPolicy = Kokkos::TeamPolicy<Kokkos::Cuda, Kokkos::LaunchBounds<256, 6>>;
constexpr int csr_balanced_warps_per_block = 8;  // the policy's 256 threads

// A warp's finished rows on their way to y. Stored as each row ends, rows of a
// few entries leave from a few lanes of a line, a part of a sector each, and
// empty rows one by one. Here a row that ends within the ring's `slots` rows
// from its base is put in its slot (empty rows need nothing: a slot is zero
// until used), and `release` stores the ring's rows below a row the warp has
// passed, all lanes storing consecutive rows. Rows beyond the ring (a line
// spanning more rows than it holds, through empty ones) are stored directly.
// The ring is found from threadIdx.y rather than held as a pointer: in double,
// at the policy's 40 registers, a held pointer made the kernel spill.
template <class Value>
class RowStage {
 public:
  static constexpr int slots = 64;  // a power of two

  // All lanes.
  __device__ explicit RowStage(int base) : base_(base) {
    for (int i = lane(); i < slots; i += 32) ring()[i] = Value{};
    __syncwarp();
  }

  // From one lane: a finished row. Rows below the base are not this chunk's to store (the
  // row before its first, which a run of row sums starts from) and are dropped.
  template <class Store>
  __device__ void finish(int row, const Value& sum, const Store& store) const {
    if (row < base_) return;
    if (row < base_ + slots) {
      ring()[row & (slots - 1)] = sum;
    } else {
      store(row, sum);
    }
  }

  // From any lanes: rows [from, to), at or above the base, have no entries.
  template <class Store>
  __device__ void finish_empty(int from, int to, const Store& store) const {
    for (int r = from > base_ + slots ? from : base_ + slots; r < to; ++r) store(r, Value{});
  }

  // All lanes: whether a line whose last row is `last_row` may end rows past the ring.
  __device__ bool outgrown_by(int last_row) const { return last_row >= base_ + slots; }

  // All lanes: every row below `passed` is finished. Stores the ring's rows below
  // it and below `stored_end` (rows from there on belong to the next chunk), and
  // moves the base to `passed`.
  template <class Store>
  __device__ void release(int passed, int stored_end, const Store& store) {
    if (passed <= base_) return;
    __syncwarp();
    int end = base_ + slots;
    if (passed < end) end = passed;
    if (stored_end < end) end = stored_end;
    for (int r = base_ + lane(); r < end; r += 32) {
      Value& s = ring()[r & (slots - 1)];
      store(r, s);
      s = Value{};
    }
    __syncwarp();
    base_ = passed;
  }

 private:
  __device__ static int lane() { return static_cast<int>(threadIdx.x); }
  // This warp's slots. Raw bytes: a __shared__ variable may not have a constructor (Kokkos::complex has one).
  __device__ static Value* ring() {
    __shared__ alignas(16) unsigned char bytes[csr_balanced_warps_per_block * slots * sizeof(Value)];
    return reinterpret_cast<Value*>(bytes) + threadIdx.y * slots;
  }

  int base_;
};

template <class Value, class Operands, class Chunks>
struct CsrBalancedWarpChunks {
  CsrBalancedOperands<Operands, Chunks> in;

  using member_type = typename CsrBalancedPolicy::member_type;
  using offset_type = typename Operands::offset_type;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& member) const {
    KOKKOS_IF_ON_DEVICE((process_chunk(member);))
    KOKKOS_IF_ON_HOST(((void)member;))
  }

  // A finished row: y := alpha * sum + beta * y (beta = 0 does not read y, which may hold NaN).
  __device__ void finish(int row, const Value& sum) const { in.op.store(row, in.column, sum); }

  __device__ void process_chunk(const member_type& member) const {
    const auto& op = in.op;
    const auto& ch = in.chunks;
    const std::size_t column = in.column;
    // An int: the league is one (an int) per eight chunks.
    const int chunk = member.league_rank() * member.team_size() + member.team_rank();
    if (chunk >= ch.chunking.num_chunks) return;
    const int lane = static_cast<int>(threadIdx.x);
    // Entries are counted in the row offsets' type, unsigned so that a line past the last entry
    // cannot overflow it: 64-bit counters cost the registers that double needs (Impl::CsrRowOperands).
    using entry_type = std::make_unsigned_t<offset_type>;
    const auto b = static_cast<entry_type>(ch.chunking.begin(chunk));
    const auto e = static_cast<entry_type>(ch.chunking.end(chunk));
    const int first = ch.first_row(chunk);
    const int finished_end = ch.first_row(chunk + 1);
    const int rows = static_cast<int>(ch.rows);
    // The run starts after the row before the chunk's first, which is not stored:
    // the rows from `first` to the first entry's row (chunk 0's leading empty rows) are a gap.
    cuda::WarpRowSums<Value> row_sums(first - 1);
    RowStage<Value> stage(first);
    const auto store = [&](int row, const Value& sum) { finish(row, sum); };
    const auto finished = [&](int row, const Value& sum) { stage.finish(row, sum, store); };
    const auto row_starts = [&](int previous_row, int row) { stage.finish_empty(previous_row + 1, row, store); };
    // The window: lane i holds the end of row window_row + i (past the last row: the
    // end of the last). The coming entries lie in its rows or later ones. It moves
    // only when they pass its end, so that rows of a few entries cost one load of
    // their ends, not one per pair of lines: reloading the evict-first row ends
    // read them from DRAM again (Nsight Compute, 2026-11-27: 7% more DRAM bytes
    // than cuSPARSE on a random 4M x 4M matrix of 8 entries per row).
    const auto load_window = [&](int from) {
      const int r = from + lane;
      return streaming_load<Kokkos::Cuda>(&op.row_map(r < rows ? r + 1 : rows));
    };
    int window_row = first;
    offset_type row_end = load_window(window_row);
    offset_type window_end = cuda::shuffle(row_end, 31);
    constexpr int lines_in_flight = 2;
    for (entry_type base = b; base < e; base += lines_in_flight * coo_line_entries) {
      offset_type line_entry[lines_in_flight];
      int line_col[lines_in_flight];
      Value line_value[lines_in_flight];
#pragma unroll
      for (int j = 0; j < lines_in_flight; ++j) {
        const entry_type k = base + j * coo_line_entries + lane;
        const bool active = k < e;
        // Lanes past the chunk's end extend its last row with zeros.
        line_entry[j] = static_cast<offset_type>(active ? k : e - 1);
        line_col[j] = active ? static_cast<int>(streaming_load<Kokkos::Cuda>(&op.cols(k))) : -1;
        line_value[j] = active ? streaming_load<Kokkos::Cuda>(
                                     &op.values(value_position<Operands::gathered>(op.positions, k)))
                               : Value{};
      }
      int line_row[lines_in_flight];
#pragma unroll
      for (int j = 0; j < lines_in_flight; ++j) line_row[j] = -1;
      for (;;) {
#pragma unroll
        for (int j = 0; j < lines_in_flight; ++j) {
          // How many of the window's rows end at or before this lane's entry.
          int ended = 0;
#pragma unroll
          for (int step = 16; step > 0; step >>= 1) {
            if (cuda::shuffle(row_end, ended + step - 1) <= line_entry[j]) ended += step;
          }
          if (line_row[j] < 0 && line_entry[j] < window_end) line_row[j] = window_row + ended;
        }
        bool unresolved = false;
#pragma unroll
        for (int j = 0; j < lines_in_flight; ++j) unresolved |= line_row[j] < 0;
        if (!__any_sync(cuda::full_warp_mask, unresolved)) break;
        // The unresolved entries lie past the window's last row: move it to the next 32 rows.
        window_row += coo_line_entries;
        row_end = load_window(window_row);
        window_end = cuda::shuffle(row_end, 31);
      }
      Value line_product[lines_in_flight];
#pragma unroll
      for (int j = 0; j < lines_in_flight; ++j) {
        line_product[j] = line_col[j] >= 0
                              ? conjugate_if(line_value[j], op.conjugate) * vector_at(op.x, line_col[j], column)
                              : Value{};
      }
      // Rows below the accumulated one are finished: make room before lines that may end rows past the ring.
      if (stage.outgrown_by(cuda::shuffle(line_row[lines_in_flight - 1], 31))) {
        stage.release(row_sums.accumulated_row(), finished_end, store);
      }
#pragma unroll
      for (int j = 0; j < lines_in_flight; ++j) row_sums.add_line(line_row[j], line_product[j], finished, row_starts);
    }
    const Value carried = row_sums.carried();
    const int accumulated_row = row_sums.accumulated_row();
    if (accumulated_row < finished_end) {
      // The chunk's last row ends with it; so do the empty rows up to the next chunk's first.
      if (lane == 0) {
        stage.finish(accumulated_row, carried, store);
        ch.carry_row(chunk) = -1;
      }
      // Rows past the ring, a lane each (the others are zero in the ring).
      for (int r = accumulated_row + 1 + lane; r < finished_end; r += coo_line_entries) {
        if (stage.outgrown_by(r)) finish(r, Value{});
      }
    } else if (lane == 0) {
      ch.carry_row(chunk) = accumulated_row;
      ch.carry(chunk) = carried;
    }
    stage.release(finished_end, finished_end, store);
  }
};

}  // namespace cuda_detail

template <>
struct CsrBalancedChunkKernel<Kokkos::Cuda> {
  static constexpr int warps_per_block = cuda_detail::csr_balanced_warps_per_block;

  template <class Value, class Operands, class Chunks>
  static void run(const Kokkos::Cuda& space, const CsrBalancedOperands<Operands, Chunks>& in) {
    const auto chunks = in.chunks.chunking.num_chunks;
    const int league = static_cast<int>((chunks + warps_per_block - 1) / warps_per_block);
    using Policy = cuda_detail::CsrBalancedPolicy;
    light_weight_parallel_for("strata::csr_balanced::warp_chunks", Policy(space, league, warps_per_block, 32),
                              cuda_detail::CsrBalancedWarpChunks<Value, Operands, Chunks>{in});
  }
};

}  // namespace strata::Impl
