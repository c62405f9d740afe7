#include "command_line.hpp"
#include "commands.hpp"

#include <strata/core/error.hpp>

#include <Kokkos_Core.hpp>

#include <iostream>

namespace {

const char* const usage =
    "usage: strata [COMMAND] [MATRIX] [OPTIONS]\n"
    "\n"
    "Commands:\n"
    "  info MATRIX     rows, columns, nonzeros, row-length statistics, bandwidth, bytes per nonzero\n"
    "  spmv [MATRIX]   time the SpMV baselines, verify them against a host reference\n"
    "\n"
    "MATRIX is a Matrix Market file (.mtx or .mtx.gz) or a generator spec such as\n"
    "gen:poisson3d:128 or gen:rmat:20:16 (strata spmv --help lists them).\n"
    "Without a command, strata runs `strata spmv` on the default matrix.\n"
    "Kokkos options (--kokkos-...) are passed to Kokkos. `strata COMMAND --help` for details.\n";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h" || args[0] == "help")) {
    std::cout << usage;
    return 0;
  }
  std::string command = "spmv";
  if (!args.empty() && args[0].rfind("-", 0) != 0 && args[0].rfind("gen:", 0) != 0 &&
      args[0].find('.') == std::string::npos) {
    command = args[0];
    args.erase(args.begin());
  } else if (args.empty()) {
    std::cerr << "strata: no command given; running `strata spmv " << strata::cli::default_matrix
              << "` (strata --help lists the commands)\n";
  }
  if (command != "info" && command != "spmv") {
    std::cerr << "strata: unknown command '" << command << "' (expected info or spmv; see strata --help)\n";
    return 2;
  }
  for (const auto& a : args) {
    if (a == "--help" || a == "-h") {
      // The sub-command prints its own help without starting Kokkos.
      return command == "info" ? strata::cli::info_command({"--help"}) : strata::cli::spmv_command({"--help"});
    }
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    return command == "info" ? strata::cli::info_command(args) : strata::cli::spmv_command(args);
  } catch (const strata::cli::UsageError& e) {
    std::cerr << "strata " << e.what() << " (see strata " << command << " --help)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "strata " << command << ": error: " << e.what() << "\n";
    return 1;
  }
}
