/* SPDX-License-Identifier: GPL-2.0 */
/* The ioctls of /dev/crypto (ioctl.c), for native and 32-bit callers. */
#ifndef NCR_IOCTL_H
#define NCR_IOCTL_H

#include <linux/types.h>

struct ncr_ns;

/* One ioctl of a native (compat false) or 32-bit (compat true) caller. */
long ncr_ioctl(struct ncr_ns *ns, unsigned int cmd, void __user *arg,
	       bool compat);

#endif /* NCR_IOCTL_H */
