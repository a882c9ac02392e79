# P-256 and P-384 (driver/lib/ec_nist.c) against libcrypto: a sanitized
# run, the 100000-round differential on an optimised build (the arithmetic
# is 20 times slower under ASan), and the constant time of signing and
# ECDH under valgrind memcheck (secrets marked undefined).
find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)
ncr_unit_test(NAME test_ec_nist
  SOURCES driver/lib/ec_nist.c test/unit/test_ec_nist.c
  LIBS OpenSSL::Crypto ARGS 300)

add_executable(test_ec_nist_diff "${PROJECT_SOURCE_DIR}/test/unit/unit.c"
  "${PROJECT_SOURCE_DIR}/driver/lib/ec_nist.c"
  "${PROJECT_SOURCE_DIR}/test/unit/test_ec_nist.c")
target_include_directories(test_ec_nist_diff PRIVATE
  "${PROJECT_SOURCE_DIR}/driver/lib" "${PROJECT_SOURCE_DIR}/test/unit")
target_compile_options(test_ec_nist_diff PRIVATE -Wall -Wextra -Werror -O2)
target_link_libraries(test_ec_nist_diff PRIVATE OpenSSL::Crypto)
set_target_properties(test_ec_nist_diff PROPERTIES
  RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/test/unit")
foreach(_curve P-256 P-384)
  add_test(NAME test_ec_nist_diff_${_curve}
    COMMAND test_ec_nist_diff 100000 ${_curve})
  set_tests_properties(test_ec_nist_diff_${_curve} PROPERTIES TIMEOUT 1200)
endforeach()

ncr_ct_test(NAME test_ec_nist_ct
  SOURCES test/unit/test_ec_nist_ct.c driver/lib/ec_nist.c)

ncr_unit_test(NAME test_ec_nist_fault SOURCES test/unit/test_ec_nist_fault.c)
