# PKCS#1 encodings (driver/lib/pkcs1.c) against Wycheproof and OpenSSL;
# libcrypto supplies hashes and raw RSA, so LibTomMath is not involved.
# The fuzz harness is registered in test/fuzz.
find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)
ncr_unit_test(NAME test_pkcs1
  SOURCES driver/lib/pkcs1.c test/unit/test_pkcs1.c test/unit/json_min.c
  LIBS OpenSSL::Crypto
  ARGS "${NCR_WYCHEPROOF_DIR}")

# Constant-time check of the decryption decoders under valgrind memcheck
# (secret block marked undefined).  Built without sanitizers (they do not
# mix with valgrind) at the kernel's -O2.
find_program(NCR_VALGRIND valgrind)
if(NCR_VALGRIND AND EXISTS /usr/include/valgrind/memcheck.h)
  add_executable(test_pkcs1_ct
    "${PROJECT_SOURCE_DIR}/test/unit/test_pkcs1_ct.c"
    "${PROJECT_SOURCE_DIR}/test/unit/unit.c"
    "${PROJECT_SOURCE_DIR}/driver/lib/pkcs1.c")
  target_include_directories(test_pkcs1_ct PRIVATE "${PROJECT_SOURCE_DIR}/driver/lib")
  target_compile_options(test_pkcs1_ct PRIVATE -Wall -Wextra -Werror -O2 -gdwarf-4)
  set_target_properties(test_pkcs1_ct PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/test/unit")
  add_test(NAME test_pkcs1_ct COMMAND "${NCR_VALGRIND}" -q --error-exitcode=1
    $<TARGET_FILE:test_pkcs1_ct>)
  set_tests_properties(test_pkcs1_ct PROPERTIES SKIP_RETURN_CODE 77)
else()
  message(STATUS "valgrind not found: test_pkcs1_ct (constant-time check) not built")
endif()
