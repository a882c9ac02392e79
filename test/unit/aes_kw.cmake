# Unit tests and fuzz harness of the key-wrap area (issue 3):
# driver/lib/aes_kw.c (RFC 3394/5649) and driver/lib/key_blob.c (storage
# blob encoding).  Included by the test CMake glob over test/unit/*.cmake.

get_filename_component(NCR_KW_ROOT "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
set(NCR_KW_LIB "${NCR_KW_ROOT}/driver/lib")
set(NCR_KW_UNIT "${NCR_KW_ROOT}/test/unit")
# Wycheproof vectors live next to the repository (never copied into it).
get_filename_component(NCR_KW_VECTORS
	"${NCR_KW_ROOT}/../shared/vectors/wycheproof" ABSOLUTE)

find_package(OpenSSL REQUIRED COMPONENTS Crypto)

add_executable(test_aes_kw
	"${NCR_KW_UNIT}/test_aes_kw.c"
	"${NCR_KW_UNIT}/wycheproof_scan.c"
	"${NCR_KW_LIB}/aes_kw.c")
target_include_directories(test_aes_kw PRIVATE "${NCR_KW_LIB}" "${NCR_KW_UNIT}")
target_compile_options(test_aes_kw PRIVATE -Wall -Wextra -Werror)
target_link_libraries(test_aes_kw PRIVATE OpenSSL::Crypto)
add_test(NAME aes_kw COMMAND test_aes_kw "${NCR_KW_VECTORS}")
# 77: vector directory absent -> reported as skipped, not passed
set_tests_properties(aes_kw PROPERTIES SKIP_RETURN_CODE 77)

add_executable(test_key_blob
	"${NCR_KW_UNIT}/test_key_blob.c"
	"${NCR_KW_LIB}/key_blob.c")
target_include_directories(test_key_blob PRIVATE "${NCR_KW_LIB}")
target_compile_options(test_key_blob PRIVATE -Wall -Wextra -Werror)
add_test(NAME key_blob COMMAND test_key_blob)

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
