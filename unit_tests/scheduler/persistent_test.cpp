// The persistent launcher on the synthetic tree: every leaf visited once and
// every queue receiving exactly what the host-driven launcher's queues receive,
// from an empty run to millions of items; a queue too small stops the run with
// an error (items of every level are in flight at once, so a round cannot be
// repeated) and is grown for the next run; an item matching no bin and an
// operation that never stops end with errors, not hangs.
#include "scheduler/synthetic_tree.hpp"

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

std::vector<scheduler::Seed<Node>> root_seed(std::uint64_t leaves) {
  std::vector<scheduler::Seed<Node>> seeds;
  if (leaves > 0) {
    const Node root{0, leaves, 0};
    seeds.push_back({root, type_of(root), count_of(root)});
  }
  return seeds;
}

scheduler::ScheduleReport run(Launcher& launcher, std::uint64_t leaves, std::vector<int>& visits_out) {
  Kokkos::View<int*, Device> visits("visits", leaves);
  const auto report = launcher.run(ExecSpace(), root_seed(leaves), WalkTree{visits});
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), visits);
  visits_out.assign(host.data(), host.data() + host.extent(0));
  return report;
}

scheduler::ScheduleReport host_driven(std::uint64_t leaves) {
  Kokkos::View<int*, Device> visits("visits", leaves);
  scheduler::HostDrivenLauncher<TreeQueues, ExecSpace> launcher;
  return launcher.run(ExecSpace(), root_seed(leaves), WalkTree{visits});
}

// Queues sized from a host-driven walk of the same tree, as the HiSparse
// product sizes them.
Launcher sized_for(std::uint64_t leaves) {
  const auto counted = host_driven(leaves);
  Launcher::Counts needed{};
  for (int q = 0; q < TreeQueues::size; ++q) needed[q] = static_cast<std::uint32_t>(counted.items[q]);
  Launcher launcher;
  launcher.reserve(needed);
  return launcher;
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
  // Slot flags from earlier runs must not read as ready (epochs).
  Launcher launcher = sized_for(5000);
  for (int r = 0; r < 5; ++r) {
    SCOPED_TRACE("run " + std::to_string(r));
    std::vector<int> visits;
    run(launcher, 5000 - 7 * r, visits);
    expect_every_leaf_once(visits);
  }
}

TEST(PersistentScheduler, MillionsOfItems) {
  const std::uint64_t leaves = 3000000;
  Launcher launcher = sized_for(leaves);
  std::vector<int> visits;
  const auto report = run(launcher, leaves, visits);
  expect_every_leaf_once(visits);
  EXPECT_EQ(report.items, host_driven(leaves).items);
  EXPECT_GT(report.total_items(), 3000000);
}

TEST(PersistentScheduler, AFullQueueIsAnErrorAndIsGrownForTheNextRun) {
  scheduler::PersistentOptions tiny;
  tiny.initial_capacity = 1;
  Launcher launcher(tiny);
  std::vector<int> visits;
  try {
    run(launcher, 100000, visits);
    FAIL() << "expected strata::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("overflowed"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("incomplete"), std::string::npos) << e.what();
  }
  // One failed run grows the queues to what that run tried to emit; with the
  // first levels complete, deeper ones may still overflow, so a few runs may fail.
  bool completed = false;
  for (int attempt = 0; attempt < 16 && !completed; ++attempt) {
    try {
      const auto report = run(launcher, 100000, visits);
      expect_every_leaf_once(visits);
      EXPECT_EQ(report.items, host_driven(100000).items);
      completed = true;
    } catch (const Error&) {
    }
  }
  EXPECT_TRUE(completed);
}

TEST(PersistentScheduler, AnItemMatchingNoBinIsAnError) {
  using Narrow = scheduler::QueueSet<Node, Bin<inner_type, 1, 32, 32, QueueRole::produces>,
                                     Bin<leaf_type, 1, 1, 1, QueueRole::final>>;
  Kokkos::View<int*, Device> visits("visits", 100000);
  const Node root{0, 100000, 0};  // 2 children of one child each, whose 40 children match no bin
  scheduler::PersistentLauncher<Narrow, ExecSpace> launcher;
  try {
    launcher.run(ExecSpace(), {{root, type_of(root), count_of(root)}}, WalkTree{visits});
    FAIL() << "expected strata::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("matched no bin"), std::string::npos) << e.what();
  }
}

TEST(PersistentScheduler, AnOperationThatNeverStopsEndsAtTheQueueCapacity) {
  Launcher launcher;  // 1024 slots per queue
  try {
    launcher.run(ExecSpace(), {{Node{0, 2, 0}, inner_type, 1}}, NeverStops{});
    FAIL() << "expected strata::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("queue 0 needed 1025 slots, had 1024"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace strata
