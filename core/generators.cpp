#include <strata/core/generators.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace strata {
namespace gen {
namespace {

constexpr index_type kIndexMax = std::numeric_limits<index_type>::max();
constexpr std::uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ull;

// Distinct constants per random stream, so that e.g. the R-MAT vertex
// permutation and its edge sampling are independent even for equal seeds.
constexpr std::uint64_t kRmatEdgeStream = 0x52A7E0D6C5B1F3A9ull;
constexpr std::uint64_t kRmatScrambleStream = 0x3C6EF372FE94F82Bull;
constexpr std::uint64_t kRmatValueStream = 0xA54FF53A5F1D36F1ull;
constexpr std::uint64_t kUniformRandomStream = 0x510E527FADE682D1ull;
constexpr std::uint64_t kDenseStream = 0x9B05688C2B3E6C1Full;

// The SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijection on 64-bit
// words with full avalanche; everything random here is built from it alone, so
// results depend only on integer arithmetic and are identical on every machine.
std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Hash of a stream, a row and a column; used where a value must depend on its
// coordinates only (R-MAT duplicates) or to seed one stream per row, which keeps
// rows independent of each other and so open to parallel generation later.
std::uint64_t hash_coordinates(std::uint64_t seed, std::uint64_t row, std::uint64_t col) {
  std::uint64_t h = mix64(seed + kGoldenGamma);
  h = mix64(h ^ (row + 2 * kGoldenGamma));
  return mix64(h ^ (col + 3 * kGoldenGamma));
}

// Maps 52 random bits onto the grid 0.5 + m * 2^-52. Every point of that grid is
// a double, so the sum is exact and never rounds up to 1.5 (with 53 bits the
// largest value would round to 1.5 under round-to-nearest-even).
double unit_value(std::uint64_t bits) { return 0.5 + static_cast<double>(bits >> 12) * 0x1p-52; }

std::uint64_t smear_right(std::uint64_t x) {
  x |= x >> 1;
  x |= x >> 2;
  x |= x >> 4;
  x |= x >> 8;
  x |= x >> 16;
  x |= x >> 32;
  return x;
}

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    state_ += kGoldenGamma;
    return mix64(state_);
  }

  // Exactly uniform in [0, bound) for bound >= 1: masked rejection needs no
  // division and under two draws on average.
  std::uint64_t below(std::uint64_t bound) {
    const std::uint64_t mask = smear_right(bound - 1);
    for (;;) {
      const std::uint64_t candidate = next() & mask;
      if (candidate < bound) return candidate;
    }
  }

 private:
  std::uint64_t state_;
};

bool product_overflows(index_type a, index_type b) { return a != 0 && b > kIndexMax / a; }

std::string str(index_type v) { return std::to_string(v); }

// ---------------------------------------------------------------------------
// Stencils

struct GridOffset {
  int dz, dy, dx;
};

// Builds the matrix of a radius-1 stencil on an n^dimensions grid, rows in
// lexicographic (z, y, x) order. The offsets are listed in lexicographic order
// too, and the neighbours of a cell that lie inside the grid are numbered in that
// same order, so each row comes out with increasing columns and no sort is needed.
HostCsr<double> build_stencil(const char* name, index_type n, int dimensions, bool full_box) {
  STRATA_REQUIRE(n >= 1, std::string(name) + ": grid size n must be >= 1, got " + str(n));
  // Bounds that keep rows and the closed-form nnz, up to (3n)^dimensions, below 2^63.
  const index_type largest_n = dimensions == 2 ? (index_type{1} << 29) : (index_type{1} << 19);
  STRATA_REQUIRE(n <= largest_n, std::string(name) + ": grid size n = " + str(n) + " is too large (at most " +
                                     str(largest_n) + ")");

  const index_type depth = dimensions == 3 ? n : 1;
  const index_type plane = n * n;
  const index_type num_rows = depth * plane;

  std::vector<GridOffset> offsets;
  const int z_reach = dimensions == 3 ? 1 : 0;
  for (int dz = -z_reach; dz <= z_reach; ++dz) {
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        const int moved_axes = (dz != 0) + (dy != 0) + (dx != 0);
        if (full_box || moved_axes <= 1) offsets.push_back({dz, dy, dx});
      }
    }
  }
  const double diagonal = static_cast<double>(offsets.size() - 1);

  // Box: every axis contributes 3n - 2 (cell, neighbour) pairs along it.
  // Star: each of the 2d directions misses one layer of n^(d-1) cells.
  index_type nnz = 1;
  if (full_box) {
    for (int d = 0; d < dimensions; ++d) nnz *= 3 * n - 2;
  } else {
    const index_type layer = dimensions == 3 ? plane : n;
    nnz = (2 * dimensions + 1) * num_rows - 2 * dimensions * layer;
  }

  HostCsr<double> csr;
  csr.num_rows = num_rows;
  csr.num_cols = num_rows;
  csr.row_offsets.reserve(static_cast<std::size_t>(num_rows) + 1);
  csr.cols.reserve(static_cast<std::size_t>(nnz));
  csr.values.reserve(static_cast<std::size_t>(nnz));

  // inside[axis][offset + 1]: whether the neighbour at that offset along the axis
  // exists for the current cell; refreshed per coordinate change, not per entry.
  bool inside_z[3], inside_y[3], inside_x[3];
  auto fill_inside = [](bool* inside, index_type coordinate, index_type extent) {
    inside[0] = coordinate > 0;
    inside[1] = true;
    inside[2] = coordinate + 1 < extent;
  };

  index_type row = 0;
  for (index_type z = 0; z < depth; ++z) {
    fill_inside(inside_z, z, depth);
    for (index_type y = 0; y < n; ++y) {
      fill_inside(inside_y, y, n);
      for (index_type x = 0; x < n; ++x, ++row) {
        fill_inside(inside_x, x, n);
        for (const GridOffset& o : offsets) {
          if (!(inside_z[o.dz + 1] && inside_y[o.dy + 1] && inside_x[o.dx + 1])) continue;
          const bool is_centre = o.dz == 0 && o.dy == 0 && o.dx == 0;
          csr.cols.push_back(row + o.dz * plane + o.dy * n + o.dx);
          csr.values.push_back(is_centre ? diagonal : -1.0);
        }
        csr.row_offsets.push_back(static_cast<index_type>(csr.cols.size()));
      }
    }
  }
  return csr;
}

// ---------------------------------------------------------------------------
// R-MAT

// A seeded bijection on [0, 2^bits): multiplying by an odd number and adding a
// constant are bijective modulo 2^bits and carry low bits upwards; x ^= x >> s is
// invertible and carries high bits downwards. Three rounds of both mix well
// enough to spread the R-MAT hubs (low labels) over the whole vertex range.
class VertexScrambler {
 public:
  VertexScrambler(std::uint64_t seed, int bits)
      : mask_(bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1), shift_(std::max(1, bits / 2)) {
    SplitMix64 constants(mix64(seed ^ kRmatScrambleStream));
    for (int r = 0; r < kRounds; ++r) {
      multiplier_[r] = constants.next() | 1;
      addend_[r] = constants.next();
    }
  }

  std::uint64_t operator()(std::uint64_t vertex) const {
    for (int r = 0; r < kRounds; ++r) {
      vertex = (vertex * multiplier_[r] + addend_[r]) & mask_;
      vertex ^= vertex >> shift_;
    }
    return vertex;
  }

 private:
  static constexpr int kRounds = 3;
  std::uint64_t mask_;
  int shift_;
  std::uint64_t multiplier_[kRounds];
  std::uint64_t addend_[kRounds];
};

constexpr int kMaxDigitBits = 11;  // 2^11 counters stay in L1

// LSD radix sort of data[0, n) on bits [0, key_bits), alternating between data
// and buffer; returns whichever of the two holds the result. All histograms come
// from one read pass, and a pass whose digit is the same for every key is skipped.
std::uint64_t* lsd_radix_sort(std::uint64_t* data, std::uint64_t* buffer, std::size_t n, int key_bits,
                              std::vector<std::size_t>& counts) {
  if (n < 2 || key_bits <= 0) return data;
  const int passes = (key_bits + kMaxDigitBits - 1) / kMaxDigitBits;
  const int digit_bits = (key_bits + passes - 1) / passes;
  const std::size_t buckets = std::size_t{1} << digit_bits;
  const std::uint64_t digit_mask = buckets - 1;

  counts.assign(static_cast<std::size_t>(passes) * buckets, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t key = data[i];
    for (int p = 0; p < passes; ++p) ++counts[p * buckets + ((key >> (p * digit_bits)) & digit_mask)];
  }
  std::uint64_t* source = data;
  std::uint64_t* target = buffer;
  for (int p = 0; p < passes; ++p) {
    std::size_t* next_slot = &counts[p * buckets];
    if (std::find(next_slot, next_slot + buckets, n) != next_slot + buckets) continue;
    std::size_t running = 0;
    for (std::size_t b = 0; b < buckets; ++b) {
      const std::size_t count = next_slot[b];
      next_slot[b] = running;
      running += count;
    }
    const int shift = p * digit_bits;
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t key = source[i];
      target[next_slot[(key >> shift) & digit_mask]++] = key;
    }
    std::swap(source, target);
  }
  return source;
}

// Radix sort of keys[0, n) whose set bits all lie below key_bits. Large inputs
// are first split on their top digit (one MSD pass); every bucket is then
// LSD-sorted on the remaining bits while it fits in cache, which avoids streaming
// the whole array through memory once per digit. Bucket b of the split occupies
// the same index range in keys and scratch, so the two serve as each other's buffer.
void radix_sort(std::uint64_t* keys, std::size_t n, int key_bits) {
  if (n < 2 || key_bits <= 0) return;
  std::vector<std::uint64_t> scratch(n);
  std::vector<std::size_t> counts;
  constexpr std::size_t kSplitThreshold = std::size_t{1} << 16;
  if (n <= kSplitThreshold || key_bits <= kMaxDigitBits) {
    const std::uint64_t* sorted = lsd_radix_sort(keys, scratch.data(), n, key_bits, counts);
    if (sorted != keys) std::copy(sorted, sorted + n, keys);
    return;
  }

  const int low_bits = key_bits - kMaxDigitBits;
  const std::size_t buckets = std::size_t{1} << kMaxDigitBits;
  std::vector<std::size_t> bucket_start(buckets + 1, 0);
  for (std::size_t i = 0; i < n; ++i) ++bucket_start[(keys[i] >> low_bits) + 1];
  for (std::size_t b = 0; b < buckets; ++b) bucket_start[b + 1] += bucket_start[b];
  std::vector<std::size_t> next_slot(bucket_start.begin(), bucket_start.end() - 1);
  for (std::size_t i = 0; i < n; ++i) scratch[next_slot[keys[i] >> low_bits]++] = keys[i];

  for (std::size_t b = 0; b < buckets; ++b) {
    const std::size_t begin = bucket_start[b], size = bucket_start[b + 1] - begin;
    std::uint64_t* const in_keys = keys + begin;
    const std::uint64_t* sorted = lsd_radix_sort(scratch.data() + begin, in_keys, size, low_bits, counts);
    if (sorted != in_keys) std::copy(sorted, sorted + size, in_keys);
  }
}

// ---------------------------------------------------------------------------
// Uniform random rows

// Sorted sample of `count` distinct values from [0, range), uniformly among all
// such subsets; count <= range.
void sample_sorted_distinct(SplitMix64& rng, index_type range, index_type count, std::vector<index_type>& out) {
  out.clear();
  if (count > range - count) {
    // Selection sampling (Knuth's Algorithm S): one decision per candidate, so
    // linear in range, which here is less than twice the output.
    index_type needed = count;
    for (index_type candidate = 0; needed > 0; ++candidate) {
      const auto remaining = static_cast<std::uint64_t>(range - candidate);
      if (rng.below(remaining) < static_cast<std::uint64_t>(needed)) {
        out.push_back(candidate);
        --needed;
      }
    }
    return;
  }
  // Rejection: at most half the range is taken, so a draw is new with
  // probability >= 1/2. Keeping the first `count` distinct draws of an i.i.d.
  // sequence is uniform over subsets by symmetry.
  const auto range_u = static_cast<std::uint64_t>(range);
  constexpr index_type kInsertionLimit = 32;
  if (count <= kInsertionLimit) {
    while (static_cast<index_type>(out.size()) < count) {
      const auto candidate = static_cast<index_type>(rng.below(range_u));
      const auto at = std::lower_bound(out.begin(), out.end(), candidate);
      if (at == out.end() || *at != candidate) out.insert(at, candidate);
    }
    return;
  }
  // Larger samples draw as many values as are still missing in one batch and
  // deduplicate by sorting. A batch can only complete the sample with its very last draw, so
  // this stops exactly where drawing one at a time would.
  while (static_cast<index_type>(out.size()) < count) {
    const index_type missing = count - static_cast<index_type>(out.size());
    for (index_type i = 0; i < missing; ++i) out.push_back(static_cast<index_type>(rng.below(range_u)));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
}

}  // namespace

HostCsr<double> poisson2d_5pt(index_type n) { return build_stencil("poisson2d_5pt", n, 2, false); }
HostCsr<double> poisson2d_9pt(index_type n) { return build_stencil("poisson2d_9pt", n, 2, true); }
HostCsr<double> poisson3d_7pt(index_type n) { return build_stencil("poisson3d_7pt", n, 3, false); }
HostCsr<double> poisson3d_27pt(index_type n) { return build_stencil("poisson3d_27pt", n, 3, true); }

HostCsr<double> rmat(const RmatParameters& parameters) {
  const int scale = parameters.scale;
  const double a = parameters.a, b = parameters.b, c = parameters.c;
  STRATA_REQUIRE(scale >= 1 && scale <= 40, "rmat: scale must be in [1, 40], got " + std::to_string(scale));
  // Row and column share one 64-bit sort key; beyond 2^32 vertices the sampled
  // edges alone would need more than 64 GiB, so nothing feasible is lost.
  STRATA_REQUIRE(scale <= 32, "rmat: scale " + std::to_string(scale) +
                                  " is too large: at most 32 is supported (2^scale * edge_factor sampled edges "
                                  "take 8 bytes each)");
  STRATA_REQUIRE(parameters.edge_factor >= 1,
                 "rmat: edge_factor must be >= 1, got " + str(parameters.edge_factor));
  STRATA_REQUIRE(parameters.edge_factor <= (kIndexMax >> scale),
                 "rmat: edge_factor * 2^scale overflows 64-bit indices");
  // The tolerance lets probabilities such as 0.6, 0.2, 0.2 through whose decimal
  // sum is 1 but whose floating-point sum may exceed it by an ulp.
  STRATA_REQUIRE(a >= 0 && b >= 0 && c >= 0 && a + b + c <= 1 + 1e-12,
                 "rmat: probabilities need a, b, c >= 0 and a + b + c <= 1, got a = " + std::to_string(a) +
                     ", b = " + std::to_string(b) + ", c = " + std::to_string(c));

  // Quadrant choice compares 32 random bits against cumulative thresholds;
  // scaling by 2^32 is exact, so the thresholds are the same everywhere.
  constexpr double kTwo32 = 4294967296.0;
  auto threshold = [&](double cumulative) {
    return static_cast<std::uint64_t>(std::min(cumulative, 1.0) * kTwo32);
  };
  const std::uint64_t to_b = threshold(a), to_c = threshold(a + b), to_d = threshold(a + b + c);

  const auto num_vertices = static_cast<index_type>(std::uint64_t{1} << scale);
  const index_type num_samples = parameters.edge_factor << scale;
  const std::uint64_t label_mask = (std::uint64_t{1} << scale) - 1;
  const VertexScrambler scramble(parameters.seed, scale);

  // Edges are sorted as 64-bit keys row << scale | col. The keys live in the
  // vector that becomes the column array, so CSR construction overwrites them in
  // place instead of allocating and faulting in another array of that size. They
  // are accessed as unsigned words, which the aliasing rules allow for int64_t storage.
  std::vector<index_type> keys_then_cols(static_cast<std::size_t>(num_samples));
  std::uint64_t* const keys = reinterpret_cast<std::uint64_t*>(keys_then_cols.data());
  SplitMix64 rng(mix64(parameters.seed ^ kRmatEdgeStream));
  for (index_type sample = 0; sample < num_samples; ++sample) {
    std::uint64_t row = 0, col = 0;
    // Below to_c the row bit is 0 and to_b splits a from b; from to_c on it is 1
    // and to_d splits c from d.
    auto descend = [&](std::uint64_t bits32) {
      const bool lower_half = bits32 >= to_c;
      const bool right_half = bits32 >= (lower_half ? to_d : to_b);
      row = 2 * row + lower_half;
      col = 2 * col + right_half;
    };
    int level = 0;
    for (; level + 2 <= scale; level += 2) {
      const std::uint64_t bits = rng.next();
      descend(bits & 0xFFFFFFFFu);
      descend(bits >> 32);
    }
    if (level < scale) descend(rng.next() & 0xFFFFFFFFu);
    keys[sample] = (scramble(row) << scale) | scramble(col);
  }

  radix_sort(keys, static_cast<std::size_t>(num_samples), 2 * scale);
  const auto num_edges = static_cast<std::size_t>(std::unique(keys, keys + num_samples) - keys);

  HostCsr<double> csr;
  csr.num_rows = num_vertices;
  csr.num_cols = num_vertices;
  csr.row_offsets.assign(static_cast<std::size_t>(num_vertices) + 1, 0);
  csr.values.reserve(num_edges);
  const std::uint64_t value_seed = parameters.seed ^ kRmatValueStream;
  for (std::size_t i = 0; i < num_edges; ++i) {
    const std::uint64_t row = keys[i] >> scale, col = keys[i] & label_mask;
    ++csr.row_offsets[row + 1];
    keys[i] = col;
    csr.values.push_back(unit_value(hash_coordinates(value_seed, row, col)));
  }
  keys_then_cols.resize(num_edges);
  // Heavy duplication (small scale, large edge factor) would leave most of the
  // sample-sized buffer unused for the matrix's lifetime.
  if (num_edges < keys_then_cols.capacity() / 2) keys_then_cols.shrink_to_fit();
  csr.cols = std::move(keys_then_cols);
  for (index_type i = 0; i < num_vertices; ++i) csr.row_offsets[i + 1] += csr.row_offsets[i];
  return csr;
}

HostCsr<double> uniform_random(index_type rows, index_type cols, index_type nnz_per_row, std::uint64_t seed) {
  STRATA_REQUIRE(rows >= 0, "uniform_random: rows must be >= 0, got " + str(rows));
  STRATA_REQUIRE(cols >= 1, "uniform_random: cols must be >= 1, got " + str(cols));
  STRATA_REQUIRE(nnz_per_row >= 0 && nnz_per_row <= cols,
                 "uniform_random: nnz_per_row must be in [0, cols = " + str(cols) + "], got " + str(nnz_per_row));
  STRATA_REQUIRE(!product_overflows(rows, nnz_per_row),
                 "uniform_random: rows * nnz_per_row overflows 64-bit indices");

  HostCsr<double> csr;
  csr.num_rows = rows;
  csr.num_cols = cols;
  csr.row_offsets.reserve(static_cast<std::size_t>(rows) + 1);
  csr.cols.reserve(static_cast<std::size_t>(rows * nnz_per_row));
  csr.values.reserve(static_cast<std::size_t>(rows * nnz_per_row));
  std::vector<index_type> chosen;
  chosen.reserve(static_cast<std::size_t>(nnz_per_row));
  for (index_type row = 0; row < rows; ++row) {
    SplitMix64 rng(hash_coordinates(seed ^ kUniformRandomStream, static_cast<std::uint64_t>(row), 0));
    sample_sorted_distinct(rng, cols, nnz_per_row, chosen);
    for (const index_type col : chosen) {
      csr.cols.push_back(col);
      csr.values.push_back(unit_value(rng.next()));
    }
    csr.row_offsets.push_back(static_cast<index_type>(csr.cols.size()));
  }
  return csr;
}

HostCsr<double> hub_rows(index_type rows, index_type nnz_per_row, index_type hubs, index_type hub_length,
                         std::uint64_t seed) {
  STRATA_REQUIRE(rows >= 1, "hub_rows: rows must be >= 1, got " + str(rows));
  STRATA_REQUIRE(nnz_per_row >= 0 && nnz_per_row <= rows,
                 "hub_rows: nnz_per_row must be in [0, rows = " + str(rows) + "], got " + str(nnz_per_row));
  STRATA_REQUIRE(hubs >= 0 && hubs <= rows, "hub_rows: hubs must be in [0, rows], got " + str(hubs));
  STRATA_REQUIRE(hub_length >= 0 && hub_length <= rows,
                 "hub_rows: hub_length must be in [0, rows = " + str(rows) + "], got " + str(hub_length));
  STRATA_REQUIRE(!product_overflows(rows, nnz_per_row) && !product_overflows(hubs, hub_length),
                 "hub_rows: the number of nonzeros overflows 64-bit indices");
  // Hubs are spread evenly: row i is a hub when it starts one of `hubs` equal stretches.
  const index_type stride = hubs > 0 ? rows / hubs : rows + 1;
  HostCsr<double> csr;
  csr.num_rows = rows;
  csr.num_cols = rows;
  csr.row_offsets.reserve(static_cast<std::size_t>(rows) + 1);
  const index_type total = rows * nnz_per_row + hubs * (hub_length > nnz_per_row ? hub_length - nnz_per_row : 0);
  csr.cols.reserve(static_cast<std::size_t>(total));
  csr.values.reserve(static_cast<std::size_t>(total));
  std::vector<index_type> chosen;
  for (index_type row = 0; row < rows; ++row) {
    const bool hub = hubs > 0 && row % stride == 0 && row / stride < hubs;
    SplitMix64 rng(hash_coordinates(seed ^ kUniformRandomStream, static_cast<std::uint64_t>(row), 1));
    sample_sorted_distinct(rng, rows, hub ? hub_length : nnz_per_row, chosen);
    for (const index_type col : chosen) {
      csr.cols.push_back(col);
      csr.values.push_back(unit_value(rng.next()));
    }
    csr.row_offsets.push_back(static_cast<index_type>(csr.cols.size()));
  }
  return csr;
}

HostCsr<double> banded(index_type n, index_type half_bandwidth) {
  STRATA_REQUIRE(n >= 1, "banded: n must be >= 1, got " + str(n));
  STRATA_REQUIRE(half_bandwidth >= 0, "banded: half_bandwidth must be >= 0, got " + str(half_bandwidth));
  const index_type reach = std::min(half_bandwidth, n - 1);
  STRATA_REQUIRE(!product_overflows(n, 2 * reach + 1), "banded: n * (2 * half_bandwidth + 1) overflows 64-bit indices");
  // Full rows minus the two clipped triangles of reach * (reach + 1) / 2 entries.
  const index_type nnz = n * (2 * reach + 1) - reach * (reach + 1);
  const double diagonal = 2.0 * static_cast<double>(half_bandwidth) + 1.0;

  HostCsr<double> csr;
  csr.num_rows = n;
  csr.num_cols = n;
  csr.row_offsets.reserve(static_cast<std::size_t>(n) + 1);
  csr.cols.reserve(static_cast<std::size_t>(nnz));
  csr.values.reserve(static_cast<std::size_t>(nnz));
  for (index_type i = 0; i < n; ++i) {
    const index_type first = std::max<index_type>(0, i - reach), last = std::min(n - 1, i + reach);
    for (index_type j = first; j <= last; ++j) {
      csr.cols.push_back(j);
      csr.values.push_back(j == i ? diagonal : -1.0);
    }
    csr.row_offsets.push_back(static_cast<index_type>(csr.cols.size()));
  }
  return csr;
}

HostCsr<double> dense(index_type rows, index_type cols, std::uint64_t seed) {
  STRATA_REQUIRE(rows >= 0 && cols >= 0,
                 "dense: rows and cols must be >= 0, got " + str(rows) + " x " + str(cols));
  constexpr index_type kMaxEntries = index_type{1} << 31;
  STRATA_REQUIRE(!product_overflows(rows, cols) && rows * cols <= kMaxEntries,
                 "dense: " + str(rows) + " x " + str(cols) + " has more than 2^31 entries");

  HostCsr<double> csr;
  csr.num_rows = rows;
  csr.num_cols = cols;
  csr.row_offsets.reserve(static_cast<std::size_t>(rows) + 1);
  csr.cols.reserve(static_cast<std::size_t>(rows * cols));
  csr.values.reserve(static_cast<std::size_t>(rows * cols));
  for (index_type row = 0; row < rows; ++row) {
    SplitMix64 rng(hash_coordinates(seed ^ kDenseStream, static_cast<std::uint64_t>(row), 0));
    for (index_type col = 0; col < cols; ++col) {
      csr.cols.push_back(col);
      csr.values.push_back(unit_value(rng.next()));
    }
    csr.row_offsets.push_back(static_cast<index_type>(csr.cols.size()));
  }
  return csr;
}

}  // namespace gen

// ---------------------------------------------------------------------------
// Specifications

namespace {

constexpr const char* kSpecPrefix = "gen:";

using GeneratorFunction = HostCsr<double> (*)(const std::vector<std::int64_t>& params);
using SizeFunction = GeneratorSize (*)(const std::vector<std::int64_t>& params);

struct GeneratorKind {
  const char* name;
  std::size_t min_params;
  std::size_t max_params;
  const char* form;
  const char* description;
  GeneratorFunction build;
  SizeFunction size;
};

std::int64_t param_or(const std::vector<std::int64_t>& params, std::size_t i, std::int64_t fallback) {
  return i < params.size() ? params[i] : fallback;
}

constexpr index_type kLargestIndex = std::numeric_limits<index_type>::max();

index_type saturating_multiply(index_type a, index_type b) {
  if (a == 0 || b == 0) return 0;
  return a > kLargestIndex / b ? kLargestIndex : a * b;
}

index_type saturating_add(index_type a, index_type b) { return a > kLargestIndex - b ? kLargestIndex : a + b; }

index_type saturating_power(index_type base, int exponent) {
  index_type result = 1;
  for (int k = 0; k < exponent; ++k) result = saturating_multiply(result, base);
  return result;
}

// A stencil on an n^dimensions grid: one row per cell, at most `points` entries each.
GeneratorSize stencil_size(index_type n, int dimensions, index_type points) {
  const index_type rows = saturating_power(n, dimensions);
  return {rows, rows, saturating_multiply(rows, points)};
}

GeneratorSize rmat_size(const std::vector<std::int64_t>& p) {
  // Beyond 62 the vertex count itself saturates; rmat() refuses more than 40 anyway.
  const index_type vertices = p[0] >= 62 ? kLargestIndex : index_type{1} << p[0];
  return {vertices, vertices, saturating_multiply(vertices, param_or(p, 1, 16))};
}

HostCsr<double> build_rmat(const std::vector<std::int64_t>& params) {
  // Checked here because the narrowing to int below would hide large values.
  STRATA_REQUIRE(params[0] >= 1 && params[0] <= 40, "rmat: scale must be in [1, 40], got " + std::to_string(params[0]));
  gen::RmatParameters rmat;
  rmat.scale = static_cast<int>(params[0]);
  rmat.edge_factor = param_or(params, 1, 16);
  rmat.seed = static_cast<std::uint64_t>(param_or(params, 2, 1));
  return gen::rmat(rmat);
}

const GeneratorKind kGeneratorKinds[] = {
    {"poisson2d", 1, 1, "gen:poisson2d:N", "2D 5-point Laplacian on an N x N grid (N^2 rows)",
     [](const std::vector<std::int64_t>& p) { return gen::poisson2d_5pt(p[0]); },
     [](const std::vector<std::int64_t>& p) { return stencil_size(p[0], 2, 5); }},
    {"poisson2d9", 1, 1, "gen:poisson2d9:N", "2D 9-point stencil on an N x N grid (N^2 rows)",
     [](const std::vector<std::int64_t>& p) { return gen::poisson2d_9pt(p[0]); },
     [](const std::vector<std::int64_t>& p) { return stencil_size(p[0], 2, 9); }},
    {"poisson3d", 1, 1, "gen:poisson3d:N", "3D 7-point Laplacian on an N x N x N grid (N^3 rows)",
     [](const std::vector<std::int64_t>& p) { return gen::poisson3d_7pt(p[0]); },
     [](const std::vector<std::int64_t>& p) { return stencil_size(p[0], 3, 7); }},
    {"poisson3d27", 1, 1, "gen:poisson3d27:N", "3D 27-point stencil on an N x N x N grid (N^3 rows)",
     [](const std::vector<std::int64_t>& p) { return gen::poisson3d_27pt(p[0]); },
     [](const std::vector<std::int64_t>& p) { return stencil_size(p[0], 3, 27); }},
    {"rmat", 1, 3, "gen:rmat:SCALE[:EDGE_FACTOR[:SEED]]",
     "R-MAT power-law graph, 2^SCALE vertices, EDGE_FACTOR * 2^SCALE sampled edges (defaults 16, seed 1)",
     build_rmat, rmat_size},
    {"random", 3, 4, "gen:random:ROWS:COLS:NNZ_PER_ROW[:SEED]",
     "NNZ_PER_ROW distinct uniformly random columns per row (seed default 1)",
     [](const std::vector<std::int64_t>& p) {
       return gen::uniform_random(p[0], p[1], p[2], static_cast<std::uint64_t>(param_or(p, 3, 1)));
     },
     [](const std::vector<std::int64_t>& p) { return GeneratorSize{p[0], p[1], saturating_multiply(p[0], p[2])}; }},
    {"hubs", 4, 5, "gen:hubs:ROWS:NNZ_PER_ROW:HUBS:HUB_LENGTH[:SEED]",
     "random square matrix with NNZ_PER_ROW per row and HUBS evenly spread rows of HUB_LENGTH (seed default 1)",
     [](const std::vector<std::int64_t>& p) {
       return gen::hub_rows(p[0], p[1], p[2], p[3], static_cast<std::uint64_t>(param_or(p, 4, 1)));
     },
     [](const std::vector<std::int64_t>& p) {
       return GeneratorSize{p[0], p[0], saturating_add(saturating_multiply(p[0], p[1]), saturating_multiply(p[2], p[3]))};
     }},
    {"banded", 2, 2, "gen:banded:N:HALF_BANDWIDTH", "N x N band |i - j| <= HALF_BANDWIDTH, diagonally dominant",
     [](const std::vector<std::int64_t>& p) { return gen::banded(p[0], p[1]); },
     [](const std::vector<std::int64_t>& p) {
       return GeneratorSize{p[0], p[0], saturating_multiply(p[0], saturating_add(saturating_multiply(2, p[1]), 1))};
     }},
    {"dense", 1, 3, "gen:dense:ROWS[:COLS[:SEED]]", "fully dense ROWS x COLS (COLS defaults to ROWS, seed to 1)",
     [](const std::vector<std::int64_t>& p) {
       return gen::dense(p[0], param_or(p, 1, p[0]), static_cast<std::uint64_t>(param_or(p, 2, 1)));
     },
     [](const std::vector<std::int64_t>& p) {
       return GeneratorSize{p[0], param_or(p, 1, p[0]), saturating_multiply(p[0], param_or(p, 1, p[0]))};
     }},
};

std::string spec_error_prefix(const std::string& text) { return "generator spec '" + text + "': "; }

const GeneratorKind& find_kind(const std::string& name, const std::string& text) {
  for (const GeneratorKind& kind : kGeneratorKinds) {
    if (name == kind.name) return kind;
  }
  std::string known;
  for (const GeneratorKind& kind : kGeneratorKinds) known += std::string(known.empty() ? "" : ", ") + kind.name;
  throw ArgumentError(spec_error_prefix(text) + "unknown kind '" + name + "'; known kinds: " + known);
}

void check_param_count(const GeneratorKind& kind, std::size_t count, const std::string& text) {
  STRATA_REQUIRE_ARGUMENT(count >= kind.min_params && count <= kind.max_params,
                 spec_error_prefix(text) + "expected the form " + kind.form + ", got " + std::to_string(count) +
                     (count == 1 ? " parameter" : " parameters"));
}

std::int64_t parse_param(const std::string& part, std::size_t position, const std::string& text) {
  const std::string where = spec_error_prefix(text) + "parameter " + std::to_string(position) + " ('" + part + "')";
  STRATA_REQUIRE_ARGUMENT(!part.empty() && std::all_of(part.begin(), part.end(), [](char ch) { return ch >= '0' && ch <= '9'; }),
                 where + " is not a non-negative integer");
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  std::int64_t value = 0;
  for (const char ch : part) {
    const int digit = ch - '0';
    STRATA_REQUIRE_ARGUMENT(value <= (kMax - digit) / 10, where + " is too large (at most " + std::to_string(kMax) + ")");
    value = value * 10 + digit;
  }
  return value;
}

}  // namespace

bool is_generator_spec(const std::string& text) { return text.compare(0, 4, kSpecPrefix) == 0; }

GeneratorSpec parse_generator_spec(const std::string& text) {
  STRATA_REQUIRE_ARGUMENT(is_generator_spec(text), spec_error_prefix(text) + "does not start with '" + kSpecPrefix + "'");
  std::vector<std::string> parts;
  std::size_t start = std::char_traits<char>::length(kSpecPrefix);
  for (;;) {
    const std::size_t colon = text.find(':', start);
    parts.push_back(text.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }

  GeneratorSpec spec;
  spec.text = text;
  spec.kind = parts.front();
  const GeneratorKind& kind = find_kind(spec.kind, text);
  check_param_count(kind, parts.size() - 1, text);
  for (std::size_t i = 1; i < parts.size(); ++i) spec.params.push_back(parse_param(parts[i], i, text));
  return spec;
}

namespace {

// The spec as written, or rebuilt for specs assembled in code.
std::string shown_text(const GeneratorSpec& spec) {
  if (!spec.text.empty()) return spec.text;
  std::string shown = kSpecPrefix + spec.kind;
  for (const std::int64_t p : spec.params) shown += ":" + std::to_string(p);
  return shown;
}

// The kind of a spec whose parameter count and signs are valid.
const GeneratorKind& checked_kind(const GeneratorSpec& spec, const std::string& shown) {
  const GeneratorKind& kind = find_kind(spec.kind, shown);
  check_param_count(kind, spec.params.size(), shown);
  for (std::size_t i = 0; i < spec.params.size(); ++i) {
    STRATA_REQUIRE_ARGUMENT(spec.params[i] >= 0, spec_error_prefix(shown) + "parameter " + std::to_string(i + 1) +
                                                     " (" + std::to_string(spec.params[i]) + ") is negative");
  }
  return kind;
}

}  // namespace

GeneratorSize generator_size(const GeneratorSpec& spec) {
  const std::string shown = shown_text(spec);
  return checked_kind(spec, shown).size(spec.params);
}

HostCsr<double> generate(const GeneratorSpec& spec) {
  const std::string shown = shown_text(spec);
  const GeneratorKind& kind = checked_kind(spec, shown);
  try {
    return kind.build(spec.params);
  } catch (const Error& e) {
    // The generators check their parameters: what they refuse, the caller asked for.
    throw ArgumentError(spec_error_prefix(shown) + e.what());
  } catch (const std::bad_alloc&) {
    throw Error(spec_error_prefix(shown) + "not enough memory to generate this matrix");
  } catch (const std::length_error&) {
    throw Error(spec_error_prefix(shown) + "the matrix is too large to allocate");
  }
}

std::string generator_help() {
  std::size_t width = 0;
  for (const GeneratorKind& kind : kGeneratorKinds) width = std::max(width, std::char_traits<char>::length(kind.form));
  std::string help;
  for (const GeneratorKind& kind : kGeneratorKinds) {
    const std::string form = kind.form;
    help += "  " + form + std::string(width - form.size() + 2, ' ') + kind.description + "\n";
  }
  return help;
}

}  // namespace strata
