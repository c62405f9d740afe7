// SpmvRun for float on the default execution space: one value type per file so
// that they compile in parallel.
#include <strata/algorithms/measure/spmv_run_impl.hpp>

namespace strata::measure {
STRATA_SPMV_RUN_INSTANCE(, float)
}  // namespace strata::measure
