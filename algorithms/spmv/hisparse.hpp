#pragma once
// strata::spmv's kernels on HiSparseMatrix (its checks: interface/hisparse.hpp), four algorithms:
//  - leaf_bins (default): the leaves are listed and sorted into bins by entry
//    count once per handle (hisparse_leaf_bins.hpp); each product scales y,
//    then one launch for all bins (two for large products) adds the leaves'
//    entries with atomics;
//  - scheduled: every product walks the tree on the dynamic scheduler's
//    host-driven launcher (hisparse_scheduled.hpp), nothing precomputed but the
//    root's entry count;
//  - persistent: the same walk in one launch of persistent teams, its queues
//    sized by one counting walk when the handle is analysed;
//  - controlled (CUDA builds with STRATA_ENABLE_CUDA_CONTROLLER): the same walk
//    launched from the device by the controller warp, queues sized the same
//    way (hisparse_controlled.hpp).
// A's own transpose flag and scale factor fold into the mode and alpha, so A^T
// costs what A costs. Rank-2 x/y are multiplied column by column.
// Kernels are named functors, not extended lambdas: see docs/BACKENDS.md, "Extended lambdas".
#include <strata/algorithms/spmv/definitions.hpp>
#include <strata/algorithms/spmv/hisparse_controlled.hpp>
#include <strata/algorithms/spmv/hisparse_entry.hpp>
#include <strata/algorithms/spmv/hisparse_leaf_bins.hpp>
#include <strata/algorithms/spmv/hisparse_scheduled.hpp>
#include <strata/algorithms/spmv/interface/hisparse.hpp>
#include <strata/algorithms/spmv/vectors.hpp>

#include <string>

namespace strata::Impl {

template <class ExecSpace, class Value, class Device>
struct SpmvState<ExecSpace, HiSparseMatrix<Value, Device>> {
  SpmvAlgorithm algorithm = SpmvAlgorithm::leaf_bins;
  HiSparseLeafBins<Device> leaves;                                    // leaf_bins
  std::shared_ptr<HiSparseSpmvLauncher<ExecSpace>> launcher;          // scheduled: its queues, reused by every product
  std::shared_ptr<HiSparsePersistentLauncher<ExecSpace>> persistent;  // persistent: queues sized for one product
  std::shared_ptr<HiSparseControllerLauncher<ExecSpace>> controller;  // controlled: queues sized for one product
  std::uint32_t root_count = 0;                                       // the walks
  scheduler::ScheduleReport last;                                     // the walks: the last product's
};

template <class ExecSpace, class Value, class Device>
struct SpmvKernels<ExecSpace, HiSparseMatrix<Value, Device>> {
  using format = SpmvFormat<ExecSpace, HiSparseMatrix<Value, Device>>;
  using matrix_type = typename format::matrix_type;
  using value_type = typename format::value_type;
  using State = SpmvState<ExecSpace, HiSparseMatrix<Value, Device>>;
  static constexpr bool has_controller = format::has_controller;

  static void analyze(const ExecSpace& space, const SpmvSettings& s, const matrix_type& A, State& state) {
    state.algorithm = s.algorithm == SpmvAlgorithm::format_default ? SpmvAlgorithm::leaf_bins : s.algorithm;
    if (state.algorithm == SpmvAlgorithm::leaf_bins) {
      state.leaves = hisparse_leaf_bins(space, A);
      return;
    }
    state.root_count = hisparse_root_count(A);
    if (state.algorithm == SpmvAlgorithm::scheduled) {
      state.launcher = std::make_shared<HiSparseSpmvLauncher<ExecSpace>>();
    } else if (state.algorithm == SpmvAlgorithm::persistent) {
      state.persistent = hisparse_reserved_launcher<HiSparsePersistentLauncher<ExecSpace>>(space, A, state.root_count);
    } else if constexpr (has_controller) {
      state.controller = hisparse_reserved_launcher<HiSparseControllerLauncher<ExecSpace>>(space, A, state.root_count);
    }
  }

  template <class XView, class YView>
  static void apply(const ExecSpace& space, const SpmvSettings& s, State& state, SpmvMode mode, Value alpha,
                    const matrix_type& A, const XView& x, Value beta, const YView& y) {
    if constexpr (XView::rank == 2) {
      for_each_column(x, y, [&](const auto& xj, const auto& yj) { apply(space, s, state, mode, alpha, A, xj, beta, yj); });
    } else {
      scale_output(space, beta, y);
      if (alpha == Value(0)) return;
      const bool conjugate = is_conjugated(mode);
      const bool transpose = A.transposed() != is_transposed(mode);
      const Value scale = conjugate_if(A.scale_factor(), conjugate);
      if (state.algorithm == SpmvAlgorithm::scheduled) {
        state.last = hisparse_scheduled_product(space, *state.launcher, A, state.root_count, transpose, conjugate,
                                                alpha * scale, x, y);
      } else if (state.algorithm == SpmvAlgorithm::persistent) {
        state.last = hisparse_scheduled_product(space, *state.persistent, A, state.root_count, transpose, conjugate,
                                                alpha * scale, x, y);
      } else if (state.algorithm == SpmvAlgorithm::controlled) {
        if constexpr (has_controller) {
          state.last = hisparse_controlled_product(space, *state.controller, A, state.root_count, transpose, conjugate,
                                                   alpha * scale, controlled_vector<const Value>(x),
                                                   controlled_vector<Value>(y));
        }
      } else {
        hisparse_leaf_bin_products(space, A.ref(), state.leaves, transpose, conjugate, alpha * scale, x, y);
      }
    }
  }

  static std::string describe(const SpmvSettings&, const State& state) {
    if (state.algorithm == SpmvAlgorithm::scheduled || state.algorithm == SpmvAlgorithm::persistent) {
      return std::string(state.algorithm == SpmvAlgorithm::scheduled ? "scheduled(host-driven; " : "persistent(") +
             "last product: " + std::to_string(state.last.rounds) + " rounds, " +
             std::to_string(state.last.launches) + " launches, " + std::to_string(state.last.total_items()) +
             " nodes)";
    }
    if (state.algorithm == SpmvAlgorithm::controlled) {
      return "controlled(last product: " + std::to_string(state.last.launches) + " launches in " +
             std::to_string(state.last.rounds) + " passes, " + std::to_string(state.last.total_items()) +
             " nodes, controller " + std::to_string(state.last.device_ns / 1000) + " us of which idle " +
             std::to_string(state.last.idle_ns / 1000) + " us, " + std::to_string(state.last.deferred_launches) +
             " deferred launches)";
    }
    const auto& bins = state.leaves;
    std::string column_ordered;
    for (int k = 0; k < 2; ++k) {
      const index_type n = bins.warp_bins[k].size - bins.warp_bins[k].column_ordered_first;
      if (n == 0) continue;
      column_ordered += (column_ordered.empty() ? "; in T read by column: " : ", ") + std::to_string(n) +
                        (k == 0 ? " by a warp" : " by a block");
    }
    return "leaf_bins(" + std::to_string(bins.leaves) + " leaves: " + std::to_string(bins.size(0)) + " by a thread, " +
           std::to_string(bins.size(1)) + " by a warp, " + std::to_string(bins.size(2)) + " by a block" +
           column_ordered + ")";
  }
};

}  // namespace strata::Impl
