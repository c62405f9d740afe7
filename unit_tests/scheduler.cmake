# The dynamic scheduler on synthetic work, independent of any format (issue 10).
strata_add_unit_test(strata_scheduler_tests
  scheduler/host_driven_test.cpp
  scheduler/persistent_test.cpp
)
