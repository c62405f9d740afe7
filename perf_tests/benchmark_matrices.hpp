#pragma once
// The matrix list of a benchmark run: generated matrices sized for the device
// plus every Matrix Market file of the real-matrix directory, overridable with
// --matrices=SPEC[,SPEC...] and --matrix-dir=DIR (empty to leave real matrices out).
#include <string>
#include <vector>

namespace strata::bench {

struct MatrixSelection {
  std::vector<std::string> sources;
  std::vector<std::string> precisions{"double", "float"};
  int repetitions = 100;
};

// Consumes the Strata options from argv (before benchmark::Initialize sees it);
// throws strata::Error on a malformed option.
MatrixSelection parse_matrix_selection(int* argc, char** argv, const std::vector<std::string>& default_generated);

std::string selection_help();

}  // namespace strata::bench
