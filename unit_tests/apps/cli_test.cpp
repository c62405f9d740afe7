// The strata command's contract (issue 11): exit code 0 on success, 1 on
// runtime errors, 2 on usage errors; errors on a line of their own; every
// subcommand and error path run as a user would run them. Each test runs the
// built binary with its output in files and checks the exit status and text.
#include "core/test_files.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using strata::test::contains;
using strata::test::gzip_stored;
using strata::test::TemporaryDirectory;

struct Result {
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;
  std::string out;
  std::string err;
};

std::ostream& operator<<(std::ostream& stream, const Result& result) {
  return stream << "exit code " << result.exit_code << ", signal " << result.signal << "\n--- stdout:\n"
                << result.out << "--- stderr:\n"
                << result.err;
}

// The strata binary under test: $STRATA_CLI where set (a build run elsewhere,
// e.g. unpacked on the GPU machine by scripts/gpu_check.sh), else the one this
// test was built with.
std::string strata_binary() {
  const char* given = std::getenv("STRATA_CLI");
  return given != nullptr && *given != '\0' ? given : STRATA_CLI_PATH;
}

// Runs the strata binary with `args` in `directory`; stdout and stderr go to
// files there, so neither can block the other.
Result run_strata(const std::vector<std::string>& args, const TemporaryDirectory& directory) {
  const std::string out_path = directory.file("stdout.txt");
  const std::string err_path = directory.file("stderr.txt");
  const std::string cwd = directory.path();
  std::vector<std::string> words = {strata_binary()};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);

  const pid_t pid = fork();
  if (pid == 0) {
    // Only async-signal-safe calls between fork and exec.
    const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0 || chdir(cwd.c_str()) != 0) _exit(126);
    if (STRATA_CLI_CAP_MEMORY && !STRATA_TEST_UNDER_ASAN) {
      // A regression that allocates what a hostile file declares fails fast.
      const rlimit cap{rlim_t{16} << 30, rlim_t{16} << 30};
      setrlimit(RLIMIT_AS, &cap);
    }
    execv(argv[0], argv.data());
    _exit(127);
  }
  Result result;
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) {
    ADD_FAILURE() << "could not run " << strata_binary() << " (set STRATA_CLI to the strata binary)";
    return result;
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  result.out = strata::test::read_bytes(out_path);
  result.err = strata::test::read_bytes(err_path);
  return result;
}

// The fastest spmv run: a few repetitions and a 1 MiB copy measurement.
std::vector<std::string> quick_spmv(std::vector<std::string> args) {
  for (const char* option : {"--reps", "1", "--warmup", "0", "--copy-mib", "1"}) args.push_back(option);
  return args;
}

const std::string general_banner = "%%MatrixMarket matrix coordinate real general\n";
const std::string small_matrix = general_banner + "3 3 4\n1 1 4\n2 2 4\n3 3 4\n3 1 -1\n";

class StrataCommand : public ::testing::Test {
 protected:
  Result run(const std::vector<std::string>& args) { return run_strata(args, directory); }

  // An error line must start a line of stderr: progress output ends first.
  static void expect_error_line(const Result& result, const std::string& line_start) {
    const std::string& err = result.err;
    const std::size_t at = err.find(line_start);
    ASSERT_NE(at, std::string::npos) << "stderr lacks '" << line_start << "'\n" << result;
    EXPECT_TRUE(at == 0 || err[at - 1] == '\n') << "'" << line_start << "' does not start a line\n" << result;
  }

  static void expect_usage_error(const Result& result, const std::string& message) {
    EXPECT_EQ(result.exit_code, 2) << result;
    EXPECT_TRUE(contains(result.err, message)) << "stderr lacks '" << message << "'\n" << result;
    EXPECT_EQ(result.out, "") << result;
  }

  static void expect_runtime_error(const Result& result, const std::string& line_start, const std::string& message) {
    EXPECT_EQ(result.exit_code, 1) << result;
    expect_error_line(result, line_start);
    EXPECT_TRUE(contains(result.err, message)) << "stderr lacks '" << message << "'\n" << result;
  }

  TemporaryDirectory directory;
};

// A command line and a part of the message it must print.
struct CommandCase {
  std::vector<std::string> args;
  std::string message;
};

// ---- help and success -----------------------------------------------------------

TEST_F(StrataCommand, HelpDocumentsCommandsAndExitCodes) {
  for (const char* help : {"--help", "-h", "help"}) {
    const Result r = run({help});
    EXPECT_EQ(r.exit_code, 0) << r;
    EXPECT_TRUE(contains(r.out, "usage: strata [COMMAND] [MATRIX] [OPTIONS]")) << r;
    EXPECT_TRUE(contains(r.out, "Exit status:\n  0  success\n  1  runtime error")) << r;
    EXPECT_TRUE(contains(r.out, "  2  usage error")) << r;
    EXPECT_EQ(r.err, "");
  }
}

TEST_F(StrataCommand, SubcommandHelp) {
  const Result info = run({"info", "--help"});
  EXPECT_EQ(info.exit_code, 0) << info;
  EXPECT_TRUE(contains(info.out, "usage: strata info MATRIX")) << info;
  EXPECT_TRUE(contains(info.out, "--allow-underflow")) << info;
  EXPECT_TRUE(contains(info.out, "gen:poisson3d:N")) << info;
  const Result spmv = run({"spmv", "--help"});
  EXPECT_EQ(spmv.exit_code, 0) << spmv;
  EXPECT_TRUE(contains(spmv.out, "usage: strata spmv")) << spmv;
  EXPECT_TRUE(contains(spmv.out, "--reps")) << spmv;
  // Every kernel's name stands apart from its summary, the longest ones included.
  EXPECT_TRUE(contains(spmv.out, "\n  csr-split  ")) << spmv;
  EXPECT_TRUE(contains(spmv.out, "\n  hisparse-sched  ")) << spmv;
  EXPECT_TRUE(contains(spmv.out, "\n  hisparse-persist  HiSparse")) << spmv;
}

TEST_F(StrataCommand, InfoOnAFileAndAGenerator) {
  directory.write_text("small.mtx", small_matrix);
  const Result text = run({"info", "small.mtx"});
  EXPECT_EQ(text.exit_code, 0) << text;
  EXPECT_TRUE(contains(text.out, "rows          3\ncols          3\nnnz           4\n")) << text;
  EXPECT_TRUE(contains(text.err, "strata: reading small.mtx ... 3 x 3, 4 nonzeros")) << text;
  const Result json = run({"info", "gen:poisson2d:4", "--json"});
  EXPECT_EQ(json.exit_code, 0) << json;
  EXPECT_EQ(json.out.rfind("{\"matrix\":\"gen:poisson2d:4\"", 0), 0u) << json;
  EXPECT_TRUE(contains(json.out, "\"rows\":16,\"cols\":16,\"nnz\":64")) << json;
  // The column-index model: 16 rows of steps (16 x 4 bytes + 48 x 2), 2 tiles of 32 offsets (2 x (4 + 64)).
  EXPECT_TRUE(contains(json.out,
                       "\"column_index_bytes_per_nnz\":{\"csr\":4,\"row_steps16\":2.5,"
                       "\"tile_offsets16\":2.125,\"rows_with_entries\":16,\"rows_in_steps\":16,"
                       "\"tiles\":2,\"tiles_in_offsets\":2}"))
      << json;
  EXPECT_TRUE(contains(text.out, "column indices, bytes per nonzero (csr 4.000): 16-bit steps within rows ")) << text;
}

TEST_F(StrataCommand, SpmvRunsInEveryDocumentedForm) {
  directory.write_text("small.mtx", small_matrix);
  const std::vector<std::vector<std::string>> forms = {
      {"spmv", "gen:poisson2d:4"},
      {"spmv", "small.mtx", "--precision", "float", "--mode", "T"},
      {"spmv", "small.mtx", "--format", "csr"},
      {"spmv", "small.mtx", "--format", "coo", "--omega", "4"},
      {"spmv", "small.mtx", "--format", "csr-balanced", "--omega", "4", "--mode", "T"},
      {"spmv", "small.mtx", "--format", "csr-rows,dcsr", "--lanes", "1", "--mode", "T"},
      {"gen:poisson2d:4", "--mode", "N"},  // a MATRIX without a command runs spmv
  };
  for (const auto& form : forms) {
    const Result r = run(quick_spmv(form));
    EXPECT_EQ(r.exit_code, 0) << r;
    EXPECT_FALSE(r.out.empty()) << r;
  }
  const Result json = run(quick_spmv({"spmv", "gen:poisson2d:4", "--json"}));
  EXPECT_EQ(json.exit_code, 0) << json;
  EXPECT_EQ(json.out.front(), '{') << json;
  EXPECT_EQ(json.out.substr(json.out.size() - 2), "}\n") << json;
}

// Every kernel of the registry on one matrix, N and T: each is verified
// against the host reference, and one failure would make the exit code 1.
TEST_F(StrataCommand, SpmvFormatAllVerifiesEveryKernel) {
  for (const char* mode : {"N", "T"}) {
    const Result r = run({"spmv", "gen:poisson3d:24", "--format", "all", "--mode", mode, "--reps", "2"});
    EXPECT_EQ(r.exit_code, 0) << r;
    for (const char* kernel : {"csr ", "coo ", "dcsr ", "adcsr ", "hyb ", "hisparse ", "auto ", "auto-timed "}) {
      EXPECT_TRUE(contains(r.out, "\n" + std::string(kernel))) << kernel << "\n" << r;
    }
    EXPECT_FALSE(contains(r.out, "FAILED")) << r;
    EXPECT_FALSE(contains(r.out, " NO (")) << r;
  }
}

// strata add in every transpose combination, on files and generators: each C is
// checked against the host reference before it is timed.
TEST_F(StrataCommand, AddVerifiesEveryTransposeCombination) {
  directory.write_text("small.mtx", small_matrix);
  const std::vector<std::vector<std::string>> forms = {
      {"add", "small.mtx", "small.mtx"},
      {"add", "small.mtx", "gen:random:3:3:2", "--transpose-a", "--alpha", "2", "--beta", "-0.5"},
      {"add", "gen:poisson3d:12", "gen:poisson3d:12", "--transpose-b", "--precision", "float"},
      {"add", "gen:rmat:10:8", "gen:rmat:10:8", "--transpose-a", "--transpose-b", "--alpha", "0.25"},
  };
  for (const auto& form : forms) {
    std::vector<std::string> args = form;
    for (const char* option : {"--reps", "2"}) args.push_back(option);
    const Result r = run(args);
    EXPECT_EQ(r.exit_code, 0) << r;
    EXPECT_TRUE(contains(r.out, "verified yes")) << r;
    EXPECT_TRUE(contains(r.out, "time     median")) << r;
  }
  const Result json = run({"add", "small.mtx", "small.mtx", "--alpha", "1", "--beta", "-1", "--json", "--reps", "1"});
  EXPECT_EQ(json.exit_code, 0) << json;
  // A - A: the union structure with stored zeros.
  EXPECT_TRUE(contains(json.out, "\"rows\":3,\"cols\":3,\"nnz_a\":4,\"nnz_b\":4,\"nnz_c\":4")) << json;
  EXPECT_TRUE(contains(json.out, "\"verified\":true")) << json;
}

TEST_F(StrataCommand, AddErrorsNameTheShapesAndOptions) {
  directory.write_text("small.mtx", small_matrix);
  expect_usage_error(run({"add", "small.mtx"}), "strata add: two matrices A and B are required");
  expect_usage_error(run({"add", "small.mtx", "small.mtx", "--alpha", "two"}),
                     "strata add: --alpha must be a finite real number, got 'two'");
  expect_usage_error(run({"add", "small.mtx", "small.mtx", "--format", "csr"}), "--format");
  const Result shapes = run({"add", "small.mtx", "gen:poisson2d:3"});
  expect_runtime_error(shapes, "strata add: error: strata::add: op(A) (mode N of a 3 x 3 HiSparse matrix) is 3 x 3",
                       "but op(B) (mode N of a 9 x 9 matrix) is 9 x 9");
}

// ---- commands and paths -----------------------------------------------------------

TEST_F(StrataCommand, AFileWithoutADotIsAMatrixNotACommand) {
  directory.write_text("matrixfile", small_matrix);
  const Result info = run({"info", "matrixfile"});
  EXPECT_EQ(info.exit_code, 0) << info;
  EXPECT_TRUE(contains(info.out, "matrix        matrixfile\n")) << info;
  const Result spmv = run(quick_spmv({"matrixfile"}));
  EXPECT_EQ(spmv.exit_code, 0) << spmv;
  EXPECT_TRUE(contains(spmv.err, "strata: reading matrixfile ... 3 x 3, 4 nonzeros")) << spmv;
}

TEST_F(StrataCommand, UnknownCommandIsAUsageError) {
  const Result r = run({"frobnicate"});
  expect_usage_error(r, "strata: 'frobnicate' is neither a command (info, spmv, convert, add) nor an existing file");
  const Result typo = run({"inof", "small.mtx"});
  expect_usage_error(typo, "'inof' is neither a command");
}

// ---- usage errors (exit 2) ----------------------------------------------------------

TEST_F(StrataCommand, BadNumericOptionsAreUsageErrors) {
  // The ranges' upper ends are the command's choice; the messages name option,
  // lower end and the rejected text.
  const std::vector<CommandCase> cases = {
      {{"--reps", "4294967296"}, "got '4294967296'"},
      {{"--reps", "99999999999999999999999"}, "got '99999999999999999999999' (out of range)"},
      {{"--reps", "-1"}, "--reps expects an integer in [1, "},
      {{"--reps", "0"}, "--reps expects an integer in [1, "},
      {{"--reps", "+5"}, "got '+5'"},
      {{"--reps", " 5"}, "got ' 5'"},
      {{"--reps", "5x"}, "got '5x'"},
      {{"--reps", ""}, "got ''"},
      {{"--warmup", "x"}, "--warmup expects an integer in [0, "},
      {{"--warmup", "2147483648"}, "--warmup expects an integer"},
      {{"--omega", "99999999999"}, "--omega expects an integer in [1, "},
      {{"--copy-mib", "0"}, "--copy-mib expects an integer in [1, "},
      {{"--copy-mib=-5"}, "--copy-mib expects an integer"},
  };
  for (const CommandCase& c : cases) {
    std::vector<std::string> args = {"spmv", "gen:poisson2d:4"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const Result r = run(args);
    SCOPED_TRACE(c.message);
    expect_usage_error(r, c.message);
    // A line of its own, not the first of stderr: Kokkos may warn first (OpenMP with more threads than cores).
    expect_error_line(r, "strata spmv: " + c.args.front().substr(0, c.args.front().find('=')) + " expects an integer");
    EXPECT_TRUE(contains(r.err, "(see strata spmv --help)")) << r;
  }
}

TEST_F(StrataCommand, OtherUsageErrors) {
  const std::vector<CommandCase> cases = {
      {{"info"}, "strata info: missing MATRIX (see strata info --help)"},
      {{"info", "a.mtx", "b.mtx"}, "strata info: unexpected argument 'b.mtx'"},
      {{"info", "gen:poisson2d:4", "--bogus"}, "strata info: unknown option '--bogus'"},
      {{"info", "gen:poisson2d:4", "--json=yes"}, "option '--json' takes no value"},
      {{"spmv", "gen:poisson2d:4", "--reps"}, "option '--reps' needs a value"},
      // The wording of spmv's own checks is its own; they name option and value.
      {{"spmv", "gen:poisson2d:4", "--mode", "X"}, "strata spmv: --mode"},
      {{"spmv", "gen:poisson2d:4", "--mode", "X"}, "'X'"},
      {{"spmv", "gen:poisson2d:4", "--precision", "half"}, "strata spmv: --precision"},
      {{"spmv", "gen:poisson2d:4", "--precision", "half"}, "'half'"},
      {{"spmv", "gen:poisson2d:4", "--format", "dense"}, "strata spmv: --format"},
      {{"spmv", "gen:poisson2d:4", "--format", "dense"}, "'dense'"},
      {{"spmv", "gen:poisson2d:4", "--format", "csr-rows", "--lanes", "3"},
       "strata spmv: --lanes must be 1, 2, 4, 8, 16 or 32, got 3"},
      {{"spmv", "gen:poisson2d:4", "--format", "csr-rows", "--lanes", "64"}, "--lanes expects an integer in [1, 32]"},
      {{"spmv", "gen:poisson2d:4", "--format", "csr,coo", "--lanes", "4"},
       "strata spmv: --lanes applies to the row kernels csr-rows and dcsr, which --format does not name"},
      {{"spmv", "gen:poisson2d:4", "--format", "csr", "--omega", "4"},
       "strata spmv: --omega applies to the nonzero-balanced kernels coo and csr-balanced, which --format does not "
       "name"},
      {{"spmv", "gen:poisson2d:4", "--format", "csr-balanced", "--deterministic"},
       "strata spmv: --autotune and --deterministic apply to the coo kernel, which --format does not name"},
      {{"info", "gen:nonsense:3"}, "strata info: generator spec 'gen:nonsense:3': unknown kind 'nonsense'"},
      {{"info", "gen:poisson2d:x"}, "generator spec 'gen:poisson2d:x': parameter 1 ('x') is not a non-negative"},
      {{"info", "gen:poisson3d:0"}, "generator spec 'gen:poisson3d:0': poisson3d_7pt: grid size n must be >= 1"},
      {{"spmv", "gen:poisson2d"}, "generator spec 'gen:poisson2d': expected the form gen:poisson2d:N"},
      {{"info", "gen:poisson3d:5000"},
       "generator spec 'gen:poisson3d:5000': 125000000000 rows exceed the limit of 2147483647 rows"},
  };
  for (const CommandCase& c : cases) {
    SCOPED_TRACE(c.message);
    const Result r = run(c.args);
    expect_usage_error(r, c.message);
  }
}

// ---- runtime errors (exit 1) --------------------------------------------------------

TEST_F(StrataCommand, MissingAndUnreadableFiles) {
  const Result missing = run({"info", "nothere.mtx"});
  expect_runtime_error(missing, "strata info: error: nothere.mtx: cannot open: No such file or directory",
                       "nothere.mtx");
  expect_error_line(missing, "strata: reading nothere.mtx ... failed\n");
  const Result implicit = run({"nothere.mtx"});
  expect_runtime_error(implicit, "strata spmv: error: nothere.mtx: cannot open", "No such file");
  const Result folder = run({"info", "."});
  expect_runtime_error(folder, "strata info: error: .: read error: Is a directory", "Is a directory");
}

TEST_F(StrataCommand, HostileFilesAreRuntimeErrorsNamingFileAndLine) {
  struct Case {
    const char* name;
    std::string content;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"huge.mtx", general_banner + "3000000000 3000000000 0\n",
       "huge.mtx:2: the size line declares a matrix larger than this reader accepts: 3000000000 rows exceed the "
       "limit of 2147483647 rows (the 32-bit indices of the device formats)"},
      {"huge_entries.mtx", general_banner + "1000 1000 999999\n1 1 1\n", "huge_entries.mtx:3: the file ends after 1"},
      {"hex.mtx", general_banner + "1 1 1\n1 1 0x1p3\n", "hex.mtx:3: entry 1: value '0x1p3' is hexadecimal"},
      {"tiny.mtx", general_banner + "1 1 1\n1 1 1e-400\n", "tiny.mtx:3: entry 1: value '1e-400' underflows to zero"},
      {"nan.mtx", general_banner + "1 1 1\n1 1 nan\n", "nan.mtx:3: entry 1: value 'nan' is not finite"},
      {"empty.mtx", "", "empty.mtx: file is empty"},
      {"binary.mtx", std::string("\x7f" "ELF\x02\x01\x01\0\0\0", 10), "binary.mtx:1: not a Matrix Market file"},
      {"trailing.mtx.gz", gzip_stored(small_matrix) + "junk",
       "trailing.mtx.gz:6: trailing garbage after the gzip data"},
      {"truncated.mtx.gz", gzip_stored(small_matrix).substr(0, 40), "truncated.mtx.gz: truncated gzip file"},
      {"long_line.mtx", general_banner + std::string(std::size_t{3} << 20, '%'), "long_line.mtx:2: line longer than"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    directory.write_text(c.name, c.content);
    const Result r = run({"info", c.name});
    expect_runtime_error(r, std::string("strata info: error: ") + c.name, c.message);
    EXPECT_EQ(r.signal, 0) << r;
    EXPECT_EQ(r.out, "") << r;
  }
}

TEST_F(StrataCommand, ValueOptionsOfInfo) {
  directory.write_text("tiny.mtx", general_banner + "2 2 2\n1 1 1e-400\n2 2 inf\n");
  const Result refused = run({"info", "tiny.mtx", "--allow-underflow"});
  expect_runtime_error(refused, "strata info: error: tiny.mtx:4", "value 'inf' is not finite");
  const Result allowed = run({"info", "tiny.mtx", "--allow-underflow", "--allow-non-finite"});
  EXPECT_EQ(allowed.exit_code, 0) << allowed;
  EXPECT_TRUE(contains(allowed.out, "nnz           2\n")) << allowed;
}

TEST_F(StrataCommand, FloatPrecisionRefusesValuesFloatCannotHold) {
  directory.write_text("big.mtx", general_banner + "2 2 2\n1 1 1\n2 1 1e300\n");
  const Result big = run(quick_spmv({"spmv", "big.mtx", "--precision", "float"}));
  expect_runtime_error(big, "strata spmv: error: converting to float: the value 1.0000000000000001e+300 of entry (2, 1)",
                       "overflows the requested type float");
  EXPECT_FALSE(contains(big.err, "verification")) << big;
  directory.write_text("small.mtx", general_banner + "2 2 2\n1 1 1\n2 2 1e-50\n");
  const Result small = run(quick_spmv({"spmv", "small.mtx", "--precision", "float"}));
  expect_runtime_error(small, "strata spmv: error: converting to float", "of entry (2, 2) underflows to zero in float");
  // In double both run.
  for (const char* name : {"big.mtx", "small.mtx"}) {
    const Result fine = run(quick_spmv({"spmv", name}));
    EXPECT_EQ(fine.exit_code, 0) << fine;
  }
}

}  // namespace
