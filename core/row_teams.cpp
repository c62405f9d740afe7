#include <strata/core/row_teams.hpp>

namespace strata {

// The power of two at or below the mean, so that short rows do not idle lanes.
int lanes_for_mean_length(double mean) {
  int lanes = 1;
  while (lanes < 32 && 2.0 * lanes <= mean) lanes *= 2;
  return lanes;
}

}  // namespace strata
