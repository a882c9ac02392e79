/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KEYMGMT: keymgmt.c holds the functions common to RSA, DSA, DH, EC and
 * X25519 and the dispatch tables; keymgmt_gen.c generates pairs in the kernel from
 * the parameters the per-type files collect.
 */
#ifndef NCR_KEYMGMT_H
#define NCR_KEYMGMT_H

#include <openssl/bn.h>
#include "ncr_prov.h"

struct ncrp_km_gen {
	struct ncrp_provctx *prov;
	int type;
	int selection;
	unsigned int bits;		/* RSA modulus / DSA p bits */
	unsigned int qbits;		/* DSA q bits */
	BIGNUM *e;			/* RSA public exponent */
	EVP_PKEY *dh_params;		/* DH domain (swctx) */
	const struct ncrp_ec_curve *curve;	/* EC, X25519: NULL if unset */
};

/* keymgmt_gen.c: the generation context and the kernel generation */
struct ncrp_km_gen *ncrp_km_gen_new(void *provctx, int type, int selection);
OSSL_FUNC_keymgmt_gen_cleanup_fn ncrp_km_gen_cleanup;
/* Generate the pair in the kernel from the settled gen context. */
OSSL_FUNC_keymgmt_gen_fn ncrp_km_gen;

/* keymgmt_rsa.c: RSA generation parameters (bits, e) */
OSSL_FUNC_keymgmt_new_fn ncrp_rsa_new;
OSSL_FUNC_keymgmt_gen_init_fn ncrp_rsa_gen_init;
OSSL_FUNC_keymgmt_gen_set_params_fn ncrp_rsa_gen_set_params;
OSSL_FUNC_keymgmt_gen_settable_params_fn ncrp_rsa_gen_settable_params;

/* keymgmt_dsa.c: DSA sizes (the kernel makes the domain) */
OSSL_FUNC_keymgmt_new_fn ncrp_dsa_new;
OSSL_FUNC_keymgmt_gen_init_fn ncrp_dsa_gen_init;
OSSL_FUNC_keymgmt_gen_set_params_fn ncrp_dsa_gen_set_params;
OSSL_FUNC_keymgmt_gen_settable_params_fn ncrp_dsa_gen_settable_params;
OSSL_FUNC_keymgmt_gen_set_template_fn ncrp_dsa_gen_set_template;
OSSL_FUNC_keymgmt_gen_fn ncrp_dsa_gen;

/* keymgmt_dh.c: the DH domain (named group or template) */
OSSL_FUNC_keymgmt_new_fn ncrp_dh_new;
OSSL_FUNC_keymgmt_gen_init_fn ncrp_dh_gen_init;
OSSL_FUNC_keymgmt_gen_set_params_fn ncrp_dh_gen_set_params;
OSSL_FUNC_keymgmt_gen_settable_params_fn ncrp_dh_gen_settable_params;
OSSL_FUNC_keymgmt_gen_set_template_fn ncrp_dh_gen_set_template;

/* keymgmt_ec.c: EC (P-256, P-384) and X25519, the curve by name */
struct ncrp_ec_curve {
	int type;		/* NCR_PKT_EC or NCR_PKT_X25519 */
	const char *kernel;	/* NCR_ECC_CURVE_* */
	const char *group;	/* OpenSSL's group name */
	const char *aliases[3];	/* other names OpenSSL accepts */
};
OSSL_FUNC_keymgmt_new_fn ncrp_ec_new;
OSSL_FUNC_keymgmt_new_fn ncrp_x25519_new;
OSSL_FUNC_keymgmt_gen_init_fn ncrp_ec_gen_init;
OSSL_FUNC_keymgmt_gen_init_fn ncrp_x25519_gen_init;
OSSL_FUNC_keymgmt_gen_set_params_fn ncrp_ec_gen_set_params;
OSSL_FUNC_keymgmt_gen_settable_params_fn ncrp_ec_gen_settable_params;
OSSL_FUNC_keymgmt_gen_set_template_fn ncrp_ec_gen_set_template;
/* Pairs in the kernel; domain parameters alone (TLS peers) in software. */
OSSL_FUNC_keymgmt_gen_fn ncrp_ec_gen;
/* Public value from the peer (TLS key share): public-only objects. */
OSSL_FUNC_keymgmt_set_params_fn ncrp_ec_set_params;
OSSL_FUNC_keymgmt_settable_params_fn ncrp_ec_settable_params;

#endif /* NCR_KEYMGMT_H */
