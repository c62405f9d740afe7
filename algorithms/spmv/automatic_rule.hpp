#pragma once
// The rule of Format::automatic, kept apart from the kernels so that it
// compiles once (automatic_rule.cpp, which documents it).
#include <strata/algorithms/spmv/mode.hpp>
#include <strata/core/matrix_statistics.hpp>

#include <string>

namespace strata::Impl {

// The registry name of the kernel the rule picks, and why (the statistics and the branch).
struct SpmvRuleChoice {
  std::string kernel;
  std::string reason;
};

// `modes`: the modes the matrix will be multiplied in; the rule weighs those only.
SpmvRuleChoice spmv_rule(const MatrixStatistics& s, bool on_host, bool with_cusparse, SpmvModes modes);

}  // namespace strata::Impl
