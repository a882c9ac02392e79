/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KEYMGMT functions common to RSA, DSA and DH (keymgmt.c); the per-type
 * files add key generation parameters and their dispatch tables.
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

void ncrp_km_free(void *keydata);
int ncrp_km_has(const void *keydata, int selection);
int ncrp_km_match(const void *k1, const void *k2, int selection);
int ncrp_km_validate(const void *keydata, int selection, int checktype);
int ncrp_km_get_params(void *keydata, OSSL_PARAM params[]);
const OSSL_PARAM *ncrp_km_gettable_params(void *provctx);
int ncrp_km_export(void *keydata, int selection, OSSL_CALLBACK *cb,
		   void *cbarg);
int ncrp_km_import(void *keydata, int selection, const OSSL_PARAM params[]);
const OSSL_PARAM *ncrp_km_io_types(int selection);
void *ncrp_km_load(const void *reference, size_t reference_sz);
void *ncrp_km_dup(const void *keydata, int selection);

struct ncrp_km_gen *ncrp_km_gen_new(void *provctx, int type, int selection);
void ncrp_km_gen_cleanup(void *genctx);
/* Generate the pair in the kernel from the settled gen context. */
void *ncrp_km_gen(void *genctx, OSSL_CALLBACK *cb, void *cbarg);

#define NCR_KM_COMMON_FUNCTIONS						\
	{ OSSL_FUNC_KEYMGMT_FREE, (void (*)(void))ncrp_km_free },	\
	{ OSSL_FUNC_KEYMGMT_HAS, (void (*)(void))ncrp_km_has },		\
	{ OSSL_FUNC_KEYMGMT_MATCH, (void (*)(void))ncrp_km_match },	\
	{ OSSL_FUNC_KEYMGMT_VALIDATE, (void (*)(void))ncrp_km_validate },\
	{ OSSL_FUNC_KEYMGMT_GET_PARAMS,					\
	  (void (*)(void))ncrp_km_get_params },				\
	{ OSSL_FUNC_KEYMGMT_GETTABLE_PARAMS,				\
	  (void (*)(void))ncrp_km_gettable_params },			\
	{ OSSL_FUNC_KEYMGMT_EXPORT, (void (*)(void))ncrp_km_export },	\
	{ OSSL_FUNC_KEYMGMT_EXPORT_TYPES,				\
	  (void (*)(void))ncrp_km_io_types },				\
	{ OSSL_FUNC_KEYMGMT_IMPORT, (void (*)(void))ncrp_km_import },	\
	{ OSSL_FUNC_KEYMGMT_IMPORT_TYPES,				\
	  (void (*)(void))ncrp_km_io_types },				\
	{ OSSL_FUNC_KEYMGMT_LOAD, (void (*)(void))ncrp_km_load },	\
	{ OSSL_FUNC_KEYMGMT_DUP, (void (*)(void))ncrp_km_dup },		\
	{ OSSL_FUNC_KEYMGMT_GEN, (void (*)(void))ncrp_km_gen },		\
	{ OSSL_FUNC_KEYMGMT_GEN_CLEANUP,				\
	  (void (*)(void))ncrp_km_gen_cleanup }

#endif /* NCR_KEYMGMT_H */
