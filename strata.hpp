#pragma once
// Everything a Kokkos code needs from Strata: the formats, their conversions,
// and one public entry per operation (today: strata::spmv and strata::add).
#include <strata/algorithms/add.hpp>
#include <strata/algorithms/spmv.hpp>
#include <strata/algorithms/spmv/automatic.hpp>
#include <strata/core/matrix_market.hpp>
#include <strata/formats/coo/coo_csr_conversion.hpp>
#include <strata/formats/dcsr/dcsr_convert.hpp>
#include <strata/formats/hisparse/hisparse_convert.hpp>
#include <strata/formats/hyb/hyb_matrix.hpp>
