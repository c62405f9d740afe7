# strata::spmv and its handles compiled once per format and value type (algorithms/spmv/spmv_eti.hpp),
# files that build in parallel. Each includes its own format's kernels (algorithms/spmv/<format>.hpp),
# named like the format here, and every other format's interface only, so a change to one format's
# kernels rebuilds that format's four files, not all 28 (AnyMatrix's call the other formats' compiled
# handles). A unity build (CI) compiles a value type's files as one object
# (cmake/StrataInstances.cmake), which any format's change still rebuilds; nothing outside the
# library includes a format's kernels but the tests of that format's internals.
set(_strata_eti_formats
  "csr=::strata::DeviceCsr" "coo=::strata::CooMatrix" "dcsr=::strata::DcsrMatrix"
  "hyb=::strata::HybMatrix" "hisparse=::strata::HiSparseMatrix" "column_split=::strata::ColumnSplitCsr"
  "any=::strata::AnyMatrix")
foreach(_format_pair IN LISTS _strata_eti_formats)
  string(REPLACE "=" ";" _format_pair "${_format_pair}")
  list(GET _format_pair 0 _format_name)
  list(GET _format_pair 1 STRATA_ETI_MATRIX)
  set(STRATA_ETI_HEADER "${_format_name}")
  strata_compiled_instances(spmv_${_format_name} ${CMAKE_CURRENT_LIST_DIR}/spmv_eti.cpp.in)
endforeach()
