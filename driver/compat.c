// SPDX-License-Identifier: GPL-2.0
/*
 * 32-bit callers on a 64-bit kernel: their structs and session data
 * attributes, converted to the native ones (pointers via compat_ptr()).
 * Which commands have a 32-bit layout of their own, and which number, is
 * in ioctl.c's command table; the other structs have the same layout and
 * number in both ABIs.
 */
#include <linux/align.h>
#include <linux/build_bug.h>
#include <linux/compat.h>
#include <linux/stddef.h>
#include <linux/uaccess.h>
#include "ncr_compat.h"
#include "session_io.h"

/* The i386 layouts (4-byte pointers, 4-aligned), checked at build time. */
static_assert(sizeof(struct compat_ncr_key_import) == 20);
static_assert(sizeof(struct compat_ncr_key_export) == 20);
static_assert(sizeof(struct compat_ncr_key_wrap) == 24);
static_assert(sizeof(struct compat_ncr_key_unwrap) == 24);
static_assert(sizeof(struct compat_ncr_master_key_set) == 16);
static_assert(sizeof(struct compat_ncr_key_storage_wrap) == 20);
static_assert(sizeof(struct compat_ncr_key_storage_unwrap) == 20);
static_assert(sizeof(struct compat_ncr_session_input_data) == 8);
static_assert(sizeof(struct compat_ncr_session_output_buffer) == 12);

/*
 * What ncr_compat_struct() relies on: 32-bit fields, then the pointer p
 * (8-aligned in the native struct), then one 32-bit field n, last.
 */
#define NCR_COMPAT_LAYOUT(t, p, n)					\
	static_assert(offsetof(struct t, p) ==				\
		      ALIGN(offsetof(struct compat_##t, p), 8) &&	\
		      offsetof(struct t, n) == offsetof(struct t, p) + 8 && \
		      offsetof(struct compat_##t, n) ==			\
		      offsetof(struct compat_##t, p) + 4 &&		\
		      sizeof(struct compat_##t) ==			\
		      offsetof(struct compat_##t, n) + 4)
NCR_COMPAT_LAYOUT(ncr_key_import, data, data_size);
NCR_COMPAT_LAYOUT(ncr_key_export, buffer, buffer_size);
NCR_COMPAT_LAYOUT(ncr_key_wrap, buffer, buffer_size);
NCR_COMPAT_LAYOUT(ncr_key_unwrap, data, data_size);
NCR_COMPAT_LAYOUT(ncr_master_key_set, key, key_size);
NCR_COMPAT_LAYOUT(ncr_key_storage_wrap, buffer, buffer_size);
NCR_COMPAT_LAYOUT(ncr_key_storage_unwrap, data, data_size);

void ncr_compat_struct(void *native, const void *compat, size_t ptr)
{
	size_t nptr = ALIGN(ptr, sizeof(void *));
	const u8 *c = compat;
	u8 *n = native;
	compat_uptr_t up;
	void __user *p;

	memcpy(n, c, ptr);
	memcpy(&up, c + ptr, sizeof(up));
	p = compat_ptr(up);
	memcpy(n + nptr, &p, sizeof(p));
	memcpy(n + nptr + sizeof(p), c + ptr + sizeof(up), sizeof(u32));
}

int ncr_compat_input_data(const struct nlattr *nla, struct ncr_data_in *in)
{
	struct compat_ncr_session_input_data c;

	if (ncr_nla_len(nla) != sizeof(c))
		return -EINVAL;
	memcpy(&c, ncr_nla_data(nla), sizeof(c));
	in->user = compat_ptr(c.data);
	in->size = c.data_size;
	return 0;
}

int ncr_compat_output_buffer(const struct nlattr *nla,
			     struct ncr_data_out *out,
			     void __user **result_size_ptr)
{
	struct compat_ncr_session_output_buffer c;

	if (ncr_nla_len(nla) != sizeof(c))
		return -EINVAL;
	memcpy(&c, ncr_nla_data(nla), sizeof(c));
	out->buf = compat_ptr(c.buffer);
	out->size = c.buffer_size;
	*result_size_ptr = compat_ptr(c.result_size_ptr);
	return 0;
}

int ncr_compat_put_result_size(void __user *ptr, size_t size)
{
	return put_user((compat_size_t)size, (compat_size_t __user *)ptr) ?
	       -EFAULT : 0;
}
