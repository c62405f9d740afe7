// The host-driven launcher on a synthetic tree whose shape is known on the
// host: every leaf must be visited exactly once, every node processed once,
// whatever the queue capacities (overflow), the fan-outs (1, <= 32 and > 32
// children route to queues of 1, 32 and 256 threads per item) and the sizes
// (empty, one item, millions of items).
#include <strata/core/error.hpp>
#include <strata/scheduler/host_driven.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace strata {
namespace {

using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = Kokkos::Device<ExecSpace, ExecSpace::memory_space>;

// A node covers the leaves [lo, hi).
struct Node {
  std::uint64_t lo = 0, hi = 0;
  std::uint32_t depth = 0;
};

constexpr std::uint32_t inner_type = 1;
constexpr std::uint32_t leaf_type = 2;

// Children of a node: none for a leaf (one leaf index), one (the same range,
// one level deeper) every fourth level, else 2, 7, 40 or 300 parts.
KOKKOS_INLINE_FUNCTION std::uint64_t children_of(const Node& n) {
  const std::uint64_t width = n.hi - n.lo;
  if (width <= 1) return 0;
  if (n.depth % 4 == 1) return 1;
  const std::uint64_t fanouts[4] = {2, 7, 40, 300};
  const std::uint64_t f = fanouts[(n.lo + n.depth) % 4];
  return f < width ? f : width;
}

KOKKOS_INLINE_FUNCTION Node child(const Node& n, std::uint64_t k, std::uint64_t children) {
  const std::uint64_t width = n.hi - n.lo;
  return {n.lo + width * k / children, n.lo + width * (k + 1) / children, n.depth + 1};
}

KOKKOS_INLINE_FUNCTION std::uint32_t type_of(const Node& n) { return children_of(n) == 0 ? leaf_type : inner_type; }
KOKKOS_INLINE_FUNCTION std::uint32_t count_of(const Node& n) {
  const std::uint64_t c = children_of(n);
  return c == 0 ? 1u : static_cast<std::uint32_t>(c);
}

using scheduler::Bin;
using scheduler::QueueRole;
using TreeQueues = scheduler::QueueSet<Node,                                                    //
                                       Bin<inner_type, 1, 1, 1, QueueRole::produces>,          //
                                       Bin<inner_type, 2, 32, 32, QueueRole::produces>,        //
                                       Bin<inner_type, 33, scheduler::any_count, 256, QueueRole::produces>,
                                       Bin<leaf_type, 1, 1, 1, QueueRole::final>>;

struct WalkTree {
  Kokkos::View<int*, Device> visits;

  template <class Threads, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(int, const Node& n, const Threads& threads, const Out& out) const {
    const std::uint64_t children = children_of(n);
    if (children == 0) {
      threads.single([&] { Kokkos::atomic_add(&visits(n.lo), 1); });
      return;
    }
    threads.for_each(static_cast<std::uint32_t>(children), [&](const std::uint32_t k) {
      const Node c = child(n, k, children);
      out.emit(c, type_of(c), count_of(c));
    });
  }
};

struct HostShape {
  std::int64_t nodes = 0;
  int depth = 0;
};

HostShape host_shape(const Node& n) {
  HostShape s{1, static_cast<int>(n.depth)};
  const std::uint64_t children = children_of(n);
  for (std::uint64_t k = 0; k < children; ++k) {
    const HostShape c = host_shape(child(n, k, children));
    s.nodes += c.nodes;
    if (c.depth > s.depth) s.depth = c.depth;
  }
  return s;
}

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

void expect_every_leaf_once(const std::vector<int>& visits) {
  std::size_t wrong = 0, first_wrong = visits.size();
  for (std::size_t i = 0; i < visits.size(); ++i) {
    if (visits[i] != 1) {
      if (wrong++ == 0) first_wrong = i;
    }
  }
  EXPECT_EQ(wrong, 0u) << "first leaf visited " << (first_wrong < visits.size() ? visits[first_wrong] : 0)
                       << " times: " << first_wrong;
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

// Emits itself forever.
struct NeverStops {
  template <class Threads, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(int, const Node& n, const Threads& threads, const Out& out) const {
    threads.single([&] { out.emit(n, inner_type, 1); });
  }
};

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
