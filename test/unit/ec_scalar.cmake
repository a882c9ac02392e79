# Arithmetic modulo the curve orders (driver/lib/ec_scalar.c) against
# libcrypto's BIGNUM, and its constant time under valgrind memcheck
# (secrets marked undefined), built at the kernel's -O2.
find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)
ncr_unit_test(NAME test_ec_scalar
  SOURCES driver/lib/ec_scalar.c driver/lib/mont.c test/unit/test_ec_scalar.c
  LIBS OpenSSL::Crypto)

find_program(NCR_VALGRIND valgrind)
if(NCR_VALGRIND AND EXISTS /usr/include/valgrind/memcheck.h)
  add_executable(test_ec_scalar_ct
    "${PROJECT_SOURCE_DIR}/test/unit/test_ec_scalar_ct.c"
    "${PROJECT_SOURCE_DIR}/test/unit/unit.c"
    "${PROJECT_SOURCE_DIR}/driver/lib/ec_scalar.c"
    "${PROJECT_SOURCE_DIR}/driver/lib/mont.c")
  target_include_directories(test_ec_scalar_ct PRIVATE
    "${PROJECT_SOURCE_DIR}/driver/lib" "${PROJECT_SOURCE_DIR}/test/unit")
  target_compile_options(test_ec_scalar_ct PRIVATE -Wall -Wextra -Werror -O2 -gdwarf-4)
  set_target_properties(test_ec_scalar_ct PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/test/unit")
  add_test(NAME test_ec_scalar_ct COMMAND "${NCR_VALGRIND}" -q --error-exitcode=1
    $<TARGET_FILE:test_ec_scalar_ct>)
else()
  message(STATUS "valgrind not found: test_ec_scalar_ct (constant-time check) not built")
endif()
