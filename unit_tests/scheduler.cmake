# The dynamic scheduler on synthetic work, independent of any format (issue 10).
strata_add_unit_test(strata_scheduler_tests
  scheduler/host_driven_test.cpp
  scheduler/persistent_test.cpp
)
# The controller's runs launch kernels from the device: its test compiles with relocatable device
# code where the controller exists; elsewhere it checks that the controller is absent and refused.
if(STRATA_ENABLE_CUDA_CONTROLLER)
  strata_device_linked_unit(TARGET strata_scheduler_tests SOURCE scheduler/controller_test.cpp
    USING strata_test_main INCLUDES ${CMAKE_CURRENT_SOURCE_DIR})
else()
  target_sources(strata_scheduler_tests PRIVATE scheduler/controller_test.cpp)
endif()
