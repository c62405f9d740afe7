#include "command_line.hpp"
#include "commands.hpp"

#include <strata/core/error.hpp>

#include <Kokkos_Core.hpp>

#include <filesystem>
#include <iostream>
#include <new>

namespace {

const char* const usage =
    "usage: strata [COMMAND] [MATRIX] [OPTIONS]\n"
    "\n"
    "Commands:\n"
    "  info MATRIX     rows, columns, nonzeros, row-length statistics, bandwidth, bytes per nonzero\n"
    "  spmv [MATRIX]   time SpMV kernels of every format (--format), verify them against a host reference\n"
    "  convert MATRIX --to FORMAT   convert, report time and bytes, verify a product\n"
    "  add A B         C = alpha op(A) + beta op(B) (HiSparse), verified against a host reference, timed\n"
    "\n"
    "MATRIX is a Matrix Market file (.mtx or .mtx.gz, any name) or a generator spec such as\n"
    "gen:poisson3d:128 or gen:rmat:20:16 (strata spmv --help lists them).\n"
    "A first argument that is not a command name is the MATRIX of `strata spmv`; without\n"
    "arguments, strata runs `strata spmv` on the default matrix.\n"
    "Kokkos options (--kokkos-...) are passed to Kokkos. `strata COMMAND --help` for details.\n"
    "\n"
    "Exit status:\n"
    "  0  success\n"
    "  1  runtime error: unreadable or invalid matrix file, a value the precision cannot hold,\n"
    "     failed verification, out of memory\n"
    "  2  usage error: unknown command or option, bad option value, malformed or too large\n"
    "     generator spec\n";

const char* const known_commands[] = {"info", "spmv", "convert", "add"};

bool is_command(const std::string& word) {
  for (const char* command : known_commands) {
    if (word == command) return true;
  }
  return false;
}

// A word that is neither a command nor an existing file, and does not look like
// a path or a generator spec: most likely a mistyped command.
bool looks_like_mistyped_command(const std::string& word) {
  std::error_code ignored;
  return word.find('.') == std::string::npos && word.find('/') == std::string::npos &&
         word.rfind("gen:", 0) != 0 && !std::filesystem::exists(word, ignored);
}

// Drops a leading "COMMAND: " that some messages carry, since it is printed anyway.
std::string without_command_prefix(const std::string& message, const std::string& command) {
  const std::string prefix = command + ": ";
  return message.compare(0, prefix.size(), prefix) == 0 ? message.substr(prefix.size()) : message;
}

int run(const std::string& command, const std::vector<std::string>& args) {
  if (command == "info") return strata::cli::info_command(args);
  if (command == "convert") return strata::cli::convert_command(args);
  if (command == "add") return strata::cli::add_command(args);
  return strata::cli::spmv_command(args);
}

}  // namespace

int main(int argc, char** argv) {
  namespace cli = strata::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h" || args[0] == "help")) {
    std::cout << usage;
    return cli::exit_success;
  }
  // Only known command names select a command, so any file name (with or
  // without a dot) can be the MATRIX of the default command.
  std::string command = "spmv";
  if (!args.empty() && is_command(args[0])) {
    command = args[0];
    args.erase(args.begin());
  } else if (!args.empty() && args[0].rfind("-", 0) != 0 && looks_like_mistyped_command(args[0])) {
    std::cerr << "strata: '" << args[0]
              << "' is neither a command (info, spmv, convert, add) nor an existing file (see strata --help)\n";
    return cli::exit_usage_error;
  } else if (args.empty()) {
    std::cerr << "strata: no command given; running `strata spmv " << cli::default_matrix
              << "` (strata --help lists the commands)\n";
  }
  for (const auto& a : args) {
    if (a == "--help" || a == "-h") {
      // The sub-command prints its own help without starting Kokkos.
      return run(command, {"--help"});
    }
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    return run(command, args);
  } catch (const cli::UsageError& e) {
    std::cerr << "strata " << command << ": " << without_command_prefix(e.what(), command) << " (see strata "
              << command << " --help)\n";
    return cli::exit_usage_error;
  } catch (const strata::ArgumentError& e) {
    std::cerr << "strata " << command << ": " << e.what() << " (see strata " << command << " --help)\n";
    return cli::exit_usage_error;
  } catch (const std::bad_alloc&) {
    std::cerr << "strata " << command << ": error: out of memory\n";
    return cli::exit_runtime_error;
  } catch (const std::exception& e) {
    std::cerr << "strata " << command << ": error: " << e.what() << "\n";
    return cli::exit_runtime_error;
  }
}
