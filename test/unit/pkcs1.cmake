# PKCS#1 encodings (driver/lib/pkcs1.c) against Wycheproof and OpenSSL;
# libcrypto supplies hashes and raw RSA, so LibTomMath is not involved.
# The fuzz harness is registered in test/fuzz.
find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)
ncr_unit_test(NAME test_pkcs1
  SOURCES driver/lib/pkcs1.c test/unit/test_pkcs1.c test/unit/json_min.c
  LIBS OpenSSL::Crypto
  ARGS "${NCR_WYCHEPROOF_DIR}")

# Constant-time check of the decryption decoders under valgrind memcheck
# (secret block marked undefined).
ncr_ct_test(NAME test_pkcs1_ct
  SOURCES test/unit/test_pkcs1_ct.c driver/lib/pkcs1.c)
