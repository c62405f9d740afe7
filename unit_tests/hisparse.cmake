# The format and its operations other than SpMV (strata::add), which share the test matrices.
strata_add_unit_test(strata_hisparse_tests
  formats/hisparse/hisparse_conversion_test.cpp
  formats/hisparse/hisparse_edit_test.cpp
  algorithms/add/hisparse_add_test.cpp
  algorithms/add/add_baselines_test.cpp
)

# The real-matrix round trips read STRATA_MATRIX_DIR, as strata_real_matrix_tests does.
add_executable(strata_hisparse_real_matrix_tests formats/hisparse/hisparse_real_matrix_test.cpp)
target_link_libraries(strata_hisparse_real_matrix_tests PRIVATE strata_test_main)
target_include_directories(strata_hisparse_real_matrix_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
file(GLOB _strata_hisparse_matrices "${STRATA_MATRIX_DIR}/*.mtx.gz" "${STRATA_MATRIX_DIR}/*.mtx")
if(_strata_hisparse_matrices)
  gtest_discover_tests(strata_hisparse_real_matrix_tests DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60
    EXTRA_ARGS --matrix-dir=${STRATA_MATRIX_DIR}
    PROPERTIES LABELS real_matrices COST 1000 ENVIRONMENT STRATA_MATRIX_DIR=${STRATA_MATRIX_DIR})
endif()
