/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interface of the "ncr" OpenSSL provider: provider context,
 * /dev/crypto access, error raising and the dispatch tables each
 * algorithm file exports.  The provider's symbols carry the ncrp_ prefix
 * (the driver's are ncr_, libncr's ncrlib_).
 */
#ifndef NCR_PROV_H
#define NCR_PROV_H

#include <stddef.h>
#include <stdint.h>
#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/types.h>
#include <linux/ncr.h>
#include "ncrlib.h"

struct ncrp_provctx {
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
enum ncrp_pk_type {
	NCR_PKT_RSA = 1, NCR_PKT_DSA, NCR_PKT_DH,
	NCR_PKT_EC,		/* NIST P-256 / P-384 */
	NCR_PKT_X25519,
	NCR_PKT_END__
};

struct ncrp_pkey {
	struct ncrp_provctx *prov;
	int type;			/* enum ncrp_pk_type */
	int refs;			/* atomic */
	struct ncrp_khandle *priv;	/* kernel private key, or NULL */
	uint32_t kflags;		/* NCR_KEY_FLAG_* of priv */
	EVP_PKEY *pub;			/* public half in swctx, or NULL */
	/*
	 * signature.c's shadow context on pub, verify-initialised once and
	 * duplicated for each signature (set atomically, freed with k).
	 */
	EVP_PKEY_CTX *sig_template;
};

struct ncrp_pkey *ncrp_pkey_new(struct ncrp_provctx *prov, int type);
struct ncrp_pkey *ncrp_pkey_ref(struct ncrp_pkey *k);
void ncrp_pkey_free(struct ncrp_pkey *k);
const char *ncrp_pk_ossl_name(int type);	/* "RSA", ..., "EC", "X25519" */
const char *ncrp_pk_kernel_name(int type);	/* "rsa", ..., "ecdsa" */
/* Whether keys of @type have domain parameters (not RSA, X25519). */
int ncrp_pk_has_domain(int type);
/*
 * Adopt the kernel public key @pubh (a generated pair's public half):
 * exports it and sets k->pub.  DH public keys export as the bare number,
 * so @dh_params (p, g[, q] in swctx) supplies the domain.  Raises errors.
 */
int ncrp_pkey_set_pub_from_kernel(struct ncrp_pkey *k, int pubh,
				  const EVP_PKEY *dh_params);
/* Storage-wrap k->priv: malloc'ed blob; raises errors. */
int ncrp_pkey_wrap(const struct ncrp_pkey *k, unsigned char **blob,
		   size_t *len);
/* Storage-unwrap @blob into k->priv (checks type and algorithm). */
int ncrp_pkey_unwrap(struct ncrp_pkey *k, const unsigned char *blob,
		     size_t len);
/* SPKI DER of k->pub (malloc'ed, OPENSSL_free). */
int ncrp_pkey_spki(const struct ncrp_pkey *k, unsigned char **der, size_t *len);
/* Public half from SPKI DER; checks the algorithm matches k->type. */
int ncrp_pkey_set_pub_spki(struct ncrp_pkey *k, const unsigned char *der,
			   size_t len);
/* Export the public half (keymgmt.c) for objects decoded by reference. */
int ncrp_km_export_public(struct ncrp_pkey *k, OSSL_CALLBACK *cb, void *cbarg);
/*
 * The peer's public value as the kernel's NCR_ATTR_DH_PUBLIC wants it
 * (DH: the number; EC: the uncompressed point; X25519: u), malloc'ed;
 * raises errors.
 */
unsigned char *ncrp_pkey_peer_value(const struct ncrp_pkey *peer,
				    size_t *len);
/*
 * kex_kernel.c: derives with the kernel private key @priv, derivation
 * @kdf and the peer value into an exportable secret key and exports it
 * into @buf: the secret's length, or -1 (error raised).
 */
long ncrp_kernel_derive(const struct ncrp_pkey *priv, const char *kdf,
			const unsigned char *peer, size_t peer_len,
			unsigned char *buf, size_t cap);
/* Kernel hash name ("sha256") for an OpenSSL digest name, or NULL. */
const char *ncrp_md_kernel_name(struct ncrp_provctx *prov, const char *mdname,
				size_t *mdsize);

/* ---- ncr_err.c: reason codes and raising ---- */
enum ncrp_reason {
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
	NCR_R_UNKNOWN_CURVE,		/* EC curve not supported */
	NCR_R_PEER_KEY_MISMATCH,	/* peer key of another type/curve */
};

extern const OSSL_ITEM ncrp_reason_strings[];
void ncrp_err_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in);
void ncrp_raise_at(const char *file, int line, const char *func, int reason,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define ncrp_raise(reason, ...) \
	ncrp_raise_at(__FILE__, __LINE__, __func__, (reason), __VA_ARGS__)
/*
 * Raise an error for a failed ioctl: @what names the operation, @err is the
 * positive errno; the reason is chosen from the errno and @ctx_reason, which
 * says what an EBADMSG/EINVAL means for this operation (0: generic).
 */
void ncrp_raise_errno_at(const char *file, int line, const char *func,
			 const char *what, int err);
#define ncrp_raise_errno(what, err) \
	ncrp_raise_errno_at(__FILE__, __LINE__, __func__, (what), (err))

/* ---- khandle.c ---- */
/* Shared kernel key handle, reference counted across duplicated contexts. */
struct ncrp_khandle {
	int key;
	int refs;	/* atomic */
};
struct ncrp_khandle *ncrp_khandle_new(int key);
struct ncrp_khandle *ncrp_khandle_ref(struct ncrp_khandle *h);
void ncrp_khandle_unref(struct ncrp_khandle *h);

/* ---- capabilities.c: the TLS groups of ncr's EC and X25519 ---- */
OSSL_FUNC_provider_get_capabilities_fn ncrp_get_capabilities;

/* ---- algorithm tables ---- */
extern const OSSL_ALGORITHM ncrp_ciphers[];
extern const OSSL_ALGORITHM ncrp_keymgmts[];
extern const OSSL_ALGORITHM ncrp_signatures[];
extern const OSSL_ALGORITHM ncrp_asym_ciphers[];
extern const OSSL_ALGORITHM ncrp_encoders[];
extern const OSSL_ALGORITHM ncrp_decoders[];
extern const OSSL_ALGORITHM ncrp_keyexchs[];	/* kex_kernel.c */
extern const OSSL_DISPATCH ncrp_dh_kex_functions[];
extern const OSSL_DISPATCH ncrp_ecdh_kex_functions[];
extern const OSSL_DISPATCH ncrp_x25519_kex_functions[];

#endif /* NCR_PROV_H */
