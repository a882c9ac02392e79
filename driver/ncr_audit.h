/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Audit records of ncr.ko (audit.c): one AUDIT_KERNEL_OTHER record per key
 * life-cycle operation and per session creation, when auditing is on.
 */
#ifndef NCR_AUDIT_H
#define NCR_AUDIT_H

#include "ncr_int.h"

enum ncr_audit_op {
	NCR_AUDIT_KEY_GENERATE,
	NCR_AUDIT_KEY_GENERATE_PAIR,
	NCR_AUDIT_KEY_IMPORT,
	NCR_AUDIT_KEY_EXPORT,
	NCR_AUDIT_KEY_WRAP,
	NCR_AUDIT_KEY_UNWRAP,
	NCR_AUDIT_KEY_STORAGE_WRAP,
	NCR_AUDIT_KEY_STORAGE_UNWRAP,
	NCR_AUDIT_KEY_DERIVE,
	NCR_AUDIT_KEY_DEINIT,
	NCR_AUDIT_OP_COUNT
};

/*
 * Record a key operation: op=<name> ns=<ns_id> key=<handle> key_id=<hex>
 * algo=<name> [peer=<handle> peer_key_id=<hex>] res=<1|0> [errno=<n>],
 * then the task (pid, uid, auid, ses, comm, exe...).
 * key: the object operated on (destination of generate/import/unwrap/
 * derive, source of export/wrap), or NULL when the handle was invalid;
 * its sem must be held (read or write) by the caller, who is also the one
 * that knows handle (key may be gone for DEINIT: pass NULL then).
 * peer: the other key of the operation (wrapping key, public key of a
 * generated pair, derivation input), same locking rule, or NULL.
 * result: the operation's return value (>= 0 success, -errno failure).
 */
void ncr_audit_key(enum ncr_audit_op op, u32 ns_id, ncr_key_t handle,
		   const struct ncr_key *key, ncr_key_t peer_handle,
		   const struct ncr_key *peer, long result);

/*
 * Record SESSION_INIT/ONCE: op=session_init ns= crypto_op=<op> algo=<name>
 * key=<handle> key_id=<hex> res= [errno=].  key: the session's key or
 * NULL; NOT locked by the caller (this takes key->sem for read).
 */
void ncr_audit_session_init(u32 ns_id, u32 crypto_op, const char *algo,
			    ncr_key_t handle, struct ncr_key *key,
			    long result);

#endif /* NCR_AUDIT_H */
