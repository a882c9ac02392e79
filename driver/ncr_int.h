/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ncr.ko internal contract.  The core (main.c ioctl.c attr.c key.c limits.c
 * algo.c session.c cipher.c hash.c compat.c) provides objects and helpers;
 * wrap.c, storage.c and pk*.c implement the hooks declared at the end.
 *
 * Conventions for every hook and helper below:
 *  - return 0 (or a non-negative ioctl result) or a negative errno;
 *  - structs are the NATIVE UAPI structs: compat.c has already converted a
 *    32-bit caller's struct (pointers via compat_ptr()), so hooks simply use
 *    copy_to_user()/copy_from_user() on the pointers they contain;
 *  - tb[] is indexed by NCR_ATTR_*, NULL when absent; every present attribute
 *    has passed ncr_attr_policy (lib/nlattr.c): U32 attributes are exactly 4
 *    bytes, string attributes contain a NUL; binary ones are unchecked.
 */
#ifndef NCR_INT_H
#define NCR_INT_H

#include <linux/types.h>
#include <linux/idr.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/pid.h>
#include <linux/uidgid.h>
#include <linux/ncr.h>
#include "lib/nlattr.h"

#define NCR_SECRET_MAX		512	/* bytes of secret key material */
/*
 * Upper limit of the attribute bytes following the fixed struct, on input
 * (EOVERFLOW above it) and on output (output space above it is unused).
 */
#define NCR_ATTR_MAX_BYTES	(64 * 1024)
/* Upper limit of NCRIO_KEY_IMPORT data (EOVERFLOW above it). */
#define NCR_IMPORT_MAX		(64 * 1024)
/* Session data is streamed through bounce buffers of at most this size. */
#define NCR_CHUNK_SIZE		(16 * 1024)

/* ---- namespaces (one per open() of /dev/crypto) ---- */

struct ncr_ns {
	struct mutex key_lock;		/* protects keys */
	struct idr keys;		/* ncr_key_t -> struct ncr_key * (1 ref) */
	struct mutex ses_lock;		/* protects sessions */
	struct idr sessions;		/* ncr_session_t -> struct ncr_session * */
	u32 id;				/* unique, for audit */
};

/* ---- resource limits (limits.c) ---- */

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

/* ---- algorithms (algo.c) ---- */

enum ncr_algo_class {
	NCR_ALG_CIPHER,		/* skcipher, secret key */
	NCR_ALG_HASH,		/* unkeyed ahash */
	NCR_ALG_MAC,		/* keyed ahash, secret key */
	NCR_ALG_PK,		/* "rsa", "dsa": public/private keys, pk sessions */
	NCR_ALG_DH,		/* "dh": keys and derivation only */
};

struct ncr_algo {
	const char *name;	/* kernel crypto API name, or rsa/dsa/dh */
	enum ncr_algo_class cls;
	u16 min_key, max_key;	/* secret key bytes (CIPHER/MAC) */
	u16 key_step;		/* 0: any size in between; else min + n * step */
	bool aes_key;		/* an AES key (16, 24 or 32 bytes): a KEK */
	bool one_request;	/* the whole input is one request (xts) */
};

/* The supported algorithm with this name, or NULL. */
const struct ncr_algo *ncr_algo_find(const char *name);
/* Does algo accept a secret key of len bytes? */
bool ncr_algo_key_len_ok(const struct ncr_algo *algo, size_t len);
/* Does a session of algo use NCR_ATTR_KEY (not: hashes, cipher_null)? */
bool ncr_algo_takes_key(const struct ncr_algo *algo);

/* ---- keys (key.c) ---- */

struct ncr_pk;				/* owned by the PK code (lib/pk_key.h) */

struct ncr_key {
	refcount_t ref;
	/* read while the material is used, write while it is replaced */
	struct rw_semaphore sem;
	/*
	 * Owner of the material's mutable cache (RSA blinding pair): taken
	 * only by mutex_trylock, with sem held for read.
	 */
	struct mutex cache_lock;
	ncr_key_type_t type;		/* NCR_KEY_TYPE_INVALID when empty */
	u32 flags;			/* NCR_KEY_FLAG_* */
	char algo[NCR_ALGO_NAME_MAX + 1];	/* as in NCR_ATTR_ALGORITHM */
	u8 key_id[MAX_KEY_ID_SIZE];
	u32 key_id_size;
	u8 secret[NCR_SECRET_MAX];	/* NCR_KEY_TYPE_SECRET */
	u32 secret_size;
	struct ncr_pk *pk;		/* NCR_KEY_TYPE_PUBLIC/PRIVATE */
	struct ncr_limit_owner owner;
	ncr_key_t handle;
	u32 ns_id;
};

/* Takes a reference; ERR_PTR(-EINVAL) when handle is unknown in ns. */
struct ncr_key *ncr_key_get(struct ncr_ns *ns, ncr_key_t handle);
/* Drops it; the last put zeroes the material (ncr_key_clear) and frees. */
void ncr_key_put(struct ncr_key *key);
/*
 * Zeroes type, flags, algo, key ID and material and calls ncr_pk_free();
 * sem must be held for write (or the key unreachable).
 */
void ncr_key_clear(struct ncr_key *key);

/*
 * For operations that fill a destination key (unwrap, storage unwrap,
 * generate pair, derive): gets the key, takes sem for write, clears it.
 * Fill the fields, then ret = ncr_key_dest_done(key, err): it checks the
 * final flags (ncr_key_flags_check), and on error the key is cleared again
 * (left empty); sem released, reference dropped; returns err or the
 * flags' error.  Readers
 * never see a half-filled key.  ERR_PTR(-EINVAL) for an unknown handle.
 */
struct ncr_key *ncr_key_dest_begin(struct ncr_ns *ns, ncr_key_t handle);
int ncr_key_dest_done(struct ncr_key *key, int err);
/*
 * The same for two distinct handles filled together (generate pair):
 * -EINVAL when ha == hb or either is unknown.
 */
int ncr_key_dest_begin_two(struct ncr_ns *ns, ncr_key_t ha, ncr_key_t hb,
			   struct ncr_key **a, struct ncr_key **b);
int ncr_key_dest_done_two(struct ncr_key *a, struct ncr_key *b, int err);

/*
 * Lock order (the only one in the driver):
 *   ns->key_lock and ns->ses_lock are leaves (held only to look up a
 *   handle and take a reference);
 *   ses->lock before any key->sem;
 *   two key->sem at once only through ncr_key_lock_two(), by address;
 *   key->cache_lock inside key->sem, and only ever by trylock;
 *   never three.  Unwrap, derive and key-as-data sessions hold one key's
 *   sem at a time, releasing it before taking the next.
 */
void ncr_key_lock_two(struct ncr_key *a, bool a_write, struct ncr_key *b,
		      bool b_write);
void ncr_key_unlock_two(struct ncr_key *a, bool a_write, struct ncr_key *b,
			bool b_write);

/*
 * Flags a caller may give a key: -EINVAL for unknown bits, -EPERM for
 * NCR_KEY_FLAG_WRAPPING without CAP_SYS_ADMIN.  Every operation that fills
 * a key checks them again when it completes (ncr_key_dest_done).
 */
int ncr_key_flags_check(u32 flags);

/*
 * Sets key->algo from NCR_ATTR_ALGORITHM (mandatory) and, when present,
 * key->flags from NCR_ATTR_KEY_FLAGS (ncr_key_flags_check()); the algorithm
 * must be known (ncr_algo_find) or -EINVAL.  Returns the algorithm.
 */
const struct ncr_algo *ncr_key_set_algo_flags(struct ncr_key *key,
					      struct nlattr *tb[]);
/* Only the flags part of ncr_key_set_algo_flags() (-EINVAL, -EPERM). */
int ncr_key_set_flags(struct ncr_key *key, struct nlattr *tb[]);

/*
 * Fills an empty key (sem held for write) with type and material, checked
 * as KEY_IMPORT checks them: a secret of a length algo accepts (any length
 * up to NCR_SECRET_MAX for a hash or "dh" algorithm, or when algo is NULL:
 * a secret key without an algorithm, from KEY_UNWRAP), or a public/private
 * key parsed by ncr_pk_import().  Used by import, unwrap and storage
 * unwrap.
 */
int ncr_key_fill_material(struct ncr_key *key, const struct ncr_algo *algo,
			  u32 type, const u8 *data, size_t len);

int ncr_key_init(struct ncr_ns *ns);
int ncr_key_deinit(struct ncr_ns *ns, ncr_key_t handle);
int ncr_key_generate(struct ncr_ns *ns, const struct ncr_key_generate *gen,
		     struct nlattr *tb[]);
int ncr_key_import(struct ncr_ns *ns, const struct ncr_key_import *imp,
		   struct nlattr *tb[]);
int ncr_key_export(struct ncr_ns *ns, const struct ncr_key_export *exp,
		   struct nlattr *tb[]);
int ncr_key_get_info(struct ncr_ns *ns, const struct ncr_key_get_info *info,
		     struct nlattr *tb[], struct ncr_nla_out *out);
void ncr_keys_destroy(struct ncr_ns *ns);

/* ---- attribute helpers (attr.c) ---- */

/* u32 attribute value or def when absent. */
u32 ncr_attr_u32(struct nlattr *tb[], int type, u32 def);
/* NUL-terminated string attribute, or NULL when absent. */
const char *ncr_attr_str(struct nlattr *tb[], int type);

/*
 * Copy len bytes of kernel data to a user buffer of buf_size bytes:
 * -ERANGE when len > buf_size (nothing written), -EFAULT, else len.
 * (KEY_EXPORT / KEY_WRAP / STORAGE_WRAP semantics; buf_size < 0 is
 * -EINVAL.)
 */
long ncr_copy_out(void __user *buf, int buf_size, const void *data,
		  size_t len);

/*
 * Copy a user buffer of len bytes (NCRIO_KEY_IMPORT, KEY_UNWRAP...) into a
 * new kernel buffer freed with kvfree_sensitive(p, len): ERR_PTR(-EOVERFLOW)
 * above NCR_IMPORT_MAX, -ENOMEM, -EFAULT.
 */
void *ncr_copy_in(const void __user *data, u32 len);

/* ---- session data (session.c) ---- */

/*
 * Session input: user memory (NCR_ATTR_*_INPUT_DATA, never copied whole:
 * read it in chunks) or kernel memory (NCR_ATTR_UPDATE_INPUT_KEY_AS_DATA,
 * the key's secret, sem held for read by the core).
 */
struct ncr_data_in {
	const u8 __user *user;
	const u8 *kernel;
	size_t size;
};

/* Copy [off, off + len) of in to dst; -EFAULT, -EINVAL if out of range. */
int ncr_data_in_read(const struct ncr_data_in *in, size_t off, void *dst,
		     size_t len);

/*
 * Between chunks of a long input: let others run, and stop (-EINTR) when
 * the caller is being killed rather than finishing gigabytes first.
 */
static inline int ncr_chunk_yield(void)
{
	cond_resched();
	return fatal_signal_pending(current) ? -EINTR : 0;
}

/* Session output buffer (NCR_ATTR_*_OUTPUT_BUFFER). */
struct ncr_data_out {
	u8 __user *buf;
	size_t size;			/* capacity */
	size_t written;			/* set by the op; reported to user */
};

/* Write src at off: -ERANGE past size, -EFAULT; updates written. */
int ncr_data_out_write(struct ncr_data_out *out, size_t off, const void *src,
		       size_t len);

/* ---- sessions (session.c) and their per-algorithm-class ops ---- */

struct ncr_session;

/*
 * One table per algorithm class: cipher.c (skcipher), hash.c (ahash,
 * keyed and unkeyed) and the PK code (via ncr_pk_session_ops()).  The core
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

/*
 * For ops->init of keyed symmetric sessions: takes ses->key's sem for read
 * and returns its secret; -EINVAL without a secret key, -EPERM for a
 * NCR_KEY_FLAG_WRAPPING key.  ncr_session_key_unlock() after setkey.
 */
int ncr_session_key_lock_secret(struct ncr_session *ses, const u8 **secret,
				unsigned int *len);
void ncr_session_key_unlock(struct ncr_session *ses);

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

/* ---- ioctl plumbing (ioctl.c, compat.c) ---- */

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

/*
 * Session data attributes have the caller's layout; these read them
 * (in_compat_syscall() selects the layout).  -EINVAL when malformed.
 */
int ncr_attr_input_data(const struct nlattr *nla, struct ncr_data_in *in);
int ncr_attr_output_buffer(const struct nlattr *nla,
			   struct ncr_data_out *out,
			   void __user **result_size_ptr);
/* Store a result size in the caller's size_t (u32 for 32-bit callers). */
int ncr_put_result_size(void __user *ptr, size_t size);

/* ======================= hooks implemented elsewhere ====================== */

/* wrap.c: NCRIO_KEY_WRAP / NCRIO_KEY_UNWRAP (RFC 3394 / 5649). */
long ncr_key_wrap(struct ncr_ns *ns, const struct ncr_key_wrap *wrap,
		  struct nlattr *tb[]);
long ncr_key_unwrap(struct ncr_ns *ns, const struct ncr_key_unwrap *unwrap,
		    struct nlattr *tb[]);

/* storage.c: master key and storage wrap/unwrap. */
long ncr_master_key_set(const struct ncr_master_key_set *mk,
			struct nlattr *tb[]);
long ncr_key_storage_wrap(struct ncr_ns *ns,
			  const struct ncr_key_storage_wrap *sw,
			  struct nlattr *tb[]);
long ncr_key_storage_unwrap(struct ncr_ns *ns,
			    const struct ncr_key_storage_unwrap *su,
			    struct nlattr *tb[]);
/* Zeroes the master key; called at module unload. */
void ncr_master_key_exit(void);

/* pk.c: public-key operations. */
long ncr_key_generate_pair(struct ncr_ns *ns,
			   const struct ncr_key_generate_pair *gen,
			   struct nlattr *tb[]);
long ncr_key_derive(struct ncr_ns *ns, const struct ncr_key_derive *der,
		    struct nlattr *tb[]);
/*
 * KEY_IMPORT of a PUBLIC/PRIVATE key: key is locked for write, cleared,
 * key->type/algo/flags set by the core; parse data (ASN.1; DH public: raw
 * number) into key->pk.  On error the core clears the key.
 */
int ncr_pk_import(struct ncr_key *key, u32 type, const u8 *data, size_t len);
/*
 * KEY_EXPORT (and storage): key locked for read; *len is the room in buf
 * on entry, the bytes written on success; -ERANGE when too small.
 */
int ncr_pk_export(struct ncr_key *key, u8 *buf, size_t *len);
/* Frees (zeroing) what ncr_pk_import/generate hung off key->pk; NULL ok. */
void ncr_pk_free(struct ncr_pk *pk);
/*
 * Session ops for a public-key algorithm ("rsa", "dsa"), or NULL when not
 * (yet) supported: SESSION_INIT then fails with -EOPNOTSUPP.
 */
const struct ncr_session_ops *ncr_pk_session_ops(const char *algo);
/* Frees the hash transforms the PK sessions share (module exit). */
void ncr_pk_session_exit(void);

#endif /* NCR_INT_H */
