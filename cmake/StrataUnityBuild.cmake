# Unity builds (STRATA_UNITY_BUILD): several sources of a target compiled as one translation unit.
# Most of a Strata object's compile time is its headers (Kokkos, Kokkos Kernels and Strata's own:
# 40 s with nvcc for a test file that defines nothing, docs/BACKENDS.md), so compiling the files of a
# target together pays them once per group instead of once per file. Cold builds (CI, a first
# build) gain; an edit rebuilds its whole group, so it is off by default for development.
option(STRATA_UNITY_BUILD "Compile each target's sources in groups (faster cold builds, used by CI)" OFF)
if(STRATA_UNITY_BUILD AND CMAKE_VERSION VERSION_LESS 3.18)
  message(FATAL_ERROR "STRATA_UNITY_BUILD=ON needs CMake 3.18 or later (found ${CMAKE_VERSION})")
endif()

# Files per group when a target does not say (STRATA_UNITY_BATCH, default 3: the test targets have up
# to 7 files, and two groups keep both cores of a small machine busy when one target is rebuilt).
# Where headers dominate, as with nvcc (about 30 s of them per object), larger groups pay them fewer
# times, and the other targets still keep every core busy in a build of everything: CI's cuda stage
# gives 16, one group per target.
set(STRATA_UNITY_BATCH 3 CACHE STRING "Files per unity group of targets without a batch of their own")
if(NOT STRATA_UNITY_BATCH MATCHES "^[1-9][0-9]*$")
  message(FATAL_ERROR "STRATA_UNITY_BATCH must be a positive number of files (got '${STRATA_UNITY_BATCH}')")
endif()

# Every source of TARGET in groups of at most BATCH files (default STRATA_UNITY_BATCH).
function(strata_unity_build target)
  cmake_parse_arguments(PARSE_ARGV 1 _unity "" "BATCH" "")
  if(NOT STRATA_UNITY_BUILD)
    return()
  endif()
  if(NOT _unity_BATCH)
    set(_unity_BATCH ${STRATA_UNITY_BATCH})
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE BATCH
                                             UNITY_BUILD_BATCH_SIZE ${_unity_BATCH})
endfunction()

# Only the sources given a group with strata_unity_group are merged (the explicit instances of one
# value type, for example); the other sources of TARGET compile alone.
function(strata_unity_grouped target)
  if(STRATA_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  endif()
endfunction()

function(strata_unity_group group)
  if(STRATA_UNITY_BUILD)
    set_source_files_properties(${ARGN} PROPERTIES UNITY_GROUP ${group})
  endif()
endfunction()
