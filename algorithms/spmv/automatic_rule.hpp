#pragma once
// The rule of Format::automatic, kept apart from the kernels so that it
// compiles once (automatic_rule.cpp, which documents it).
#include <strata/core/matrix_statistics.hpp>

#include <string>

namespace strata::Impl {

// The registry name of the kernel the rule picks, and why (the statistics and the branch).
struct SpmvRuleChoice {
  std::string kernel;
  std::string reason;
};

SpmvRuleChoice spmv_rule(const MatrixStatistics& s, bool on_host, bool with_cusparse);

}  // namespace strata::Impl
