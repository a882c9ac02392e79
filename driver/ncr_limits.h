/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-process and per-user caps on key and session objects and on the
 * kernel memory a user's keys pin (limits.c).
 */
#ifndef NCR_LIMITS_H
#define NCR_LIMITS_H

#include <linux/pid.h>
#include <linux/types.h>
#include <linux/uidgid.h>

enum ncr_limit_kind { NCR_LIMIT_KEY, NCR_LIMIT_SESSION, NCR_LIMIT_KINDS };

/*
 * Who an object was charged to: the creating thread group and user (the
 * euid in the initial user namespace, or the owner of the outermost user
 * namespace the creator runs in), and the bytes charged to that user.
 */
struct ncr_limit_owner {
	struct pid *tgid;		/* referenced */
	kuid_t user;
	size_t bytes;
};

/* Charge current; -EMFILE when a per-process or per-user cap is reached. */
int ncr_limit_charge(struct ncr_limit_owner *owner, enum ncr_limit_kind kind);
/* Releases the object and every byte charged with it. */
void ncr_limit_release(struct ncr_limit_owner *owner, enum ncr_limit_kind kind);
/*
 * Sets the bytes charged for a charged object to bytes: -EDQUOT (nothing
 * changed) when the owner's user would pass max_bytes_per_user; lowering
 * never fails.
 */
int ncr_limit_set_bytes(struct ncr_limit_owner *owner, size_t bytes);
void ncr_limits_exit(void);

#endif /* NCR_LIMITS_H */
