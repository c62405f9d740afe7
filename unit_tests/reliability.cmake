# Hostile input, limits, checked conversions and randomized round trips of the
# host containers, Matrix Market I/O and the device formats' conversions (issue 11).
strata_add_unit_test(strata_reliability_tests
  core/hostile_input_test.cpp
  core/conversion_property_test.cpp
  formats/format_conversion_property_test.cpp
)
# The streaming test compresses its hostile input with zlib's deflate.
target_link_libraries(strata_reliability_tests PRIVATE ZLIB::ZLIB)
