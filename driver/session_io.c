// SPDX-License-Identifier: GPL-2.0
/*
 * What session ops use to reach their data and key: session input and
 * output, the session data attributes in the caller's layout (32-bit
 * ones through compat.c), and a keyed session's secret.
 */
#include <linux/compat.h>
#include <linux/minmax.h>
#include <linux/uaccess.h>
#include "session_io.h"
#include "key.h"
#include "ncr_compat.h"
#include "session.h"

int ncr_data_in_read(const struct ncr_data_in *in, size_t off, void *dst,
		     size_t len)
{
	if (off > in->size || len > in->size - off)
		return -EINVAL;
	if (in->kernel) {
		memcpy(dst, in->kernel + off, len);
		return 0;
	}
	return copy_from_user(dst, in->user + off, len) ? -EFAULT : 0;
}

int ncr_data_out_write(struct ncr_data_out *out, size_t off, const void *src,
		       size_t len)
{
	if (off > out->size || len > out->size - off)
		return -ERANGE;
	if (len && copy_to_user(out->buf + off, src, len))
		return -EFAULT;
	out->written = max(out->written, off + len);
	return 0;
}

int ncr_session_key_lock_secret(struct ncr_session *ses, const u8 **secret,
				unsigned int *len)
{
	struct ncr_key *key = ses->key;

	if (!key)
		return -EINVAL;
	down_read(&key->sem);
	if (key->type != NCR_KEY_TYPE_SECRET) {
		up_read(&key->sem);
		return -EINVAL;
	}
	/* key separation: a KEK encrypting blocks would unwrap in software */
	if (key->flags & NCR_KEY_FLAG_WRAPPING) {
		up_read(&key->sem);
		return -EPERM;
	}
	*secret = key->secret;
	*len = key->secret_size;
	return 0;
}

void ncr_session_key_unlock(struct ncr_session *ses)
{
	up_read(&ses->key->sem);
}

int ncr_attr_input_data(const struct nlattr *nla, struct ncr_data_in *in)
{
	struct ncr_session_input_data d;

	in->kernel = NULL;
	if (in_compat_syscall())
		return ncr_compat_input_data(nla, in);
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
	if (in_compat_syscall())
		return ncr_compat_output_buffer(nla, out, result_size_ptr);
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
	if (in_compat_syscall())
		return ncr_compat_put_result_size(ptr, size);
	return put_user(size, (__kernel_size_t __user *)ptr) ? -EFAULT : 0;
}
