# Unit tests and fuzz harness of driver/lib/nlattr.c (the ioctl attribute
# parser/writer) and libncr's writer on top of it (libncr/attrs.c).
# Included by test/unit/CMakeLists.txt's glob.

ncr_unit_test(NAME test_nlattr
  SOURCES driver/lib/nlattr.c libncr/attrs.c test/unit/test_nlattr.c)
target_include_directories(test_nlattr PRIVATE "${PROJECT_SOURCE_DIR}/libncr")

# libFuzzer harness, built with clang whatever the project compiler is and
# run by ctest for a bounded number of inputs.
find_program(NCR_NLA_CLANG clang)
if(NCR_NLA_CLANG)
  set(_nla_src "${PROJECT_SOURCE_DIR}/test/fuzz/fuzz_nlattr.c")
  set(_nla_lib "${PROJECT_SOURCE_DIR}/driver/lib")
  set(_nla_seeds "${PROJECT_SOURCE_DIR}/test/fuzz/seeds/nlattr")
  set(_nla_bin "${CMAKE_BINARY_DIR}/test/fuzz/fuzz_nlattr")
  add_custom_command(OUTPUT "${_nla_bin}"
    COMMAND ${CMAKE_COMMAND} -E make_directory "${CMAKE_BINARY_DIR}/test/fuzz"
    COMMAND "${NCR_NLA_CLANG}" -g -O1 -Wall -Wextra -Werror
            -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
            -I "${_nla_lib}" -I "${PROJECT_SOURCE_DIR}/include"
            "${_nla_src}" "${_nla_lib}/nlattr.c" -o "${_nla_bin}"
    DEPENDS "${_nla_src}" "${_nla_lib}/nlattr.c" "${_nla_lib}/nlattr.h"
            "${_nla_lib}/ncr_port.h"
    COMMENT "Building fuzz_nlattr with clang/libFuzzer")
  add_custom_target(build_fuzz_nlattr ALL DEPENDS "${_nla_bin}")
  add_test(NAME fuzz_nlattr
    COMMAND "${_nla_bin}" -runs=500000 -max_len=512 -seed=1
            "-seed_inputs=${_nla_seeds}/session_init.bin,${_nla_seeds}/key_import.bin")
else()
  message(STATUS "clang not found: fuzz_nlattr not built")
endif()
