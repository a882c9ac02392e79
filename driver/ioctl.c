// SPDX-License-Identifier: GPL-2.0
/*
 * Native ioctl dispatch and the attribute protocol of CRYPTO(4): attributes
 * follow the fixed struct (its size in the caller's ABI); input_size 0 means
 * none, less than the struct is EINVAL, attribute bytes above
 * NCR_ATTR_MAX_BYTES are EOVERFLOW, malformed ones EINVAL, unknown ones are
 * ignored.  Output attributes are written after the fixed struct and
 * output_size is set to the space used (left alone when 0; a nonzero
 * output_size below the struct size is EINVAL; short space is ERANGE).
 */
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "ioctl.h"
#include "audit.h"
#include "key.h"
#include "pk.h"
#include "session.h"
#include "storage.h"
#include "wrap.h"

/*
 * Upper limit of the attribute bytes following the fixed struct, on input
 * (EOVERFLOW above it) and on output (output space above it is unused).
 */
#define NCR_ATTR_MAX_BYTES	(64 * 1024)

static long ncr_dispatch(struct ncr_ns *ns, enum ncr_call_op op,
			 const void *s, struct nlattr *tb[],
			 struct ncr_nla_out *out)
{
	switch (op) {
	case NCR_CALL_KEY_GENERATE:
		return ncr_key_generate(ns, s, tb);
	case NCR_CALL_KEY_GENERATE_PAIR:
		return ncr_key_generate_pair(ns, s, tb);
	case NCR_CALL_KEY_DERIVE:
		return ncr_key_derive(ns, s, tb);
	case NCR_CALL_KEY_GET_INFO:
		return ncr_key_get_info(ns, s, tb, out);
	case NCR_CALL_KEY_EXPORT:
		return ncr_key_export(ns, s, tb);
	case NCR_CALL_KEY_IMPORT:
		return ncr_key_import(ns, s, tb);
	case NCR_CALL_KEY_WRAP:
		return ncr_key_wrap(ns, s, tb);
	case NCR_CALL_KEY_UNWRAP:
		return ncr_key_unwrap(ns, s, tb);
	case NCR_CALL_MASTER_KEY_SET:
		return ncr_master_key_set(s, tb);
	case NCR_CALL_STORAGE_WRAP:
		return ncr_key_storage_wrap(ns, s, tb);
	case NCR_CALL_STORAGE_UNWRAP:
		return ncr_key_storage_unwrap(ns, s, tb);
	case NCR_CALL_SESSION_INIT:
		return ncr_session_init(ns, s, tb);
	case NCR_CALL_SESSION_UPDATE:
		return ncr_session_update(ns, s, tb);
	case NCR_CALL_SESSION_FINAL:
		return ncr_session_final(ns, s, tb);
	case NCR_CALL_SESSION_ONCE:
		return ncr_session_once(ns, s, tb);
	}
	return -EINVAL;
}

/* Copy and parse the input attributes; *attrs is to be kvfree()d. */
static int ncr_call_attrs(void __user *arg, size_t fixed, u32 input_size,
			  void **attrs, struct nlattr *tb[])
{
	size_t n = 0;

	*attrs = NULL;
	if (input_size) {
		if (input_size < fixed)
			return -EINVAL;
		n = input_size - fixed;
		if (n > NCR_ATTR_MAX_BYTES)
			return -EOVERFLOW;
	}
	if (n) {
		*attrs = vmemdup_user((u8 __user *)arg + fixed, n);
		if (IS_ERR(*attrs)) {
			int ret = PTR_ERR(*attrs);

			*attrs = NULL;
			return ret;
		}
	}
	return ncr_nla_parse((const struct nlattr **)tb, NCR_ATTR_MAX, *attrs,
			     n, ncr_attr_policy);
}

long ncr_call(struct ncr_ns *ns, enum ncr_call_op op, const void *s,
	      void __user *arg, size_t fixed)
{
	/* Every attribute-carrying struct starts with the two sizes. */
	const u32 *sizes = s;
	u32 output_size = sizes[1];
	struct nlattr *tb[NCR_ATTR_MAX + 1];
	struct ncr_nla_out out;
	void *attrs, *outbuf = NULL;
	size_t room = 0;
	long ret;

	ret = ncr_call_attrs(arg, fixed, sizes[0], &attrs, tb);
	if (ret)
		goto out;
	if (output_size) {
		ret = -EINVAL;
		if (output_size < fixed)
			goto out;
		room = min_t(size_t, output_size - fixed, NCR_ATTR_MAX_BYTES);
	}
	/* Only KEY_GET_INFO has output attributes (so far). */
	if (room && op == NCR_CALL_KEY_GET_INFO) {
		ret = -ENOMEM;
		outbuf = kvzalloc(room, GFP_KERNEL);
		if (!outbuf)
			goto out;
	}
	ncr_nla_out_init(&out, outbuf, outbuf ? room : 0);

	ret = ncr_dispatch(ns, op, s, tb, &out);
	ncr_audit_call(ns, op, s, tb, ret);
	if (ret < 0 || !output_size)
		goto out;
	if (out.used && copy_to_user((u8 __user *)arg + fixed, outbuf,
				     out.used))
		ret = -EFAULT;
	else if (put_user((u32)(fixed + out.used), (u32 __user *)arg + 1))
		ret = -EFAULT;
out:
	kvfree(outbuf);
	kvfree(attrs);
	return ret;
}

/* Copy the native fixed struct, then run the call. */
#define NCR_NATIVE_CALL(ns, op, type, arg) ({				\
	type __s;							\
	copy_from_user(&__s, (arg), sizeof(__s)) ? -EFAULT :		\
		ncr_call((ns), (op), &__s, (arg), sizeof(__s));		\
})

long ncr_ioctl_native(struct ncr_ns *ns, unsigned int cmd, void __user *arg)
{
	ncr_key_t key;

	switch (cmd) {
	case NCRIO_KEY_INIT:
		return ncr_key_init(ns);
	case NCRIO_KEY_DEINIT:
		if (get_user(key, (ncr_key_t __user *)arg))
			return -EFAULT;
		return ncr_key_deinit(ns, key);
	case NCRIO_KEY_GENERATE:
		return NCR_NATIVE_CALL(ns, NCR_CALL_KEY_GENERATE,
				       struct ncr_key_generate, arg);
	case NCRIO_KEY_GENERATE_PAIR:
		return NCR_NATIVE_CALL(ns, NCR_CALL_KEY_GENERATE_PAIR,
				       struct ncr_key_generate_pair, arg);
	case NCRIO_KEY_DERIVE:
		return NCR_NATIVE_CALL(ns, NCR_CALL_KEY_DERIVE,
				       struct ncr_key_derive, arg);
	case NCRIO_KEY_GET_INFO:
		return NCR_NATIVE_CALL(ns, NCR_CALL_KEY_GET_INFO,
				       struct ncr_key_get_info, arg);
	case NCRIO_KEY_EXPORT:
		return NCR_NATIVE_CALL(ns, NCR_CALL_KEY_EXPORT,
				       struct ncr_key_export, arg);
	case NCRIO_KEY_IMPORT:
		return NCR_NATIVE_CALL(ns, NCR_CALL_KEY_IMPORT,
				       struct ncr_key_import, arg);
	case NCRIO_KEY_WRAP:
		return NCR_NATIVE_CALL(ns, NCR_CALL_KEY_WRAP,
				       struct ncr_key_wrap, arg);
	case NCRIO_KEY_UNWRAP:
		return NCR_NATIVE_CALL(ns, NCR_CALL_KEY_UNWRAP,
				       struct ncr_key_unwrap, arg);
	case NCRIO_MASTER_KEY_SET:
		return NCR_NATIVE_CALL(ns, NCR_CALL_MASTER_KEY_SET,
				       struct ncr_master_key_set, arg);
	case NCRIO_KEY_STORAGE_WRAP:
		return NCR_NATIVE_CALL(ns, NCR_CALL_STORAGE_WRAP,
				       struct ncr_key_storage_wrap, arg);
	case NCRIO_KEY_STORAGE_UNWRAP:
		return NCR_NATIVE_CALL(ns, NCR_CALL_STORAGE_UNWRAP,
				       struct ncr_key_storage_unwrap, arg);
	case NCRIO_SESSION_INIT:
		return NCR_NATIVE_CALL(ns, NCR_CALL_SESSION_INIT,
				       struct ncr_session_init, arg);
	case NCRIO_SESSION_UPDATE:
		return NCR_NATIVE_CALL(ns, NCR_CALL_SESSION_UPDATE,
				       struct ncr_session_update, arg);
	case NCRIO_SESSION_FINAL:
		return NCR_NATIVE_CALL(ns, NCR_CALL_SESSION_FINAL,
				       struct ncr_session_final, arg);
	case NCRIO_SESSION_ONCE:
		return NCR_NATIVE_CALL(ns, NCR_CALL_SESSION_ONCE,
				       struct ncr_session_once, arg);
	}
	return -ENOTTY;
}
