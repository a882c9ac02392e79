# Unit tests and fuzz harness of the key-wrap area (issue 3):
# driver/lib/aes_kw.c (RFC 3394/5649) and driver/lib/key_blob.c (storage
# blob encoding).  Included by the test CMake glob over test/unit/*.cmake.

get_filename_component(NCR_KW_ROOT "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
set(NCR_KW_LIB "${NCR_KW_ROOT}/driver/lib")

find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)

ncr_unit_test(NAME test_aes_kw
  SOURCES driver/lib/aes_kw.c test/unit/test_aes_kw.c test/unit/wycheproof_scan.c
  LIBS OpenSSL::Crypto
  ARGS "${NCR_WYCHEPROOF_DIR}")

ncr_unit_test(NAME test_key_blob
  SOURCES driver/lib/key_blob.c test/unit/test_key_blob.c)

# Fuzz harness (libFuzzer): built with clang whatever the project compiler
# is, run by ctest for a bounded number of inputs from a seed blob.
find_program(NCR_KW_CLANG clang)
set(NCR_KW_FUZZ_SRC "${NCR_KW_ROOT}/test/fuzz/fuzz_key_blob.c")
set(NCR_KW_FUZZ_SEED "${NCR_KW_ROOT}/test/fuzz/seeds/key_blob_layout.bin")
if(NCR_KW_CLANG)
	set(NCR_KW_FUZZ_BIN "${CMAKE_CURRENT_BINARY_DIR}/fuzz_key_blob")
	add_custom_command(OUTPUT "${NCR_KW_FUZZ_BIN}"
		COMMAND "${NCR_KW_CLANG}" -g -O1 -Wall -Wextra -Werror
			-fsanitize=fuzzer,address,undefined -I "${NCR_KW_LIB}"
			"${NCR_KW_FUZZ_SRC}" "${NCR_KW_LIB}/key_blob.c"
			-o "${NCR_KW_FUZZ_BIN}"
		DEPENDS "${NCR_KW_FUZZ_SRC}" "${NCR_KW_LIB}/key_blob.c"
			"${NCR_KW_LIB}/key_blob.h" "${NCR_KW_LIB}/ncr_port.h"
		COMMENT "Building fuzz_key_blob with clang/libFuzzer")
	add_custom_target(build_fuzz_key_blob ALL DEPENDS "${NCR_KW_FUZZ_BIN}")
	add_test(NAME fuzz_key_blob
		COMMAND "${NCR_KW_FUZZ_BIN}" -runs=300000 -max_len=600 -seed=1
			"-seed_inputs=${NCR_KW_FUZZ_SEED}")
else()
	message(STATUS "clang not found: fuzz_key_blob not built")
endif()
