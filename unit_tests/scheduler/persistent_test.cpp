// The persistent launcher on the synthetic tree: every leaf visited once and
// every queue receiving exactly what the host-driven launcher's queues receive,
// from an empty run to millions of items; a queue too small stops the run with
// an error (items of every level are in flight at once, so a round cannot be
// repeated) and is grown for the next run; an item matching no bin and an
// operation that never stops end with errors, not hangs.
#include "scheduler/publishing_launcher_cases.hpp"

#include <strata/core/error.hpp>
#include <strata/scheduler/host_driven.hpp>
#include <strata/scheduler/persistent.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace strata {
namespace {

using namespace test::synthetic_tree;
using Launcher = scheduler::PersistentLauncher<TreeQueues, ExecSpace>;

// Queues sized from a host-driven walk of the same tree, as the HiSparse product sizes them.
Launcher sized_for(std::uint64_t leaves) {
  return test::synthetic_tree::sized_for<Launcher>(leaves, scheduler::PersistentOptions{});
}

TEST(PersistentScheduler, NoSeedsLaunchNothing) {
  Launcher launcher;
  std::vector<int> visits;
  const auto report = run(launcher, 0, visits);
  EXPECT_EQ(report.launches, 0);
  EXPECT_EQ(report.total_items(), 0);
}

TEST(PersistentScheduler, OneItem) {
  Launcher launcher;
  std::vector<int> visits;
  const auto report = run(launcher, 1, visits);
  ASSERT_EQ(visits.size(), 1u);
  EXPECT_EQ(visits[0], 1);
  EXPECT_EQ(report.launches, 1);
  EXPECT_EQ(report.items[3], 1);
}

TEST(PersistentScheduler, SameItemsAsTheHostDrivenLauncherAcrossAllQueueSizes) {
  for (std::uint64_t leaves : {2ull, 31ull, 33ull, 257ull, 1000ull, 65537ull}) {
    SCOPED_TRACE("leaves " + std::to_string(leaves));
    Launcher launcher = sized_for(leaves);
    std::vector<int> visits;
    const auto report = run(launcher, leaves, visits);
    expect_every_leaf_once(visits);
    EXPECT_EQ(report.items, host_driven(leaves).items);
    EXPECT_EQ(report.total_items(), host_shape({0, leaves, 0}).nodes);
  }
}

TEST(PersistentScheduler, RepeatedRunsOnTheSameQueues) {
  expect_repeated_runs_on_the_same_queues<Launcher>(scheduler::PersistentOptions{});
}

TEST(PersistentScheduler, MillionsOfItems) { expect_millions_of_items<Launcher>(scheduler::PersistentOptions{}); }

TEST(PersistentScheduler, AFullQueueIsAnErrorAndIsGrownForTheNextRun) {
  expect_a_full_queue_is_an_error_and_is_grown<Launcher>(scheduler::PersistentOptions{}, "persistent");
}

TEST(PersistentScheduler, AnItemMatchingNoBinIsAnError) {
  expect_an_item_matching_no_bin_is_an_error<scheduler::PersistentLauncher>();
}

TEST(PersistentScheduler, AnOperationThatNeverStopsEndsAtTheQueueCapacity) {
  expect_an_operation_that_never_stops_ends_at_the_queue_capacity<Launcher>();
}

}  // namespace
}  // namespace strata
