# ctest: cmake -DSTRATA_SOURCE_DIR=... -P no_extended_lambdas.cmake
# Fails when a library source (core, formats, algorithms, scheduler) launches a
# kernel with KOKKOS_LAMBDA / KOKKOS_CLASS_LAMBDA. nvcc keeps the state of an
# extended __host__ __device__ lambda per translation unit; a header template
# holding one, instantiated in several translation units, can call through a
# null pointer on CUDA (docs/BACKENDS.md, "Extended lambdas"). Library kernels
# are named functors; tests and applications may use lambdas in their own .cpp.
if(NOT STRATA_SOURCE_DIR)
  message(FATAL_ERROR "no_extended_lambdas.cmake: pass -DSTRATA_SOURCE_DIR=<repository root>")
endif()
set(_found "")
foreach(_dir core formats algorithms scheduler)
  file(GLOB_RECURSE _files "${STRATA_SOURCE_DIR}/${_dir}/*.hpp" "${STRATA_SOURCE_DIR}/${_dir}/*.cpp")
  foreach(_file ${_files})
    file(STRINGS "${_file}" _lines)
    set(_line_number 0)
    foreach(_line IN LISTS _lines)
      math(EXPR _line_number "${_line_number} + 1")
      if(_line MATCHES "KOKKOS_(CLASS_)?LAMBDA")
        file(RELATIVE_PATH _relative "${STRATA_SOURCE_DIR}" "${_file}")
        string(APPEND _found "\n  ${_relative}:${_line_number}: ${_line}")
      endif()
    endforeach()
  endforeach()
endforeach()
if(_found)
  message(FATAL_ERROR "extended lambdas in library kernels (use a named functor; docs/BACKENDS.md, \"Extended lambdas\"):${_found}")
endif()
message(STATUS "no KOKKOS_LAMBDA in core, formats, algorithms, scheduler")
