# Relocatable device code for the translation units that launch kernels from the device (the CUDA
# controller, scheduler/controller.hpp), and only for them: Strata's other objects, Kokkos and every
# consumer stay whole-program CUDA, so nothing else compiles with -rdc=true or device-links.
#
# strata_device_linked_unit(TARGET <target> SOURCE <file> USING <targets...> [INCLUDES <dirs...>])
#   Compiles SOURCE with -rdc=true in an object library whose usage requirements come from USING
#   (and INCLUDES), device-links its object with the CUDA device runtime (nvcc -dlink) into one more
#   object, and adds both objects to TARGET, which also links cudadevrt (PUBLIC for a library).
#
# One unit per executable: a relocatable unit that includes Kokkos defines Kokkos' constant-memory
# buffer (a whole-program Kokkos defines it in every unit, where it stays local), and each device
# link carries the device runtime's registration, so two such units in one executable are
# duplicate symbols at link time. The library's unit (HiSparse SpMV on the controller, every value
# type) is pulled only into executables that run it; a test with a unit of its own must not.
#
# Kokkos' desul atomics refuse a relocatable unit against a whole-program Kokkos install, because
# the two modes declare their lock arrays differently. These units declare the relocatable mode
# (DESUL_ATOMICS_ENABLE_CUDA_SEPARABLE_COMPILATION): the lock arrays become extern device symbols,
# which the device link cannot resolve, so a unit that reaches a lock-based atomic fails to link,
# naming the symbol, instead of running with a lock array that was never set. Strata's atomics on
# CUDA are the hardware ones (core/cuda/atomic_add_cuda.hpp).
if(NOT STRATA_KOKKOS_HAS_CUDA)
  return()
endif()
find_package(CUDAToolkit REQUIRED)
find_library(STRATA_CUDADEVRT NAMES cudadevrt HINTS "${CUDAToolkit_LIBRARY_DIR}" REQUIRED
  DOC "The CUDA device runtime (dynamic parallelism)")
set(STRATA_DEVICE_LINK_ARCH_FLAGS "")
foreach(_arch IN LISTS Kokkos_CUDA_ARCHITECTURES)
  list(APPEND STRATA_DEVICE_LINK_ARCH_FLAGS "-gencode=arch=compute_${_arch},code=sm_${_arch}")
endforeach()
if(NOT STRATA_DEVICE_LINK_ARCH_FLAGS)
  message(FATAL_ERROR "Strata: the CUDA controller needs Kokkos_CUDA_ARCHITECTURES from the Kokkos install "
                      "(device link); configure with -DSTRATA_ENABLE_CUDA_CONTROLLER=OFF to build without it")
endif()

function(strata_device_linked_unit)
  cmake_parse_arguments(_dl "" "TARGET;SOURCE" "USING;INCLUDES" ${ARGN})
  get_target_property(_type ${_dl_TARGET} TYPE)
  set(_visibility PRIVATE)
  if(_type MATCHES "LIBRARY")
    set(_visibility PUBLIC)
  endif()
  get_target_property(_existing ${_dl_TARGET} STRATA_DEVICE_LINKED_UNIT)
  if(_existing)
    message(FATAL_ERROR "strata_device_linked_unit: ${_dl_TARGET} already has a device-linked unit "
                        "(${_existing}); one per executable (cmake/StrataDeviceLink.cmake)")
  endif()
  set_target_properties(${_dl_TARGET} PROPERTIES STRATA_DEVICE_LINKED_UNIT "${_dl_SOURCE}")
  set(_objects ${_dl_TARGET}_device_linked_unit)
  add_library(${_objects} OBJECT "${_dl_SOURCE}")
  target_link_libraries(${_objects} PRIVATE ${_dl_USING})
  target_include_directories(${_objects} PRIVATE ${_dl_INCLUDES})
  target_compile_options(${_objects} PRIVATE -rdc=true)
  target_compile_definitions(${_objects} PRIVATE DESUL_ATOMICS_ENABLE_CUDA_SEPARABLE_COMPILATION)
  set_target_properties(${_objects} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  set(_linked "${CMAKE_CURRENT_BINARY_DIR}/${_objects}_device_link.o")
  add_custom_command(OUTPUT "${_linked}"
    COMMAND "${CUDAToolkit_NVCC_EXECUTABLE}" -dlink ${STRATA_DEVICE_LINK_ARCH_FLAGS} -Xcompiler=-fPIC
            "$<TARGET_OBJECTS:${_objects}>" "${STRATA_CUDADEVRT}" -o "${_linked}"
    DEPENDS ${_objects} "$<TARGET_OBJECTS:${_objects}>"
    COMMAND_EXPAND_LISTS VERBATIM
    COMMENT "Device-linking ${_dl_SOURCE} with the CUDA device runtime")
  set_source_files_properties("${_linked}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
  target_sources(${_dl_TARGET} PRIVATE "$<TARGET_OBJECTS:${_objects}>" "${_linked}")
  target_link_libraries(${_dl_TARGET} ${_visibility} "${STRATA_CUDADEVRT}")
endfunction()
