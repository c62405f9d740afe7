#pragma once
#include <string>

namespace strata::test {

// The real-matrix directory: --matrix-dir=DIR, else $STRATA_MATRIX_DIR; empty when neither is given.
const std::string& matrix_dir();

}  // namespace strata::test
