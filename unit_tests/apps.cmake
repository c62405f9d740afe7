# The strata command under ctest: a GoogleTest that runs the built binary and
# asserts exit codes and message text (issue 11). Only when the command is built.
if(NOT TARGET strata_cli)
  return()
endif()
strata_add_unit_test(strata_cli_tests apps/cli_test.cpp)
add_dependencies(strata_cli_tests strata_cli)
# A regression that allocates what a hostile file declares must fail, not
# exhaust the machine: the tests cap the child's address space, except where
# that breaks the run (CUDA and AddressSanitizer reserve huge address ranges).
set(_strata_cli_cap_memory 1)
if(STRATA_KOKKOS_HAS_CUDA)
  set(_strata_cli_cap_memory 0)
endif()
target_compile_definitions(strata_cli_tests PRIVATE
  STRATA_CLI_PATH="$<TARGET_FILE:strata_cli>"
  STRATA_CLI_CAP_MEMORY=${_strata_cli_cap_memory})
