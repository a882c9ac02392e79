/* SPDX-License-Identifier: GPL-2.0 */
/* Session objects (session.c) and the ops of each algorithm class. */
#ifndef NCR_SESSION_H
#define NCR_SESSION_H

#include <linux/mutex.h>
#include <linux/ncr.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include "ncr_limits.h"
#include "session_io.h"

struct ncr_algo;
struct ncr_key;
struct ncr_ns;

/*
 * One table per algorithm class: cipher.c (skcipher), hash.c (ahash,
 * keyed and unkeyed) and pk_session.c, named in algo.c's table.  The core
 * serialises calls on one session, validates op, allocates the session,
 * takes a reference on NCR_ATTR_KEY (ses->key, NULL when absent) and
 * writes the output size to result_size_ptr after update/final.
 */
struct ncr_session_ops {
	/* Set up ses->priv from tb (NCR_ATTR_IV, RSA_*, ...). */
	int (*init)(struct ncr_session *ses, struct nlattr *tb[]);
	/*
	 * Process in (in->kernel != NULL only for KEY_AS_DATA, which the core
	 * allows only when init set ses->key_as_data_ok).  out is NULL when
	 * the caller gave no output buffer.  0 or -errno.
	 */
	int (*update)(struct ncr_session *ses, const struct ncr_data_in *in,
		      struct ncr_data_out *out);
	/*
	 * Finish: in = NCR_ATTR_FINAL_INPUT_DATA (the signature to verify, or
	 * for SIGN the last data to sign), out = NCR_ATTR_FINAL_OUTPUT_BUFFER;
	 * either may be NULL.
	 * Returns the ioctl result (VERIFY: 1 valid, 0 invalid) or -errno.
	 */
	int (*final)(struct ncr_session *ses, const struct ncr_data_in *in,
		     struct ncr_data_out *out);
	/*
	 * Free ses->priv (zeroing secrets).  Called exactly once per session,
	 * also when init failed (then priv may be NULL or partly set up).
	 */
	void (*free)(struct ncr_session *ses);
};

struct ncr_session {
	struct mutex lock;		/* serialises update/final */
	refcount_t ref;
	ncr_crypto_op_t op;
	const struct ncr_algo *algo;
	const struct ncr_session_ops *ops;
	struct ncr_key *key;		/* NCR_ATTR_KEY, referenced, or NULL */
	void *priv;			/* the ops' state */
	/*
	 * Set by ops->init when the input only reaches a hash computed in
	 * the kernel (hash, MAC, kernel-hashed signature): then, and only
	 * then, UPDATE_INPUT_KEY_AS_DATA is accepted.
	 */
	bool key_as_data_ok;
	bool done;			/* FINAL ran, ops->free called */
	struct ncr_limit_owner owner;
	ncr_session_t handle;
};

/* The ops of the symmetric classes; the PK ones are in pk.h. */
extern const struct ncr_session_ops ncr_cipher_ops;
extern const struct ncr_session_ops ncr_hash_ops;

int ncr_session_init(struct ncr_ns *ns, const struct ncr_session_init *si,
		     struct nlattr *tb[]);
int ncr_session_update(struct ncr_ns *ns, const struct ncr_session_update *su,
		       struct nlattr *tb[]);
int ncr_session_final(struct ncr_ns *ns, const struct ncr_session_final *sf,
		      struct nlattr *tb[]);
int ncr_session_once(struct ncr_ns *ns, const struct ncr_session_once *so,
		     struct nlattr *tb[]);
void ncr_sessions_destroy(struct ncr_ns *ns);

#endif /* NCR_SESSION_H */
