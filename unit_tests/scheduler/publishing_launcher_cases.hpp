#pragma once
// What every launcher on publishing queues (scheduler/publishing_queues.hpp: the persistent
// launcher, the CUDA controller) must do on the synthetic tree, written once for their tests:
// the runs, queues sized by a host-driven counting walk, and the error cases.
#include "scheduler/synthetic_tree.hpp"

#include <strata/core/error.hpp>
#include <strata/scheduler/host_driven.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace strata::test::synthetic_tree {

inline std::vector<scheduler::Seed<Node>> root_seed(std::uint64_t leaves) {
  std::vector<scheduler::Seed<Node>> seeds;
  if (leaves > 0) {
    const Node root{0, leaves, 0};
    seeds.push_back({root, type_of(root), count_of(root)});
  }
  return seeds;
}

template <class Launcher>
scheduler::ScheduleReport run(Launcher& launcher, std::uint64_t leaves, std::vector<int>& visits_out) {
  Kokkos::View<int*, Device> visits("visits", leaves);
  const auto report = launcher.run(ExecSpace(), root_seed(leaves), WalkTree{visits});
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), visits);
  visits_out.assign(host.data(), host.data() + host.extent(0));
  return report;
}

inline scheduler::ScheduleReport host_driven(std::uint64_t leaves) {
  scheduler::HostDrivenLauncher<TreeQueues, ExecSpace> launcher;
  std::vector<int> visits;
  return run(launcher, leaves, visits);
}

// Queues sized from a host-driven walk of the same tree, as the HiSparse product sizes them.
template <class Launcher, class Options>
Launcher sized_for(std::uint64_t leaves, const Options& options) {
  const auto counted = host_driven(leaves);
  typename Launcher::Counts needed{};
  for (int q = 0; q < TreeQueues::size; ++q) needed[q] = static_cast<std::uint32_t>(counted.items[q]);
  Launcher launcher(options);
  launcher.reserve(needed);
  return launcher;
}

// Five runs on the same queues, each on a smaller tree: slot flags from earlier runs must not read
// as ready (epochs), and no count may carry over.
template <class Launcher, class Options>
void expect_repeated_runs_on_the_same_queues(const Options& options) {
  Launcher launcher = sized_for<Launcher>(5000, options);
  for (int r = 0; r < 5; ++r) {
    SCOPED_TRACE("run " + std::to_string(r));
    std::vector<int> visits;
    run(launcher, 5000 - 7 * r, visits);
    expect_every_leaf_once(visits);
  }
}

// Three million leaves: every leaf once, every queue what the host-driven launcher gives it.
template <class Launcher, class Options>
void expect_millions_of_items(const Options& options) {
  const std::uint64_t leaves = 3000000;
  Launcher launcher = sized_for<Launcher>(leaves, options);
  std::vector<int> visits;
  const auto report = run(launcher, leaves, visits);
  expect_every_leaf_once(visits);
  EXPECT_EQ(report.items, host_driven(leaves).items);
  EXPECT_GT(report.total_items(), 3000000);
}

// A queue too small stops the run with an error naming the launcher; one failed run grows the
// queues to what it tried to emit, and with the first levels complete deeper ones may still
// overflow, so a few runs may fail before one completes.
template <class Launcher, class Options>
void expect_a_full_queue_is_an_error_and_is_grown(Options tiny, const std::string& launcher_name) {
  tiny.initial_capacity = 1;
  Launcher launcher(tiny);
  std::vector<int> visits;
  try {
    run(launcher, 100000, visits);
    FAIL() << "expected strata::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(launcher_name + " run overflowed"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("incomplete"), std::string::npos) << e.what();
  }
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

template <template <class, class> class Launcher>
void expect_an_item_matching_no_bin_is_an_error() {
  using Narrow = scheduler::QueueSet<Node, Bin<inner_type, 1, 32, 32, QueueRole::produces>,
                                     Bin<leaf_type, 1, 1, 1, QueueRole::final>>;
  Kokkos::View<int*, Device> visits("visits", 100000);
  const Node root{0, 100000, 0};  // 2 children of one child each, whose 40 children match no bin
  Launcher<Narrow, ExecSpace> launcher;
  try {
    launcher.run(ExecSpace(), {{root, type_of(root), count_of(root)}}, WalkTree{visits});
    FAIL() << "expected strata::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("matched no bin"), std::string::npos) << e.what();
  }
}

// Queues hold 1024 slots: a run that never stops emitting ends when queue 0 is full.
template <class Launcher>
void expect_an_operation_that_never_stops_ends_at_the_queue_capacity() {
  Launcher launcher;
  try {
    launcher.run(ExecSpace(), {{Node{0, 2, 0}, inner_type, 1}}, NeverStops{});
    FAIL() << "expected strata::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("queue 0 needed 1025 slots, had 1024"), std::string::npos) << e.what();
  }
}

}  // namespace strata::test::synthetic_tree
