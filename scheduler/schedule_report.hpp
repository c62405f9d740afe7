#pragma once
// What a launcher reports about one run, and the seed items it starts from.
#include <cstdint>
#include <vector>

namespace strata::scheduler {

// An item to start from, with the node type and entry count that route it.
template <class Item>
struct Seed {
  Item item;
  std::uint32_t type = 0;
  std::uint32_t count = 0;
};

struct ScheduleReport {
  explicit ScheduleReport(int queues = 0) : items(static_cast<std::size_t>(queues), 0) {}
  int rounds = 0;              // host-driven: rounds of launches (one per tree level for a tree walk)
  int repeated_rounds = 0;     // rounds whose producing launches ran again after a queue grew
  std::int64_t launches = 0;   // kernel launches
  std::vector<std::int64_t> items;  // items processed, per queue
  // The CUDA controller (controller.hpp), timed on the device's clock; 0 for the other launchers.
  std::int64_t device_ns = 0;        // from the controller's start to its end
  std::int64_t idle_ns = 0;          // of that, time no child block ran while items were outstanding
  std::int64_t deferred_launches = 0;  // launches the device runtime refused (pending-launch limit) and retried
  std::int64_t total_items() const {
    std::int64_t n = 0;
    for (auto i : items) n += i;
    return n;
  }
};

}  // namespace strata::scheduler
