# Unit tests of driver/lib/nlattr.c (the ioctl attribute parser/writer) and
# libncr's writer on top of it (libncr/attrs.c); the fuzz harness is
# registered in test/fuzz.  Included by test/unit's glob.

ncr_unit_test(NAME test_nlattr
  SOURCES driver/lib/nlattr.c libncr/attrs.c test/unit/test_nlattr.c)
target_include_directories(test_nlattr PRIVATE "${PROJECT_SOURCE_DIR}/libncr")
