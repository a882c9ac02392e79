# PKCS#1 encodings (driver/lib/pkcs1.c) against Wycheproof and OpenSSL;
# libcrypto supplies hashes and raw RSA, so LibTomMath is not involved.
find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)
get_filename_component(NCR_PKCS1_ROOT "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
add_executable(test_pkcs1
	${CMAKE_CURRENT_LIST_DIR}/test_pkcs1.c
	${CMAKE_CURRENT_LIST_DIR}/json_min.c
	${NCR_PKCS1_ROOT}/driver/lib/pkcs1.c)
target_include_directories(test_pkcs1 PRIVATE ${NCR_PKCS1_ROOT}/driver/lib)
target_compile_definitions(test_pkcs1 PRIVATE NCR_REPO_ROOT="${NCR_PKCS1_ROOT}")
target_compile_options(test_pkcs1 PRIVATE -Wall -Wextra -Werror)
target_link_libraries(test_pkcs1 PRIVATE OpenSSL::Crypto)
add_test(NAME pkcs1 COMMAND test_pkcs1 ${NCR_PKCS1_ROOT})
