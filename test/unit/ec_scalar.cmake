# Arithmetic modulo the curve orders (driver/lib/ec_scalar.c) against
# libcrypto's BIGNUM, and its constant time under valgrind memcheck
# (secrets marked undefined).
find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)
ncr_unit_test(NAME test_ec_scalar
  SOURCES driver/lib/ec_scalar.c driver/lib/mont.c test/unit/test_ec_scalar.c
  LIBS OpenSSL::Crypto)
ncr_ct_test(NAME test_ec_scalar_ct
  SOURCES test/unit/test_ec_scalar_ct.c driver/lib/ec_scalar.c
          driver/lib/mont.c)
