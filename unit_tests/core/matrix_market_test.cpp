#include "matrix_test_support.hpp"
#include "test_files.hpp"

#include <strata/core/error.hpp>
#include <strata/core/matrix_files.hpp>
#include <strata/core/matrix_market.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using strata::FileError;
using strata::HostCoo;
using strata::index_type;
using strata::MatrixMarketReport;
using strata::MatrixMarketWriteOptions;
using strata::MmField;
using strata::MmFormat;
using strata::MmSymmetry;
using ComplexFloat = Kokkos::complex<float>;
using ComplexDouble = Kokkos::complex<double>;
using namespace strata::test;

// ---- helpers ------------------------------------------------------------------

// ---- to_string and headers ----------------------------------------------------

TEST(MatrixMarketNames, ToStringNamesEveryKeyword) {
  EXPECT_STREQ(strata::to_string(MmFormat::coordinate), "coordinate");
  EXPECT_STREQ(strata::to_string(MmFormat::array), "array");
  EXPECT_STREQ(strata::to_string(MmField::real), "real");
  EXPECT_STREQ(strata::to_string(MmField::integer), "integer");
  EXPECT_STREQ(strata::to_string(MmField::complex), "complex");
  EXPECT_STREQ(strata::to_string(MmField::pattern), "pattern");
  EXPECT_STREQ(strata::to_string(MmSymmetry::general), "general");
  EXPECT_STREQ(strata::to_string(MmSymmetry::symmetric), "symmetric");
  EXPECT_STREQ(strata::to_string(MmSymmetry::skew_symmetric), "skew-symmetric");
  EXPECT_STREQ(strata::to_string(MmSymmetry::hermitian), "hermitian");
}

class MatrixMarketFiles : public ::testing::Test {
 protected:
  TemporaryDirectory directory;
};

// What the benchmarks' --matrix-dir and the real-matrix tests read: the .mtx and .mtx.gz files,
// sorted, nothing else; a path that is not a directory is refused by name.
TEST_F(MatrixMarketFiles, ListedFromADirectorySortedAndNothingElse) {
  directory.write_text("b.mtx", "");
  directory.write_gzip("a.mtx.gz", "");
  directory.write_text("notes.txt", "");
  EXPECT_EQ(strata::matrix_files_in(directory.path()),
            (std::vector<std::string>{directory.file("a.mtx.gz"), directory.file("b.mtx")}));
  const std::string missing = directory.file("absent");
  try {
    strata::matrix_files_in(missing);
    ADD_FAILURE() << "a missing directory must be refused";
  } catch (const strata::ArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
  }
}

TEST_F(MatrixMarketFiles, HeaderOfCoordinateFileIgnoresTheEntries) {
  // The entries are garbage: reading the header must not look at them.
  const std::string path = directory.write_text(
      "header.mtx", "%%MatrixMarket matrix coordinate complex hermitian\n% comment\n\n5 5 7\nnot an entry\n");
  const strata::MatrixMarketHeader header = strata::read_matrix_market_header(path);
  EXPECT_EQ(header.format, MmFormat::coordinate);
  EXPECT_EQ(header.field, MmField::complex);
  EXPECT_EQ(header.symmetry, MmSymmetry::hermitian);
  EXPECT_EQ(header.num_rows, 5);
  EXPECT_EQ(header.num_cols, 5);
  EXPECT_EQ(header.stored_entries, 7);
}

TEST_F(MatrixMarketFiles, HeaderOfArrayFileCountsTheStoredTriangle) {
  const std::string general = directory.write_gzip("general.mtx.gz", "%%MatrixMarket matrix array real general\n4 3\n");
  const std::string symmetric = directory.write_text("sym.mtx", "%%MatrixMarket matrix array integer symmetric\n4 4\n");
  const std::string skew = directory.write_text("skew.mtx", "%%MatrixMarket matrix array real skew-symmetric\n4 4\n");
  EXPECT_EQ(strata::read_matrix_market_header(general).stored_entries, 12);
  EXPECT_EQ(strata::read_matrix_market_header(symmetric).stored_entries, 10);
  EXPECT_EQ(strata::read_matrix_market_header(skew).stored_entries, 6);
  EXPECT_EQ(strata::read_matrix_market_header(general).format, MmFormat::array);
  EXPECT_EQ(strata::read_matrix_market_header(symmetric).field, MmField::integer);
}

TEST_F(MatrixMarketFiles, HeaderErrorsAreFileErrors) {
  const std::string bad = directory.write_text("bad_header.mtx", "%%MatrixMarket matrix coordinate real general\n3 3\n");
  expect_located(expect_file_error(bad, [&] { strata::read_matrix_market_header(bad); }), bad, 2, "lacks entries");
  const std::string missing = directory.file("missing.mtx");
  expect_located(expect_file_error(missing, [&] { strata::read_matrix_market_header(missing); }), missing, 0,
                 "No such file");
  // A first line that cannot be a banner is reported without reading further.
  const std::string binary = directory.write_text("binary.mtx", std::string(200000, 'x'));
  expect_located(expect_file_error(binary, [&] { strata::read_matrix_market_header(binary); }), binary, 1,
                 "not a Matrix Market file");
}

// ---- hand-checked small files -------------------------------------------------

TEST(MatrixMarketParse, SymmetricFileExpandsToBothTriangles) {
  const std::string text =
      "%%MatrixMarket matrix coordinate real symmetric\n"
      "% a comment\n"
      "3 3 4\n"
      "1 1 2.0\n"
      "2 1 -1\n"
      "3 2 0.5\n"
      "3 3 4e0\n";
  MatrixMarketReport report;
  const HostCoo<double> matrix = strata::parse_matrix_market<double>(text, "sym.mtx", &report);
  expect_same_matrix(matrix, make_matrix<double>(3, 3,
                                                 {{0, 0, 2.0, 0},
                                                  {0, 1, -1.0, 0},
                                                  {1, 0, -1.0, 0},
                                                  {1, 2, 0.5, 0},
                                                  {2, 1, 0.5, 0},
                                                  {2, 2, 4.0, 0}}));
  EXPECT_EQ(report.header.symmetry, MmSymmetry::symmetric);
  EXPECT_EQ(report.header.stored_entries, 4);
  EXPECT_EQ(report.entries, 6);
  EXPECT_EQ(report.duplicates_summed, 0);
}

TEST(MatrixMarketParse, SkewSymmetricFileNegatesTheMirror) {
  const std::string text =
      "%%MatrixMarket matrix coordinate real skew-symmetric\n"
      "3 3 2\n"
      "2 1 3\n"
      "3 1 -2\n";
  const HostCoo<double> matrix = strata::parse_matrix_market<double>(text, "skew.mtx");
  expect_same_matrix(matrix,
                     make_matrix<double>(3, 3, {{0, 1, -3.0, 0}, {0, 2, 2.0, 0}, {1, 0, 3.0, 0}, {2, 0, -2.0, 0}}));
}

TEST(MatrixMarketParse, HermitianFileConjugatesTheMirror) {
  const std::string text =
      "%%MatrixMarket matrix coordinate complex hermitian\n"
      "2 2 3\n"
      "1 1 2 0\n"
      "2 1 1 2\n"
      "2 2 3 -0\n";
  const HostCoo<ComplexDouble> matrix = strata::parse_matrix_market<ComplexDouble>(text, "herm.mtx");
  expect_same_matrix(matrix, make_matrix<ComplexDouble>(
                                 2, 2, {{0, 0, 2, 0}, {0, 1, 1, -2}, {1, 0, 1, 2}, {1, 1, 3, 0}}));
  const HostCoo<ComplexFloat> single = strata::parse_matrix_market<ComplexFloat>(text, "herm.mtx");
  expect_same_matrix(single, make_matrix<ComplexFloat>(
                                 2, 2, {{0, 0, 2, 0}, {0, 1, 1, -2}, {1, 0, 1, 2}, {1, 1, 3, 0}}));
}

TEST(MatrixMarketParse, ArrayFileIsColumnMajorAndKeepsExplicitZeros) {
  const std::string text =
      "%%MatrixMarket matrix array real general\n"
      "2 3\n"
      "1\n2\n3\n0\n5\n6\n";
  const HostCoo<double> matrix = strata::parse_matrix_market<double>(text, "array.mtx");
  expect_same_matrix(matrix, make_matrix<double>(2, 3,
                                                 {{0, 0, 1, 0},
                                                  {0, 1, 3, 0},
                                                  {0, 2, 5, 0},
                                                  {1, 0, 2, 0},
                                                  {1, 1, 0, 0},
                                                  {1, 2, 6, 0}}));
}

TEST(MatrixMarketParse, SymmetricArrayFileStoresTheLowerTriangleByColumns) {
  const std::string text =
      "%%MatrixMarket matrix array real symmetric\n"
      "3 3\n"
      "1\n2\n3\n4\n5\n6\n";
  const HostCoo<double> matrix = strata::parse_matrix_market<double>(text, "array_sym.mtx");
  // Lower triangle by columns: (1,1)=1 (2,1)=2 (3,1)=3 (2,2)=4 (3,2)=5 (3,3)=6.
  expect_same_matrix(matrix, make_matrix<double>(3, 3,
                                                 {{0, 0, 1, 0},
                                                  {0, 1, 2, 0},
                                                  {0, 2, 3, 0},
                                                  {1, 0, 2, 0},
                                                  {1, 1, 4, 0},
                                                  {1, 2, 5, 0},
                                                  {2, 0, 3, 0},
                                                  {2, 1, 5, 0},
                                                  {2, 2, 6, 0}}));
}

TEST(MatrixMarketParse, SkewArrayFileStoresTheStrictlyLowerTriangle) {
  const std::string text =
      "%%MatrixMarket matrix array real skew-symmetric\n"
      "3 3\n"
      "1\n2\n3\n";
  MatrixMarketReport report;
  const HostCoo<double> matrix = strata::parse_matrix_market<double>(text, "array_skew.mtx", &report);
  // (2,1)=1 (3,1)=2 (3,2)=3; the zero diagonal is not stored and not returned.
  expect_same_matrix(matrix, make_matrix<double>(3, 3,
                                                 {{0, 1, -1, 0},
                                                  {0, 2, -2, 0},
                                                  {1, 0, 1, 0},
                                                  {1, 2, -3, 0},
                                                  {2, 0, 2, 0},
                                                  {2, 1, 3, 0}}));
  EXPECT_EQ(report.header.stored_entries, 3);
  EXPECT_EQ(report.entries, 6);
}

TEST(MatrixMarketParse, HermitianArrayFile) {
  const std::string text =
      "%%MatrixMarket matrix array complex hermitian\n"
      "2 2\n"
      "1 0\n"
      "2 -3\n"
      "4 0\n";
  const HostCoo<ComplexDouble> matrix = strata::parse_matrix_market<ComplexDouble>(text, "array_herm.mtx");
  expect_same_matrix(matrix, make_matrix<ComplexDouble>(
                                 2, 2, {{0, 0, 1, 0}, {0, 1, 2, 3}, {1, 0, 2, -3}, {1, 1, 4, 0}}));
}

TEST(MatrixMarketParse, PatternEntriesGetOne) {
  const std::string text =
      "%%MatrixMarket matrix coordinate pattern general\n"
      "3 4 3\n"
      "3 4\n"
      "1 1\n"
      "2 3\n";
  const HostCoo<float> matrix = strata::parse_matrix_market<float>(text, "pattern.mtx");
  expect_same_matrix(matrix, make_matrix<float>(3, 4, {{0, 0, 1, 0}, {1, 2, 1, 0}, {2, 3, 1, 0}}));
  const std::string symmetric =
      "%%MatrixMarket matrix coordinate pattern symmetric\n"
      "2 2 2\n"
      "2 1\n"
      "2 2\n";
  expect_same_matrix(strata::parse_matrix_market<ComplexDouble>(symmetric, "pattern_sym.mtx"),
                     make_matrix<ComplexDouble>(2, 2, {{0, 1, 1, 0}, {1, 0, 1, 0}, {1, 1, 1, 0}}));
}

TEST(MatrixMarketParse, IntegerAndRealFieldsReadIntoComplex) {
  const std::string integer =
      "%%MatrixMarket matrix coordinate integer general\n"
      "2 2 2\n"
      "1 2 -7\n"
      "2 1 +12\n";
  expect_same_matrix(strata::parse_matrix_market<ComplexFloat>(integer, "int.mtx"),
                     make_matrix<ComplexFloat>(2, 2, {{0, 1, -7, 0}, {1, 0, 12, 0}}));
  const std::string real =
      "%%MatrixMarket matrix coordinate real general\n"
      "1 1 1\n"
      "1 1 0.25\n";
  expect_same_matrix(strata::parse_matrix_market<ComplexDouble>(real, "real.mtx"),
                     make_matrix<ComplexDouble>(1, 1, {{0, 0, 0.25, 0}}));
}

TEST(MatrixMarketParse, NumberSyntaxVariants) {
  const std::string text =
      "%%MatrixMarket matrix coordinate real general\n"
      "1 8 8\n"
      "1 1 +1.5\n"
      "1 2 -.5\n"
      "1 3 5.\n"
      "1 4 1E+2\n"
      "1 5 -2.5e-3\n"
      "+1 +6 +25e-2\n"
      "1 7 1e-320\n"
      "1 8 -0\n";
  const HostCoo<double> matrix = strata::parse_matrix_market<double>(text, "numbers.mtx");
  expect_same_matrix(matrix, make_matrix<double>(1, 8,
                                                 {{0, 0, 1.5, 0},
                                                  {0, 1, -0.5, 0},
                                                  {0, 2, 5.0, 0},
                                                  {0, 3, 100.0, 0},
                                                  {0, 4, -2.5e-3, 0},
                                                  {0, 5, 0.25, 0},
                                                  {0, 6, 1e-320, 0},
                                                  {0, 7, 0.0, 0}}));
  EXPECT_TRUE(std::signbit(matrix.values[7]));
}

TEST(MatrixMarketParse, LenientOnWhitespaceCaseAndLineEndings) {
  // CRLF line endings, tabs, repeated blanks, blank and comment lines between
  // entries, upper-case keywords and no final newline.
  const std::string text =
      "%%MatrixMarket MATRIX Coordinate REAL General\r\n"
      "\r\n"
      "% comment\r\n"
      "  2\t2   2  \r\n"
      "\r\n"
      "1\t1  3.5\r\n"
      "% comment among entries\r\n"
      "   \t\r\n"
      "2 2 -1";
  const HostCoo<double> matrix = strata::parse_matrix_market<double>(text, "crlf.mtx");
  expect_same_matrix(matrix, make_matrix<double>(2, 2, {{0, 0, 3.5, 0}, {1, 1, -1, 0}}));
}

TEST(MatrixMarketParse, EmptyMatrices) {
  const HostCoo<double> zero =
      strata::parse_matrix_market<double>("%%MatrixMarket matrix coordinate real general\n0 0 0\n", "zero.mtx");
  EXPECT_EQ(zero.num_rows, 0);
  EXPECT_EQ(zero.num_cols, 0);
  EXPECT_EQ(zero.nnz(), 0);
  const HostCoo<double> no_entries =
      strata::parse_matrix_market<double>("%%MatrixMarket matrix coordinate real general\n5 7 0\n", "none.mtx");
  EXPECT_EQ(no_entries.num_rows, 5);
  EXPECT_EQ(no_entries.num_cols, 7);
  EXPECT_EQ(no_entries.nnz(), 0);
  // No rows but a huge column count: nothing to read, and nothing to iterate over.
  const HostCoo<double> no_rows = strata::parse_matrix_market<double>(
      "%%MatrixMarket matrix array real general\n0 1099511627776\n", "no_rows.mtx");
  EXPECT_EQ(no_rows.num_cols, index_type{1} << 40);
  EXPECT_EQ(no_rows.nnz(), 0);
}

TEST(MatrixMarketParse, IndicesBeyondThirtyTwoBits) {
  const std::string text =
      "%%MatrixMarket matrix coordinate real general\n"
      "2199023255552 2199023255552 2\n"
      "1099511627777 3 1.25\n"
      "2 2199023255552 -4\n";
  const HostCoo<double> matrix = strata::parse_matrix_market<double>(text, "huge.mtx");
  const index_type two_to_40 = index_type{1} << 40;
  expect_same_matrix(matrix, make_matrix<double>(2 * two_to_40, 2 * two_to_40,
                                                 {{1, 2 * two_to_40 - 1, -4, 0}, {two_to_40, 2, 1.25, 0}}));
}

TEST(MatrixMarketParse, DuplicatesAreSummedAndCounted) {
  const std::string general =
      "%%MatrixMarket matrix coordinate real general\n"
      "3 2 5\n"
      "2 1 1\n"
      "1 1 0.5\n"
      "2 1 2\n"
      "1 1 0.25\n"
      "2 1 4\n";
  MatrixMarketReport report;
  expect_same_matrix(strata::parse_matrix_market<double>(general, "dup.mtx", &report),
                     make_matrix<double>(3, 2, {{0, 0, 0.75, 0}, {1, 0, 7, 0}}));
  EXPECT_EQ(report.duplicates_summed, 3);
  EXPECT_EQ(report.entries, 2);
  EXPECT_EQ(report.header.stored_entries, 5);

  // A repeated off-diagonal entry of a symmetric file is one duplicate, although
  // its mirror is repeated too; mirrors themselves are not duplicates.
  const std::string symmetric =
      "%%MatrixMarket matrix coordinate real symmetric\n"
      "3 3 4\n"
      "2 1 1\n"
      "2 1 2\n"
      "1 1 5\n"
      "2 2 6\n";
  expect_same_matrix(strata::parse_matrix_market<double>(symmetric, "dup_sym.mtx", &report),
                     make_matrix<double>(3, 3, {{0, 0, 5, 0}, {0, 1, 3, 0}, {1, 0, 3, 0}, {1, 1, 6, 0}}));
  EXPECT_EQ(report.duplicates_summed, 1);
  EXPECT_EQ(report.entries, 4);

  const std::string diagonal =
      "%%MatrixMarket matrix coordinate real symmetric\n"
      "2 2 3\n"
      "1 1 1\n"
      "1 1 2\n"
      "1 1 4\n";
  expect_same_matrix(strata::parse_matrix_market<double>(diagonal, "dup_diag.mtx", &report),
                     make_matrix<double>(2, 2, {{0, 0, 7, 0}}));
  EXPECT_EQ(report.duplicates_summed, 2);
}

// ---- gzip and file handling ---------------------------------------------------

TEST_F(MatrixMarketFiles, GzipIsRecognisedByContentNotName) {
  const std::string text = "%%MatrixMarket matrix coordinate real general\n2 2 1\n2 1 3.5\n";
  const HostCoo<double> expected = make_matrix<double>(2, 2, {{1, 0, 3.5, 0}});
  expect_same_matrix(strata::read_matrix_market<double>(directory.write_gzip("compressed.mtx", text)), expected);
  expect_same_matrix(strata::read_matrix_market<double>(directory.write_text("plain.mtx.gz", text)), expected);
  expect_same_matrix(strata::read_matrix_market<double>(directory.write_gzip("proper.mtx.gz", text)), expected);

  // Several gzip blocks and several read chunks.
  std::string long_text = "%%MatrixMarket matrix coordinate integer general\n20000 1 20000\n";
  HostCoo<double> long_expected(20000, 1);
  for (index_type row = 0; row < 20000; ++row) {
    long_text += std::to_string(row + 1) + " 1 " + std::to_string(row * 3) + "\n";
    long_expected.push_back(row, 0, static_cast<double>(row * 3));
  }
  ASSERT_GT(long_text.size(), 3u * 65535u);
  expect_same_matrix(strata::read_matrix_market<double>(directory.write_gzip("long.mtx.gz", long_text)),
                     long_expected);
}

TEST_F(MatrixMarketFiles, ParseErrorsInsideGzipNameTheLine) {
  const std::string path = directory.write_gzip(
      "bad_entry.mtx.gz", "%%MatrixMarket matrix coordinate real general\n% c\n2 2 2\n1 1 1\n2 x 1\n");
  expect_located(expect_file_error(path, [&] { strata::read_matrix_market<double>(path); }), path, 5,
                 "column index 'x'");
}

// A compressed file large enough that its middle lies well inside the deflate data.
std::string write_large_gzip_matrix(const TemporaryDirectory& directory, const std::string& name, index_type* lines) {
  HostCoo<double> matrix(500, 500);
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  // 40 distinct columns in each row: 13 is invertible modulo 500.
  for (index_type k = 0; k < 20000; ++k) matrix.push_back(k / 40, (k * 13) % 500, value(random));
  matrix.sort_and_combine();
  const std::string path = directory.file(name);
  strata::write_matrix_market(path, matrix);
  *lines = 3 + matrix.nnz();
  return path;
}

TEST_F(MatrixMarketFiles, TruncatedGzipIsReported) {
  index_type lines = 0;
  const std::string path = write_large_gzip_matrix(directory, "truncated.mtx.gz", &lines);
  EXPECT_EQ(strata::read_matrix_market<double>(path).nnz(), 20000);
  const std::uintmax_t full_size = fs::file_size(path);
  for (const std::uintmax_t size : {full_size / 2, full_size - 4, std::uintmax_t{12}}) {
    SCOPED_TRACE("truncated to " + std::to_string(size) + " of " + std::to_string(full_size) + " bytes");
    const std::string copy = directory.file("truncated_copy.mtx.gz");
    fs::copy_file(path, copy, fs::copy_options::overwrite_existing);
    fs::resize_file(copy, size);
    const FileError error = expect_file_error(copy, [&] { strata::read_matrix_market<double>(copy); });
    EXPECT_EQ(error.path(), copy);
    EXPECT_TRUE(contains(error.what(), copy)) << error.what();
    EXPECT_TRUE(contains(error.reason(), "gzip")) << error.what();
    EXPECT_TRUE(contains(error.reason(), "truncated") || contains(error.reason(), "unexpected end of file"))
        << error.what();
    EXPECT_GE(error.line(), 0);
    // Cutting only the trailer leaves every line complete.
    EXPECT_LE(error.line(), lines);
    EXPECT_EQ(std::string(error.what()).rfind(location_prefix(copy, error.line()), 0), 0u) << error.what();
  }
}

TEST_F(MatrixMarketFiles, CorruptGzipIsReported) {
  index_type lines = 0;
  const std::string path = write_large_gzip_matrix(directory, "corrupt.mtx.gz", &lines);
  std::string bytes = read_bytes(path);
  const std::size_t middle = bytes.size() / 2;
  for (std::size_t k = middle; k < middle + 16; ++k) bytes[k] = static_cast<char>(bytes[k] ^ 0x5a);
  const std::string corrupt = directory.write_text("corrupt_copy.mtx.gz", bytes);
  const FileError error = expect_file_error(corrupt, [&] { strata::read_matrix_market<double>(corrupt); });
  EXPECT_EQ(error.path(), corrupt);
  EXPECT_TRUE(contains(error.reason(), "gzip")) << error.what();
  EXPECT_GE(error.line(), 0);
  EXPECT_LT(error.line(), lines);
  EXPECT_EQ(std::string(error.what()).rfind(location_prefix(corrupt, error.line()), 0), 0u) << error.what();
}

TEST_F(MatrixMarketFiles, MissingAndUnreadableFiles) {
  const std::string missing = directory.file("does_not_exist.mtx");
  expect_located(expect_file_error(missing, [&] { strata::read_matrix_market<double>(missing); }), missing, 0,
                 "No such file or directory");
  const std::string folder = directory.file("a_directory.mtx");
  fs::create_directory(folder);
  const FileError error = expect_file_error(folder, [&] { strata::read_matrix_market<double>(folder); });
  EXPECT_EQ(error.path(), folder);
  EXPECT_TRUE(contains(error.reason(), "Is a directory")) << error.what();
}

// ---- bad input ----------------------------------------------------------------

enum class ReadAs { real_double, real_float, complex_double };

struct BadInput {
  const char* name;
  std::string content;
  std::int64_t line;
  const char* reason_part;
  ReadAs read_as = ReadAs::real_double;
};

std::ostream& operator<<(std::ostream& out, const BadInput& input) { return out << input.name; }

const std::string coordinate_banner = "%%MatrixMarket matrix coordinate real general\n";
const std::string symmetric_banner = "%%MatrixMarket matrix coordinate real symmetric\n";
const std::string complex_banner = "%%MatrixMarket matrix coordinate complex general\n";

std::vector<BadInput> bad_inputs() {
  return {
      {"empty_file", "", 0, "file is empty"},
      {"missing_banner", "3 3 1\n1 1 1\n", 1, "not a Matrix Market file"},
      {"misspelled_banner", "%%MatrixMarkt matrix coordinate real general\n1 1 1\n1 1 1\n", 1,
       "not a Matrix Market file"},
      {"single_percent_banner", "%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\n", 1,
       "not a Matrix Market file"},
      {"banner_after_blank_line", "\n%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\n", 1,
       "not a Matrix Market file"},
      {"object_missing", "%%MatrixMarket coordinate real general\n1 1 1\n1 1 1\n", 1, "only 'matrix'"},
      {"object_vector", "%%MatrixMarket vector coordinate real general\n1 1 1\n1 1 1\n", 1, "only 'matrix'"},
      {"unknown_format", "%%MatrixMarket matrix coordinates real general\n1 1 1\n1 1 1\n", 1, "unknown format"},
      {"unknown_field", "%%MatrixMarket matrix coordinate double general\n1 1 1\n1 1 1\n", 1, "unknown field"},
      {"unknown_symmetry", "%%MatrixMarket matrix coordinate real symmetrical\n1 1 1\n1 1 1\n", 1,
       "unknown symmetry"},
      {"banner_without_symmetry", "%%MatrixMarket matrix coordinate real\n1 1 1\n1 1 1\n", 1, "lacks the symmetry"},
      {"banner_without_field", "%%MatrixMarket matrix coordinate\n1 1 1\n1 1 1\n", 1, "lacks the field"},
      {"banner_extra_word", "%%MatrixMarket matrix coordinate real general extra\n1 1 1\n1 1 1\n", 1,
       "unexpected 'extra'"},
      {"array_pattern", "%%MatrixMarket matrix array pattern general\n1 1\n", 1, "array pattern"},
      {"hermitian_real_field", "%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n", 1,
       "'hermitian' requires the complex field"},
      {"pattern_skew", "%%MatrixMarket matrix coordinate pattern skew-symmetric\n2 2 1\n2 1\n", 1,
       "pattern skew-symmetric"},
      {"no_size_line", coordinate_banner + "% only a comment\n\n", 3, "ends before the size line"},
      {"size_missing_entries", coordinate_banner + "% comment\n\n3 3\n1 1 1\n", 4, "lacks entries"},
      {"size_missing_cols", coordinate_banner + "3\n", 2, "lacks cols"},
      {"size_non_numeric", coordinate_banner + "3 x 3\n", 2, "cols 'x'"},
      {"size_negative", coordinate_banner + "-3 3 1\n1 1 1\n", 2, "rows '-3'"},
      {"size_fraction", coordinate_banner + "3.0 3 1\n1 1 1\n", 2, "rows '3.0'"},
      {"size_overflow", coordinate_banner + "99999999999999999999 3 1\n1 1 1\n", 2, "rows '99999999999999999999'"},
      {"size_extra_token", coordinate_banner + "3 3 1 7\n1 1 1\n", 2, "unexpected '7'"},
      {"size_too_many_entries", coordinate_banner + "2 2 5\n", 2, "more than the 4 positions"},
      {"size_array_extra_token", "%%MatrixMarket matrix array real general\n2 2 4\n1\n2\n3\n4\n", 2,
       "unexpected '4'"},
      {"symmetric_not_square", symmetric_banner + "3 4 1\n1 1 1\n", 2, "must be square"},
      {"symmetric_too_many_entries", symmetric_banner + "2 2 4\n", 2, "more than the 3 positions"},
      {"too_few_entries", coordinate_banner + "3 3 3\n1 1 1\n2 2 2\n", 4, "ends after 2 of the 3 entries"},
      {"too_few_entries_trailing_blank_lines", coordinate_banner + "3 3 3\n1 1 1\n\n\n", 5,
       "ends after 1 of the 3 entries"},
      {"too_few_entries_none", coordinate_banner + "3 3 3\n", 2, "ends after 0 of the 3 entries"},
      {"too_many_entries", coordinate_banner + "3 3 1\n1 1 1\n\n2 2 2\n3 3 3\n", 5, "surplus entry"},
      {"row_out_of_range", coordinate_banner + "3 3 2\n1 1 1\n4 1 1\n", 4, "row index 4 is outside 1..3"},
      {"column_out_of_range", coordinate_banner + "3 2 1\n1 3 1\n", 3, "column index 3 is outside 1..2"},
      {"row_index_zero", coordinate_banner + "3 3 1\n0 1 1\n", 3, "row index 0 is outside 1..3"},
      {"column_index_negative", coordinate_banner + "3 3 1\n1 -2 1\n", 3, "column index -2 is outside"},
      {"index_not_integer", coordinate_banner + "3 3 1\n1.0 1 1\n", 3, "row index '1.0' is not an integer"},
      {"index_plus_minus", coordinate_banner + "3 3 1\n+-1 1 1\n", 3, "row index '+-1' is not an integer"},
      {"index_overflow", coordinate_banner + "3 3 1\n1 99999999999999999999 1\n", 3, "column index"},
      {"missing_column", coordinate_banner + "3 3 1\n1\n", 3, "lacks the column index"},
      {"missing_value", coordinate_banner + "3 3 1\n1 1\n", 3, "the value is missing"},
      {"value_garbage", coordinate_banner + "3 3 1\n1 1 abc\n", 3, "value 'abc' is not a number"},
      {"value_trailing_garbage", coordinate_banner + "3 3 1\n1 1 1.5x\n", 3, "value '1.5x' is not a number"},
      {"value_plus_minus", coordinate_banner + "3 3 1\n1 1 +-1\n", 3, "value '+-1' is not a number"},
      {"value_comma_decimal", coordinate_banner + "3 3 1\n1 1 1,5\n", 3, "value '1,5' is not a number"},
      {"value_nan", coordinate_banner + "3 3 1\n1 1 nan\n", 3, "not finite"},
      {"value_infinity", coordinate_banner + "3 3 1\n1 1 -inf\n", 3, "not finite"},
      {"value_overflow", coordinate_banner + "3 3 1\n1 1 1e999\n", 3, "out of range"},
      {"value_overflows_float", coordinate_banner + "3 3 1\n1 1 1e300\n", 3, "overflows the requested type float",
       ReadAs::real_float},
      {"value_hexadecimal", coordinate_banner + "3 3 1\n1 1 0x1p-2\n", 3, "'0x1p-2' is hexadecimal floating point"},
      {"value_hexadecimal_negative", coordinate_banner + "3 3 1\n1 1 -0X10\n", 3, "is hexadecimal"},
      {"value_underflows_double", coordinate_banner + "3 3 1\n1 1 1e-400\n", 3,
       "'1e-400' underflows to zero in double"},
      {"value_underflows_float", coordinate_banner + "3 3 1\n1 1 -1e-50\n", 3, "'-1e-50' underflows to zero in float",
       ReadAs::real_float},
      {"complex_imaginary_underflows", complex_banner + "3 3 1\n1 1 1 1e-999\n", 3,
       "imaginary part '1e-999' underflows to zero", ReadAs::complex_double},
      {"value_nan_word_uppercase", coordinate_banner + "3 3 1\n1 1 NaN\n", 3, "'NaN' is not finite"},
      {"value_infinity_word", coordinate_banner + "3 3 1\n1 1 +Infinity\n", 3, "not finite"},
      {"value_nan_payload", coordinate_banner + "3 3 1\n1 1 nan(1)\n", 3, "is not a number"},
      {"value_exponent_without_digits", coordinate_banner + "3 3 1\n1 1 1e+\n", 3, "'1e+' is not a number"},
      {"value_point_only", coordinate_banner + "3 3 1\n1 1 .\n", 3, "'.' is not a number"},
      {"value_two_points", coordinate_banner + "3 3 1\n1 1 1.2.3\n", 3, "'1.2.3' is not a number"},
      {"line_too_long", coordinate_banner + "% " + std::string(std::size_t{1} << 21, 'x') + "\n3 3 0\n", 2,
       "line longer than 1048576 bytes"},
      {"extra_token", coordinate_banner + "3 3 2\n1 1 1\n2 2 2 3\n", 4, "unexpected '3'"},
      {"trailing_comment_token", coordinate_banner + "3 3 1\n1 1 1 % note\n", 3, "unexpected '%'"},
      {"pattern_with_value", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 5\n", 3,
       "unexpected '5'"},
      {"integer_with_fraction", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 1.5\n", 3,
       "'1.5' is not an integer"},
      {"integer_with_exponent", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 1e3\n", 3,
       "'1e3' is not an integer"},
      {"complex_one_number", complex_banner + "3 3 2\n1 1 1 0\n2 2 2.5\n", 4, "imaginary part is missing",
       ReadAs::complex_double},
      {"complex_bad_imaginary", complex_banner + "3 3 1\n1 1 1 i\n", 3, "imaginary part 'i' is not a number",
       ReadAs::complex_double},
      {"complex_three_numbers", complex_banner + "3 3 1\n1 1 1 2 3\n", 3, "unexpected '3'", ReadAs::complex_double},
      {"complex_into_double", complex_banner + "3 3 1\n1 1 1 0\n", 1, "the file is complex"},
      {"complex_into_float", complex_banner + "3 3 1\n1 1 1 0\n", 1, "requested value type 'float' is real",
       ReadAs::real_float},
      {"complex_array_into_float", "%%MatrixMarket matrix array complex general\n1 1\n1 0\n", 1,
       "requested value type 'float' is real", ReadAs::real_float},
      {"symmetric_upper_entry", symmetric_banner + "3 3 2\n1 1 1\n1 2 5\n", 4, "above the diagonal"},
      {"skew_diagonal", "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 2 1\n", 3,
       "diagonal entry (2, 2) in a skew-symmetric file"},
      {"hermitian_complex_diagonal", "%%MatrixMarket matrix coordinate complex hermitian\n2 2 1\n1 1 1 0.5\n", 3,
       "nonzero imaginary part", ReadAs::complex_double},
      {"hermitian_upper_entry", "%%MatrixMarket matrix coordinate complex hermitian\n2 2 1\n1 2 1 0.5\n", 3,
       "above the diagonal", ReadAs::complex_double},
      {"array_too_few", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", 5,
       "ends after 3 of the 4 entries"},
      {"array_too_many", "%%MatrixMarket matrix array real general\n2 1\n1\n2\n3\n", 5, "surplus entry"},
      {"array_two_values_on_a_line", "%%MatrixMarket matrix array real general\n2 1\n1 2\n", 3, "unexpected '2'"},
      {"array_symmetric_too_many", "%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n4\n", 6,
       "surplus entry"},
      {"array_hermitian_complex_diagonal", "%%MatrixMarket matrix array complex hermitian\n2 2\n1 0\n2 1\n3 1\n",
       5, "nonzero imaginary part", ReadAs::complex_double},
      {"second_banner", coordinate_banner + "2 2 2\n1 1 1\n" + coordinate_banner + "2 2 1\n", 4,
       "second '%%MatrixMarket' banner"},
      {"binary_garbage", std::string("\x7f" "ELF\x02\x01\x01\0\0\0", 10) + "\n", 1, "not a Matrix Market file"},
      {"nul_inside_value", coordinate_banner + "1 1 1\n1 1 1" + std::string(1, '\0') + "5\n", 3,
       "is not a number"},
  };
}

class MatrixMarketBadInput : public ::testing::TestWithParam<BadInput> {
 protected:
  TemporaryDirectory directory;
};

template <class Value>
void expect_bad_input(const BadInput& input, const std::string& path) {
  expect_located(expect_file_error(path, [&] { strata::read_matrix_market<Value>(path); }), path, input.line,
                 input.reason_part);
  // The in-memory parser reports the same defect under the given name.
  const std::string name = std::string(input.name) + " (in memory)";
  expect_located(expect_file_error(name, [&] { strata::parse_matrix_market<Value>(input.content, name); }), name,
                 input.line, input.reason_part);
}

TEST_P(MatrixMarketBadInput, ThrowsFileErrorNamingFileAndLine) {
  const BadInput& input = GetParam();
  const std::string path = directory.write_text(std::string(input.name) + ".mtx", input.content);
  switch (input.read_as) {
    case ReadAs::real_double: expect_bad_input<double>(input, path); break;
    case ReadAs::real_float: expect_bad_input<float>(input, path); break;
    case ReadAs::complex_double: expect_bad_input<ComplexDouble>(input, path); break;
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, MatrixMarketBadInput, ::testing::ValuesIn(bad_inputs()),
                         [](const ::testing::TestParamInfo<BadInput>& info) { return std::string(info.param.name); });

// ---- round trips --------------------------------------------------------------

enum class ValueKind { float_values, double_values, complex_float_values, complex_double_values };

const char* value_kind_name(ValueKind kind) {
  switch (kind) {
    case ValueKind::float_values: return "float";
    case ValueKind::double_values: return "double";
    case ValueKind::complex_float_values: return "complex_float";
    case ValueKind::complex_double_values: return "complex_double";
  }
  return "unknown";
}

struct RoundTrip {
  ValueKind kind;
  MmSymmetry symmetry;
  MmFormat format;
  bool gzip;
};

std::string round_trip_name(const RoundTrip& trip) {
  std::string symmetry = strata::to_string(trip.symmetry);
  for (char& c : symmetry) {
    if (c == '-') c = '_';
  }
  return std::string(value_kind_name(trip.kind)) + "_" + symmetry + "_" + strata::to_string(trip.format) +
         (trip.gzip ? "_gz" : "_plain");
}

std::ostream& operator<<(std::ostream& out, const RoundTrip& trip) { return out << round_trip_name(trip); }

std::vector<RoundTrip> round_trips() {
  std::vector<RoundTrip> trips;
  const ValueKind kinds[] = {ValueKind::float_values, ValueKind::double_values, ValueKind::complex_float_values,
                             ValueKind::complex_double_values};
  const MmSymmetry symmetries[] = {MmSymmetry::general, MmSymmetry::symmetric, MmSymmetry::skew_symmetric,
                                   MmSymmetry::hermitian};
  for (const ValueKind kind : kinds) {
    const bool complex = kind == ValueKind::complex_float_values || kind == ValueKind::complex_double_values;
    for (const MmSymmetry symmetry : symmetries) {
      if (symmetry == MmSymmetry::hermitian && !complex) continue;
      for (const MmFormat format : {MmFormat::coordinate, MmFormat::array}) {
        for (const bool gzip : {false, true}) trips.push_back({kind, symmetry, format, gzip});
      }
    }
  }
  return trips;
}

template <class Value>
void check_round_trip(const RoundTrip& trip, const TemporaryDirectory& directory) {
  const bool square = trip.symmetry != MmSymmetry::general;
  const bool array = trip.format == MmFormat::array;
  const index_type rows = array ? 7 : 60;
  const index_type cols = square ? rows : (array ? 5 : 45);
  const std::size_t positions = array ? 12 : 300;
  const HostCoo<Value> matrix = random_matrix<Value>(trip.symmetry, rows, cols, positions, 1234);

  MatrixMarketWriteOptions options;
  options.format = trip.format;
  options.symmetry = trip.symmetry;
  const std::string path = directory.file(round_trip_name(trip) + (trip.gzip ? ".mtx.gz" : ".mtx"));
  strata::write_matrix_market(path, matrix, options);

  const std::string bytes = read_bytes(path);
  ASSERT_GE(bytes.size(), 2u);
  const bool has_gzip_magic = static_cast<unsigned char>(bytes[0]) == 0x1f && static_cast<unsigned char>(bytes[1]) == 0x8b;
  EXPECT_EQ(has_gzip_magic, trip.gzip);
  if (!trip.gzip) {
    const std::string banner = std::string("%%MatrixMarket matrix ") + strata::to_string(trip.format) + " " +
                               (strata::value_traits<Value>::is_complex ? "complex" : "real") + " " +
                               strata::to_string(trip.symmetry) + "\n% written by Strata\n";
    EXPECT_EQ(bytes.rfind(banner, 0), 0u) << bytes.substr(0, 120);
  }

  MatrixMarketReport report;
  const HostCoo<Value> back = strata::read_matrix_market<Value>(path, &report);
  expect_same_matrix(back, array ? as_dense(matrix, trip.symmetry) : matrix);
  EXPECT_EQ(report.header.format, trip.format);
  EXPECT_EQ(report.header.symmetry, trip.symmetry);
  EXPECT_EQ(report.header.field, strata::value_traits<Value>::is_complex ? MmField::complex : MmField::real);
  EXPECT_EQ(report.duplicates_summed, 0);
  EXPECT_EQ(report.entries, back.nnz());
  EXPECT_EQ(directory.listing().size(), 1u) << "a temporary file was left behind";
}

class MatrixMarketRoundTrip : public ::testing::TestWithParam<RoundTrip> {
 protected:
  TemporaryDirectory directory;
};

TEST_P(MatrixMarketRoundTrip, ReadsBackExactly) {
  const RoundTrip& trip = GetParam();
  switch (trip.kind) {
    case ValueKind::float_values: check_round_trip<float>(trip, directory); break;
    case ValueKind::double_values: check_round_trip<double>(trip, directory); break;
    case ValueKind::complex_float_values: check_round_trip<ComplexFloat>(trip, directory); break;
    case ValueKind::complex_double_values: check_round_trip<ComplexDouble>(trip, directory); break;
  }
}

INSTANTIATE_TEST_SUITE_P(AllCombinations, MatrixMarketRoundTrip, ::testing::ValuesIn(round_trips()),
                         [](const ::testing::TestParamInfo<RoundTrip>& info) { return round_trip_name(info.param); });

// ---- writer options and refusals ----------------------------------------------

TEST_F(MatrixMarketFiles, PatternRoundTrip) {
  const HostCoo<double> general = random_matrix<double>(MmSymmetry::general, 30, 20, 80, 5);
  MatrixMarketWriteOptions options;
  options.pattern = true;
  const std::string path = directory.file("pattern.mtx.gz");
  strata::write_matrix_market(path, general, options);
  MatrixMarketReport report;
  HostCoo<double> expected = general;
  for (double& value : expected.values) value = 1.0;
  expect_same_matrix(strata::read_matrix_market<double>(path, &report), expected);
  EXPECT_EQ(report.header.field, MmField::pattern);

  const HostCoo<ComplexDouble> hermitian = random_matrix<ComplexDouble>(MmSymmetry::hermitian, 25, 25, 60, 6);
  options.symmetry = MmSymmetry::symmetric;
  const std::string symmetric_path = directory.file("pattern_sym.mtx");
  strata::write_matrix_market(symmetric_path, hermitian, options);
  HostCoo<ComplexDouble> expected_structure = hermitian;
  for (ComplexDouble& value : expected_structure.values) value = ComplexDouble(1.0, 0.0);
  expect_same_matrix(strata::read_matrix_market<ComplexDouble>(symmetric_path, &report), expected_structure);
  EXPECT_EQ(report.header.field, MmField::pattern);
  EXPECT_EQ(report.header.symmetry, MmSymmetry::symmetric);
  EXPECT_EQ(read_bytes(symmetric_path).rfind("%%MatrixMarket matrix coordinate pattern symmetric\n", 0), 0u);
}

TEST_F(MatrixMarketFiles, IntegerRoundTrip) {
  const HostCoo<double> matrix = make_matrix<double>(
      3, 3, {{0, 0, -5, 0}, {0, 2, 9007199254740992.0, 0}, {1, 1, 0, 0}, {2, 0, 123456789012.0, 0}});
  MatrixMarketWriteOptions options;
  options.integer = true;
  const std::string path = directory.file("integer.mtx");
  strata::write_matrix_market(path, matrix, options);
  MatrixMarketReport report;
  expect_same_matrix(strata::read_matrix_market<double>(path, &report), matrix);
  EXPECT_EQ(report.header.field, MmField::integer);
  EXPECT_TRUE(contains(read_bytes(path), "\n1 3 9007199254740992\n"));

  options.format = MmFormat::array;
  options.symmetry = MmSymmetry::symmetric;
  const HostCoo<ComplexFloat> symmetric =
      make_matrix<ComplexFloat>(2, 2, {{0, 0, 1, 0}, {0, 1, -3, 0}, {1, 0, -3, 0}, {1, 1, 4, 0}});
  const std::string array_path = directory.file("integer_array.mtx");
  strata::write_matrix_market(array_path, symmetric, options);
  EXPECT_EQ(read_bytes(array_path), "%%MatrixMarket matrix array integer symmetric\n% written by Strata\n2 2\n1\n-3\n4\n");
  expect_same_matrix(strata::read_matrix_market<ComplexFloat>(array_path), symmetric);
}

TEST_F(MatrixMarketFiles, WrittenTextIsExactlyAsDocumented) {
  const HostCoo<double> matrix = make_matrix<double>(3, 2, {{2, 1, 0.1, 0}, {0, 0, -2, 0}, {2, 1, 0.2, 0}});
  const std::string path = directory.file("exact.mtx");
  strata::write_matrix_market(path, matrix);
  // Duplicates are summed before writing (0.1 + 0.2 in double).
  EXPECT_EQ(read_bytes(path),
            "%%MatrixMarket matrix coordinate real general\n% written by Strata\n3 2 2\n1 1 -2\n3 2 "
            "0.30000000000000004\n");
  MatrixMarketWriteOptions options;
  options.format = MmFormat::array;
  const std::string array_path = directory.file("exact_array.mtx");
  strata::write_matrix_market(array_path, make_matrix<float>(2, 2, {{1, 0, 0.1, 0}}), options);
  EXPECT_EQ(read_bytes(array_path),
            "%%MatrixMarket matrix array real general\n% written by Strata\n2 2\n0\n0.100000001\n0\n0\n");
}

TEST_F(MatrixMarketFiles, CompressionOption) {
  const HostCoo<double> matrix = make_matrix<double>(2, 2, {{0, 1, 2.5, 0}});
  MatrixMarketWriteOptions options;
  options.compression = MatrixMarketWriteOptions::Compression::gzip;
  const std::string forced = directory.file("forced_gzip.mtx");
  strata::write_matrix_market(forced, matrix, options);
  EXPECT_EQ(static_cast<unsigned char>(read_bytes(forced)[0]), 0x1f);
  expect_same_matrix(strata::read_matrix_market<double>(forced), matrix);

  options.compression = MatrixMarketWriteOptions::Compression::none;
  const std::string plain = directory.file("plain_despite_name.mtx.gz");
  strata::write_matrix_market(plain, matrix, options);
  EXPECT_EQ(read_bytes(plain).rfind("%%MatrixMarket", 0), 0u);
  expect_same_matrix(strata::read_matrix_market<double>(plain), matrix);
}

TEST_F(MatrixMarketFiles, LargeIndicesRoundTrip) {
  const index_type n = index_type{1} << 33;
  const HostCoo<double> general = make_matrix<double>(n, n, {{n - 1, 4, 1.5, 0}});
  for (const char* name : {"large.mtx", "large.mtx.gz"}) {
    const std::string path = directory.file(name);
    strata::write_matrix_market(path, general);
    expect_same_matrix(strata::read_matrix_market<double>(path), general);
    EXPECT_EQ(strata::read_matrix_market_header(path).num_rows, n);
  }
  const HostCoo<ComplexDouble> skew =
      make_matrix<ComplexDouble>(n, n, {{0, n - 1, -1, -2}, {n - 1, 0, 1, 2}});
  MatrixMarketWriteOptions options;
  options.symmetry = MmSymmetry::skew_symmetric;
  const std::string skew_path = directory.file("large_skew.mtx");
  strata::write_matrix_market(skew_path, skew, options);
  EXPECT_TRUE(contains(read_bytes(skew_path), "\n8589934592 1 1 2\n"));
  expect_same_matrix(strata::read_matrix_market<ComplexDouble>(skew_path), skew);
}

TEST_F(MatrixMarketFiles, ExistingFileIsReplaced) {
  const std::string path = directory.file("replaced.mtx");
  strata::write_matrix_market(path, make_matrix<double>(1, 1, {{0, 0, 1, 0}}));
  strata::write_matrix_market(path, make_matrix<double>(2, 2, {{1, 1, 3, 0}}));
  expect_same_matrix(strata::read_matrix_market<double>(path), make_matrix<double>(2, 2, {{1, 1, 3, 0}}));
  EXPECT_EQ(directory.listing().size(), 1u);
}

TEST_F(MatrixMarketFiles, RefusedWritesLeaveNothingBehind) {
  const std::string path = directory.file("target.mtx");
  const HostCoo<double> original = make_matrix<double>(2, 2, {{0, 0, 1, 0}});
  strata::write_matrix_market(path, original);
  const std::string before = read_bytes(path);

  const HostCoo<double> unsymmetric = make_matrix<double>(2, 2, {{0, 1, 1, 0}, {1, 0, 2, 0}});
  MatrixMarketWriteOptions options;
  options.symmetry = MmSymmetry::symmetric;
  strata::Error error = expect_error([&] { strata::write_matrix_market(path, unsymmetric, options); });
  EXPECT_TRUE(contains(error.what(), path)) << error.what();
  EXPECT_TRUE(contains(error.what(), "(1, 2) = 1 but (2, 1) = 2")) << error.what();

  // An upper entry whose mirror is missing is not symmetric either.
  const HostCoo<double> one_sided = make_matrix<double>(2, 2, {{0, 1, 1, 0}});
  error = expect_error([&] { strata::write_matrix_market(path, one_sided, options); });
  EXPECT_TRUE(contains(error.what(), "(absent)")) << error.what();

  options.symmetry = MmSymmetry::skew_symmetric;
  error = expect_error(
      [&] { strata::write_matrix_market(path, make_matrix<double>(2, 2, {{1, 1, 1, 0}}), options); });
  EXPECT_TRUE(contains(error.what(), "is not zero")) << error.what();
  error = expect_error([&] {
    strata::write_matrix_market(path, make_matrix<double>(2, 2, {{0, 1, 1, 0}, {1, 0, 1, 0}}), options);
  });
  EXPECT_TRUE(contains(error.what(), "skew-symmetric")) << error.what();

  options.symmetry = MmSymmetry::hermitian;
  error = expect_error([&] {
    strata::write_matrix_market(path, make_matrix<ComplexDouble>(2, 2, {{1, 1, 1, 1}}), options);
  });
  EXPECT_TRUE(contains(error.what(), "is not real")) << error.what();
  error = expect_error([&] {
    strata::write_matrix_market(path, make_matrix<ComplexDouble>(2, 2, {{0, 1, 1, 1}, {1, 0, 1, 1}}), options);
  });
  EXPECT_TRUE(contains(error.what(), "hermitian")) << error.what();
  error = expect_error([&] { strata::write_matrix_market(path, original, options); });
  EXPECT_TRUE(contains(error.what(), "hermitian needs complex")) << error.what();

  options.symmetry = MmSymmetry::symmetric;
  error = expect_error(
      [&] { strata::write_matrix_market(path, make_matrix<double>(2, 3, {{0, 0, 1, 0}}), options); });
  EXPECT_TRUE(contains(error.what(), "not square")) << error.what();

  MatrixMarketWriteOptions pattern_array;
  pattern_array.pattern = true;
  pattern_array.format = MmFormat::array;
  error = expect_error([&] { strata::write_matrix_market(path, original, pattern_array); });
  EXPECT_TRUE(contains(error.what(), "cannot be pattern")) << error.what();

  MatrixMarketWriteOptions pattern_skew;
  pattern_skew.pattern = true;
  pattern_skew.symmetry = MmSymmetry::skew_symmetric;
  error = expect_error([&] { strata::write_matrix_market(path, original, pattern_skew); });
  EXPECT_TRUE(contains(error.what(), "skew-symmetric")) << error.what();

  MatrixMarketWriteOptions pattern_symmetric;
  pattern_symmetric.pattern = true;
  pattern_symmetric.symmetry = MmSymmetry::symmetric;
  error = expect_error([&] { strata::write_matrix_market(path, one_sided, pattern_symmetric); });
  EXPECT_TRUE(contains(error.what(), "has no partner")) << error.what();

  MatrixMarketWriteOptions integer;
  integer.integer = true;
  error = expect_error(
      [&] { strata::write_matrix_market(path, make_matrix<double>(1, 1, {{0, 0, 1.5, 0}}), integer); });
  EXPECT_TRUE(contains(error.what(), "not a 64-bit integer")) << error.what();
  error = expect_error(
      [&] { strata::write_matrix_market(path, make_matrix<ComplexFloat>(1, 1, {{0, 0, 1, 1}}), integer); });
  EXPECT_TRUE(contains(error.what(), "not a 64-bit integer")) << error.what();
  error = expect_error(
      [&] { strata::write_matrix_market(path, make_matrix<double>(1, 1, {{0, 0, 1e19, 0}}), integer); });
  EXPECT_TRUE(contains(error.what(), "not a 64-bit integer")) << error.what();

  MatrixMarketWriteOptions both;
  both.integer = true;
  both.pattern = true;
  error = expect_error([&] { strata::write_matrix_market(path, original, both); });
  EXPECT_TRUE(contains(error.what(), "exclude each other")) << error.what();

  error = expect_error([&] {
    strata::write_matrix_market(path, make_matrix<double>(1, 1, {{0, 0, std::numeric_limits<double>::infinity(), 0}}));
  });
  EXPECT_TRUE(contains(error.what(), "not finite")) << error.what();
  error = expect_error([&] {
    strata::write_matrix_market(path, make_matrix<float>(1, 1, {{0, 0, std::numeric_limits<double>::quiet_NaN(), 0}}));
  });
  EXPECT_TRUE(contains(error.what(), "not finite")) << error.what();

  error = expect_error([&] { strata::write_matrix_market(path, make_matrix<double>(1, 1, {{3, 0, 1, 0}})); });
  EXPECT_TRUE(contains(error.what(), "outside")) << error.what();
  EXPECT_TRUE(contains(error.what(), path)) << error.what();

  EXPECT_EQ(read_bytes(path), before);
  EXPECT_EQ(directory.listing().size(), 1u);
}

TEST_F(MatrixMarketFiles, UnwritablePathIsAnError) {
  const std::string path = directory.file("no_such_directory/out.mtx");
  const strata::Error error =
      expect_error([&] { strata::write_matrix_market(path, make_matrix<double>(1, 1, {{0, 0, 1, 0}})); });
  EXPECT_TRUE(contains(error.what(), path)) << error.what();
  EXPECT_TRUE(contains(error.what(), "No such file or directory")) << error.what();
  const std::string gz_path = directory.file("no_such_directory/out.mtx.gz");
  const strata::Error gz_error =
      expect_error([&] { strata::write_matrix_market(gz_path, make_matrix<double>(1, 1, {{0, 0, 1, 0}})); });
  EXPECT_TRUE(contains(gz_error.what(), gz_path)) << gz_error.what();
  // Renaming onto a directory fails after the temporary file was written: it must be removed.
  const std::string folder = directory.file("occupied.mtx");
  fs::create_directory(folder);
  const strata::Error rename_error =
      expect_error([&] { strata::write_matrix_market(folder, make_matrix<double>(1, 1, {{0, 0, 1, 0}})); });
  EXPECT_TRUE(contains(rename_error.what(), folder)) << rename_error.what();
  EXPECT_EQ(directory.listing().size(), 1u);
  EXPECT_TRUE(fs::is_directory(folder));
}

}  // namespace
