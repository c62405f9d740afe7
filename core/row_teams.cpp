#include <strata/core/row_teams.hpp>

namespace strata {

// A lane per about four entries: a lane then loads four values in a row, and
// the vector reduction over the lanes, whose shuffles and shared-memory waits
// cost more than the loads on short rows, is short. Rows of at least a warp's
// length take a warp. From the lane sweep of 2026-11-24 (H100, csr-rows at
// 1-32 lanes on 21 SuiteSparse matrices and poisson3d:64, modes N and T;
// scripts/spmv_lanes_sweep.sh, docs/PERFORMANCE.md "Lanes per row"):
//  * usroads-48 (2.6 per row): 1 lane 15.4 us, 2 lanes 17.2 (the old rule's
//    "power of two at or below the mean"); ch8-8-b3 (4.0): 1 lane 16.0 us,
//    4 lanes 20.4; poisson3d:64 (6.9): 2 lanes 25.7 us, 4 lanes 27.1 in N;
//  * cage11 (14.3): 4 lanes 15.9 us, 8 lanes 18.3; TSOPF_RS_b39_c30 (18.0):
//    8 lanes 18.5 us, 16 lanes 21.0; ch8-8-b3 in T (25.0): 8 lanes 17.0 us,
//    16 lanes 18.3;
//  * bcsstk13, bcsstk28, cyl6 (42-52 per row): 32 lanes fastest (cyl6: 21.6 us
//    against 27.2 with 16).
// Below 100K nonzeros every lane count took 13-16 us (launch latency): the
// products there do not decide the rule. bayer10 (7.1 per row, std/mean 1.05)
// preferred 8 lanes (14.7 us against 16.6 with 2): rows spread that widely
// want more lanes than their mean says; the rule sees only the mean.
int lanes_for_mean_length(double mean) {
  if (mean >= 32.0) return 32;
  int lanes = 1;
  while (lanes < 32 && 4.0 * lanes < mean) lanes *= 2;
  return lanes;
}

int row_lanes(int requested, index_type entries, index_type rows) {
  if (requested > 0) return requested;
  return lanes_for_mean_length(rows > 0 ? static_cast<double>(entries) / static_cast<double>(rows) : 0.0);
}

}  // namespace strata
