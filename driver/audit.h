/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Audit records of ncr.ko (audit.c): one AUDIT_KERNEL_OTHER record per key
 * life-cycle operation, master key set and session creation, when auditing
 * is on.  Hooked at the dispatch level, so every handler is covered.
 */
#ifndef NCR_AUDIT_H
#define NCR_AUDIT_H

#include <linux/ncr.h>
#include "ioctl.h"
#include "lib/nlattr.h"

struct ncr_key;
struct ncr_ns;

/*
 * After an attribute-carrying ioctl ran (ncr_call): records KEY_GENERATE,
 * KEY_GENERATE_PAIR, KEY_DERIVE, KEY_IMPORT, KEY_EXPORT, KEY_WRAP,
 * KEY_UNWRAP, STORAGE_WRAP, STORAGE_UNWRAP, MASTER_KEY_SET, SESSION_INIT
 * and SESSION_ONCE (others are ignored).  s is the native struct, tb the
 * parsed attributes (NULL if parsing failed), result the ioctl's.  No lock
 * may be held: the keys named in s are looked up and read-locked one at a
 * time.
 */
void ncr_audit_call(struct ncr_ns *ns, enum ncr_call_op op, const void *s,
		    struct nlattr *tb[], long result);

/*
 * KEY_DEINIT: key is the object just removed from ns (still referenced,
 * not locked), or NULL when handle was unknown (result -EINVAL).
 */
void ncr_audit_key_deinit(struct ncr_ns *ns, ncr_key_t handle,
			  struct ncr_key *key, long result);

#endif /* NCR_AUDIT_H */
