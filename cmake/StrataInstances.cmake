# The library's explicit instances (core/explicit_instances.hpp): an operation compiled once in the
# library declares its instances `extern` in its header and has a template file here that defines
# them for one value type, @STRATA_ETI_VALUE@. strata_compiled_instances(NAME TEMPLATE) generates one
# file per value type from TEMPLATE (the caller's other variables, such as STRATA_ETI_MATRIX, are
# substituted too), so that they compile in parallel and an edit rebuilds that operation's files
# only; in unity builds the files of one value type compile together (group instances_<value>).
# The list is the one STRATA_FOR_EACH_VALUE spells in core/explicit_instances.hpp.
set(STRATA_INSTANCE_VALUES
  "float=float" "double=double"
  "complex_float=Kokkos::complex<float>" "complex_double=Kokkos::complex<double>")

function(strata_compiled_instances name template)
  foreach(_value_pair IN LISTS STRATA_INSTANCE_VALUES)
    string(REPLACE "=" ";" _value_pair "${_value_pair}")
    list(GET _value_pair 0 _value_name)
    list(GET _value_pair 1 STRATA_ETI_VALUE)
    set(_file "${PROJECT_BINARY_DIR}/eti/${name}_${_value_name}.cpp")
    configure_file("${template}" "${_file}" @ONLY)
    target_sources(strata PRIVATE "${_file}")
    strata_unity_group(instances_${_value_name} "${_file}")
  endforeach()
endfunction()
