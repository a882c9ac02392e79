# Montgomery exponentiation (driver/lib/mont.c) against libcrypto's
# BN_mod_exp, and its secret variant's constant time under valgrind
# memcheck (operands marked undefined).
find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)
ncr_unit_test(NAME test_mont
  SOURCES driver/lib/mont.c test/unit/test_mont.c
  LIBS OpenSSL::Crypto)
ncr_ct_test(NAME test_mont_ct
  SOURCES test/unit/test_mont_ct.c driver/lib/mont.c)
