#pragma once
// The rule of Format::automatic, kept apart from the kernels so that it
// compiles once (automatic_rule.cpp, which documents it).
#include <strata/algorithms/spmv/mode.hpp>
#include <strata/core/matrix_statistics.hpp>

#include <cstddef>
#include <string>

namespace strata::Impl {

// The registry name of the kernel the rule picks, and why (the statistics and the branch).
struct SpmvRuleChoice {
  std::string kernel;
  std::string reason;
};

// What the rule knows of where the products run and of the values.
struct SpmvTarget {
  bool on_host = true;                     // the execution space runs on the host (Serial, OpenMP)
  bool with_cusparse = false;              // cuSPARSE's kernels are available
  std::size_t value_bytes = 8;             // sizeof the value type: x's bytes per column
  std::size_t last_level_cache_bytes = 0;  // the device's L2 (0 where unknown: never split by it)
};

// `modes`: the modes the matrix will be multiplied in; the rule weighs those only.
SpmvRuleChoice spmv_rule(const MatrixStatistics& s, const SpmvTarget& target, SpmvModes modes);

}  // namespace strata::Impl
