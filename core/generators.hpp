#pragma once
#include <strata/core/host_csr.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace strata {

// Deterministic matrix generators: the same arguments (and seed) give the same
// matrix bit for bit on every machine. All return sorted, duplicate-free CSR
// and work in time linear in nnz (R-MAT: n log n for its sort).
namespace gen {

// Standard finite-difference stencils on an n x n (n x n x n) grid with
// Dirichlet boundaries: diagonal 4 / 8 / 6 / 26, off-diagonals -1.
HostCsr<double> poisson2d_5pt(index_type n);
HostCsr<double> poisson2d_9pt(index_type n);
HostCsr<double> poisson3d_7pt(index_type n);
HostCsr<double> poisson3d_27pt(index_type n);

// R-MAT / Kronecker graph with 2^scale vertices and edge_factor * 2^scale
// sampled edges (Graph500: a=0.57, b=0.19, c=0.19), vertex labels scrambled by
// a seeded permutation; duplicate edges are merged, values in [0.5, 1.5).
struct RmatParameters {
  int scale = 16;
  index_type edge_factor = 16;
  double a = 0.57, b = 0.19, c = 0.19;
  std::uint64_t seed = 1;
};
HostCsr<double> rmat(const RmatParameters& parameters);

// Every row gets nnz_per_row distinct uniformly random columns; values in [0.5, 1.5).
HostCsr<double> uniform_random(index_type rows, index_type cols, index_type nnz_per_row, std::uint64_t seed);

// A few very long rows in a uniform random matrix: rows x rows, nnz_per_row
// random columns per row, except `hubs` evenly spread rows with hub_length.
HostCsr<double> hub_rows(index_type rows, index_type nnz_per_row, index_type hubs, index_type hub_length,
                         std::uint64_t seed);

// Square banded matrix: entries (i, j) with |i - j| <= half_bandwidth;
// diagonal 2 * half_bandwidth + 1, off-diagonals -1 (diagonally dominant).
HostCsr<double> banded(index_type n, index_type half_bandwidth);

// Fully dense rows x cols matrix with values in [0.5, 1.5).
HostCsr<double> dense(index_type rows, index_type cols, std::uint64_t seed);

}  // namespace gen

// Generator specifications as used on the command line and in benchmarks:
//   gen:poisson2d:N  gen:poisson2d9:N  gen:poisson3d:N  gen:poisson3d27:N
//   gen:rmat:SCALE[:EDGE_FACTOR[:SEED]]
//   gen:random:ROWS:COLS:NNZ_PER_ROW[:SEED]
//   gen:hubs:ROWS:NNZ_PER_ROW:HUBS:HUB_LENGTH[:SEED]
//   gen:banded:N:HALF_BANDWIDTH
//   gen:dense:ROWS[:COLS[:SEED]]
struct GeneratorSpec {
  std::string kind;                  // e.g. "poisson3d"
  std::vector<std::int64_t> params;  // positional numbers after the kind
  std::string text;                  // the spec as given
};

bool is_generator_spec(const std::string& text);  // starts with "gen:"
// Throws strata::ArgumentError naming the spec and the offending part.
GeneratorSpec parse_generator_spec(const std::string& text);

// The size of the matrix a spec describes, computed from its parameters alone
// (saturating at the largest index_type), so callers can check it against their
// limits before generate() allocates anything. entries is an upper bound:
// R-MAT merges duplicate samples.
struct GeneratorSize {
  index_type rows = 0;
  index_type cols = 0;
  index_type entries = 0;
};
GeneratorSize generator_size(const GeneratorSpec& spec);

// Parameters out of range throw strata::ArgumentError naming the spec; running
// out of memory throws strata::Error.
HostCsr<double> generate(const GeneratorSpec& spec);
std::string generator_help();  // one line per kind, for --help

}  // namespace strata
