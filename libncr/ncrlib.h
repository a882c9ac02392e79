/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libncr: the user-space client of /dev/crypto.  An ioctl argument is a
 * fixed ncr_* struct followed by netlink-style attributes (CRYPTO(4)
 * "OPERATION ATTRIBUTES"); ncrlib_attrs builds one in a growing buffer on
 * top of driver/lib/nlattr.c, and the typed calls below build and run one
 * ioctl each.  Every call takes the descriptor to use and returns >= 0 or
 * -errno; a negative fd is returned as the error, so the result of
 * ncrlib_dev_fd() can be passed unchecked.  Nothing here prints or raises:
 * callers know what a failure means.
 */
#ifndef NCRLIB_H
#define NCRLIB_H

#include <stddef.h>
#include <stdint.h>
#include <linux/ncr.h>

/* ---- attrs.c: the argument block writer (pure, no ioctl) ---- */
#define NCRLIB_ATTRS_INLINE 256

/*
 * Small blocks stay in the inline buffer (no allocation on the hot
 * paths); larger ones move to the heap.  Not to be copied: buf may point
 * into the struct itself.
 */
struct ncrlib_attrs {
	unsigned char *buf;	/* fixed struct, then the attributes */
	size_t len, cap;
	int err;		/* first failure: -ENOMEM or -EINVAL */
	_Alignas(8) unsigned char inline_buf[NCRLIB_ATTRS_INLINE];
};

/* Starts a block with a copy of @fixed; -ENOMEM on failure. */
int ncrlib_attrs_begin(struct ncrlib_attrs *a, const void *fixed,
		       size_t fixed_len);
/* Appends one attribute; failures are kept in a->err for _end(). */
void ncrlib_attrs_put(struct ncrlib_attrs *a, uint16_t type, const void *p,
		      size_t n);
void ncrlib_attrs_u32(struct ncrlib_attrs *a, uint16_t type, uint32_t v);
void ncrlib_attrs_str(struct ncrlib_attrs *a, uint16_t type, const char *s);
/* Makes a->cap at least a->len + @more (zeroed room for kernel output). */
void ncrlib_attrs_reserve(struct ncrlib_attrs *a, size_t more);
/* Patches input_size (the first member of every such struct); a->err. */
int ncrlib_attrs_end(struct ncrlib_attrs *a);
/* Wipes (it may carry key material) and frees the buffer. */
void ncrlib_attrs_free(struct ncrlib_attrs *a);

/* ---- dev.c: the process-wide descriptor and the ioctl itself ---- */
/*
 * The shared /dev/crypto (or $NCR_DEVICE) descriptor, opened on first use
 * and retried while the open fails: fd or -errno.
 */
int ncrlib_dev_fd(void);
/* Why the shared descriptor cannot be opened (positive errno), or 0. */
int ncrlib_dev_status(void);
/* ioctl(@fd, @req, @arg) retried on EINTR: result or -errno. */
long ncrlib_ioctl(int fd, unsigned long req, void *arg);
/* ncrlib_attrs_end(), then the ioctl on a->buf. */
long ncrlib_attrs_ioctl(int fd, unsigned long req, struct ncrlib_attrs *a);
/* The same, then ncrlib_attrs_free(): for calls without outputs. */
long ncrlib_attrs_call(int fd, unsigned long req, struct ncrlib_attrs *a);

/* ---- key.c: key objects ---- */
int ncrlib_key_new(int fd);		/* handle or -errno */
void ncrlib_key_free(int fd, int key);	/* ignores key < 0 */
int ncrlib_key_import(int fd, int key, const char *algo, uint32_t type,
		      uint32_t flags, const void *data, size_t len);
/* Secret key of @bits bits. */
int ncrlib_key_generate(int fd, int key, const char *algo, uint32_t bits,
			uint32_t flags);

/* NCRIO_KEY_GENERATE_PAIR; members left 0/NULL are not sent. */
struct ncrlib_pair_params {
	int priv, pub;			/* handles from ncrlib_key_new */
	const char *algo;		/* "rsa", "dsa", "dh", "ecdsa" */
	uint32_t flags;			/* NCR_KEY_FLAG_* of the pair */
	uint32_t rsa_bits;
	const void *rsa_e;
	size_t rsa_e_len;
	uint32_t dsa_p_bits, dsa_q_bits;
	const void *dh_p, *dh_g;
	size_t dh_p_len, dh_g_len;
	const char *ecc_curve;		/* "ecdsa": NCR_ECC_CURVE_* */
};
int ncrlib_key_generate_pair(int fd, const struct ncrlib_pair_params *p);
/*
 * NCRIO_KEY_DERIVE of @priv with derivation @kdf (NCR_DERIVE_DH,
 * NCR_DERIVE_ECDH) and the peer's public value @peer into secret key
 * @newkey.
 */
int ncrlib_key_derive(int fd, const char *kdf, int priv, int newkey,
		      uint32_t flags, const void *peer, size_t peer_len);
int ncrlib_key_derive_dh(int fd, int priv, int newkey, uint32_t flags,
			 const void *peer, size_t peer_len);
/* Exported length or -errno. */
long ncrlib_key_export(int fd, int key, void *buf, size_t len);
long ncrlib_key_storage_wrap(int fd, int key, void *buf, size_t len);
int ncrlib_key_storage_unwrap(int fd, int key, const void *blob, size_t len);
/*
 * Sets the storage master key from the caller's keyring key @spec
 * ("logon:DESC" or "encrypted:DESC"): 0 or -errno.
 */
int ncrlib_master_key_from_keyring(int fd, const char *spec);
/*
 * NCRIO_MASTER_KEY_SET of the @len bytes at @key with
 * NCR_ATTR_MASTER_KEY_ROTATE = @how (NCR_MASTER_KEY_ROTATE_BEGIN: @key
 * becomes current, the old key still unwraps; _END: @key must be current,
 * the old key is forgotten): 0 or -errno (ENOKEY: no master key set;
 * EBUSY: another key is current, or BEGIN while a rotation to another key
 * is in progress; EPERM; EINVAL).
 */
int ncrlib_master_key_rotate(int fd, const uint8_t *key, size_t len,
			     uint32_t how);
/* Wraps @key under @kek with @walg into @buf: length or -errno. */
long ncrlib_key_wrap(int fd, int kek, int key, const char *walg, void *buf,
		     size_t len);

struct ncrlib_key_info {
	uint32_t flags, type;
	char algo[64];			/* NUL-terminated, "" if absent */
	unsigned char id[MAX_KEY_ID_SIZE];
	size_t id_len;
};
/* NCRIO_KEY_GET_INFO: flags, type, algorithm and key ID. */
int ncrlib_key_info(int fd, int key, struct ncrlib_key_info *info);

/* ---- session.c: sessions ---- */
/* Session parameters for ncrlib_session_new / ncrlib_session_once. */
struct ncrlib_sess_params {
	uint32_t op;			/* NCR_OP_* */
	const char *algo;
	int key;			/* -1: none */
	const void *iv;
	size_t iv_len;
	int rsa_method;			/* -1: not set */
	const char *oaep_hash;
	const char *sig_hash;
	int64_t pss_salt;		/* -1: not set */
	int input_is_digest;
};
/* The "nothing set" parameters: key, rsa_method, pss_salt -1. */
void ncrlib_sess_params_init(struct ncrlib_sess_params *p, uint32_t op,
			     const char *algo);

/* Data of one update/final/once call; unused members zero. */
struct ncrlib_io {
	const void *in;		/* NCR_ATTR_UPDATE_INPUT_DATA */
	size_t in_len;
	void *out;		/* NCR_ATTR_UPDATE_OUTPUT_BUFFER */
	size_t out_cap;
	size_t out_len;		/* result */
	const void *fin_in;	/* NCR_ATTR_FINAL_INPUT_DATA */
	size_t fin_in_len;
	void *fin_out;		/* NCR_ATTR_FINAL_OUTPUT_BUFFER */
	size_t fin_out_cap;
	size_t fin_out_len;	/* result */
	unsigned has_in : 1;	/* pass in/in_len even if in_len == 0 */
};

int ncrlib_session_new(int fd, const struct ncrlib_sess_params *p);
long ncrlib_session_update(int fd, int ses, struct ncrlib_io *io);
long ncrlib_session_final(int fd, int ses, struct ncrlib_io *io);
void ncrlib_session_abort(int fd, int ses);	/* ignores ses < 0 */
long ncrlib_session_once(int fd, const struct ncrlib_sess_params *p,
			 struct ncrlib_io *io);

#endif /* NCRLIB_H */
