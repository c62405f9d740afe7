#pragma once
// A synthetic tree whose shape is known on the host, walked by the scheduler's
// launchers in the scheduler tests: every leaf must be visited exactly once and
// every node processed once. Fan-outs of 1, <= 32 and > 32 children route to
// queues of 1, 32 and 256 threads per item.
#include <strata/scheduler/queue_set.hpp>

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

namespace strata::test::synthetic_tree {

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

inline HostShape host_shape(const Node& n) {
  HostShape s{1, static_cast<int>(n.depth)};
  const std::uint64_t children = children_of(n);
  for (std::uint64_t k = 0; k < children; ++k) {
    const HostShape c = host_shape(child(n, k, children));
    s.nodes += c.nodes;
    if (c.depth > s.depth) s.depth = c.depth;
  }
  return s;
}

inline void expect_every_leaf_once(const std::vector<int>& visits) {
  std::size_t wrong = 0, first_wrong = visits.size();
  for (std::size_t i = 0; i < visits.size(); ++i) {
    if (visits[i] != 1) {
      if (wrong++ == 0) first_wrong = i;
    }
  }
  EXPECT_EQ(wrong, 0u) << "first leaf visited " << (first_wrong < visits.size() ? visits[first_wrong] : 0)
                       << " times: " << first_wrong;
}

// Emits itself forever.
struct NeverStops {
  template <class Threads, class Out>
  KOKKOS_INLINE_FUNCTION void operator()(int, const Node& n, const Threads& threads, const Out& out) const {
    threads.single([&] { out.emit(n, inner_type, 1); });
  }
};

}  // namespace strata::test::synthetic_tree
