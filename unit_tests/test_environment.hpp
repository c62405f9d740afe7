#pragma once
#include <string>
#include <vector>

namespace strata::test {

// The real-matrix directory: --matrix-dir=DIR, else $STRATA_MATRIX_DIR; empty when neither is given.
const std::string& matrix_dir();

// The real matrices the tests read: the Matrix Market files of matrix_dir(), sorted, but where
// $STRATA_TEST_MATRIX_MAX_ENTRIES is set, only those of at most that many stored entries (CI's
// sanitizer stage: docs/BACKENDS.md); the files left out are named on stdout. Throws on a value
// that is not a positive integer.
std::vector<std::string> real_matrix_files();

}  // namespace strata::test
