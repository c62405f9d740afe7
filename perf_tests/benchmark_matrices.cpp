#include "benchmark_matrices.hpp"

#include <strata/core/error.hpp>
#include <strata/core/matrix_files.hpp>
#include <strata_config.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

namespace strata::bench {

namespace {

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

}  // namespace

bool print_help_if_asked(int argc, char** argv, const std::string& extra) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0) {
      std::printf("%s%s\nGoogle Benchmark options (--benchmark_filter, --benchmark_format=json, --benchmark_out=FILE, "
                  "...) are accepted too.\n",
                  selection_help().c_str(), extra.c_str());
      return true;
    }
  }
  return false;
}

const LoadedMatrix& current_matrix(const std::string& source) {
  static std::unique_ptr<LoadedMatrix> loaded;
  static std::string loaded_source;
  if (!loaded || loaded_source != source) {
    loaded.reset();
    loaded = std::make_unique<LoadedMatrix>(load_matrix(source, &std::cerr));
    loaded_source = source;
  }
  return *loaded;
}

std::string selection_help() {
  return "Strata options:\n"
         "  --matrices=SPEC[,SPEC]   generated matrices (gen:...) or files to run instead of the defaults\n"
         "  --matrix-dir=DIR         real Matrix Market matrices (default " STRATA_DEFAULT_MATRIX_DIR
         "; empty: none)\n"
         "  --precisions=LIST        double,float (default both)\n"
         "  --reps=N                 timed repetitions per benchmark (default 100)\n";
}

MatrixSelection parse_matrix_selection(int* argc, char** argv, const std::vector<std::string>& default_generated) {
  MatrixSelection selection;
  std::vector<std::string> generated = default_generated;
  std::string dir = STRATA_DEFAULT_MATRIX_DIR;
  bool dir_given = false;
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    const std::string arg = argv[i];
    auto value_of = [&](const char* prefix) -> const char* {
      return arg.rfind(prefix, 0) == 0 ? argv[i] + std::strlen(prefix) : nullptr;
    };
    if (const char* v = value_of("--matrices=")) {
      generated = split_commas(v);
      STRATA_REQUIRE(!generated.empty(), "--matrices= needs at least one matrix");
    } else if (const char* v = value_of("--matrix-dir=")) {
      dir = v;
      dir_given = true;
    } else if (const char* v = value_of("--precisions=")) {
      selection.precisions = split_commas(v);
      for (const auto& p : selection.precisions) {
        STRATA_REQUIRE(p == "double" || p == "float", "--precisions: '" + p + "' is not double or float");
      }
    } else if (const char* v = value_of("--reps=")) {
      char* end = nullptr;
      const long reps = std::strtol(v, &end, 10);
      STRATA_REQUIRE(end && *end == '\0' && reps >= 1, std::string("--reps: '") + v + "' is not a positive integer");
      selection.repetitions = static_cast<int>(reps);
    } else {
      argv[kept++] = argv[i];
    }
  }
  *argc = kept;
  selection.sources = generated;
  // The default directory may be absent (a machine without ../shared); a given one must exist
  // (matrix_files_in names it where it is not a directory); --matrix-dir= reads none.
  if (!dir.empty() && (dir_given || std::filesystem::is_directory(dir))) {
    for (const auto& f : matrix_files_in(dir)) selection.sources.push_back(f);
  } else if (!dir.empty()) {
    std::fprintf(stderr, "strata: real-matrix directory %s not found; benchmarking generated matrices only\n",
                 dir.c_str());
  }
  return selection;
}

}  // namespace strata::bench
