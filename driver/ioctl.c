// SPDX-License-Identifier: GPL-2.0
/*
 * Native ioctl dispatch and the attribute protocol of CRYPTO(4): attributes
 * follow the fixed struct (its size in the caller's ABI); input_size 0 means
 * none, less than the struct is EINVAL, attribute bytes above
 * NCR_ATTR_MAX_BYTES are EOVERFLOW, malformed ones EINVAL, unknown ones are
 * ignored.  Output attributes are written after the fixed struct and
 * output_size is set to the space used (left alone when 0; a nonzero
 * output_size below the struct size is EINVAL; short space is ERANGE).
 *
 * Every command is one entry of ncr_ioctls[]: its numbers and fixed-struct
 * sizes in both ABIs, its handler, and what its audit record shows.
 */
#include <linux/build_bug.h>
#include <linux/compat.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "ioctl.h"
#include "audit.h"
#include "ncr_compat.h"
#include "key.h"
#include "key_io.h"
#include "pk.h"
#include "session.h"
#include "storage.h"
#include "wrap.h"

/*
 * Upper limit of the attribute bytes following the fixed struct, on input
 * (EOVERFLOW above it) and on output (output space above it is unused).
 */
#define NCR_ATTR_MAX_BYTES	(64 * 1024)

/* Room for the largest native fixed struct. */
#define NCR_IOCTL_STRUCT_MAX	32

typedef long ncr_handler_t(struct ncr_ns *ns, const void *s,
			   struct nlattr *tb[], struct ncr_nla_out *out);

struct ncr_ioctl {
	unsigned int cmd, compat_cmd;	/* equal when the layouts are */
	u8 size, compat_size;		/* of the fixed struct; 0: none */
	u8 compat_ptr;			/* offset of its pointer; 0: none */
	bool attrs;			/* attributes follow the struct */
	bool output;			/* it writes output attributes */
	ncr_handler_t *handler;
	struct ncr_audit_kind audit;
};

/* The handlers, called with the table's arguments: t##_ioctl runs t. */
#define NCR_HANDLER(t, call)						\
static long t##_ioctl(struct ncr_ns *ns, const void *s, struct nlattr *tb[], \
		      struct ncr_nla_out *out)				\
{									\
	return call;							\
}
NCR_HANDLER(ncr_key_init, ncr_key_init(ns))
NCR_HANDLER(ncr_key_deinit, ncr_key_deinit(ns, *(const ncr_key_t *)s))
NCR_HANDLER(ncr_key_generate, ncr_key_generate(ns, s, tb))
NCR_HANDLER(ncr_key_generate_pair, ncr_key_generate_pair(ns, s, tb))
NCR_HANDLER(ncr_key_derive, ncr_key_derive(ns, s, tb))
NCR_HANDLER(ncr_key_get_info, ncr_key_get_info(ns, s, tb, out))
NCR_HANDLER(ncr_key_export, ncr_key_export(ns, s, tb))
NCR_HANDLER(ncr_key_import, ncr_key_import(ns, s, tb))
NCR_HANDLER(ncr_key_wrap, ncr_key_wrap(ns, s, tb))
NCR_HANDLER(ncr_key_unwrap, ncr_key_unwrap(ns, s, tb))
NCR_HANDLER(ncr_master_key_set, ncr_master_key_set(s, tb))
NCR_HANDLER(ncr_key_storage_wrap, ncr_key_storage_wrap(ns, s, tb))
NCR_HANDLER(ncr_key_storage_unwrap, ncr_key_storage_unwrap(ns, s, tb))
NCR_HANDLER(ncr_session_init, ncr_session_init(ns, s, tb))
NCR_HANDLER(ncr_session_update, ncr_session_update(ns, s, tb))
NCR_HANDLER(ncr_session_final, ncr_session_final(ns, s, tb))
NCR_HANDLER(ncr_session_once, ncr_session_once(ns, s, tb))

#define NCR_SIZE(t)	(BUILD_BUG_ON_ZERO(sizeof(t) > NCR_IOCTL_STRUCT_MAX) + \
			 sizeof(t))
/*
 * Commands with struct t, run by t's handler.  NCR_SAME: the struct has the
 * same layout in both ABIs, having 4-byte fields only (every 8-byte type is
 * 8-aligned in 64-bit code).  NCR_PTR: its pointer p makes them differ.
 */
#define NCR_SAME(nr, t, ...) {						\
	.cmd = NCRIO_##nr, .compat_cmd = NCRIO_##nr,			\
	.size = NCR_SIZE(struct t), .compat_size = sizeof(struct t) +	\
	BUILD_BUG_ON_ZERO(__alignof__(struct t) > 4),			\
	.attrs = true, .handler = t##_ioctl, __VA_ARGS__ }
#define NCR_PTR(nr, t, p, ...) {					\
	.cmd = NCRIO_##nr, .compat_cmd = COMPAT_NCRIO_##nr,		\
	.size = NCR_SIZE(struct t),					\
	.compat_size = sizeof(struct compat_##t),			\
	.compat_ptr = offsetof(struct compat_##t, p),			\
	.attrs = true, .handler = t##_ioctl, __VA_ARGS__ }
#define NCR_AUDIT_KEY(name, t, key) \
	.audit = { name, NCR_AUDIT_KEYS, offsetof(struct t, key), -1 }
#define NCR_AUDIT_TWO(name, t, key, peer) \
	.audit = { name, NCR_AUDIT_KEYS, offsetof(struct t, key),	\
		   offsetof(struct t, peer) }
#define NCR_AUDIT_SES(t) \
	.audit = { "session_init", NCR_AUDIT_SESSION, offsetof(struct t, op) }

static const struct ncr_ioctl ncr_ioctls[] = {
	{ .cmd = NCRIO_KEY_INIT, .compat_cmd = NCRIO_KEY_INIT,
	  .handler = ncr_key_init_ioctl },
	{ .cmd = NCRIO_KEY_DEINIT, .compat_cmd = NCRIO_KEY_DEINIT,
	  .size = sizeof(ncr_key_t), .compat_size = sizeof(ncr_key_t),
	  .handler = ncr_key_deinit_ioctl,
	  .audit = { "key_deinit", NCR_AUDIT_KEYS, 0, -1, .before = true } },
	NCR_SAME(KEY_GENERATE, ncr_key_generate,
		 NCR_AUDIT_KEY("key_generate", ncr_key_generate, key)),
	NCR_SAME(KEY_GENERATE_PAIR, ncr_key_generate_pair,
		 NCR_AUDIT_TWO("key_generate_pair", ncr_key_generate_pair,
			       private_key, public_key)),
	NCR_SAME(KEY_DERIVE, ncr_key_derive,
		 NCR_AUDIT_TWO("key_derive", ncr_key_derive, new_key, input_key)),
	NCR_SAME(KEY_GET_INFO, ncr_key_get_info, .output = true),
	NCR_PTR(KEY_EXPORT, ncr_key_export, buffer,
		NCR_AUDIT_KEY("key_export", ncr_key_export, key)),
	NCR_PTR(KEY_IMPORT, ncr_key_import, data,
		NCR_AUDIT_KEY("key_import", ncr_key_import, key)),
	NCR_PTR(KEY_WRAP, ncr_key_wrap, buffer,
		NCR_AUDIT_TWO("key_wrap", ncr_key_wrap, source_key, wrapping_key)),
	NCR_PTR(KEY_UNWRAP, ncr_key_unwrap, data,
		NCR_AUDIT_TWO("key_unwrap", ncr_key_unwrap, dest_key, wrapping_key)),
	NCR_PTR(MASTER_KEY_SET, ncr_master_key_set, key,
		.audit = { "master_key_set", NCR_AUDIT_RESULT }),
	NCR_PTR(KEY_STORAGE_WRAP, ncr_key_storage_wrap, buffer,
		NCR_AUDIT_KEY("key_storage_wrap", ncr_key_storage_wrap, key)),
	NCR_PTR(KEY_STORAGE_UNWRAP, ncr_key_storage_unwrap, data,
		NCR_AUDIT_KEY("key_storage_unwrap", ncr_key_storage_unwrap, key)),
	NCR_SAME(SESSION_INIT, ncr_session_init, NCR_AUDIT_SES(ncr_session_init)),
	NCR_SAME(SESSION_UPDATE, ncr_session_update),
	NCR_SAME(SESSION_FINAL, ncr_session_final),
	NCR_SAME(SESSION_ONCE, ncr_session_once, NCR_AUDIT_SES(ncr_session_once)),
};

static long ncr_run(struct ncr_ns *ns, const struct ncr_ioctl *d,
		    const void *s, struct nlattr *tb[], struct ncr_nla_out *out)
{
	struct ncr_audit_snap snap;
	long ret;

	ncr_audit_prepare(ns, &d->audit, s, &snap);
	ret = d->handler(ns, s, tb, out);
	ncr_audit_call(ns, &d->audit, s, tb, ret, &snap);
	return ret;
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

/*
 * Run one attribute-carrying command: s is the native struct (already
 * copied and converted), arg the user struct, fixed its size in the
 * caller's ABI (attributes start at arg + fixed).
 */
static long ncr_call(struct ncr_ns *ns, const struct ncr_ioctl *d,
		     const void *s, void __user *arg, size_t fixed)
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
	if (room && d->output) {
		ret = -ENOMEM;
		outbuf = kvzalloc(room, GFP_KERNEL);
		if (!outbuf)
			goto out;
	}
	ncr_nla_out_init(&out, outbuf, outbuf ? room : 0);

	ret = ncr_run(ns, d, s, tb, &out);
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

/*
 * Copy the fixed struct of the caller's ABI (converted to the native one
 * for a 32-bit layout of its own), then run the command.
 */
static long ncr_ioctl_run(struct ncr_ns *ns, const struct ncr_ioctl *d,
			  void __user *arg, bool compat)
{
	u64 s[NCR_IOCTL_STRUCT_MAX / 8] = {}, c[NCR_IOCTL_STRUCT_MAX / 8];
	size_t fixed = compat ? d->compat_size : d->size;

	if (copy_from_user(compat && d->compat_ptr ? c : s, arg, fixed))
		return -EFAULT;
	if (compat && d->compat_ptr)
		ncr_compat_struct(s, c, d->compat_ptr);
	if (!d->attrs)
		return ncr_run(ns, d, s, NULL, NULL);
	return ncr_call(ns, d, s, arg, fixed);
}

long ncr_ioctl(struct ncr_ns *ns, unsigned int cmd, void __user *arg,
	       bool compat)
{
	const struct ncr_ioctl *d;

	for (d = ncr_ioctls; d < ncr_ioctls + ARRAY_SIZE(ncr_ioctls); d++)
		if ((compat ? d->compat_cmd : d->cmd) == cmd)
			return ncr_ioctl_run(ns, d, arg, compat);
	return -ENOTTY;
}
