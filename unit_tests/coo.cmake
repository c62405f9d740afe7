strata_add_unit_test(strata_coo_tests
  core/atomic_add_test.cpp
  core/warp_segmented_scan_test.cpp
  formats/coo/coo_matrix_test.cpp
)
