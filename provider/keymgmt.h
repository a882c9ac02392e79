/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KEYMGMT: keymgmt.c holds the functions common to RSA, DSA and DH and the
 * three dispatch tables; keymgmt_gen.c generates pairs in the kernel from
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

#endif /* NCR_KEYMGMT_H */
