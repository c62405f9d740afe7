# strata::spmv compiled once per format and value type (algorithms/spmv/spmv_eti.hpp): a change to
# one format's kernels rebuilds that format's four files only.
set(_strata_eti_formats
  "csr=::strata::DeviceCsr" "coo=::strata::CooMatrix" "dcsr=::strata::DcsrMatrix"
  "hyb=::strata::HybMatrix" "hisparse=::strata::HiSparseMatrix" "column_split=::strata::ColumnSplitCsr"
  "any=::strata::AnyMatrix")
foreach(_format_pair IN LISTS _strata_eti_formats)
  string(REPLACE "=" ";" _format_pair "${_format_pair}")
  list(GET _format_pair 0 _format_name)
  list(GET _format_pair 1 STRATA_ETI_MATRIX)
  strata_compiled_instances(spmv_${_format_name} ${CMAKE_CURRENT_LIST_DIR}/spmv_eti.cpp.in)
endforeach()
