# strata::spmv compiled once per format and value type (algorithms/spmv/spmv_eti.hpp):
# one generated file each, so that they compile in parallel and a change to one
# format's kernels rebuilds that format's four files only.
set(_strata_eti_formats
  "csr=::strata::DeviceCsr" "coo=::strata::CooMatrix" "dcsr=::strata::DcsrMatrix"
  "hyb=::strata::HybMatrix" "hisparse=::strata::HiSparseMatrix" "any=::strata::AnyMatrix")
set(_strata_eti_values
  "float=float" "double=double"
  "complex_float=Kokkos::complex<float>" "complex_double=Kokkos::complex<double>")
foreach(_format_pair IN LISTS _strata_eti_formats)
  string(REPLACE "=" ";" _format_pair "${_format_pair}")
  list(GET _format_pair 0 _format_name)
  list(GET _format_pair 1 STRATA_ETI_MATRIX)
  foreach(_value_pair IN LISTS _strata_eti_values)
    string(REPLACE "=" ";" _value_pair "${_value_pair}")
    list(GET _value_pair 0 _value_name)
    list(GET _value_pair 1 STRATA_ETI_VALUE)
    set(_file "${PROJECT_BINARY_DIR}/eti/spmv_${_format_name}_${_value_name}.cpp")
    configure_file(${CMAKE_CURRENT_LIST_DIR}/spmv_eti.cpp.in "${_file}" @ONLY)
    target_sources(strata PRIVATE "${_file}")
    strata_unity_group(spmv_${_value_name} "${_file}")
  endforeach()
endforeach()
