strata_add_unit_test(strata_dcsr_tests
  formats/dcsr/dcsr_matrix_test.cpp
  formats/dcsr/dcsr_memory_test.cpp
  formats/dcsr/dcsr_property_test.cpp
  algorithms/dcsr_update_baselines_test.cpp
)
