/* SPDX-License-Identifier: GPL-2.0 */
/* Ioctl dispatch (ioctl.c) and 32-bit callers (compat.c). */
#ifndef NCR_IOCTL_H
#define NCR_IOCTL_H

#include <linux/types.h>

struct ncr_ns;

long ncr_ioctl_native(struct ncr_ns *ns, unsigned int cmd, void __user *arg);
long ncr_ioctl_compat(struct ncr_ns *ns, unsigned int cmd, void __user *arg);

/* Which handler a (native or converted compat) struct goes to. */
enum ncr_call_op {
	NCR_CALL_KEY_GENERATE,
	NCR_CALL_KEY_GENERATE_PAIR,
	NCR_CALL_KEY_DERIVE,
	NCR_CALL_KEY_GET_INFO,
	NCR_CALL_KEY_EXPORT,
	NCR_CALL_KEY_IMPORT,
	NCR_CALL_KEY_WRAP,
	NCR_CALL_KEY_UNWRAP,
	NCR_CALL_MASTER_KEY_SET,
	NCR_CALL_STORAGE_WRAP,
	NCR_CALL_STORAGE_UNWRAP,
	NCR_CALL_SESSION_INIT,
	NCR_CALL_SESSION_UPDATE,
	NCR_CALL_SESSION_FINAL,
	NCR_CALL_SESSION_ONCE,
};

/*
 * Run one attribute-carrying ioctl: s is the native struct (already copied
 * and converted), arg the user struct, fixed its size in the caller's ABI
 * (attributes start at arg + fixed).
 */
long ncr_call(struct ncr_ns *ns, enum ncr_call_op op, const void *s,
	      void __user *arg, size_t fixed);

#endif /* NCR_IOCTL_H */
