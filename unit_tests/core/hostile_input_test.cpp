// Hostile input (issue 11): sizes beyond limits, huge or corrupt gzip streams,
// values a type cannot hold, and generator specs too large to generate. Each
// test states what must not happen (an allocation proportional to a lie, a
// silent change of a value) and checks the error that happens instead.
#include "matrix_test_support.hpp"
#include "test_files.hpp"

#include <strata/core/error.hpp>
#include <strata/core/generators.hpp>
#include <strata/core/host_csr.hpp>
#include <strata/core/matrix_market.hpp>
#include <strata/core/matrix_source.hpp>

#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <sys/resource.h>

namespace {

using namespace strata::test;
using strata::ArgumentError;
using strata::HostCsr;
using strata::MatrixLimits;
using strata::MatrixMarketReadOptions;
using ComplexFloat = Kokkos::complex<float>;
using ComplexDouble = Kokkos::complex<double>;

const std::string general_banner = "%%MatrixMarket matrix coordinate real general\n";

// Caps the address space while a step that must not allocate much runs, so a
// regression fails with bad_alloc instead of exhausting the machine. Not under
// AddressSanitizer, whose shadow memory reserves terabytes of address space.
// Address space this process has mapped already (VmSize), in bytes; 0 if unknown.
inline std::uint64_t mapped_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmSize:", 0) == 0) return std::stoull(line.substr(7)) * 1024;  // "VmSize:  123 kB"
  }
  return 0;
}

// Caps further address space at `bytes` beyond what is mapped now: a CUDA
// process has tens of GiB of virtual address space reserved by the runtime
// before the test starts, which an absolute cap would leave no room for.
class AddressSpaceCap {
 public:
  explicit AddressSpaceCap(std::uint64_t bytes) {
    if (STRATA_TEST_UNDER_ASAN) return;
    if (getrlimit(RLIMIT_AS, &saved_) != 0) return;
    bytes += mapped_bytes();
    rlimit lowered = saved_;
    lowered.rlim_cur = saved_.rlim_max == RLIM_INFINITY ? bytes : std::min<rlim_t>(bytes, saved_.rlim_max);
    applied_ = setrlimit(RLIMIT_AS, &lowered) == 0;
  }
  ~AddressSpaceCap() {
    if (applied_) setrlimit(RLIMIT_AS, &saved_);
  }
  AddressSpaceCap(const AddressSpaceCap&) = delete;
  AddressSpaceCap& operator=(const AddressSpaceCap&) = delete;

 private:
  rlimit saved_{};
  bool applied_ = false;
};

constexpr std::uint64_t eight_gib = std::uint64_t{8} << 30;

// Peak resident memory of this process so far, in MiB.
double peak_resident_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

// Writes header, then `repeats` copies of `line`, then footer as one gzip
// member, deflating as it goes so the text never exists in memory.
void write_gzip_repeating(const std::string& path, const std::string& header, const std::string& line,
                          std::size_t repeats, const std::string& footer) {
  z_stream stream{};
  ASSERT_EQ(deflateInit2(&stream, 1, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::ofstream out(path, std::ios::binary);
  std::vector<char> buffer(std::size_t{1} << 16);
  auto feed = [&](const std::string& text, int flush) {
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    stream.avail_in = static_cast<uInt>(text.size());
    int status = Z_OK;
    do {
      stream.next_out = reinterpret_cast<Bytef*>(buffer.data());
      stream.avail_out = static_cast<uInt>(buffer.size());
      status = deflate(&stream, flush);
      out.write(buffer.data(), static_cast<std::streamsize>(buffer.size() - stream.avail_out));
    } while (stream.avail_out == 0 || (flush == Z_FINISH && status != Z_STREAM_END));
  };
  feed(header, Z_NO_FLUSH);
  constexpr std::size_t lines_per_block = 1024;
  std::string block;
  for (std::size_t k = 0; k < lines_per_block; ++k) block += line;
  for (std::size_t k = 0; k < repeats / lines_per_block; ++k) feed(block, Z_NO_FLUSH);
  for (std::size_t k = 0; k < repeats % lines_per_block; ++k) feed(line, Z_NO_FLUSH);
  feed(footer, Z_FINISH);
  deflateEnd(&stream);
}

// ---- limits before allocation -------------------------------------------------

class HostileFiles : public ::testing::Test {
 protected:
  TemporaryDirectory directory;
};

TEST_F(HostileFiles, SizeLineBeyondTheDeviceLimitsFailsBeforeAllocating) {
  struct Case {
    const char* name;
    std::string text;
    const char* reason;
  };
  const std::vector<Case> cases = {
      {"rows.mtx", general_banner + "3000000000 3000000000 0\n",
       "3000000000 rows exceed the limit of 2147483647 rows (the 32-bit indices of the device formats)"},
      {"cols.mtx", general_banner + "5 3000000000 0\n", "3000000000 columns exceed the limit of 2147483647"},
      {"entries.mtx", general_banner + "100000 100000 3000000000\n1 1 1\n",
       "3000000000 entries exceed the limit of 2147483647"},
      {"array.mtx", "%%MatrixMarket matrix array real general\n50000 50000\n1\n",
       "2500000000 entries exceed the limit of 2147483647 entries"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = directory.write_text(c.name, c.text);
    AddressSpaceCap cap(eight_gib);
    const FileError error = expect_file_error(path, [&] { strata::load_matrix(path); });
    expect_located(error, path, 2, c.reason);
  }
}

TEST_F(HostileFiles, LibraryLimitsComeFromTheReadOptions) {
  MatrixMarketReadOptions options;
  options.limits = MatrixLimits{10, 10, 5, "a test limit"};
  // Declared 3 stored entries fit, but mirrored they are 5 + 1 > 5 entries.
  const std::string text = "%%MatrixMarket matrix coordinate real symmetric\n10 10 3\n2 1 1\n3 1 1\n4 1 1\n";
  const FileError error =
      expect_file_error("symmetric", [&] { strata::parse_matrix_market<double>(text, "symmetric", options); });
  expect_located(error, "symmetric", 5, "beyond the limit of 5 stored entries (a test limit; symmetric files");
  const FileError rows = expect_file_error("rows", [&] {
    strata::parse_matrix_market<double>(general_banner + "11 10 0\n", "rows", options);
  });
  expect_located(rows, "rows", 2, "11 rows exceed the limit of 10 rows (a test limit)");
  // Within the limits the same reader accepts the file.
  options.limits.max_entries = 6;
  EXPECT_EQ(strata::parse_matrix_market<double>(text, "symmetric", options).nnz(), 6);
}

TEST_F(HostileFiles, ALyingEntryCountDoesNotReserveWhatItDeclares) {
  // 2^31 - 1 declared entries would take 48 GiB of triplets; the file holds one.
  const std::string path =
      directory.write_text("liar.mtx", general_banner + "1099511627776 1099511627776 2147483647\n1 1 1\n");
  const double before = peak_resident_mib();
  {
    AddressSpaceCap cap(eight_gib);
    const FileError error = expect_file_error(path, [&] { strata::read_matrix_market<double>(path); });
    expect_located(error, path, 3, "ends after 1 of the 2147483647 entries");
  }
  EXPECT_LT(peak_resident_mib() - before, 64.0);
}

// ---- streaming gzip -----------------------------------------------------------

TEST_F(HostileFiles, GzipIsInflatedAsItIsParsedNotWhole) {
  // 128 MiB of comment lines around one entry, about 1 MiB compressed: reading
  // it must not hold the text.
  const std::string path = directory.file("bomb.mtx.gz");
  const std::string comment = "%" + std::string(126, 'a') + "\n";
  const std::size_t comment_lines = std::size_t{1} << 20;
  write_gzip_repeating(path, general_banner + "2 2 1\n", comment, comment_lines, "2 1 7.5\n");
  ASSERT_LT(read_bytes(path).size(), std::size_t{8} << 20);
  const double before = peak_resident_mib();
  const HostCoo<double> matrix = strata::read_matrix_market<double>(path);
  const double growth = peak_resident_mib() - before;
  expect_same_matrix(matrix, make_matrix<double>(2, 2, {{1, 0, 7.5, 0}}));
  EXPECT_LT(growth, 48.0) << "reading 128 MiB of gzip text raised the peak resident memory by " << growth << " MiB";

  // An error after all that text still names its line.
  const std::string late_error = directory.file("late_error.mtx.gz");
  write_gzip_repeating(late_error, general_banner + "2 2 1\n", comment, 1000, "2 x 7.5\n");
  expect_located(expect_file_error(late_error, [&] { strata::read_matrix_market<double>(late_error); }), late_error,
                 1003, "column index 'x'");
}

TEST_F(HostileFiles, ConcatenatedGzipMembersAreOneText) {
  const std::string first = general_banner + "% first member\n3 3 2\n1 1 1.5\n";
  const std::string second = "3 2 -2\n";
  const std::string path = directory.write_text("members.mtx.gz", gzip_stored(first) + gzip_stored(second));
  const HostCoo<double> expected = make_matrix<double>(3, 3, {{0, 0, 1.5, 0}, {2, 1, -2, 0}});
  expect_same_matrix(strata::read_matrix_market<double>(path), expected);
  // An empty member in between changes nothing.
  const std::string with_empty = gzip_stored(first) + gzip_stored("") + gzip_stored(second);
  expect_same_matrix(strata::parse_matrix_market<double>(with_empty, "with_empty"), expected);
}

TEST_F(HostileFiles, BytesAfterTheGzipDataAreReported) {
  const std::string text = general_banner + "2 2 1\n1 1 1\n";
  const std::string member = gzip_stored(text);
  struct Case {
    const char* name;
    std::string trailer;
    const char* reason;
  };
  const std::vector<Case> cases = {
      {"garbage", "garbage", "trailing garbage after the gzip data: the byte at offset "},
      {"zero_padding", std::string(512, '\0'), "(0x00) does not start another gzip member"},
      {"lone_magic_byte", "\x1f", "(0x1f) does not start another gzip member"},
      {"member_header_only", std::string("\x1f\x8b", 2), "truncated gzip file"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = directory.write_text(std::string(c.name) + ".mtx.gz", member + c.trailer);
    const FileError error = expect_file_error(path, [&] { strata::read_matrix_market<double>(path); });
    EXPECT_EQ(error.path(), path);
    EXPECT_TRUE(contains(error.reason(), c.reason)) << error.what();
  }
  const FileError offset = expect_file_error("offset", [&] {
    strata::parse_matrix_market<double>(member + "garbage", "offset");
  });
  EXPECT_TRUE(contains(offset.reason(), "offset " + std::to_string(member.size()) + " (0x67)")) << offset.what();
}

TEST_F(HostileFiles, GzipWithoutDataIsTruncated) {
  for (const std::string& bytes : {std::string("\x1f\x8b", 2), std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00", 8)}) {
    const FileError error = expect_file_error("gz", [&] { strata::parse_matrix_market<double>(bytes, "gz"); });
    expect_located(error, "gz", 0, "truncated gzip file");
  }
}

// ---- checked numbers ------------------------------------------------------------

TEST(CheckedValues, UnderflowIsStoredAsSignedZeroOnlyWhenAllowed) {
  const std::string text = general_banner + "2 2 2\n1 1 1e-400\n2 2 -1e-400\n";
  const FileError refused = expect_file_error("u", [&] { strata::parse_matrix_market<double>(text, "u"); });
  expect_located(refused, "u", 3, "entry 1: value '1e-400' underflows to zero in double");
  MatrixMarketReadOptions options;
  options.values.allow_underflow = true;
  const HostCoo<double> matrix = strata::parse_matrix_market<double>(text, "u", options);
  ASSERT_EQ(matrix.nnz(), 2);
  EXPECT_EQ(matrix.values[0], 0.0);
  EXPECT_FALSE(std::signbit(matrix.values[0]));
  EXPECT_TRUE(std::signbit(matrix.values[1]));
  // In float 1e-50 underflows although double holds it.
  const std::string small = general_banner + "1 1 1\n1 1 1e-50\n";
  expect_located(expect_file_error("f", [&] { strata::parse_matrix_market<float>(small, "f"); }), "f", 3,
                 "value '1e-50' underflows to zero in float");
  EXPECT_EQ(strata::parse_matrix_market<double>(small, "d").values[0], 1e-50);
  EXPECT_EQ(strata::parse_matrix_market<float>(small, "f", options).values[0], 0.0f);
}

TEST(CheckedValues, SubnormalsAndExactZerosAreNotUnderflow) {
  const std::string text = general_banner + "1 4 4\n1 1 1e-310\n1 2 0e-999\n1 3 -0.000\n1 4 1e-40\n";
  const HostCoo<double> as_double = strata::parse_matrix_market<double>(text, "sub");
  EXPECT_EQ(as_double.values[0], 1e-310);
  EXPECT_EQ(as_double.values[1], 0.0);
  EXPECT_TRUE(std::signbit(as_double.values[2]));
  // 1e-310 is below float's subnormals: the float read refuses it, but takes 1e-40.
  expect_located(expect_file_error("sub", [&] { strata::parse_matrix_market<float>(text, "sub"); }), "sub", 3,
                 "underflows to zero in float");
  const std::string float_text = general_banner + "1 2 2\n1 1 1e-40\n1 2 0\n";
  EXPECT_GT(strata::parse_matrix_market<float>(float_text, "sub").values[0], 0.0f);
}

TEST(CheckedValues, NonFiniteValuesAreReadOnlyWhenAllowed) {
  const std::string text = general_banner + "1 3 3\n1 1 inf\n1 2 -Infinity\n1 3 NAN\n";
  expect_located(expect_file_error("nf", [&] { strata::parse_matrix_market<double>(text, "nf"); }), "nf", 3,
                 "value 'inf' is not finite");
  MatrixMarketReadOptions options;
  options.values.allow_non_finite = true;
  const HostCoo<float> matrix = strata::parse_matrix_market<float>(text, "nf", options);
  ASSERT_EQ(matrix.nnz(), 3);
  EXPECT_TRUE(std::isinf(matrix.values[0]) && matrix.values[0] > 0);
  EXPECT_TRUE(std::isinf(matrix.values[1]) && matrix.values[1] < 0);
  EXPECT_TRUE(std::isnan(matrix.values[2]));
}

TEST(CheckedValues, OverflowIsAnErrorWhateverIsAllowed) {
  MatrixMarketReadOptions lenient;
  lenient.values.allow_underflow = true;
  lenient.values.allow_non_finite = true;
  const std::string big = general_banner + "1 1 1\n1 1 1e300\n";
  expect_located(expect_file_error("big", [&] { strata::parse_matrix_market<float>(big, "big", lenient); }), "big",
                 3, "value '1e300' overflows the requested type float (largest finite magnitude 3.40282e+38");
  const std::string complex_big = "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 0 -4e38\n";
  expect_located(expect_file_error("c", [&] { strata::parse_matrix_market<ComplexFloat>(complex_big, "c", lenient); }),
                 "c", 3, "imaginary part '-4e38' overflows the requested type complex<float>");
  const std::string huge = general_banner + "1 1 1\n1 1 -1e999\n";
  expect_located(expect_file_error("huge", [&] { strata::parse_matrix_market<double>(huge, "huge", lenient); }),
                 "huge", 3, "value '-1e999' is out of range for double");
  EXPECT_EQ(strata::parse_matrix_market<double>(big, "big").values[0], 1e300);
}

TEST(CheckedValues, ConvertValuesNamesTheEntryThatDoesNotFit) {
  HostCoo<double> coo(3, 4);
  coo.push_back(0, 0, 1.0);
  coo.push_back(1, 2, 1e300);
  coo.push_back(2, 3, 1e-50);
  const HostCsr<double> csr = strata::to_csr(coo);
  const strata::Error overflow = expect_error([&] { strata::convert_values<float>(csr); });
  EXPECT_TRUE(contains(overflow.what(), "the value 1.0000000000000001e+300 of entry (2, 3) overflows the requested "
                                         "type float"))
      << overflow.what();

  HostCsr<double> small = csr;
  small.values[1] = 2.0;
  const strata::Error underflow = expect_error([&] { strata::convert_values<float>(small); });
  EXPECT_TRUE(contains(underflow.what(), "entry (3, 4) underflows to zero in float")) << underflow.what();
  strata::ValueConversionOptions allow;
  allow.allow_underflow = true;
  const HostCsr<float> converted = strata::convert_values<float>(small, allow);
  EXPECT_EQ(converted.values, (std::vector<float>{1.0f, 2.0f, 0.0f}));

  HostCsr<ComplexDouble> complex = strata::convert_values<ComplexDouble>(small);
  complex.values[0] = ComplexDouble(1.0, std::numeric_limits<double>::infinity());
  const strata::Error non_finite = expect_error([&] { strata::convert_values<ComplexFloat>(complex, allow); });
  EXPECT_TRUE(contains(non_finite.what(), "of entry (1, 1) is not finite")) << non_finite.what();
  allow.allow_non_finite = true;
  EXPECT_TRUE(std::isinf(strata::convert_values<ComplexFloat>(complex, allow).values[0].imag()));
}

// ---- generator specs ------------------------------------------------------------

TEST(GeneratorLimits, SizeIsComputedFromTheSpecAlone) {
  for (const char* text : {"gen:poisson2d:7", "gen:poisson2d9:6", "gen:poisson3d:5", "gen:poisson3d27:4",
                           "gen:rmat:6:4:3", "gen:random:30:20:5", "gen:hubs:40:3:2:25", "gen:banded:30:4",
                           "gen:dense:6:9", "gen:dense:5"}) {
    SCOPED_TRACE(text);
    const strata::GeneratorSpec spec = strata::parse_generator_spec(text);
    const strata::GeneratorSize size = strata::generator_size(spec);
    const HostCsr<double> matrix = strata::generate(spec);
    EXPECT_EQ(size.rows, matrix.num_rows);
    EXPECT_EQ(size.cols, matrix.num_cols);
    EXPECT_GE(size.entries, matrix.nnz());
    EXPECT_LE(size.entries, 2 * matrix.nnz() + 64);  // a bound, but not a vacuous one
  }
  const index_type largest = std::numeric_limits<index_type>::max();
  EXPECT_EQ(strata::generator_size(strata::parse_generator_spec("gen:poisson3d:5000")).rows, 125000000000);
  EXPECT_EQ(strata::generator_size(strata::parse_generator_spec("gen:poisson3d:9999999999")).rows, largest);
  EXPECT_EQ(strata::generator_size(strata::parse_generator_spec("gen:rmat:63")).rows, largest);
  EXPECT_EQ(strata::generator_size(strata::parse_generator_spec("gen:dense:9223372036854775807")).entries, largest);
  EXPECT_THROW(strata::generator_size({"poisson2d", {-3}, ""}), ArgumentError);
}

TEST(GeneratorLimits, LoadMatrixRefusesSpecsBeyondTheLimitsBeforeGenerating) {
  struct Case {
    const char* spec;
    const char* reason;
  };
  for (const Case& c : {Case{"gen:poisson3d:5000", "125000000000 rows exceed the limit of 2147483647 rows"},
                        Case{"gen:dense:50000", "2500000000 entries exceed the limit of 2147483647 entries"},
                        Case{"gen:random:10:3000000000:1", "3000000000 columns exceed the limit"},
                        Case{"gen:rmat:40", "1099511627776 rows exceed the limit"}}) {
    SCOPED_TRACE(c.spec);
    AddressSpaceCap cap(eight_gib);
    try {
      strata::load_matrix(c.spec);
      ADD_FAILURE() << "load_matrix accepted " << c.spec;
    } catch (const ArgumentError& error) {
      EXPECT_TRUE(contains(error.what(), std::string("generator spec '") + c.spec + "': " + c.reason)) << error.what();
    } catch (const std::exception& error) {
      ADD_FAILURE() << "expected strata::ArgumentError, got: " << error.what();
    }
  }
}

TEST(GeneratorLimits, ArgumentErrorsAreTheCallersToFix) {
  EXPECT_THROW(strata::parse_generator_spec("gen:nonsense:3"), ArgumentError);
  EXPECT_THROW(strata::parse_generator_spec("gen:poisson2d:x"), ArgumentError);
  EXPECT_THROW(strata::parse_generator_spec("gen:poisson2d:1:2"), ArgumentError);
  EXPECT_THROW(strata::generate(strata::parse_generator_spec("gen:poisson3d:0")), ArgumentError);
  EXPECT_THROW(strata::generate(strata::parse_generator_spec("gen:rmat:41")), ArgumentError);
}

// ---- the progress line ----------------------------------------------------------

TEST_F(HostileFiles, LoadMatrixEndsItsProgressLineBeforeAnErrorPropagates) {
  std::ostringstream progress;
  const std::string missing = directory.file("missing.mtx");
  EXPECT_THROW(strata::load_matrix(missing, &progress), FileError);
  EXPECT_EQ(progress.str(), "strata: reading " + missing + " ... failed\n");

  std::ostringstream generated;
  EXPECT_THROW(strata::load_matrix("gen:poisson3d:5000", &generated), ArgumentError);
  EXPECT_EQ(generated.str(), "strata: generating gen:poisson3d:5000 ... failed\n");

  std::ostringstream fine;
  const std::string path = directory.write_text("fine.mtx", general_banner + "2 2 1\n1 1 1\n");
  EXPECT_EQ(strata::load_matrix(path, &fine).nnz(), 1);
  EXPECT_EQ(fine.str().back(), '\n');
}

TEST_F(HostileFiles, LoadMatrixPassesTheValueOptionsToTheReader) {
  const std::string path = directory.write_text("tiny.mtx", general_banner + "2 2 2\n1 1 1e-400\n2 2 nan\n");
  EXPECT_THROW(strata::load_matrix(path), FileError);
  strata::MatrixLoadOptions options;
  options.values.allow_underflow = true;
  options.values.allow_non_finite = true;
  const strata::LoadedMatrix loaded = strata::load_matrix(path, nullptr, options);
  ASSERT_EQ(loaded.nnz(), 2);
  EXPECT_EQ(loaded.real.values[0], 0.0);
  EXPECT_TRUE(std::isnan(loaded.real.values[1]));
}

}  // namespace
