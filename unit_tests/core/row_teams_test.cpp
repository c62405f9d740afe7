#include <strata/core/row_teams.hpp>

#include <gtest/gtest.h>

namespace strata {
namespace {

// The edges of the lane rule (core/row_teams.cpp): a lane per about four
// entries, a warp for rows of at least 32.
TEST(RowLanes, ALanePerAboutFourEntriesAndAWarpForRowsOfAWarp) {
  const struct {
    double mean;
    int lanes;
  } edges[] = {{0.0, 1}, {2.6, 1}, {4.0, 1}, {4.5, 2}, {6.9, 2}, {8.5, 4},
               {14.3, 4}, {18.0, 8}, {31.9, 8}, {32.0, 32}, {1e6, 32}};
  for (const auto& e : edges) EXPECT_EQ(lanes_for_mean_length(e.mean), e.lanes) << "mean " << e.mean;
  for (double mean = 0.0; mean < 100.0; mean += 0.25) {
    EXPECT_TRUE(valid_row_lanes(lanes_for_mean_length(mean))) << mean;
  }
}

TEST(RowLanes, ValidLaneCountsArePowersOfTwoUpToAWarp) {
  for (int lanes : {1, 2, 4, 8, 16, 32}) EXPECT_TRUE(valid_row_lanes(lanes)) << lanes;
  for (int lanes : {-1, 0, 3, 6, 24, 64}) EXPECT_FALSE(valid_row_lanes(lanes)) << lanes;
}

}  // namespace
}  // namespace strata
