// The host-driven launcher on a synthetic tree whose shape is known on the
// host: every leaf must be visited exactly once, every node processed once,
// whatever the queue capacities (overflow), the fan-outs (1, <= 32 and > 32
// children route to queues of 1, 32 and 256 threads per item) and the sizes
// (empty, one item, millions of items).
#include "scheduler/synthetic_tree.hpp"

#include <strata/core/error.hpp>
#include <strata/scheduler/host_driven.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace strata {
namespace {

using namespace test::synthetic_tree;

scheduler::ScheduleReport walk(std::uint64_t leaves, const scheduler::HostDrivenOptions& options,
                               std::vector<int>& visits_out) {
  Kokkos::View<int*, Device> visits("visits", leaves);
  std::vector<scheduler::Seed<Node>> seeds;
  if (leaves > 0) {
    const Node root{0, leaves, 0};
    seeds.push_back({root, type_of(root), count_of(root)});
  }
  scheduler::HostDrivenLauncher<TreeQueues, ExecSpace> launcher(options);
  const auto report = launcher.run(ExecSpace(), seeds, WalkTree{visits});
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), visits);
  visits_out.assign(host.data(), host.data() + host.extent(0));
  return report;
}

TEST(HostDrivenScheduler, NoSeedsLaunchNothing) {
  std::vector<int> visits;
  const auto report = walk(0, {}, visits);
  EXPECT_EQ(report.rounds, 0);
  EXPECT_EQ(report.launches, 0);
  EXPECT_EQ(report.total_items(), 0);
}

TEST(HostDrivenScheduler, OneItem) {
  std::vector<int> visits;
  const auto report = walk(1, {}, visits);
  ASSERT_EQ(visits.size(), 1u);
  EXPECT_EQ(visits[0], 1);
  EXPECT_EQ(report.rounds, 1);
  EXPECT_EQ(report.launches, 1);
  EXPECT_EQ(report.items[3], 1);
}

TEST(HostDrivenScheduler, EveryNodeOnceAcrossAllQueueSizes) {
  for (std::uint64_t leaves : {2ull, 31ull, 33ull, 257ull, 1000ull, 65537ull}) {
    SCOPED_TRACE("leaves " + std::to_string(leaves));
    std::vector<int> visits;
    const auto report = walk(leaves, {}, visits);
    expect_every_leaf_once(visits);
    const HostShape shape = host_shape({0, leaves, 0});
    EXPECT_EQ(report.total_items(), shape.nodes);
    EXPECT_EQ(report.rounds, shape.depth + 1);
    EXPECT_EQ(report.items[3], static_cast<std::int64_t>(leaves));
  }
  // The tree of 65537 leaves uses every queue.
  std::vector<int> visits;
  const auto report = walk(65537, {}, visits);
  for (int q = 0; q < TreeQueues::size; ++q) EXPECT_GT(report.items[q], 0) << "queue " << q;
}

TEST(HostDrivenScheduler, MillionsOfItems) {
  const std::uint64_t leaves = 3000000;
  std::vector<int> visits;
  const auto report = walk(leaves, {}, visits);
  expect_every_leaf_once(visits);
  EXPECT_EQ(report.total_items(), host_shape({0, leaves, 0}).nodes);
  EXPECT_GT(report.total_items(), 3000000);
}

TEST(HostDrivenScheduler, FullQueuesGrowWithoutLosingOrRepeatingItems) {
  scheduler::HostDrivenOptions tiny;
  tiny.initial_capacity = 1;
  std::vector<int> visits, reference;
  const auto report = walk(100000, tiny, visits);
  const auto roomy = walk(100000, {}, reference);
  expect_every_leaf_once(visits);
  EXPECT_GT(report.repeated_rounds, 0);
  EXPECT_EQ(report.items, roomy.items);
  EXPECT_EQ(report.rounds, roomy.rounds);
}

TEST(HostDrivenScheduler, AnItemMatchingNoBinIsAnError) {
  using Narrow = scheduler::QueueSet<Node, Bin<inner_type, 1, 32, 32, QueueRole::produces>,
                                     Bin<leaf_type, 1, 1, 1, QueueRole::final>>;
  Kokkos::View<int*, Device> visits("visits", 100000);
  const Node root{0, 100000, 0};  // 2 children of one child each, whose 40 children match no bin
  scheduler::HostDrivenLauncher<Narrow, ExecSpace> launcher;
  try {
    launcher.run(ExecSpace(), {{root, type_of(root), count_of(root)}}, WalkTree{visits});
    FAIL() << "expected strata::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("matched no bin"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("entry count 40"), std::string::npos) << e.what();
  }
  const Node big{0, 5000, 2};  // a seed of 40 children
  EXPECT_THROW(launcher.run(ExecSpace(), {{big, type_of(big), count_of(big)}}, WalkTree{visits}), Error);
}

TEST(HostDrivenScheduler, AnOperationThatNeverStopsIsStoppedWithAnError) {
  scheduler::HostDrivenOptions options;
  options.max_rounds = 50;
  scheduler::HostDrivenLauncher<TreeQueues, ExecSpace> launcher(options);
  try {
    launcher.run(ExecSpace(), {{Node{0, 2, 0}, inner_type, 1}}, NeverStops{});
    FAIL() << "expected strata::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("after 50 rounds"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace strata
