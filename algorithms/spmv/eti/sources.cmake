# strata::spmv compiled once per format and value type (algorithms/spmv/spmv_eti.hpp), files that
# build in parallel. Each includes strata/algorithms/spmv.hpp, hence every format's kernels, so a
# change to any format's header still rebuilds all of them (measured 2026-11-29; narrowing the
# includes is open).
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
