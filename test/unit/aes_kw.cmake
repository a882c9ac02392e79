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

# Fuzz harnesses (libFuzzer): built with clang whatever the project
# compiler is, run by ctest for a bounded number of inputs from seed files
# in test/fuzz/seeds/.  (libFuzzer reports a finding with exit status 77,
# which these plain tests count as a failure.)
find_program(NCR_KW_CLANG clang)
function(ncr_kw_fuzz name runs seeds libs)
	set(_src "${NCR_KW_ROOT}/test/fuzz/${name}.c")
	set(_lib_src "${NCR_KW_LIB}/${ARGN}")
	set(_bin "${CMAKE_CURRENT_BINARY_DIR}/${name}")
	add_custom_command(OUTPUT "${_bin}"
		COMMAND "${NCR_KW_CLANG}" -g -O1 -Wall -Wextra -Werror
			-fsanitize=fuzzer,address,undefined -I "${NCR_KW_LIB}"
			"${_src}" "${_lib_src}" ${libs} -o "${_bin}"
		DEPENDS "${_src}" "${_lib_src}" "${NCR_KW_LIB}/ncr_port.h"
		COMMENT "Building ${name} with clang/libFuzzer")
	add_custom_target(build_${name} ALL DEPENDS "${_bin}")
	add_test(NAME ${name} COMMAND "${_bin}" -runs=${runs} -max_len=600
		-seed=1 "-seed_inputs=${seeds}")
endfunction()
if(NCR_KW_CLANG)
	set(_s "${NCR_KW_ROOT}/test/fuzz/seeds")
	ncr_kw_fuzz(fuzz_key_blob 300000 "${_s}/key_blob_layout.bin" "" key_blob.c)
	ncr_kw_fuzz(fuzz_aes_kw 50000
		"${_s}/aes_kw_kw16.bin,${_s}/aes_kw_kw40_iv.bin,${_s}/aes_kw_kwp5.bin,${_s}/aes_kw_kwp20_iv.bin"
		"-lcrypto" aes_kw.c)
else()
	message(STATUS "clang not found: fuzz_key_blob and fuzz_aes_kw not built")
endif()
