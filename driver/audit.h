/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Audit records of ncr.ko (audit.c): one AUDIT_KERNEL_OTHER record per key
 * life-cycle operation, master key set and session creation, when auditing
 * is on.  ioctl.c's command table names each command's record, so every
 * handler is covered.
 */
#ifndef NCR_AUDIT_H
#define NCR_AUDIT_H

#include <linux/ncr.h>
#include "lib/nlattr.h"

struct ncr_ns;

/* What the record of one command shows. */
struct ncr_audit_kind {
	const char *op;			/* ncr_op=; NULL: no record */
	enum {
		NCR_AUDIT_KEYS,		/* handle, key_id, algo [, peer_...] */
		NCR_AUDIT_SESSION,	/* crypto_op, algo, NCR_ATTR_KEY's key */
		NCR_AUDIT_RESULT,	/* the result only */
	} form;
	/*
	 * KEYS: offsets in the native struct of the key's handle and of the
	 * peer's (-1: no peer); SESSION: main is the offset of the crypto op.
	 */
	s8 main, peer;
	bool before;			/* KEYS: read the keys before the call */
};

/* What a record says about a key, copied under the key's lock. */
struct ncr_audit_key {
	ncr_key_t handle;
	bool found;
	u32 id_size;
	u8 id[MAX_KEY_ID_SIZE];
	char algo[NCR_ALGO_NAME_MAX + 1];
};

struct ncr_audit_snap {
	struct ncr_audit_key key, peer;
};

/*
 * Around each handler call, with no lock held (the keys named in s, the
 * native struct, are looked up and read-locked one at a time):
 * ncr_audit_prepare() before it (it reads the keys of a "before" kind,
 * those that the call removes), ncr_audit_call() after it, with the parsed
 * attributes (NULL for a command without) and the call's result.
 */
void ncr_audit_prepare(struct ncr_ns *ns, const struct ncr_audit_kind *kind,
		       const void *s, struct ncr_audit_snap *snap);
void ncr_audit_call(struct ncr_ns *ns, const struct ncr_audit_kind *kind,
		    const void *s, struct nlattr *tb[], long result,
		    struct ncr_audit_snap *snap);

#endif /* NCR_AUDIT_H */
