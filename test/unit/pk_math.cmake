# Public-key math (issue 4): driver/lib/{rsa,dsa,dh,der,pk_key,tommath_port}.c
# linked against Debian's libtommath-dev, checked against libcrypto.
find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)
find_library(NCR_TOMMATH_LIB tommath)
find_path(NCR_TOMMATH_INC tommath.h)

if(NCR_TOMMATH_LIB AND NCR_TOMMATH_INC)
  set(NCR_PK_MATH_SRCS driver/lib/rsa.c driver/lib/dsa.c driver/lib/dh.c
    driver/lib/der.c driver/lib/pk_key.c driver/lib/tommath_port.c
    driver/lib/asn1.c driver/lib/ffc.c driver/lib/pkcs1.c)
  foreach(_t rsa dsa dh der)
    if(NOT EXISTS "${PROJECT_SOURCE_DIR}/test/unit/test_${_t}.c")
      continue()
    endif()
    ncr_unit_test(NAME test_${_t}
      SOURCES ${NCR_PK_MATH_SRCS} test/unit/test_${_t}.c test/unit/pk_test_util.c
        test/unit/json_min.c
      LIBS OpenSSL::Crypto ${NCR_TOMMATH_LIB}
      ARGS "${NCR_WYCHEPROOF_DIR}")
    target_include_directories(test_${_t} PRIVATE "${NCR_TOMMATH_INC}")
  endforeach()

  if(NOT EXISTS "${PROJECT_SOURCE_DIR}/test/fuzz/fuzz_der.c")
    return()
  endif()
  # Fuzz harness: a self-driving run under ctest (ASan/UBSan), and a
  # libFuzzer binary when the compiler is clang.
  ncr_unit_test(NAME fuzz_der_standalone
    SOURCES ${NCR_PK_MATH_SRCS} test/fuzz/fuzz_der.c
    LIBS ${NCR_TOMMATH_LIB}
    ARGS 200000)
  target_compile_definitions(fuzz_der_standalone PRIVATE NCR_FUZZ_STANDALONE)
  if(CMAKE_C_COMPILER_ID STREQUAL "Clang")
    list(TRANSFORM NCR_PK_MATH_SRCS PREPEND "${PROJECT_SOURCE_DIR}/"
      OUTPUT_VARIABLE _pk_abs)
    add_executable(fuzz_der "${PROJECT_SOURCE_DIR}/test/fuzz/fuzz_der.c" ${_pk_abs})
    target_include_directories(fuzz_der PRIVATE "${PROJECT_SOURCE_DIR}/driver/lib")
    target_compile_options(fuzz_der PRIVATE -Wall -Wextra -Werror
      -fsanitize=fuzzer,address,undefined)
    target_link_options(fuzz_der PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_libraries(fuzz_der PRIVATE ${NCR_TOMMATH_LIB})
  endif()
else()
  message(WARNING "libtommath-dev not found: public-key unit tests not built")
endif()
