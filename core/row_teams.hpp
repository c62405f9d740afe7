#pragma once
// The team shape of the row kernels (DCSR, Strata's CSR rows): every team
// thread owns one row and a vector of lanes works on its entries.
#include <strata/core/index.hpp>
#include <strata/core/runs_on_host.hpp>

#include <Kokkos_Core.hpp>

namespace strata {

// Lanes per row for rows of mean length `mean`: a power of two between 1 and
// 32 (a warp). Compiled in core/row_teams.cpp, where the measurements behind
// the rule are, so that refitting it rebuilds one file.
int lanes_for_mean_length(double mean);

// Lanes for `rows` rows holding `entries` entries: `requested` (a handle's
// lane count) when it is not 0, else lanes_for_mean_length of their mean.
int row_lanes(int requested, index_type entries, index_type rows);

// Whether `lanes` is a lane count the row kernels accept, and the list for messages.
constexpr bool valid_row_lanes(int lanes) { return lanes >= 1 && lanes <= 32 && (lanes & (lanes - 1)) == 0; }
constexpr const char* valid_row_lanes_list = "1, 2, 4, 8, 16 or 32";

// A team policy with one row per team thread and `lanes` vector lanes, 128
// threads per team on devices. Host backends get one row per team and one lane.
template <class ExecSpace>
struct RowTeams {
  ExecSpace space;
  int league = 0;
  int rows_per_team = 1;
  int lanes = 1;
  Kokkos::TeamPolicy<ExecSpace> policy() const {
    return Kokkos::TeamPolicy<ExecSpace>(space, league, rows_per_team, lanes);
  }
};

template <class ExecSpace>
RowTeams<ExecSpace> row_teams(const ExecSpace& space, index_type rows, int lanes) {
  constexpr bool host = runs_on_host<ExecSpace>;
  RowTeams<ExecSpace> t;
  t.lanes = host ? 1 : lanes;
  t.rows_per_team = host ? 1 : (128 / t.lanes > 1 ? 128 / t.lanes : 1);
  t.space = space;
  t.league = static_cast<int>((rows + t.rows_per_team - 1) / t.rows_per_team);
  return t;
}

}  // namespace strata
