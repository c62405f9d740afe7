#pragma once
// The Matrix Market files of a directory, as the benchmarks' --matrix-dir and the real-matrix
// tests read them.
#include <string>
#include <vector>

namespace strata {

// The files of directory dir whose names contain ".mtx" (.mtx and .mtx.gz), sorted by path.
// Throws strata::ArgumentError, naming dir, where dir is not a directory.
std::vector<std::string> matrix_files_in(const std::string& dir);

}  // namespace strata
