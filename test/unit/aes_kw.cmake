# Unit tests of the key-wrap area: driver/lib/aes_kw.c (RFC 3394/5649) and
# driver/lib/key_blob.c (storage blob encoding); their fuzz harnesses are
# registered in test/fuzz.  Included by test/unit's glob over *.cmake.

find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)

ncr_unit_test(NAME test_aes_kw
  SOURCES driver/lib/aes_kw.c test/unit/test_aes_kw.c test/unit/wycheproof_scan.c
  LIBS OpenSSL::Crypto
  ARGS "${NCR_WYCHEPROOF_DIR}")

ncr_unit_test(NAME test_key_blob
  SOURCES driver/lib/key_blob.c test/unit/test_key_blob.c)
