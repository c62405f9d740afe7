# The device conversion to HiSparse compiled once per value type (hisparse_from_coo.hpp).
strata_compiled_instances(hisparse_from_coo ${CMAKE_CURRENT_LIST_DIR}/eti/from_coo_eti.cpp.in)
