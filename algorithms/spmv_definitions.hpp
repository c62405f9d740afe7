#pragma once
// strata::spmv (algorithms/spmv.hpp) with every format's kernels, for products
// the library does not compile: another execution space than the default one,
// LayoutStride or other views, a KokkosSparse::CrsMatrix with other index
// types. Include it before any other Strata header, so that strata::spmv knows
// the kernels are here. For the library's own combinations it is not needed,
// and it makes a translation unit parse every kernel.
#define STRATA_SPMV_DEFINITIONS 1

#include <strata/algorithms/spmv.hpp>
#include <strata/algorithms/spmv/any.hpp>
#include <strata/algorithms/spmv/column_split.hpp>
#include <strata/algorithms/spmv/coo.hpp>
#include <strata/algorithms/spmv/csr.hpp>
#include <strata/algorithms/spmv/dcsr.hpp>
#include <strata/algorithms/spmv/definitions.hpp>
#include <strata/algorithms/spmv/hisparse.hpp>
#include <strata/algorithms/spmv/hyb.hpp>
