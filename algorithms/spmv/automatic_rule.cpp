// The rule of Format::automatic (algorithms/spmv/automatic.hpp): the kernel for
// a matrix from its statistics, on a host or a device, with or without cuSPARSE.
//
// The rule (choose_spmv_kernel), from the H100 suites of 2026-11-23 and -24 (23-25
// matrices, modes N and T; docs/PERFORMANCE.md). The caller says which modes the
// matrix will be multiplied in (SpmvModes): N and C run over the rows, T and H
// over the columns, and only the lengths of the dimensions run over are weighed.
// For all modes each choice is the kernel with the smallest worst case over N
// and T. Lengths are "even" when their std/mean is at most 1.2 and the longest is
// at most 8 x the mean:
//  * N and C only, on a device, every row within 1.1 x the mean length: HYB,
//    whose ELL part (width ceil(mean)) then holds nearly every entry without
//    padding and gives a thread per row coalesced loads (2026-11-24, N:
//    ch8-8-b3, all rows 4: 13.3 us against csr-rows 14.7; young1c, longest
//    1.03 x the mean: 12.5 against 14.3). bcsstk21 (longest 1.22 x) and ani4
//    (1.32 x) took 1.26-1.31x the row kernel's time with HYB. In T, HYB
//    scatters with atomics (young1c 1.32x, ch8-8-b3 1.24x the best), so it is
//    not chosen when T or H may come;
//  * even, at least 2^23 nonzeros, on a device: HYB, whose column-major ELL
//    slots give coalesced loads to a thread per row (poisson3d:160: 1.00x the
//    best in N, 1.07x in T; 0.77x the time of cuSPARSE CSR);
//  * even, below 2^23 nonzeros, on a device: CSR with Strata's row kernels
//    (csr-rows). These products are launch-bound (13-40 us on the H100); the
//    row kernel is one launch with beta inside, in T over A^T's rows kept by the
//    handle, where every other kernel pays a scale pass and atomics (cuSPARSE
//    COO was up to 1.30x the best; Kokkos Kernels' CSR, fastest on several in
//    N, lost 2-6x in T: mhd1280b, w156, young1c);
//  * N and C only, irregular rows, at least 2^23 nonzeros, on a device whose
//    L2 holds less than three times x (column_panels_for > 1): CSR in column
//    panels (csr-split), each panel's part of x within a third of the L2, by
//    Strata's nonzero-balanced kernel. On the H100 (50 MiB L2) an x of 32 MiB
//    gathered at random missed the L2 for half of its gathers; the hubs in
//    double took csr-split 434.8 us against cuSPARSE CSR's 510.2 (1.17x) and a
//    random 4M x 4M matrix 375.4 against 431.8 (2026-11-27). Irregular columns
//    keep their hot part of x in the L2 anyway, and split R-MAT 22 lost while
//    each finished row was stored alone (674-714 us against 671-673 whole); with
//    the rows leaving the kernel in runs (RowStage) the panels' many short and
//    empty rows cost little, and R-MAT 22 took 635-642 us split against 670-674
//    whole and cuSPARSE's 658-671 (2026-11-27 22:10). In T each panel's product
//    over A^T's rows gathers A's values (1.77 ms against cuSPARSE's 0.92 on the
//    hubs);
//  * the same with x within a third of the L2 (one panel) and irregular
//    columns: Strata's nonzero-balanced CSR kernel (csr-balanced). R-MAT 22 in
//    float took 551-553 us against cuSPARSE CSR's 561-564 (1.02x, two rounds of
//    2026-11-27 22:26). With even columns cuSPARSE CSR stays: the hubs in float
//    took 344-345 us against its 333-335. Two matrices decide this branch;
//    which property of the columns (or none) is behind the 2-3% either way is
//    not known;
//  * irregular, at least 2^20 nonzeros, where cuSPARSE exists: cuSPARSE CSR
//    (the fastest kernel on rmat:22 and hubs in N and T; the row kernels are
//    6-56x slower there), except
//  * T or H may come, the columns irregular, 2^20 to 2^22 nonzeros, on a
//    device: Strata's nonzero-balanced CSR kernel over A^T's rows
//    (csr-balanced). TSOPF_RS_b39_c30's column of 30002 entries took cuSPARSE
//    CSR and COO 93-97 us in T, csr-balanced 26 us; in N it is 1.19x cuSPARSE
//    CSR (2026-11-27). It reads A's values through the positions of A^T's
//    entries, randomly: up to 2^22 entries (32 MiB in double) they stay in the
//    H100's 50 MiB L2; R-MAT 22's 65M took 3.09 ms in T against cuSPARSE's 1.16;
//  * irregular, below 2^20, on a device with cuSPARSE: cuSPARSE COO, whose
//    nonzero-balanced chunks do not wait on one long row;
//  * host backends, or devices without cuSPARSE: CSR with Kokkos Kernels'
//    native kernel when even, Strata's load-balanced COO when irregular.
// Why these thresholds (suite of 2026-11-23):
//  * longest <= 8 x mean: the row kernel gives a row at most a warp, so one
//    long row is a tail. cyl6 (longest 721, 13.8 x its mean of 52; std/mean
//    0.15) took 1.25x the time of cuSPARSE COO in N; ct2010 (10.6 x) and
//    netscience (9.9 x) were within 1.07x on either kernel. Below 8 x (at
//    most 4.5 x in the suite) the row kernel was the best or within 1.1x of it
//    but on ch8-8-b3 in N. TSOPF_RS_b39_c30 has even rows but a column of
//    30002 entries: the row kernel took 714 us in T against cuSPARSE's 99 us,
//    and was the fastest in N (18.8 us against cuSPARSE CSR's 22.1): its
//    columns decide only when T or H may come.
//  * std/mean <= 1.2: bayer10 (1.05 rows, 1.09 columns, longest 4.5 x) was
//    fastest with the row kernel in N and T, 1.13x faster than cuSPARSE COO;
//    the next spread in the suite, HEP-th (1.26 rows, 3.13 columns), lost
//    2-5x with it.
#include <strata/algorithms/spmv/automatic_rule.hpp>
#include <strata/formats/column_split/column_panels.hpp>

#include <sstream>

namespace strata::Impl {

namespace {

// Thresholds of "even" lengths; see the rule above for the matrices behind them.
constexpr double even_length_max_cv = 1.2;
constexpr double even_length_max_longest_over_mean = 8.0;
// Rows "uniform" enough for HYB's ELL in N: the longest within this factor of the mean.
constexpr double uniform_length_max_longest_over_mean = 1.1;
// Column panels (csr-split) from this many nonzeros (measured from 32M: the hubs and
// a random 4M x 4M matrix).
constexpr index_type column_split_min_nnz = index_type(1) << 23;
// Up to this many nonzeros A's values fit the L2 cache (2^22 doubles: 32 MiB of the H100's
// 50 MiB), where csr-balanced's transposed product gathers them.
constexpr index_type gathered_values_max_nnz = index_type(1) << 22;

// Lengths spread little (std/mean <= 1.2) and none is over 8 x the mean.
bool even_lengths(double mean, double cv, index_type longest) {
  if (mean <= 0) return true;
  return cv <= even_length_max_cv && static_cast<double>(longest) <= even_length_max_longest_over_mean * mean;
}

}  // namespace

SpmvRuleChoice spmv_rule(const MatrixStatistics& s, const SpmvTarget& target, SpmvModes modes) {
  const bool on_host = target.on_host;
  const bool with_cusparse = target.with_cusparse;
  const bool over_rows = modes != SpmvModes::transposed;     // N, C
  const bool over_columns = modes != SpmvModes::untransposed;  // T, H
  std::ostringstream why;
  why.precision(3);
  why << "rule for modes " << to_string(modes) << ":";
  if (over_rows) {
    why << " row length std/mean " << s.row_length_cv() << ", longest " << s.row_length_max << " vs mean "
        << s.row_length_mean << ";";
  }
  if (over_columns) {
    why << " column length std/mean " << s.col_length_cv() << ", longest " << s.col_length_max << " vs mean "
        << s.col_length_mean << ";";
  }
  const bool even =
      s.nnz == 0 ||
      ((!over_rows || even_lengths(s.row_length_mean, s.row_length_cv(), s.row_length_max)) &&
       (!over_columns || even_lengths(s.col_length_mean, s.col_length_cv(), s.col_length_max)));
  const bool uniform_rows =
      s.nnz > 0 && static_cast<double>(s.row_length_max) <= uniform_length_max_longest_over_mean * s.row_length_mean;
  if (!over_columns && uniform_rows && !on_host) {
    why << " " << s.nnz << " nonzeros -> every row within 1.1x the mean length, N/C only: HYB (ELL without padding)";
    return {"hyb", why.str()};
  }
  if (even && !on_host && s.nnz >= (index_type(1) << 23)) {
    why << " " << s.nnz << " nonzeros -> even lengths, bandwidth-bound: HYB (coalesced ELL)";
    return {"hyb", why.str()};
  }
  const int panels = column_panels_for(s.num_cols, target.value_bytes, target.last_level_cache_bytes);
  if (!even && !on_host && !over_columns && s.nnz >= column_split_min_nnz) {
    if (panels > 1) {
      why << " x " << static_cast<std::size_t>(s.num_cols) * target.value_bytes << " bytes, L2 "
          << target.last_level_cache_bytes << " bytes; " << s.nnz
          << " nonzeros -> irregular rows, N/C only, x over a third of the L2: Strata CSR in " << panels
          << " column panels (csr-split)";
      return {"csr-split", why.str()};
    }
    if (!even_lengths(s.col_length_mean, s.col_length_cv(), s.col_length_max)) {
      why << " column length std/mean " << s.col_length_cv() << ", longest " << s.col_length_max << " vs mean "
          << s.col_length_mean << "; " << s.nnz
          << " nonzeros -> irregular rows and columns, N/C only, x within a third of the L2: Strata CSR "
          << "nonzero-balanced";
      return {"csr-balanced", why.str()};
    }
  }
  if (!even && with_cusparse && s.nnz >= (index_type(1) << 20)) {
    const bool irregular_columns =
        over_columns && !even_lengths(s.col_length_mean, s.col_length_cv(), s.col_length_max);
    if (irregular_columns && s.nnz <= gathered_values_max_nnz) {
      why << " " << s.nnz << " nonzeros -> irregular columns, T or H, values within L2: Strata CSR nonzero-balanced "
          << "over A^T's rows";
      return {"csr-balanced", why.str()};
    }
    why << " " << s.nnz << " nonzeros -> irregular lengths, bandwidth-bound: cuSPARSE CSR (nonzero-balanced)";
    return {"cusparse-csr", why.str()};
  }
  if (even && !on_host) {
    why << " " << s.nnz << " nonzeros -> even lengths, launch-bound: Strata CSR rows (one launch in every mode)";
    return {"csr-rows", why.str()};
  }
  if (with_cusparse) {
    why << " " << s.nnz << " nonzeros -> irregular lengths, launch-bound: cuSPARSE COO (nonzero-balanced)";
    return {"cusparse-coo", why.str()};
  }
  if (even) {
    why << " -> even lengths: CSR, Kokkos Kernels' row kernel";
    return {"csr", why.str()};
  }
  why << " -> irregular lengths: nonzero-balanced COO";
  return {"coo", why.str()};
}

}  // namespace strata::Impl
