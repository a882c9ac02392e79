# Unit tests of driver/lib/nlattr.c (the ioctl attribute parser/writer; its
# fuzz harness is registered in test/fuzz).  Included by test/unit's glob.

ncr_unit_test(NAME test_nlattr
  SOURCES driver/lib/nlattr.c test/unit/test_nlattr.c)
