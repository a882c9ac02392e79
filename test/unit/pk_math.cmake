# Public-key math: driver/lib/{rsa,dsa,dh,ec,der,pk_key,tommath_port}.c
# linked against Debian's libtommath-dev, checked against libcrypto; the EC
# arithmetic (lib/ec_math.h) is libcrypto's here (test/unit/ec_math_ossl.c).
find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)
find_library(NCR_TOMMATH_LIB tommath)
find_path(NCR_TOMMATH_INC tommath.h)

if(NCR_TOMMATH_LIB AND NCR_TOMMATH_INC)
  set(NCR_PK_MATH_SRCS driver/lib/rsa.c driver/lib/dsa.c driver/lib/dh.c
    driver/lib/der.c driver/lib/pk_key.c driver/lib/tommath_port.c driver/lib/mont.c
    driver/lib/asn1.c driver/lib/ffc.c driver/lib/pkcs1.c driver/lib/ec.c
    driver/lib/hmac_drbg.c test/unit/ec_math_ossl.c)
  foreach(_t rsa dsa dh der ec)
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

  # test/fuzz builds fuzz_der from the same files.
  set(NCR_PK_MATH_SRCS "${NCR_PK_MATH_SRCS}" PARENT_SCOPE)
else()
  message(WARNING "libtommath-dev not found: public-key unit tests not built")
endif()
