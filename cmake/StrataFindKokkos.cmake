# Finds Kokkos and Kokkos Kernels and presents them as two targets:
#   Kokkos::kokkos                     (core, containers, algorithms)
#   Kokkos::kokkoskernels              (sparse, blas, graph)
#
# Two worlds are supported:
#   * Kokkos/Kokkos Kernels 4.x installed with their own CMake packages;
#   * Debian 12's Trilinos packaging of Kokkos 3.4.01 (libtrilinos-kokkos-dev,
#     libtrilinos-kokkos-kernels-dev). Its KokkosConfig.cmake computes the
#     install prefix one level too deep and exports the include directory
#     /usr/lib/include, which does not exist, and Kokkos Kernels only comes as
#     Trilinos-style targets (trilinos_kokkoskernels) with headers in
#     /usr/include/trilinos. Both defects are repaired here, so neither the
#     user nor CI edits system files.

find_package(Kokkos CONFIG REQUIRED)

# Repair: drop include directories of Kokkos::kokkos that do not exist and add
# the ones the Trilinos config advertises in Kokkos_INCLUDE_DIRS.
if(TARGET Kokkos::kokkos)
  get_target_property(_strata_kokkos_aliased Kokkos::kokkos ALIASED_TARGET)
  if(NOT _strata_kokkos_aliased)
    get_target_property(_strata_inc Kokkos::kokkos INTERFACE_INCLUDE_DIRECTORIES)
    if(_strata_inc)
      set(_strata_kept "")
      foreach(_dir IN LISTS _strata_inc)
        if(_dir MATCHES "^\\$<" OR EXISTS "${_dir}")
          list(APPEND _strata_kept "${_dir}")
        else()
          message(STATUS "Strata: dropping missing Kokkos include directory ${_dir}")
        endif()
      endforeach()
      foreach(_dir IN LISTS Kokkos_INCLUDE_DIRS)
        get_filename_component(_dir "${_dir}" ABSOLUTE)
        if(EXISTS "${_dir}")
          list(APPEND _strata_kept "${_dir}")
        endif()
      endforeach()
      list(REMOVE_DUPLICATES _strata_kept)
      set_target_properties(Kokkos::kokkos PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_strata_kept}")
    endif()
  endif()
endif()

find_package(KokkosKernels CONFIG REQUIRED)

if(NOT TARGET Kokkos::kokkoskernels)
  if(TARGET trilinos_kokkoskernels)
    add_library(Kokkos::kokkoskernels INTERFACE IMPORTED)
    set(_strata_kk_inc "")
    foreach(_dir IN LISTS KokkosKernels_INCLUDE_DIRS)
      get_filename_component(_dir "${_dir}" ABSOLUTE)
      list(APPEND _strata_kk_inc "${_dir}")
    endforeach()
    set_target_properties(Kokkos::kokkoskernels PROPERTIES
      INTERFACE_LINK_LIBRARIES "trilinos_kokkoskernels;Kokkos::kokkos"
      INTERFACE_INCLUDE_DIRECTORIES "${_strata_kk_inc}")
  else()
    message(FATAL_ERROR "Strata: found KokkosKernels ${KokkosKernels_VERSION} at ${KokkosKernels_DIR}, "
                        "but it provides neither Kokkos::kokkoskernels nor trilinos_kokkoskernels.")
  endif()
endif()

if(Kokkos_VERSION)
  set(STRATA_KOKKOS_VERSION "${Kokkos_VERSION}")
else()
  set(STRATA_KOKKOS_VERSION "unknown")
endif()

set(STRATA_KOKKOS_HAS_CUDA OFF)
set(STRATA_KOKKOS_HAS_OPENMP OFF)
if(Kokkos_ENABLE_CUDA OR "CUDA" IN_LIST Kokkos_DEVICES)
  set(STRATA_KOKKOS_HAS_CUDA ON)
endif()
if(Kokkos_ENABLE_OPENMP OR "OPENMP" IN_LIST Kokkos_DEVICES)
  set(STRATA_KOKKOS_HAS_OPENMP ON)
endif()
message(STATUS "Strata: Kokkos ${STRATA_KOKKOS_VERSION} from ${Kokkos_DIR}; devices: ${Kokkos_DEVICES}")
