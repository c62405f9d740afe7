// HiSparse SpMV on the CUDA controller for every value type, compiled with relocatable device code
// and device-linked as one unit (cmake/StrataDeviceLink.cmake: one such unit per executable).
#include <strata/algorithms/spmv/hisparse_controlled.hpp>

STRATA_FOR_EACH_VALUE(STRATA_HISPARSE_CONTROLLED_ETI, )
