// SPDX-License-Identifier: GPL-2.0
/*
 * Attribute accessors, user-buffer helpers and the readers of the
 * ABI-dependent session data attributes.
 */
#include <linux/compat.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "attr.h"
#include "session_io.h"
#include "ncr_compat.h"

u32 ncr_attr_u32(struct nlattr *tb[], int type, u32 def)
{
	return tb[type] ? ncr_nla_get_u32(tb[type]) : def;
}

const char *ncr_attr_str(struct nlattr *tb[], int type)
{
	return tb[type] ? ncr_nla_get_str(tb[type]) : NULL;
}

long ncr_copy_out(void __user *buf, int buf_size, const void *data,
		  size_t len)
{
	if (buf_size < 0)
		return -EINVAL;
	if (len > (size_t)buf_size)
		return -ERANGE;
	if (len && copy_to_user(buf, data, len))
		return -EFAULT;
	return len;
}

void *ncr_copy_in(const void __user *data, u32 len)
{
	void *p;

	if (len > NCR_IMPORT_MAX)
		return ERR_PTR(-EOVERFLOW);
	p = kvmalloc(len ? len : 1, GFP_KERNEL);
	if (!p)
		return ERR_PTR(-ENOMEM);
	if (len && copy_from_user(p, data, len)) {
		kvfree(p);
		return ERR_PTR(-EFAULT);
	}
	return p;
}

int ncr_attr_input_data(const struct nlattr *nla, struct ncr_data_in *in)
{
	struct ncr_session_input_data d;

	in->kernel = NULL;
#ifdef CONFIG_COMPAT
	if (in_compat_syscall()) {
		struct compat_ncr_session_input_data c;

		if (ncr_nla_len(nla) != sizeof(c))
			return -EINVAL;
		memcpy(&c, ncr_nla_data(nla), sizeof(c));
		in->user = compat_ptr(c.data);
		in->size = c.data_size;
		return 0;
	}
#endif
	if (ncr_nla_len(nla) != sizeof(d))
		return -EINVAL;
	memcpy(&d, ncr_nla_data(nla), sizeof(d));
	in->user = d.data;
	in->size = d.data_size;
	return 0;
}

int ncr_attr_output_buffer(const struct nlattr *nla,
			   struct ncr_data_out *out,
			   void __user **result_size_ptr)
{
	struct ncr_session_output_buffer b;

	out->written = 0;
#ifdef CONFIG_COMPAT
	if (in_compat_syscall()) {
		struct compat_ncr_session_output_buffer c;

		if (ncr_nla_len(nla) != sizeof(c))
			return -EINVAL;
		memcpy(&c, ncr_nla_data(nla), sizeof(c));
		out->buf = compat_ptr(c.buffer);
		out->size = c.buffer_size;
		*result_size_ptr = compat_ptr(c.result_size_ptr);
		return 0;
	}
#endif
	if (ncr_nla_len(nla) != sizeof(b))
		return -EINVAL;
	memcpy(&b, ncr_nla_data(nla), sizeof(b));
	out->buf = b.buffer;
	out->size = b.buffer_size;
	*result_size_ptr = b.result_size_ptr;
	return 0;
}

int ncr_put_result_size(void __user *ptr, size_t size)
{
	if (!ptr)
		return 0;
#ifdef CONFIG_COMPAT
	if (in_compat_syscall())
		return put_user((compat_size_t)size,
				(compat_size_t __user *)ptr) ? -EFAULT : 0;
#endif
	return put_user(size, (__kernel_size_t __user *)ptr) ? -EFAULT : 0;
}
