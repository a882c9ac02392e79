// SPDX-License-Identifier: GPL-2.0
/*
 * KEYMGMT common to RSA, DSA, DH, EC and X25519, and the dispatch table of
 * each.
 *
 * Private halves live in the kernel (generated there, or restored from a
 * storage blob) and only leave it if the kernel key is exportable.  Public
 * halves and domain parameters are ordinary EVP_PKEYs of the provider's
 * software context: they are exported freely (so OpenSSL can hand the
 * public key to other providers) and imported (so public keys and
 * parameters from elsewhere work with ncr operations).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "keymgmt.h"
#include "names.h"

static OSSL_FUNC_keymgmt_free_fn km_free;
static OSSL_FUNC_keymgmt_has_fn km_has;
static OSSL_FUNC_keymgmt_validate_fn km_validate;
static OSSL_FUNC_keymgmt_match_fn km_match;
static OSSL_FUNC_keymgmt_get_params_fn km_get_params;
static OSSL_FUNC_keymgmt_gettable_params_fn rsa_gettable_params;
static OSSL_FUNC_keymgmt_gettable_params_fn dsa_gettable_params;
static OSSL_FUNC_keymgmt_gettable_params_fn dh_gettable_params;
static OSSL_FUNC_keymgmt_gettable_params_fn ec_gettable_params;
static OSSL_FUNC_keymgmt_gettable_params_fn x25519_gettable_params;
static OSSL_FUNC_keymgmt_export_fn km_export;
static OSSL_FUNC_keymgmt_import_fn km_import;
static OSSL_FUNC_keymgmt_export_types_fn km_io_types;
static OSSL_FUNC_keymgmt_export_types_fn ec_io_types;
static OSSL_FUNC_keymgmt_load_fn km_load;
static OSSL_FUNC_keymgmt_dup_fn km_dup;
static OSSL_FUNC_keymgmt_query_operation_name_fn rsa_query_operation_name;
static OSSL_FUNC_keymgmt_query_operation_name_fn dsa_query_operation_name;
static OSSL_FUNC_keymgmt_query_operation_name_fn dh_query_operation_name;
static OSSL_FUNC_keymgmt_query_operation_name_fn ec_query_operation_name;
static OSSL_FUNC_keymgmt_query_operation_name_fn x25519_query_operation_name;

static void km_free(void *keydata)
{
	ncrp_pkey_free(keydata);
}

static int has_public_value(const struct ncrp_pkey *k)
{
	BIGNUM *bn = NULL;
	int ok;

	size_t len = 0;

	if (k->pub == NULL)
		return 0;
	if (k->type == NCR_PKT_RSA)
		return 1;
	/* EC and X25519 public values are octet strings */
	if (k->type == NCR_PKT_EC || k->type == NCR_PKT_X25519)
		return EVP_PKEY_get_octet_string_param(
			k->pub, OSSL_PKEY_PARAM_PUB_KEY, NULL, 0, &len) && len;
	ok = EVP_PKEY_get_bn_param(k->pub, OSSL_PKEY_PARAM_PUB_KEY, &bn);
	BN_free(bn);
	return ok;
}

static int km_has(const void *keydata, int selection)
{
	const struct ncrp_pkey *k = keydata;

	if (k == NULL)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY) &&
	    !has_public_value(k))
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && k->priv == NULL)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS) &&
	    ncrp_pk_has_domain(k->type) && k->pub == NULL)
		return 0;
	return 1;
}

/*
 * The public half is checked in software; a private half exists only as a
 * kernel key, which the kernel checked when it generated or imported it.
 */
static int km_validate(const void *keydata, int selection, int checktype)
{
	const struct ncrp_pkey *k = keydata;
	EVP_PKEY_CTX *pc;
	int ok = 1;

	(void)checktype;
	if (k == NULL)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && k->priv == NULL)
		return 0;
	if (selection & (OSSL_KEYMGMT_SELECT_PUBLIC_KEY |
			 OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS)) {
		if (k->pub == NULL)
			return 0;
		pc = EVP_PKEY_CTX_new_from_pkey(k->prov->swctx, k->pub, NULL);
		if (pc == NULL)
			return 0;
		if (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY)
			ok = EVP_PKEY_public_check(pc) == 1;
		else if (ncrp_pk_has_domain(k->type))
			ok = EVP_PKEY_param_check(pc) == 1;
		EVP_PKEY_CTX_free(pc);
	}
	return ok;
}

static int km_match(const void *v1, const void *v2, int selection)
{
	const struct ncrp_pkey *a = v1, *b = v2;

	if (a->type != b->type)
		return 0;
	if (selection & OSSL_KEYMGMT_SELECT_KEYPAIR) {
		if (a->priv != NULL && a->priv == b->priv)
			return 1;
		if (a->pub == NULL || b->pub == NULL)
			return 0;
		return EVP_PKEY_eq(a->pub, b->pub) == 1;
	}
	if (selection & OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS) {
		if (!ncrp_pk_has_domain(a->type))
			return 1;
		if (a->pub == NULL || b->pub == NULL)
			return 0;
		return EVP_PKEY_parameters_eq(a->pub, b->pub) == 1;
	}
	return 1;
}

/* Everything public comes from the software public half. */
static int km_get_params(void *keydata, OSSL_PARAM params[])
{
	struct ncrp_pkey *k = keydata;

	if (k->pub == NULL)
		return 1;
	return EVP_PKEY_get_params(k->pub, params);
}

/* The private half, only for a kernel key flagged exportable. */
static int export_private(struct ncrp_pkey *k, int selection,
			  OSSL_CALLBACK *cb, void *cbarg)
{
	unsigned char *buf;
	const unsigned char *p;
	EVP_PKEY *full = NULL;
	OSSL_PARAM *params = NULL;
	size_t cap = 16384;
	long n;
	int ok = 0;

	if (!(k->kflags & NCR_KEY_FLAG_EXPORTABLE)) {
		ncrp_raise(NCR_R_KEY_NOT_EXPORTABLE,
			   "only the public half of this %s key can be "
			   "exported", ncrp_pk_ossl_name(k->type));
		return 0;
	}
	buf = malloc(cap);
	if (buf == NULL)
		return 0;
	n = ncrlib_key_export(ncrlib_dev_fd(), k->priv->key, buf, cap);
	if (n < 0) {
		if (n == -EPERM || n == -EACCES)
			ncrp_raise(NCR_R_KEY_NOT_EXPORTABLE, "%s",
				   strerror((int)-n));
		else
			ncrp_raise_errno("exporting the private key", (int)-n);
		goto out;
	}
	p = buf;
	full = d2i_AutoPrivateKey_ex(NULL, &p, n, k->prov->swctx, NULL);
	if (full == NULL) {
		ncrp_raise(NCR_R_KERNEL_OP_FAILED,
			   "cannot parse the exported private key");
		goto out;
	}
	(void)selection;
	if (!EVP_PKEY_todata(full, EVP_PKEY_KEYPAIR, &params))
		goto out;
	ok = cb(params, cbarg);
out:
	OSSL_PARAM_free(params);
	EVP_PKEY_free(full);
	OPENSSL_cleanse(buf, cap);
	free(buf);
	return ok;
}

static int km_export(void *keydata, int selection, OSSL_CALLBACK *cb,
		     void *cbarg)
{
	struct ncrp_pkey *k = keydata;
	OSSL_PARAM *params = NULL;
	int sel, ok;

	if (k == NULL)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) && k->priv != NULL)
		return export_private(k, selection, cb, cbarg);
	if (k->pub == NULL) {
		ncrp_raise(NCR_R_NO_KEY, "no public key to export");
		return 0;
	}
	if (selection & OSSL_KEYMGMT_SELECT_PUBLIC_KEY)
		sel = EVP_PKEY_PUBLIC_KEY;
	else
		sel = EVP_PKEY_KEY_PARAMETERS;
	if (!EVP_PKEY_todata(k->pub, sel, &params))
		return 0;
	ok = cb(params, cbarg);
	OSSL_PARAM_free(params);
	return ok;
}

int ncrp_km_export_public(struct ncrp_pkey *k, OSSL_CALLBACK *cb, void *cbarg)
{
	return km_export(k, OSSL_KEYMGMT_SELECT_PUBLIC_KEY |
			      OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS, cb, cbarg);
}

static int km_import(void *keydata, int selection, const OSSL_PARAM params[])
{
	struct ncrp_pkey *k = keydata;
	EVP_PKEY_CTX *pc;
	EVP_PKEY *pub = NULL;
	int sel;

	if (k == NULL)
		return 0;
	if ((selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) &&
	    (OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_RSA_D) != NULL ||
	     OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PRIV_KEY) != NULL)) {
		ncrp_raise(NCR_R_NOT_SUPPORTED, "importing a private key: ncr "
			   "keys are generated in the kernel or loaded from "
			   "an ncr key file");
		return 0;
	}
	/*
	 * A public value is taken whenever the caller asks for key material
	 * of either half: OpenSSL's hybrid KEMs (X25519MLKEM768) import the
	 * peer's share with the private-key bit and a public value only.
	 */
	if ((selection & OSSL_KEYMGMT_SELECT_KEYPAIR) &&
	    (k->type == NCR_PKT_RSA ||
	     OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_PUB_KEY) != NULL))
		sel = EVP_PKEY_PUBLIC_KEY;
	else if ((selection & OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS) &&
		 ncrp_pk_has_domain(k->type))
		sel = EVP_PKEY_KEY_PARAMETERS;
	else
		return 1;	/* nothing public to import */
	pc = EVP_PKEY_CTX_new_from_name(k->prov->swctx,
					ncrp_pk_ossl_name(k->type), NULL);
	if (pc == NULL || EVP_PKEY_fromdata_init(pc) <= 0 ||
	    EVP_PKEY_fromdata(pc, &pub, sel, (OSSL_PARAM *)params) <= 0) {
		EVP_PKEY_CTX_free(pc);
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "invalid %s public key",
			   ncrp_pk_ossl_name(k->type));
		return 0;
	}
	EVP_PKEY_CTX_free(pc);
	EVP_PKEY_free(k->pub);
	k->pub = pub;
	return 1;
}

static const OSSL_PARAM *km_io_types(int selection)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_N, NULL, 0),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_FFC_P, NULL, 0),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_FFC_Q, NULL, 0),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_FFC_G, NULL, 0),
		OSSL_PARAM_BN(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
		OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),
		OSSL_PARAM_END
	};

	(void)selection;
	return t;
}

static const OSSL_PARAM *ec_io_types(int selection)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),
		OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
		OSSL_PARAM_END
	};

	(void)selection;
	return t;
}

static void *km_load(const void *reference, size_t reference_sz)
{
	struct ncrp_pkey *k;

	if (reference == NULL || reference_sz != sizeof(k))
		return NULL;
	memcpy(&k, reference, sizeof(k));
	return ncrp_pkey_ref(k);
}

static void *km_dup(const void *keydata, int selection)
{
	const struct ncrp_pkey *src = keydata;
	struct ncrp_pkey *k = ncrp_pkey_new(src->prov, src->type);

	if (k == NULL)
		return NULL;
	if (src->pub != NULL) {
		k->pub = EVP_PKEY_dup(src->pub);
		if (k->pub == NULL) {
			ncrp_pkey_free(k);
			return NULL;
		}
	}
	if (selection & OSSL_KEYMGMT_SELECT_PRIVATE_KEY) {
		k->priv = ncrp_khandle_ref(src->priv);	/* immutable */
		k->kflags = src->kflags;
	}
	return k;
}

/* ---- the dispatch tables ---- */

/* What get_params answers: everything comes from the public half. */
#define KM_GETTABLE_SIZES						\
	OSSL_PARAM_int(OSSL_PKEY_PARAM_BITS, NULL),			\
	OSSL_PARAM_int(OSSL_PKEY_PARAM_SECURITY_BITS, NULL),		\
	OSSL_PARAM_int(OSSL_PKEY_PARAM_MAX_SIZE, NULL)
#define KM_GETTABLE_FFC							\
	OSSL_PARAM_BN(OSSL_PKEY_PARAM_FFC_P, NULL, 0),			\
	OSSL_PARAM_BN(OSSL_PKEY_PARAM_FFC_Q, NULL, 0),			\
	OSSL_PARAM_BN(OSSL_PKEY_PARAM_FFC_G, NULL, 0),			\
	OSSL_PARAM_BN(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0)

static const OSSL_PARAM rsa_gettable[] = {
	KM_GETTABLE_SIZES,
	OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_DEFAULT_DIGEST, NULL, 0),
	OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_N, NULL, 0),
	OSSL_PARAM_BN(OSSL_PKEY_PARAM_RSA_E, NULL, 0),
	OSSL_PARAM_END
};

static const OSSL_PARAM dsa_gettable[] = {
	KM_GETTABLE_SIZES,
	OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_DEFAULT_DIGEST, NULL, 0),
	KM_GETTABLE_FFC,
	OSSL_PARAM_END
};

static const OSSL_PARAM dh_gettable[] = {
	KM_GETTABLE_SIZES,
	KM_GETTABLE_FFC,
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
	OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),
	OSSL_PARAM_END
};

/* What libssl asks of an EC key (curve, key share, point format). */
static const OSSL_PARAM ec_gettable[] = {
	KM_GETTABLE_SIZES,
	OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_DEFAULT_DIGEST, NULL, 0),
	OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, NULL, 0),
	OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_EC_ENCODING, NULL, 0),
	OSSL_PARAM_utf8_string(OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT,
			       NULL, 0),
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
	OSSL_PARAM_BN(OSSL_PKEY_PARAM_EC_PUB_X, NULL, 0),
	OSSL_PARAM_BN(OSSL_PKEY_PARAM_EC_PUB_Y, NULL, 0),
	OSSL_PARAM_END
};

static const OSSL_PARAM x25519_gettable[] = {
	KM_GETTABLE_SIZES,
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_PUB_KEY, NULL, 0),
	OSSL_PARAM_octet_string(OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, NULL, 0),
	OSSL_PARAM_END
};

static const OSSL_PARAM *ec_gettable_params(void *provctx)
{
	(void)provctx;
	return ec_gettable;
}

static const OSSL_PARAM *x25519_gettable_params(void *provctx)
{
	(void)provctx;
	return x25519_gettable;
}

static const OSSL_PARAM *rsa_gettable_params(void *provctx)
{
	(void)provctx;
	return rsa_gettable;
}

static const OSSL_PARAM *dsa_gettable_params(void *provctx)
{
	(void)provctx;
	return dsa_gettable;
}

static const OSSL_PARAM *dh_gettable_params(void *provctx)
{
	(void)provctx;
	return dh_gettable;
}

static const char *rsa_query_operation_name(int operation_id)
{
	(void)operation_id;
	return "RSA";
}

static const char *dsa_query_operation_name(int operation_id)
{
	(void)operation_id;
	return "DSA";
}

static const char *dh_query_operation_name(int operation_id)
{
	(void)operation_id;
	return "DH";
}

/* As the default provider: ECDSA and ECDH are the operations of "EC". */
static const char *ec_query_operation_name(int operation_id)
{
	switch (operation_id) {
	case OSSL_OP_SIGNATURE:
		return "ECDSA";
	case OSSL_OP_KEYEXCH:
		return "ECDH";
	}
	return NULL;
}

static const char *x25519_query_operation_name(int operation_id)
{
	(void)operation_id;
	return "X25519";
}

#define FN(id, f) { OSSL_FUNC_KEYMGMT_##id, (void (*)(void))(f) }
/* The functions every type shares, then the end of the table. */
#define KM_COMMON_FUNCTIONS(type, gen)					\
	KM_COMMON_IO(type, gen, km_io_types)
#define KM_COMMON_IO(type, gen, io_types)				\
	FN(QUERY_OPERATION_NAME, type##_query_operation_name),		\
	FN(GETTABLE_PARAMS, type##_gettable_params),			\
	FN(FREE, km_free), FN(HAS, km_has), FN(MATCH, km_match),	\
	FN(VALIDATE, km_validate), FN(GET_PARAMS, km_get_params),	\
	FN(EXPORT, km_export), FN(EXPORT_TYPES, io_types),		\
	FN(IMPORT, km_import), FN(IMPORT_TYPES, io_types),		\
	FN(LOAD, km_load), FN(DUP, km_dup), FN(GEN, gen),		\
	FN(GEN_CLEANUP, ncrp_km_gen_cleanup),				\
	{ 0, NULL }

static const OSSL_DISPATCH rsa_keymgmt_functions[] = {
	FN(NEW, ncrp_rsa_new),
	FN(GEN_INIT, ncrp_rsa_gen_init),
	FN(GEN_SET_PARAMS, ncrp_rsa_gen_set_params),
	FN(GEN_SETTABLE_PARAMS, ncrp_rsa_gen_settable_params),
	KM_COMMON_FUNCTIONS(rsa, ncrp_km_gen)
};

static const OSSL_DISPATCH dsa_keymgmt_functions[] = {
	FN(NEW, ncrp_dsa_new),
	FN(GEN_INIT, ncrp_dsa_gen_init),
	FN(GEN_SET_PARAMS, ncrp_dsa_gen_set_params),
	FN(GEN_SETTABLE_PARAMS, ncrp_dsa_gen_settable_params),
	FN(GEN_SET_TEMPLATE, ncrp_dsa_gen_set_template),
	KM_COMMON_FUNCTIONS(dsa, ncrp_dsa_gen)
};

static const OSSL_DISPATCH dh_keymgmt_functions[] = {
	FN(NEW, ncrp_dh_new),
	FN(GEN_INIT, ncrp_dh_gen_init),
	FN(GEN_SET_PARAMS, ncrp_dh_gen_set_params),
	FN(GEN_SETTABLE_PARAMS, ncrp_dh_gen_settable_params),
	FN(GEN_SET_TEMPLATE, ncrp_dh_gen_set_template),
	KM_COMMON_FUNCTIONS(dh, ncrp_km_gen)
};

/* EC and X25519 share generation and set_params; the curve differs. */
#define EC_KEYMGMT_FUNCTIONS(type)					\
	FN(NEW, ncrp_##type##_new),					\
	FN(GEN_INIT, ncrp_##type##_gen_init),				\
	FN(GEN_SET_PARAMS, ncrp_ec_gen_set_params),			\
	FN(GEN_SETTABLE_PARAMS, ncrp_ec_gen_settable_params),		\
	FN(GEN_SET_TEMPLATE, ncrp_ec_gen_set_template),		\
	FN(SET_PARAMS, ncrp_ec_set_params),				\
	FN(SETTABLE_PARAMS, ncrp_ec_settable_params),			\
	KM_COMMON_IO(type, ncrp_ec_gen, ec_io_types)

static const OSSL_DISPATCH ec_keymgmt_functions[] = {
	EC_KEYMGMT_FUNCTIONS(ec)
};

static const OSSL_DISPATCH x25519_keymgmt_functions[] = {
	EC_KEYMGMT_FUNCTIONS(x25519)
};

const OSSL_ALGORITHM ncrp_keymgmts[] = {
	{ NCRP_NAMES_RSA, NCRP_PROPS, rsa_keymgmt_functions,
	  "ncr RSA: private key held by the kernel" },
	{ NCRP_NAMES_DSA, NCRP_PROPS, dsa_keymgmt_functions,
	  "ncr DSA: private key held by the kernel" },
	{ NCRP_NAMES_DH, NCRP_PROPS, dh_keymgmt_functions,
	  "ncr DH: private key held by the kernel" },
	{ NCRP_NAMES_EC, NCRP_PROPS, ec_keymgmt_functions,
	  "ncr EC (P-256, P-384): private key held by the kernel" },
	{ NCRP_NAMES_X25519, NCRP_PROPS, x25519_keymgmt_functions,
	  "ncr X25519: private key held by the kernel" },
	{ NULL, NULL, NULL, NULL }
};
