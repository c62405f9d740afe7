// The CUDA controller on the synthetic tree: every leaf visited once and every
// queue receiving exactly what the host-driven and persistent launchers' queues
// receive, from an empty run to millions of items, whatever the launch policy
// (eager or batched) and under a pending-launch limit of one (refused launches
// are retried); a queue too small stops the run with an error and is grown
// for the next run; an item matching no bin and an operation that never stops
// end with errors, not hangs. Builds without the controller check that it is
// absent and that HiSparse refuses its algorithm, naming the build option.
#include "scheduler/publishing_launcher_cases.hpp"

#include <strata/algorithms/spmv.hpp>
#include <strata/algorithms/spmv/registry.hpp>
#include <strata/core/error.hpp>
#include <strata/scheduler/controller.hpp>
#include <strata/scheduler/host_driven.hpp>
#include <strata/scheduler/persistent.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace strata {
namespace {

using namespace test::synthetic_tree;

#if defined(KOKKOS_ENABLE_CUDA) && STRATA_ENABLE_CUDA_CONTROLLER

using Launcher = scheduler::ControllerLauncher<TreeQueues, ExecSpace>;

TEST(ControllerScheduler, NoSeedsLaunchNothing) {
  Launcher launcher;
  std::vector<int> visits;
  const auto report = run(launcher, 0, visits);
  EXPECT_EQ(report.launches, 0);
  EXPECT_EQ(report.total_items(), 0);
}

TEST(ControllerScheduler, OneItem) {
  Launcher launcher;
  std::vector<int> visits;
  const auto report = run(launcher, 1, visits);
  ASSERT_EQ(visits.size(), 1u);
  EXPECT_EQ(visits[0], 1);
  EXPECT_EQ(report.launches, 1);
  EXPECT_EQ(report.items[3], 1);
  EXPECT_EQ(report.deferred_launches, 0);
  EXPECT_GT(report.device_ns, 0);
  EXPECT_LE(report.idle_ns, report.device_ns);
}

TEST(ControllerScheduler, EveryLauncherGivesTheSameItemsAcrossAllQueueSizes) {
  for (std::uint64_t leaves : {2ull, 31ull, 33ull, 257ull, 1000ull, 65537ull}) {
    SCOPED_TRACE("leaves " + std::to_string(leaves));
    const auto expected = host_driven(leaves);
    Launcher controller = sized_for<Launcher>(leaves, scheduler::ControllerOptions{});
    std::vector<int> visits;
    const auto report = run(controller, leaves, visits);
    expect_every_leaf_once(visits);
    EXPECT_EQ(report.items, expected.items);
    EXPECT_EQ(report.total_items(), host_shape({0, leaves, 0}).nodes);
    EXPECT_GE(report.launches, 1);
    EXPECT_LE(report.idle_ns, report.device_ns);
    auto persistent =
        sized_for<scheduler::PersistentLauncher<TreeQueues, ExecSpace>>(leaves, scheduler::PersistentOptions{});
    std::vector<int> persistent_visits;
    EXPECT_EQ(run(persistent, leaves, persistent_visits).items, expected.items);
    EXPECT_EQ(persistent_visits, visits);
  }
}

// Every leaf visited once, and every queue given what the host-driven launcher gives it, under
// `options` (queues sized beforehand).
void expect_the_host_driven_items(std::uint64_t leaves, const scheduler::ControllerOptions& options) {
  Launcher launcher = sized_for<Launcher>(leaves, options);
  std::vector<int> visits;
  const auto report = run(launcher, leaves, visits);
  expect_every_leaf_once(visits);
  EXPECT_EQ(report.items, host_driven(leaves).items);
}

TEST(ControllerScheduler, EagerAndBatchedLaunchPoliciesGiveTheSameItems) {
  // full_blocks = dry_blocks = 1: every item as soon as it is published, in launches of a block;
  // dry_blocks = 1, full_blocks huge: launches wait until the GPU runs dry.
  for (const auto& [full, dry] : {std::pair{1, 1}, std::pair{1 << 20, 1}, std::pair{1, 1 << 20}}) {
    SCOPED_TRACE("full_blocks " + std::to_string(full) + ", dry_blocks " + std::to_string(dry));
    scheduler::ControllerOptions options;
    options.full_blocks = full;
    options.dry_blocks = dry;
    expect_the_host_driven_items(200000, options);
  }
}

TEST(ControllerScheduler, ChildLaunchesOfFewBlocksLoopOverAllTheirItems) {
  // child_blocks caps a launch's grid: its blocks loop over the items (one-thread items 256 to a
  // block, warp items 8, block items one), and each block uncounts what it took. One and three
  // blocks per launch, eager and batched.
  for (const int child_blocks : {1, 3}) {
    for (const int full : {1, 1 << 20}) {
      SCOPED_TRACE("child_blocks " + std::to_string(child_blocks) + ", full_blocks " + std::to_string(full));
      scheduler::ControllerOptions options;
      options.child_blocks = child_blocks;
      options.full_blocks = full;
      options.dry_blocks = 1;
      expect_the_host_driven_items(200000, options);
    }
  }
}

TEST(ControllerScheduler, CompletesUnderAPendingLaunchLimitOfOne) {
  // A pending-launch limit of one launch, and a policy that launches every item at once: the device
  // runtime may refuse launches (whether it does depends on timing: seen on some runs, not on
  // others), and a refused launch must be retried, never dropped.
  std::size_t limit = 0;
  ASSERT_EQ(cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount), cudaSuccess);
  ASSERT_EQ(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 1), cudaSuccess);
  scheduler::ControllerOptions eager;
  eager.full_blocks = 1;
  eager.dry_blocks = 1 << 30;
  const std::uint64_t leaves = 3000000;
  Launcher launcher = sized_for<Launcher>(leaves, eager);
  std::vector<int> visits;
  const auto report = run(launcher, leaves, visits);
  ASSERT_EQ(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, limit), cudaSuccess);
  expect_every_leaf_once(visits);
  EXPECT_EQ(report.items, host_driven(leaves).items);
  EXPECT_GE(report.launches, 1);
}

TEST(ControllerScheduler, RepeatedRunsOnTheSameQueues) {
  expect_repeated_runs_on_the_same_queues<Launcher>(scheduler::ControllerOptions{});
}

TEST(ControllerScheduler, MillionsOfItems) { expect_millions_of_items<Launcher>(scheduler::ControllerOptions{}); }

TEST(ControllerScheduler, AFullQueueIsAnErrorAndIsGrownForTheNextRun) {
  expect_a_full_queue_is_an_error_and_is_grown<Launcher>(scheduler::ControllerOptions{}, "controller");
}

TEST(ControllerScheduler, AnItemMatchingNoBinIsAnError) {
  expect_an_item_matching_no_bin_is_an_error<scheduler::ControllerLauncher>();
}

TEST(ControllerScheduler, AnOperationThatNeverStopsEndsAtTheQueueCapacity) {
  expect_an_operation_that_never_stops_ends_at_the_queue_capacity<Launcher>();
}

#else

TEST(ControllerScheduler, AbsentInThisBuildAndRefusedByHiSparse) {
  EXPECT_FALSE(scheduler::controller_available<ExecSpace>::value);
  SpmvSettings settings;
  settings.algorithm = SpmvAlgorithm::controlled;
  try {
    SpmvHandle<ExecSpace, HiSparseMatrix<double, Device>> handle(settings);
    FAIL() << "expected strata::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("STRATA_ENABLE_CUDA_CONTROLLER"), std::string::npos) << e.what();
  }
  for (const auto& kernel : spmv_kernels<ExecSpace>()) EXPECT_NE(kernel.name, "hisparse-ctrl");
}

#endif

}  // namespace
}  // namespace strata
