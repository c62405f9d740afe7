#pragma once
// Timing between fences, the one way Strata times a device operation: the
// measurement path (SpmvRun, used by the command and the benchmarks) and the
// timed automatic choice both call it. It depends on Kokkos only, so that
// algorithms/spmv/automatic.hpp can use it without including SpmvRun, which
// itself builds matrices through automatic.hpp.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <utility>
#include <vector>

namespace strata::measure {

struct FencedTiming {
  double median_seconds = 0.0;
  double best_seconds = 0.0;
  double mean_seconds = 0.0;
  int repetitions = 0;
};

// Seconds of one call of `operation` (which launches work on `space`): fence,
// start the clock, call, fence, stop. The first fence keeps earlier work out.
template <class ExecSpace, class Operation>
double time_once_between_fences(const ExecSpace& space, Operation&& operation) {
  space.fence();
  Kokkos::Timer timer;
  operation();
  space.fence();
  return timer.seconds();
}

// Median, best and mean of timed calls (all zero for none). Loops that time
// their calls themselves, such as a benchmark's iterations, summarise them here.
inline FencedTiming summarize_timings(std::vector<double> seconds) {
  FencedTiming t;
  t.repetitions = static_cast<int>(seconds.size());
  if (seconds.empty()) return t;
  for (double s : seconds) t.mean_seconds += s / t.repetitions;
  std::sort(seconds.begin(), seconds.end());
  t.median_seconds = seconds[seconds.size() / 2];
  t.best_seconds = seconds.front();
  return t;
}

// `warmup` untimed calls, then `repetitions` (at least one) calls each timed
// between fences; the median is what Strata reports.
template <class ExecSpace, class Operation>
FencedTiming time_between_fences(const ExecSpace& space, int warmup, int repetitions, Operation&& operation) {
  for (int i = 0; i < warmup; ++i) operation();
  const int n = std::max(1, repetitions);
  std::vector<double> seconds;
  seconds.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) seconds.push_back(time_once_between_fences(space, operation));
  return summarize_timings(std::move(seconds));
}

}  // namespace strata::measure
