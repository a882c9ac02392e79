// SPDX-License-Identifier: GPL-2.0
/*
 * 32-bit callers on a 64-bit kernel: pointer-carrying structs are converted
 * to the native ones (compat_ptr()) and their attributes start after the
 * 32-bit struct; everything else has the same layout and number.  Session
 * data attributes are read in the caller's layout by attr.c.
 */
#include <linux/build_bug.h>
#include <linux/compat.h>
#include <linux/uaccess.h>
#include "ioctl.h"
#include "ncr_compat.h"

#ifdef CONFIG_COMPAT

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
/* Pointer-free structs are routed to the native handler unchanged. */
static_assert(sizeof(struct ncr_key_generate) == 12);
static_assert(sizeof(struct ncr_key_generate_pair) == 16);
static_assert(sizeof(struct ncr_key_derive) == 16);
static_assert(sizeof(struct ncr_key_get_info) == 12);
static_assert(sizeof(struct ncr_session_init) == 12);
static_assert(sizeof(struct ncr_session_update) == 12);
static_assert(sizeof(struct ncr_session_final) == 12);
static_assert(sizeof(struct ncr_session_once) == 12);

static long ncr_compat_import(struct ncr_ns *ns, void __user *arg)
{
	struct compat_ncr_key_import c;
	struct ncr_key_import n = {};

	if (copy_from_user(&c, arg, sizeof(c)))
		return -EFAULT;
	n.input_size = c.input_size;
	n.output_size = c.output_size;
	n.key = c.key;
	n.data = compat_ptr(c.data);
	n.data_size = c.data_size;
	return ncr_call(ns, NCR_CALL_KEY_IMPORT, &n, arg, sizeof(c));
}

static long ncr_compat_export(struct ncr_ns *ns, void __user *arg)
{
	struct compat_ncr_key_export c;
	struct ncr_key_export n = {};

	if (copy_from_user(&c, arg, sizeof(c)))
		return -EFAULT;
	n.input_size = c.input_size;
	n.output_size = c.output_size;
	n.key = c.key;
	n.buffer = compat_ptr(c.buffer);
	n.buffer_size = c.buffer_size;
	return ncr_call(ns, NCR_CALL_KEY_EXPORT, &n, arg, sizeof(c));
}

static long ncr_compat_wrap(struct ncr_ns *ns, void __user *arg)
{
	struct compat_ncr_key_wrap c;
	struct ncr_key_wrap n = {};

	if (copy_from_user(&c, arg, sizeof(c)))
		return -EFAULT;
	n.input_size = c.input_size;
	n.output_size = c.output_size;
	n.wrapping_key = c.wrapping_key;
	n.source_key = c.source_key;
	n.buffer = compat_ptr(c.buffer);
	n.buffer_size = c.buffer_size;
	return ncr_call(ns, NCR_CALL_KEY_WRAP, &n, arg, sizeof(c));
}

static long ncr_compat_unwrap(struct ncr_ns *ns, void __user *arg)
{
	struct compat_ncr_key_unwrap c;
	struct ncr_key_unwrap n = {};

	if (copy_from_user(&c, arg, sizeof(c)))
		return -EFAULT;
	n.input_size = c.input_size;
	n.output_size = c.output_size;
	n.wrapping_key = c.wrapping_key;
	n.dest_key = c.dest_key;
	n.data = compat_ptr(c.data);
	n.data_size = c.data_size;
	return ncr_call(ns, NCR_CALL_KEY_UNWRAP, &n, arg, sizeof(c));
}

static long ncr_compat_master_key_set(struct ncr_ns *ns, void __user *arg)
{
	struct compat_ncr_master_key_set c;
	struct ncr_master_key_set n = {};

	if (copy_from_user(&c, arg, sizeof(c)))
		return -EFAULT;
	n.input_size = c.input_size;
	n.output_size = c.output_size;
	n.key = compat_ptr(c.key);
	n.key_size = c.key_size;
	return ncr_call(ns, NCR_CALL_MASTER_KEY_SET, &n, arg, sizeof(c));
}

static long ncr_compat_storage_wrap(struct ncr_ns *ns, void __user *arg)
{
	struct compat_ncr_key_storage_wrap c;
	struct ncr_key_storage_wrap n = {};

	if (copy_from_user(&c, arg, sizeof(c)))
		return -EFAULT;
	n.input_size = c.input_size;
	n.output_size = c.output_size;
	n.key = c.key;
	n.buffer = compat_ptr(c.buffer);
	n.buffer_size = c.buffer_size;
	return ncr_call(ns, NCR_CALL_STORAGE_WRAP, &n, arg, sizeof(c));
}

static long ncr_compat_storage_unwrap(struct ncr_ns *ns, void __user *arg)
{
	struct compat_ncr_key_storage_unwrap c;
	struct ncr_key_storage_unwrap n = {};

	if (copy_from_user(&c, arg, sizeof(c)))
		return -EFAULT;
	n.input_size = c.input_size;
	n.output_size = c.output_size;
	n.key = c.key;
	n.data = compat_ptr(c.data);
	n.data_size = c.data_size;
	return ncr_call(ns, NCR_CALL_STORAGE_UNWRAP, &n, arg, sizeof(c));
}

long ncr_ioctl_compat(struct ncr_ns *ns, unsigned int cmd, void __user *arg)
{
	switch (cmd) {
	case COMPAT_NCRIO_KEY_IMPORT:
		return ncr_compat_import(ns, arg);
	case COMPAT_NCRIO_KEY_EXPORT:
		return ncr_compat_export(ns, arg);
	case COMPAT_NCRIO_KEY_WRAP:
		return ncr_compat_wrap(ns, arg);
	case COMPAT_NCRIO_KEY_UNWRAP:
		return ncr_compat_unwrap(ns, arg);
	case COMPAT_NCRIO_MASTER_KEY_SET:
		return ncr_compat_master_key_set(ns, arg);
	case COMPAT_NCRIO_KEY_STORAGE_WRAP:
		return ncr_compat_storage_wrap(ns, arg);
	case COMPAT_NCRIO_KEY_STORAGE_UNWRAP:
		return ncr_compat_storage_unwrap(ns, arg);
	/* Same layout in both ABIs, hence the same number. */
	case NCRIO_KEY_INIT:
	case NCRIO_KEY_DEINIT:
	case NCRIO_KEY_GENERATE:
	case NCRIO_KEY_GENERATE_PAIR:
	case NCRIO_KEY_DERIVE:
	case NCRIO_KEY_GET_INFO:
	case NCRIO_SESSION_INIT:
	case NCRIO_SESSION_UPDATE:
	case NCRIO_SESSION_FINAL:
	case NCRIO_SESSION_ONCE:
		return ncr_ioctl_native(ns, cmd, arg);
	}
	return -ENOTTY;
}

#endif /* CONFIG_COMPAT */
