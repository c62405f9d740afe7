#include <strata/core/generators.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace strata {
namespace {

using Csr = HostCsr<double>;

Csr transpose(const Csr& a) {
  Csr t;
  t.num_rows = a.num_cols;
  t.num_cols = a.num_rows;
  t.row_offsets.assign(static_cast<std::size_t>(a.num_cols) + 1, 0);
  for (index_type c : a.cols) ++t.row_offsets[c + 1];
  for (index_type i = 0; i < a.num_cols; ++i) t.row_offsets[i + 1] += t.row_offsets[i];
  t.cols.resize(a.cols.size());
  t.values.resize(a.values.size());
  std::vector<index_type> next(t.row_offsets.begin(), t.row_offsets.end() - 1);
  for (index_type i = 0; i < a.num_rows; ++i) {
    for (index_type k = a.row_offsets[i]; k < a.row_offsets[i + 1]; ++k) {
      const index_type slot = next[a.cols[k]]++;
      t.cols[slot] = i;
      t.values[slot] = a.values[k];
    }
  }
  return t;
}

void expect_identical(const Csr& a, const Csr& b) {
  EXPECT_EQ(a.num_rows, b.num_rows);
  EXPECT_EQ(a.num_cols, b.num_cols);
  EXPECT_EQ(a.row_offsets, b.row_offsets);
  EXPECT_EQ(a.cols, b.cols);
  EXPECT_EQ(a.values, b.values);
}

bool identical(const Csr& a, const Csr& b) {
  return a.num_rows == b.num_rows && a.num_cols == b.num_cols && a.row_offsets == b.row_offsets &&
         a.cols == b.cols && a.values == b.values;
}

void expect_values_in_unit_range(const Csr& a) {
  for (double v : a.values) {
    ASSERT_GE(v, 0.5);
    ASSERT_LT(v, 1.5);
  }
}

double value_at(const Csr& a, index_type row, index_type col) {
  const auto first = a.cols.begin() + a.row_offsets[row], last = a.cols.begin() + a.row_offsets[row + 1];
  const auto at = std::lower_bound(first, last, col);
  return at != last && *at == col ? a.values[at - a.cols.begin()] : 0.0;
}

// FNV-1a over the structure and the bit patterns of the values.
std::uint64_t fingerprint(const Csr& a) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  auto feed = [&h](std::uint64_t word) {
    for (int byte = 0; byte < 8; ++byte) {
      h ^= (word >> (8 * byte)) & 0xFF;
      h *= 0x100000001B3ull;
    }
  };
  for (index_type v : a.row_offsets) feed(static_cast<std::uint64_t>(v));
  for (index_type v : a.cols) feed(static_cast<std::uint64_t>(v));
  for (double v : a.values) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    feed(bits);
  }
  return h;
}

template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no strata::Error thrown)";
}

// ---------------------------------------------------------------------------
// Stencils

struct StencilCase {
  const char* name;
  std::function<Csr(index_type)> build;
  int dimensions;
  bool full_box;
  int points;
};

const StencilCase kStencils[] = {
    {"poisson2d_5pt", gen::poisson2d_5pt, 2, false, 5},
    {"poisson2d_9pt", gen::poisson2d_9pt, 2, true, 9},
    {"poisson3d_7pt", gen::poisson3d_7pt, 3, false, 7},
    {"poisson3d_27pt", gen::poisson3d_27pt, 3, true, 27},
};

index_type power(index_type base, int exponent) {
  index_type p = 1;
  for (int i = 0; i < exponent; ++i) p *= base;
  return p;
}

index_type closed_form_nnz(const StencilCase& s, index_type n) {
  if (s.full_box) return power(3 * n - 2, s.dimensions);
  return s.dimensions == 2 ? 5 * n * n - 4 * n : 7 * n * n * n - 6 * n * n;
}

// The stencil from its definition, by comparing every pair of grid cells.
Csr brute_force_stencil(const StencilCase& s, index_type n) {
  const index_type rows = power(n, s.dimensions);
  HostCoo<double> coo(rows, rows);
  auto coordinates = [&](index_type cell, index_type* c) {
    for (int d = s.dimensions - 1; d >= 0; --d) {
      c[d] = cell % n;
      cell /= n;
    }
  };
  for (index_type i = 0; i < rows; ++i) {
    for (index_type j = 0; j < rows; ++j) {
      index_type ci[3], cj[3];
      coordinates(i, ci);
      coordinates(j, cj);
      index_type chebyshev = 0, manhattan = 0;
      for (int d = 0; d < s.dimensions; ++d) {
        const index_type diff = std::abs(ci[d] - cj[d]);
        chebyshev = std::max(chebyshev, diff);
        manhattan += diff;
      }
      const bool neighbour = s.full_box ? chebyshev <= 1 : manhattan <= 1;
      if (neighbour) coo.push_back(i, j, i == j ? s.points - 1.0 : -1.0);
    }
  }
  return to_csr(coo);
}

TEST(Generators, StencilNnzMatchesClosedForms) {
  for (const StencilCase& s : kStencils) {
    for (index_type n : {1, 2, 3, 17}) {
      SCOPED_TRACE(std::string(s.name) + " n=" + std::to_string(n));
      const Csr a = s.build(n);
      EXPECT_NO_THROW(a.validate());
      EXPECT_EQ(a.num_rows, power(n, s.dimensions));
      EXPECT_EQ(a.num_cols, a.num_rows);
      EXPECT_EQ(a.nnz(), closed_form_nnz(s, n));
    }
  }
}

TEST(Generators, StencilsMatchBruteForceDefinition) {
  for (const StencilCase& s : kStencils) {
    for (index_type n : {1, 2, 3, 5}) {
      SCOPED_TRACE(std::string(s.name) + " n=" + std::to_string(n));
      expect_identical(s.build(n), brute_force_stencil(s, n));
    }
  }
  // The 5-point centre cell of a 3 x 3 grid, spelled out.
  const Csr a = gen::poisson2d_5pt(3);
  EXPECT_EQ(std::vector<index_type>(a.cols.begin() + a.row_offsets[4], a.cols.begin() + a.row_offsets[5]),
            (std::vector<index_type>{1, 3, 4, 5, 7}));
}

TEST(Generators, StencilsAreSymmetric) {
  for (const StencilCase& s : kStencils) {
    for (index_type n : {2, 3, 17}) {
      SCOPED_TRACE(std::string(s.name) + " n=" + std::to_string(n));
      const Csr a = s.build(n);
      expect_identical(a, transpose(a));
    }
  }
}

TEST(Generators, StencilDiagonalAndRowSums) {
  for (const StencilCase& s : kStencils) {
    for (index_type n : {1, 2, 3, 17}) {
      SCOPED_TRACE(std::string(s.name) + " n=" + std::to_string(n));
      const Csr a = s.build(n);
      index_type interior_rows = 0;
      for (index_type i = 0; i < a.num_rows; ++i) {
        double sum = 0;
        bool has_diagonal = false;
        for (index_type k = a.row_offsets[i]; k < a.row_offsets[i + 1]; ++k) {
          if (a.cols[k] == i) {
            has_diagonal = true;
            ASSERT_EQ(a.values[k], s.points - 1.0);
          } else {
            ASSERT_EQ(a.values[k], -1.0);
          }
          sum += a.values[k];
        }
        ASSERT_TRUE(has_diagonal) << "row " << i;
        if (a.row_offsets[i + 1] - a.row_offsets[i] == s.points) {
          ++interior_rows;
          ASSERT_EQ(sum, 0.0) << "interior row " << i;
        } else {
          ASSERT_GT(sum, 0.0) << "boundary row " << i;
        }
      }
      EXPECT_EQ(interior_rows, n >= 2 ? power(n - 2, s.dimensions) : 0);
    }
  }
}

TEST(Generators, StencilsRejectNonPositiveSize) {
  EXPECT_NE(error_of([] { gen::poisson2d_5pt(0); }).find("n must be >= 1"), std::string::npos);
  EXPECT_NE(error_of([] { gen::poisson3d_27pt(-4); }).find("poisson3d_27pt"), std::string::npos);
  EXPECT_NE(error_of([] { gen::poisson3d_7pt(index_type{1} << 40); }).find("too large"), std::string::npos);
}

TEST(Generators, ModeratelyLargePoisson3d) {
  const index_type n = 64;
  const Csr a = gen::poisson3d_7pt(n);
  ASSERT_NO_THROW(a.validate());
  EXPECT_EQ(a.num_rows, n * n * n);
  EXPECT_EQ(a.nnz(), 7 * n * n * n - 6 * n * n);
  EXPECT_EQ(a.nnz(), 1810432);
  expect_identical(a, transpose(a));
  // Row r couples to r +- 1, r +- n, r +- n^2; check one interior row exactly.
  const index_type r = (n / 2) * n * n + (n / 2) * n + n / 2;
  EXPECT_EQ(std::vector<index_type>(a.cols.begin() + a.row_offsets[r], a.cols.begin() + a.row_offsets[r + 1]),
            (std::vector<index_type>{r - n * n, r - n, r - 1, r, r + 1, r + n, r + n * n}));
  double total = 0;
  for (double v : a.values) total += v;
  // Each of the 6 faces has n^2 cells missing one neighbour: sum of all rows = 6 n^2.
  EXPECT_EQ(total, 6.0 * n * n);
}

// ---------------------------------------------------------------------------
// Banded

TEST(Generators, BandedStructureAndValues) {
  for (index_type n : {1, 2, 5, 17}) {
    for (index_type h : {0, 1, 3, 16, 40}) {
      SCOPED_TRACE("n=" + std::to_string(n) + " h=" + std::to_string(h));
      const Csr a = gen::banded(n, h);
      ASSERT_NO_THROW(a.validate());
      const index_type reach = std::min(h, n - 1);
      EXPECT_EQ(a.nnz(), n * (2 * reach + 1) - reach * (reach + 1));
      expect_identical(a, transpose(a));
      HostCoo<double> reference(n, n);
      for (index_type i = 0; i < n; ++i) {
        for (index_type j = 0; j < n; ++j) {
          if (std::abs(i - j) <= h) reference.push_back(i, j, i == j ? 2.0 * h + 1 : -1.0);
        }
      }
      expect_identical(a, to_csr(reference));
      for (index_type i = 0; i < n; ++i) {
        double sum = 0;
        for (index_type k = a.row_offsets[i]; k < a.row_offsets[i + 1]; ++k) sum += a.values[k];
        const bool interior = i >= h && i + h <= n - 1;
        if (interior) {
          ASSERT_EQ(sum, 1.0) << "row " << i;
        } else {
          ASSERT_GT(sum, 1.0) << "row " << i;
        }
      }
    }
  }
  EXPECT_NE(error_of([] { gen::banded(0, 1); }).find("banded: n must be >= 1"), std::string::npos);
  EXPECT_NE(error_of([] { gen::banded(4, -1); }).find("half_bandwidth"), std::string::npos);
}

// ---------------------------------------------------------------------------
// R-MAT

gen::RmatParameters rmat_parameters(int scale, index_type edge_factor, std::uint64_t seed) {
  gen::RmatParameters p;
  p.scale = scale;
  p.edge_factor = edge_factor;
  p.seed = seed;
  return p;
}

TEST(Generators, RmatIsDeterministicAndSeedDependent) {
  const Csr a = gen::rmat(rmat_parameters(10, 16, 7));
  const Csr b = gen::rmat(rmat_parameters(10, 16, 7));
  const Csr c = gen::rmat(rmat_parameters(10, 16, 8));
  expect_identical(a, b);
  EXPECT_FALSE(identical(a, c));
  EXPECT_NE(a.cols, c.cols);
}

TEST(Generators, RandomGeneratorsMatchRecordedFingerprints) {
  // Pin the exact output, so that a change of the sampling, the permutation or
  // the value hash, or a platform difference, shows up as a failure.
  const Csr rmat = gen::rmat(rmat_parameters(8, 4, 1));
  EXPECT_EQ(rmat.nnz(), 864);
  EXPECT_EQ(fingerprint(rmat), 8078760520007774182ull);
  EXPECT_EQ(fingerprint(gen::uniform_random(20, 50, 6, 3)), 2328648038291425667ull);
  EXPECT_EQ(fingerprint(gen::uniform_random(20, 500, 100, 3)), 13852863949230404260ull);
  EXPECT_EQ(fingerprint(gen::uniform_random(20, 50, 40, 3)), 16757553468674562311ull);
  EXPECT_EQ(fingerprint(gen::dense(4, 5, 2)), 2834930819915877907ull);
}

TEST(Generators, RmatStructure) {
  const int scale = 14;
  const index_type edge_factor = 16;
  const Csr a = gen::rmat(rmat_parameters(scale, edge_factor, 1));
  ASSERT_NO_THROW(a.validate());  // validate() also rules out duplicates: columns strictly increase
  EXPECT_EQ(a.num_rows, index_type{1} << scale);
  EXPECT_EQ(a.num_cols, index_type{1} << scale);
  EXPECT_LE(a.nnz(), edge_factor << scale);
  EXPECT_GT(a.nnz(), (edge_factor << scale) / 2);
  expect_values_in_unit_range(a);

  index_type max_degree = 0;
  for (index_type i = 0; i < a.num_rows; ++i) {
    max_degree = std::max(max_degree, a.row_offsets[i + 1] - a.row_offsets[i]);
  }
  const double mean_degree = static_cast<double>(a.nnz()) / static_cast<double>(a.num_rows);
  EXPECT_GT(static_cast<double>(max_degree), 10 * mean_degree);

  // Hubs must be scattered by the permutation, not left at the lowest labels.
  index_type heaviest_row = 0;
  for (index_type i = 0; i < a.num_rows; ++i) {
    if (a.row_offsets[i + 1] - a.row_offsets[i] == max_degree) heaviest_row = i;
  }
  EXPECT_NE(heaviest_row, 0);
}

TEST(Generators, RmatValueDependsOnlyOnCoordinates) {
  // A larger edge factor continues the same sample sequence, so every edge of
  // the smaller graph recurs, typically sampled more often; its value must not
  // change. The two sizes also take the two paths of the edge sort (below and
  // above the size where it first splits on the top digit), so this cross-checks them.
  const Csr small = gen::rmat(rmat_parameters(13, 2, 3));
  const Csr large = gen::rmat(rmat_parameters(13, 16, 3));
  ASSERT_NO_THROW(large.validate());
  ASSERT_GT(large.nnz(), small.nnz());
  for (index_type i = 0; i < small.num_rows; ++i) {
    for (index_type k = small.row_offsets[i]; k < small.row_offsets[i + 1]; ++k) {
      ASSERT_EQ(value_at(large, i, small.cols[k]), small.values[k]) << "(" << i << ", " << small.cols[k] << ")";
    }
  }
}

TEST(Generators, RmatPermutationIsABijection) {
  // With equal quadrant probabilities and ~25 samples per cell every cell of the
  // matrix is hit, which can only happen if the vertex relabelling is onto.
  for (int scale : {1, 2, 5}) {
    SCOPED_TRACE("scale=" + std::to_string(scale));
    gen::RmatParameters p = rmat_parameters(scale, 25 << scale, 11);
    p.a = p.b = p.c = 0.25;
    const Csr a = gen::rmat(p);
    ASSERT_NO_THROW(a.validate());
    EXPECT_EQ(a.nnz(), a.num_rows * a.num_cols);
  }
  // All mass in quadrant a: every sample is (0, 0) before relabelling, and rows
  // and columns share the permutation, so one diagonal entry remains.
  gen::RmatParameters p = rmat_parameters(12, 32, 5);
  p.a = 1;
  p.b = p.c = 0;
  const Csr a = gen::rmat(p);
  ASSERT_EQ(a.nnz(), 1);
  const index_type row = std::upper_bound(a.row_offsets.begin(), a.row_offsets.end(), 0) - a.row_offsets.begin() - 1;
  EXPECT_EQ(a.cols[0], row);
}

TEST(Generators, RmatRejectsInvalidParameters) {
  const std::string scale_range = "scale must be in [1, 40]";
  EXPECT_NE(error_of([] { gen::rmat(rmat_parameters(0, 16, 1)); }).find(scale_range), std::string::npos);
  EXPECT_NE(error_of([] { gen::rmat(rmat_parameters(41, 16, 1)); }).find(scale_range), std::string::npos);
  EXPECT_NE(error_of([] { gen::rmat(rmat_parameters(33, 1, 1)); }).find("at most 32"), std::string::npos);
  EXPECT_NE(error_of([] { gen::rmat(rmat_parameters(10, 0, 1)); }).find("edge_factor"), std::string::npos);
  gen::RmatParameters p = rmat_parameters(10, 16, 1);
  p.a = -0.1;
  EXPECT_NE(error_of([&] { gen::rmat(p); }).find("probabilities"), std::string::npos);
  p.a = 0.6;
  p.b = 0.3;
  p.c = 0.2;
  EXPECT_NE(error_of([&] { gen::rmat(p); }).find("a + b + c <= 1"), std::string::npos);
}

// ---------------------------------------------------------------------------
// Uniform random and dense

TEST(Generators, UniformRandomRowsHaveDistinctSortedColumns) {
  struct Case {
    index_type rows, cols, per_row;
  };
  // Covers the insertion path (small samples), batch rejection (larger samples
  // of at most half the columns), selection sampling (more than half), full rows and empty rows.
  for (const Case c : {Case{300, 1000, 5}, Case{200, 1000, 200}, Case{200, 1000, 700}, Case{50, 37, 37},
                       Case{40, 10, 0}, Case{0, 10, 3}, Case{100, 1, 1}}) {
    SCOPED_TRACE(std::to_string(c.rows) + "x" + std::to_string(c.cols) + " per row " + std::to_string(c.per_row));
    const Csr a = gen::uniform_random(c.rows, c.cols, c.per_row, 9);
    ASSERT_NO_THROW(a.validate());
    EXPECT_EQ(a.num_rows, c.rows);
    EXPECT_EQ(a.num_cols, c.cols);
    EXPECT_EQ(a.nnz(), c.rows * c.per_row);
    for (index_type i = 0; i < a.num_rows; ++i) ASSERT_EQ(a.row_offsets[i + 1] - a.row_offsets[i], c.per_row);
    expect_values_in_unit_range(a);
    expect_identical(a, gen::uniform_random(c.rows, c.cols, c.per_row, 9));
    if (c.rows > 0 && c.per_row > 0 && c.per_row < c.cols) {
      EXPECT_FALSE(identical(a, gen::uniform_random(c.rows, c.cols, c.per_row, 10)));
    }
  }
}

TEST(Generators, UniformRandomColumnsAreUniform) {
  // Column hit counts are binomial; the bounds are about six standard deviations wide.
  struct Case {
    index_type rows, cols, per_row;
  };
  for (const Case c : {Case{4000, 100, 10}, Case{400, 1000, 100}, Case{400, 100, 70}}) {
    SCOPED_TRACE(std::to_string(c.cols) + " cols, per row " + std::to_string(c.per_row));
    const Csr a = gen::uniform_random(c.rows, c.cols, c.per_row, 4);
    std::vector<index_type> hits(static_cast<std::size_t>(c.cols), 0);
    for (index_type col : a.cols) ++hits[col];
    const double p = static_cast<double>(c.per_row) / static_cast<double>(c.cols);
    const double mean = static_cast<double>(c.rows) * p;
    const double spread = 6 * std::sqrt(mean * (1 - p));
    for (index_type col = 0; col < c.cols; ++col) {
      ASSERT_NEAR(static_cast<double>(hits[col]), mean, spread) << "column " << col;
    }
  }
}

TEST(Generators, UniformRandomRejectsInvalidArguments) {
  EXPECT_NE(error_of([] { gen::uniform_random(10, 5, 6, 1); }).find("nnz_per_row must be in [0, cols = 5]"),
            std::string::npos);
  EXPECT_NE(error_of([] { gen::uniform_random(10, 0, 0, 1); }).find("cols must be >= 1"), std::string::npos);
  EXPECT_NE(error_of([] { gen::uniform_random(-1, 5, 1, 1); }).find("rows must be >= 0"), std::string::npos);
  EXPECT_NE(error_of([] { gen::uniform_random(index_type{1} << 40, index_type{1} << 40, index_type{1} << 30, 1); })
                .find("overflows"),
            std::string::npos);
}

TEST(Generators, DenseIsFull) {
  const Csr a = gen::dense(13, 7, 3);
  ASSERT_NO_THROW(a.validate());
  EXPECT_EQ(a.nnz(), 13 * 7);
  for (index_type i = 0; i < a.num_rows; ++i) {
    for (index_type j = 0; j < a.num_cols; ++j) ASSERT_EQ(a.cols[i * 7 + j], j);
  }
  expect_values_in_unit_range(a);
  expect_identical(a, gen::dense(13, 7, 3));
  EXPECT_NE(a.values, gen::dense(13, 7, 4).values);
  EXPECT_EQ(gen::dense(0, 5, 1).nnz(), 0);
  EXPECT_NO_THROW(gen::dense(0, 5, 1).validate());
  EXPECT_NE(error_of([] { gen::dense(index_type{1} << 16, (index_type{1} << 15) + 1, 1); }).find("2^31"),
            std::string::npos);
  EXPECT_NE(error_of([] { gen::dense(index_type{1} << 40, index_type{1} << 40, 1); }).find("2^31"), std::string::npos);
  EXPECT_NE(error_of([] { gen::dense(-1, 3, 1); }).find("dense"), std::string::npos);
}

// ---------------------------------------------------------------------------
// Specifications

TEST(GeneratorSpecs, RecognisesPrefix) {
  EXPECT_TRUE(is_generator_spec("gen:poisson3d:4"));
  EXPECT_TRUE(is_generator_spec("gen:"));
  EXPECT_FALSE(is_generator_spec("gen"));
  EXPECT_FALSE(is_generator_spec("matrices/gen:x.mtx"));
  EXPECT_FALSE(is_generator_spec(""));
}

TEST(GeneratorSpecs, ParsesEveryDocumentedForm) {
  struct Case {
    const char* text;
    const char* kind;
    std::vector<std::int64_t> params;
  };
  const Case cases[] = {
      {"gen:poisson2d:10", "poisson2d", {10}},
      {"gen:poisson2d9:10", "poisson2d9", {10}},
      {"gen:poisson3d:007", "poisson3d", {7}},
      {"gen:poisson3d27:3", "poisson3d27", {3}},
      {"gen:rmat:12", "rmat", {12}},
      {"gen:rmat:12:8", "rmat", {12, 8}},
      {"gen:rmat:12:8:99", "rmat", {12, 8, 99}},
      {"gen:random:100:50:4", "random", {100, 50, 4}},
      {"gen:random:100:50:4:18446744", "random", {100, 50, 4, 18446744}},
      {"gen:banded:100:3", "banded", {100, 3}},
      {"gen:dense:5", "dense", {5}},
      {"gen:dense:5:6", "dense", {5, 6}},
      {"gen:dense:5:6:9223372036854775807", "dense", {5, 6, INT64_MAX}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const GeneratorSpec spec = parse_generator_spec(c.text);
    EXPECT_EQ(spec.kind, c.kind);
    EXPECT_EQ(spec.params, c.params);
    EXPECT_EQ(spec.text, c.text);
  }
}

TEST(GeneratorSpecs, RejectsMalformedSpecsNamingThem) {
  struct Case {
    const char* text;
    const char* detail;
  };
  const Case cases[] = {
      {"gen:poisson3d:abc", "parameter 1 ('abc') is not a non-negative integer"},
      {"gen:poisson3d:12x", "parameter 1 ('12x') is not a non-negative integer"},
      {"gen:poisson3d:", "parameter 1 ('') is not a non-negative integer"},
      {"gen:poisson3d:-3", "parameter 1 ('-3') is not a non-negative integer"},
      {"gen:poisson3d:+3", "parameter 1 ('+3') is not a non-negative integer"},
      {"gen:poisson3d: 3", "parameter 1 (' 3') is not a non-negative integer"},
      {"gen:rmat:10:1.5", "parameter 2 ('1.5') is not a non-negative integer"},
      {"gen:random:10::3", "parameter 2 ('') is not a non-negative integer"},
      {"gen:poisson3d:9223372036854775808", "parameter 1 ('9223372036854775808') is too large"},
      {"gen:dense:99999999999999999999999", "is too large"},
      {"gen:poisson3d", "expected the form gen:poisson3d:N, got 0 parameters"},
      {"gen:poisson3d:1:2", "expected the form gen:poisson3d:N, got 2 parameters"},
      {"gen:rmat:10:16:1:5", "expected the form gen:rmat:SCALE[:EDGE_FACTOR[:SEED]]"},
      {"gen:random:10:10", "expected the form gen:random:ROWS:COLS:NNZ_PER_ROW[:SEED]"},
      {"gen:banded:10", "expected the form gen:banded:N:HALF_BANDWIDTH"},
      {"gen:dense", "expected the form gen:dense:ROWS[:COLS[:SEED]]"},
      {"gen:laplace:3", "unknown kind 'laplace'; known kinds: poisson2d, poisson2d9, poisson3d, poisson3d27, rmat, "
                        "random, hubs, banded, dense"},
      {"gen:", "unknown kind ''"},
      {"gen:Poisson3d:3", "unknown kind 'Poisson3d'"},
      {"poisson3d:3", "does not start with 'gen:'"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const std::string message = error_of([&] { parse_generator_spec(c.text); });
    EXPECT_NE(message.find(std::string("generator spec '") + c.text + "'"), std::string::npos) << message;
    EXPECT_NE(message.find(c.detail), std::string::npos) << message;
  }
}

TEST(GeneratorSpecs, GenerateDispatchesWithDefaults) {
  expect_identical(generate(parse_generator_spec("gen:poisson2d:6")), gen::poisson2d_5pt(6));
  expect_identical(generate(parse_generator_spec("gen:poisson2d9:6")), gen::poisson2d_9pt(6));
  expect_identical(generate(parse_generator_spec("gen:poisson3d:4")), gen::poisson3d_7pt(4));
  expect_identical(generate(parse_generator_spec("gen:poisson3d27:4")), gen::poisson3d_27pt(4));
  expect_identical(generate(parse_generator_spec("gen:rmat:8")), gen::rmat(rmat_parameters(8, 16, 1)));
  expect_identical(generate(parse_generator_spec("gen:rmat:8:4")), gen::rmat(rmat_parameters(8, 4, 1)));
  expect_identical(generate(parse_generator_spec("gen:rmat:8:4:5")), gen::rmat(rmat_parameters(8, 4, 5)));
  expect_identical(generate(parse_generator_spec("gen:random:30:20:4")), gen::uniform_random(30, 20, 4, 1));
  expect_identical(generate(parse_generator_spec("gen:random:30:20:4:6")), gen::uniform_random(30, 20, 4, 6));
  expect_identical(generate(parse_generator_spec("gen:banded:30:2")), gen::banded(30, 2));
  expect_identical(generate(parse_generator_spec("gen:dense:6")), gen::dense(6, 6, 1));
  expect_identical(generate(parse_generator_spec("gen:dense:6:3")), gen::dense(6, 3, 1));
  expect_identical(generate(parse_generator_spec("gen:dense:6:3:2")), gen::dense(6, 3, 2));

  // A spec built in code, without text, works and is named from its parts.
  GeneratorSpec spec;
  spec.kind = "banded";
  spec.params = {5, 1};
  expect_identical(generate(spec), gen::banded(5, 1));
  spec.params = {5, -1};
  const std::string message = error_of([&] { generate(spec); });
  EXPECT_NE(message.find("generator spec 'gen:banded:5:-1': parameter 2 (-1) is negative"), std::string::npos)
      << message;
}

TEST(GeneratorSpecs, GenerateReportsArgumentErrorsWithTheSpec) {
  struct Case {
    const char* text;
    const char* detail;
  };
  const Case cases[] = {
      {"gen:poisson3d:0", "n must be >= 1"},
      {"gen:rmat:0", "scale must be in [1, 40], got 0"},
      {"gen:rmat:41", "scale must be in [1, 40], got 41"},
      {"gen:rmat:5000000000", "scale must be in [1, 40], got 5000000000"},
      {"gen:rmat:10:0", "edge_factor must be >= 1"},
      {"gen:random:10:5:6", "nnz_per_row must be in [0, cols = 5], got 6"},
      {"gen:banded:0:2", "n must be >= 1"},
      {"gen:dense:100000", "more than 2^31 entries"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const std::string message = error_of([&] { generate(parse_generator_spec(c.text)); });
    EXPECT_NE(message.find(std::string("generator spec '") + c.text + "': "), std::string::npos) << message;
    EXPECT_NE(message.find(c.detail), std::string::npos) << message;
  }
  GeneratorSpec unknown;
  unknown.kind = "nope";
  EXPECT_NE(error_of([&] { generate(unknown); }).find("unknown kind 'nope'"), std::string::npos);
}

TEST(HubRows, FewEvenlySpreadLongRowsAndUniformRest) {
  const auto m = generate(parse_generator_spec("gen:hubs:1000:5:4:900:7"));
  EXPECT_NO_THROW(m.validate());
  EXPECT_EQ(m.num_rows, 1000);
  EXPECT_EQ(m.num_cols, 1000);
  EXPECT_EQ(m.nnz(), 996 * 5 + 4 * 900);
  for (index_type i = 0; i < m.num_rows; ++i) {
    const index_type len = m.row_offsets[i + 1] - m.row_offsets[i];
    EXPECT_EQ(len, i % 250 == 0 ? 900 : 5) << "row " << i;
  }
  const auto again = gen::hub_rows(1000, 5, 4, 900, 7);
  EXPECT_EQ(again.cols, m.cols);
  EXPECT_EQ(again.values, m.values);
  EXPECT_THROW(gen::hub_rows(10, 2, 11, 3, 1), Error);
  EXPECT_THROW(gen::hub_rows(10, 2, 1, 11, 1), Error);
}

TEST(GeneratorSpecs, HelpHasOneLinePerKind) {
  const std::string help = generator_help();
  EXPECT_EQ(std::count(help.begin(), help.end(), '\n'), 9);
  for (const char* form : {"gen:poisson2d:N", "gen:poisson2d9:N", "gen:poisson3d:N", "gen:poisson3d27:N",
                           "gen:rmat:SCALE[:EDGE_FACTOR[:SEED]]", "gen:random:ROWS:COLS:NNZ_PER_ROW[:SEED]",
                           "gen:hubs:ROWS:NNZ_PER_ROW:HUBS:HUB_LENGTH[:SEED]", "gen:banded:N:HALF_BANDWIDTH",
                           "gen:dense:ROWS[:COLS[:SEED]]"}) {
    EXPECT_NE(help.find(form), std::string::npos) << form;
  }
}

}  // namespace
}  // namespace strata
