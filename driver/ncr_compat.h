/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The UAPI structs as a 32-bit process lays them out (pointers and size_t
 * are 4 bytes, 8-byte types 4-aligned), and their ioctl numbers: _IOWR()
 * encodes the struct size, so every pointer-carrying struct has a
 * different command number in 32-bit code.
 */
#ifndef NCR_COMPAT_H
#define NCR_COMPAT_H

#include <linux/compat.h>
#include <linux/ncr.h>

struct compat_ncr_key_import {
	__u32 input_size, output_size;
	ncr_key_t key;
	compat_uptr_t data;
	__u32 data_size;
	__NL_ATTRIBUTES;
};

struct compat_ncr_key_export {
	__u32 input_size, output_size;
	ncr_key_t key;
	compat_uptr_t buffer;
	compat_int_t buffer_size;
	__NL_ATTRIBUTES;
};

struct compat_ncr_key_wrap {
	__u32 input_size, output_size;
	ncr_key_t wrapping_key;
	ncr_key_t source_key;
	compat_uptr_t buffer;
	compat_int_t buffer_size;
	__NL_ATTRIBUTES;
};

struct compat_ncr_key_unwrap {
	__u32 input_size, output_size;
	ncr_key_t wrapping_key;
	ncr_key_t dest_key;
	compat_uptr_t data;
	__u32 data_size;
	__NL_ATTRIBUTES;
};

struct compat_ncr_master_key_set {
	__u32 input_size, output_size;
	compat_uptr_t key;
	__u32 key_size;
	__NL_ATTRIBUTES;
};

struct compat_ncr_key_storage_wrap {
	__u32 input_size, output_size;
	ncr_key_t key;
	compat_uptr_t buffer;
	compat_int_t buffer_size;
	__NL_ATTRIBUTES;
};

struct compat_ncr_key_storage_unwrap {
	__u32 input_size, output_size;
	ncr_key_t key;
	compat_uptr_t data;
	__u32 data_size;
	__NL_ATTRIBUTES;
};

/* NCR_ATTR_*_INPUT_DATA and NCR_ATTR_*_OUTPUT_BUFFER payloads. */
struct compat_ncr_session_input_data {
	compat_uptr_t data;
	compat_size_t data_size;
};

struct compat_ncr_session_output_buffer {
	compat_uptr_t buffer;
	compat_size_t buffer_size;
	compat_uptr_t result_size_ptr;
};

#define COMPAT_NCRIO_KEY_EXPORT	_IOWR('c', 209, struct compat_ncr_key_export)
#define COMPAT_NCRIO_KEY_IMPORT	_IOWR('c', 210, struct compat_ncr_key_import)
#define COMPAT_NCRIO_KEY_WRAP	_IOWR('c', 250, struct compat_ncr_key_wrap)
#define COMPAT_NCRIO_KEY_UNWRAP	_IOWR('c', 251, struct compat_ncr_key_unwrap)
#define COMPAT_NCRIO_MASTER_KEY_SET \
	_IOWR('c', 260, struct compat_ncr_master_key_set)
#define COMPAT_NCRIO_KEY_STORAGE_WRAP \
	_IOWR('c', 261, struct compat_ncr_key_storage_wrap)
#define COMPAT_NCRIO_KEY_STORAGE_UNWRAP \
	_IOWR('c', 262, struct compat_ncr_key_storage_wrap)

#endif /* NCR_COMPAT_H */
