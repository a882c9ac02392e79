# Unit tests of the pure parsing and policy code of ncrctl
# (tools/ncrctl_parse.c: key usage lists, -passin arguments, credential
# names, master key permission rules).  Included by test/unit's glob.

ncr_unit_test(NAME test_ncrctl_parse
  SOURCES tools/ncrctl_parse.c test/unit/test_ncrctl_parse.c)
target_include_directories(test_ncrctl_parse PRIVATE
  "${PROJECT_SOURCE_DIR}/tools")
