/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interface of the "ncr" OpenSSL provider: provider context,
 * /dev/crypto access, error raising and the dispatch tables each
 * algorithm file exports.
 */
#ifndef NCR_PROV_H
#define NCR_PROV_H

#include <stddef.h>
#include <stdint.h>
#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/types.h>
#include <linux/ncr.h>

struct ncr_provctx {
	const OSSL_CORE_HANDLE *handle;
	OSSL_LIB_CTX *libctx;	/* child library context: core BIOs */
	/*
	 * Private library context with only the default provider: public-key
	 * halves (verify, encrypt, encodings, printing) and message digests,
	 * which need no secret, run there in software.
	 */
	OSSL_LIB_CTX *swctx;
	OSSL_PROVIDER *swdefault;
};

/* ---- pkey.c: the key object shared by keymgmt, signature, ... ---- */
enum ncr_pk_type { NCR_PKT_RSA = 1, NCR_PKT_DSA, NCR_PKT_DH };

struct ncr_pkey {
	struct ncr_provctx *prov;
	int type;			/* enum ncr_pk_type */
	int refs;			/* atomic */
	struct ncr_khandle *priv;	/* kernel private key, or NULL */
	uint32_t kflags;		/* NCR_KEY_FLAG_* of priv */
	EVP_PKEY *pub;			/* public half in swctx, or NULL */
};

struct ncr_pkey *ncr_pkey_new(struct ncr_provctx *prov, int type);
struct ncr_pkey *ncr_pkey_ref(struct ncr_pkey *k);
void ncr_pkey_free(struct ncr_pkey *k);
const char *ncr_pk_ossl_name(int type);		/* "RSA", "DSA", "DH" */
const char *ncr_pk_kernel_name(int type);	/* "rsa", "dsa", "dh" */
/*
 * Adopt the kernel public key @pubh (a generated pair's public half):
 * exports it and sets k->pub.  DH public keys export as the bare number,
 * so @dh_params (p, g[, q] in swctx) supplies the domain.  Raises errors.
 */
int ncr_pkey_set_pub_from_kernel(struct ncr_pkey *k, int pubh,
				 const EVP_PKEY *dh_params);
/* Storage-wrap k->priv: malloc'ed blob; raises errors. */
int ncr_pkey_wrap(const struct ncr_pkey *k, unsigned char **blob,
		  size_t *len);
/* Storage-unwrap @blob into k->priv (checks type and algorithm). */
int ncr_pkey_unwrap(struct ncr_pkey *k, const unsigned char *blob,
		    size_t len);
/* SPKI DER of k->pub (malloc'ed, OPENSSL_free). */
int ncr_pkey_spki(const struct ncr_pkey *k, unsigned char **der, size_t *len);
/* Public half from SPKI DER; checks the algorithm matches k->type. */
int ncr_pkey_set_pub_spki(struct ncr_pkey *k, const unsigned char *der,
			  size_t len);
/* Export the public half (keymgmt.c) for objects decoded by reference. */
int ncr_km_export_public(struct ncr_pkey *k, OSSL_CALLBACK *cb, void *cbarg);
/* Kernel hash name ("sha256") for an OpenSSL digest name, or NULL. */
const char *ncr_md_kernel_name(struct ncr_provctx *prov, const char *mdname,
			       size_t *mdsize);

/* ---- ncr_err.c: reason codes and raising ---- */
enum ncr_reason {
	NCR_R_DEV_UNAVAILABLE = 1,	/* open(/dev/crypto) failed */
	NCR_R_DEV_NOT_PERMITTED,	/* EACCES/EPERM on the device */
	NCR_R_NO_MASTER_KEY,		/* ENOKEY from storage (un)wrap */
	NCR_R_BLOB_REJECTED,		/* tampered or other master key */
	NCR_R_KEY_NOT_EXPORTABLE,
	NCR_R_NOT_SUPPORTED,		/* parameter/algorithm not supported */
	NCR_R_KERNEL_OP_FAILED,		/* any other ioctl failure */
	NCR_R_INVALID_ARGUMENT,		/* bad input from the caller */
	NCR_R_BAD_KEY_FILE,		/* malformed key file / PEM */
	NCR_R_MALLOC_FAILURE,
	NCR_R_BAD_DECRYPT,		/* wrong padding on decrypt */
	NCR_R_NO_KEY,			/* operation without a usable key */
};

extern const OSSL_ITEM ncr_reason_strings[];
void ncr_err_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in);
void ncr_raise_at(const char *file, int line, const char *func, int reason,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define ncr_raise(reason, ...) \
	ncr_raise_at(__FILE__, __LINE__, __func__, (reason), __VA_ARGS__)
/*
 * Raise an error for a failed ioctl: @what names the operation, @err is the
 * positive errno; the reason is chosen from the errno and @ctx_reason, which
 * says what an EBADMSG/EINVAL means for this operation (0: generic).
 */
void ncr_raise_errno_at(const char *file, int line, const char *func,
			const char *what, int err);
#define ncr_raise_errno(what, err) \
	ncr_raise_errno_at(__FILE__, __LINE__, __func__, (what), (err))

/* ---- ncr_dev.c: the process-wide /dev/crypto descriptor ---- */
/* ioctl on the shared descriptor; returns the result or -errno. */
long ncr_dev_ioctl(unsigned long req, void *arg);
/* ENOENT etc. from opening the device, or 0 if open. */
int ncr_dev_status(void);

/* ---- ncr_ioctl.c: attribute packing and typed wrappers ---- */
/* Every wrapper returns >= 0 on success or -errno (error not raised). */
struct ncr_attrs {
	unsigned char *buf;	/* fixed struct followed by nlattrs */
	size_t len, cap;
	int oom;
};

int ncr_attrs_begin(struct ncr_attrs *a, const void *fixed, size_t fixed_len);
void ncr_attrs_u32(struct ncr_attrs *a, uint16_t type, uint32_t v);
void ncr_attrs_str(struct ncr_attrs *a, uint16_t type, const char *s);
void ncr_attrs_bin(struct ncr_attrs *a, uint16_t type, const void *p,
		   size_t n);
/* Finish: patches input_size in the fixed struct; -ENOMEM on failure. */
int ncr_attrs_end(struct ncr_attrs *a);
void ncr_attrs_free(struct ncr_attrs *a);

int ncr_key_new(void);			/* handle or -errno */
void ncr_key_free(int key);
int ncr_key_import(int key, const char *algo, uint32_t type, uint32_t flags,
		   const void *data, size_t len);
/* Returns exported length; -ERANGE-like errors as -errno. */
long ncr_key_export(int key, void *buf, size_t len);
struct ncr_key_info {
	uint32_t flags, type;
	char algo[64];			/* NUL-terminated, "" if absent */
	unsigned char id[MAX_KEY_ID_SIZE];
	size_t id_len;
};
/* NCRIO_KEY_GET_INFO: flags, type, algorithm and key ID. */
int ncr_key_info(int key, struct ncr_key_info *info);
long ncr_key_storage_wrap(int key, void *buf, size_t len);
int ncr_key_storage_unwrap(int key, const void *blob, size_t len);

/* Session parameters for ncr_session_new / ncr_session_once. */
struct ncr_sess_params {
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

int ncr_session_new(const struct ncr_sess_params *p);	/* id or -errno */

/* Data of one update/final/once call; unused members zero. */
struct ncr_io {
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

long ncr_session_update(int ses, struct ncr_io *io);
long ncr_session_final(int ses, struct ncr_io *io);
void ncr_session_abort(int ses);
long ncr_session_once(const struct ncr_sess_params *p, struct ncr_io *io);
int ncr_key_generate_pair(int priv, int pub, const char *algo,
			  uint32_t flags, uint32_t bits,
			  const void *e, size_t e_len,
			  uint32_t dsa_p_bits, uint32_t dsa_q_bits,
			  const void *dh_p, size_t dh_p_len,
			  const void *dh_g, size_t dh_g_len);
int ncr_key_derive_dh(int priv, int newkey, uint32_t flags,
		      const void *peer, size_t peer_len);

/* Shared kernel key handle, reference counted across duplicated contexts. */
struct ncr_khandle {
	int key;
	int refs;	/* atomic */
};
struct ncr_khandle *ncr_khandle_new(int key);
struct ncr_khandle *ncr_khandle_ref(struct ncr_khandle *h);
void ncr_khandle_unref(struct ncr_khandle *h);

/* ---- algorithm tables ---- */
extern const OSSL_ALGORITHM ncr_ciphers[];
extern const OSSL_ALGORITHM ncr_keymgmts[];
extern const OSSL_ALGORITHM ncr_signatures[];
extern const OSSL_ALGORITHM ncr_asym_ciphers[];
extern const OSSL_ALGORITHM ncr_encoders[];
extern const OSSL_ALGORITHM ncr_decoders[];
extern const OSSL_ALGORITHM ncr_keyexchs[];

#endif /* NCR_PROV_H */
