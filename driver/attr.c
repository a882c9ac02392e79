// SPDX-License-Identifier: GPL-2.0
/*
 * Attribute accessors and user-buffer helpers.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "attr.h"

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
