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
#include "lib/nlattr.h"

struct ncr_data_in;
struct ncr_data_out;

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

/*
 * A 32-bit struct at compat, whose one pointer is at offset ptr, as the
 * native struct (of the layout compat.c checks for every such struct).
 */
void ncr_compat_struct(void *native, const void *compat, size_t ptr);

/* The session data attribute readers of session_io.h, 32-bit layout. */
int ncr_compat_input_data(const struct nlattr *nla, struct ncr_data_in *in);
int ncr_compat_output_buffer(const struct nlattr *nla,
			     struct ncr_data_out *out,
			     void __user **result_size_ptr);
int ncr_compat_put_result_size(void __user *ptr, size_t size);

#endif /* NCR_COMPAT_H */
