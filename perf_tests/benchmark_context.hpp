#pragma once
// What every Strata benchmark records beside its numbers: the git hash, the
// Kokkos configuration, the device, and the device copy bandwidth measured in
// the same process (the denominator of every "fraction of copy" counter).
#include <strata/core/copy_bandwidth.hpp>

namespace strata::bench {

// Adds git hash, Kokkos version and configuration, and device to the
// benchmark context, measures copy bandwidth once and records it too.
void record_context();

// The copy bandwidth measured by record_context(), GB/s (median).
double copy_bandwidth_gb_per_s();

// The end of every benchmark's main, after its benchmarks are registered: Google
// Benchmark's own options (an unknown one is exit code 2), record_context(), the runs.
int run_registered_benchmarks(int argc, char** argv);

}  // namespace strata::bench
