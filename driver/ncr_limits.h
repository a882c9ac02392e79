/* SPDX-License-Identifier: GPL-2.0 */
/* Per-process and per-user caps on key and session objects (limits.c). */
#ifndef NCR_LIMITS_H
#define NCR_LIMITS_H

#include <linux/pid.h>
#include <linux/uidgid.h>

enum ncr_limit_kind { NCR_LIMIT_KEY, NCR_LIMIT_SESSION, NCR_LIMIT_KINDS };

/* Who an object was charged to: the creating thread group and euid. */
struct ncr_limit_owner {
	struct pid *tgid;		/* referenced */
	kuid_t euid;
};

/* Charge current; -EMFILE when a per-process or per-user cap is reached. */
int ncr_limit_charge(struct ncr_limit_owner *owner, enum ncr_limit_kind kind);
void ncr_limit_release(struct ncr_limit_owner *owner, enum ncr_limit_kind kind);
int ncr_limits_init(void);
void ncr_limits_exit(void);

#endif /* NCR_LIMITS_H */
