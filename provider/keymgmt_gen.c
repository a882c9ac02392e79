// SPDX-License-Identifier: GPL-2.0
/*
 * KEYMGMT key generation: the generation context the per-type files fill
 * in (keymgmt_rsa.c, keymgmt_dsa.c, keymgmt_dh.c, keymgmt_ec.c), translated
 * to the kernel's parameters, and the pair generated in the kernel.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include "keymgmt.h"

struct ncrp_km_gen *ncrp_km_gen_new(void *provctx, int type, int selection)
{
	struct ncrp_km_gen *g = calloc(1, sizeof(*g));

	if (g == NULL) {
		ncrp_raise(NCR_R_MALLOC_FAILURE, "keygen context");
		return NULL;
	}
	g->prov = provctx;
	g->type = type;
	g->selection = selection;
	return g;
}

void ncrp_km_gen_cleanup(void *genctx)
{
	struct ncrp_km_gen *g = genctx;

	if (g == NULL)
		return;
	BN_free(g->e);
	EVP_PKEY_free(g->dh_params);
	free(g);
}

static unsigned char *bn_bytes(const BIGNUM *bn, size_t *len)
{
	unsigned char *p;

	*len = (size_t)BN_num_bytes(bn);
	p = malloc(*len ? *len : 1);
	if (p != NULL)
		BN_bn2bin(bn, p);
	return p;
}

static uint32_t gen_flags(int type)
{
	/* Wrappable: the key file is its storage blob. */
	switch (type) {
	case NCR_PKT_RSA:
		return NCR_KEY_FLAG_WRAPPABLE | NCR_KEY_FLAG_SIGN |
		       NCR_KEY_FLAG_DECRYPT;
	case NCR_PKT_DSA:
	case NCR_PKT_EC:	/* ECDSA; ECDH needs no flag */
		return NCR_KEY_FLAG_WRAPPABLE | NCR_KEY_FLAG_SIGN;
	default:
		return NCR_KEY_FLAG_WRAPPABLE;
	}
}

/* The OpenSSL-side numbers of a generation, as bytes for the kernel. */
struct gen_bytes {
	unsigned char *e, *p, *g;
};

static void gen_bytes_free(struct gen_bytes *b)
{
	free(b->e);
	free(b->p);
	free(b->g);
}

/* The DH domain of g->dh_params as p and g; raises errors. */
static int gen_dh_domain(const struct ncrp_km_gen *g,
			 struct ncrlib_pair_params *pp, struct gen_bytes *b)
{
	BIGNUM *bp = NULL, *bg = NULL;
	int ok = 0;

	if (g->dh_params == NULL) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "DH key generation "
			   "needs a group or domain parameters");
		return 0;
	}
	if (!EVP_PKEY_get_bn_param(g->dh_params, OSSL_PKEY_PARAM_FFC_P, &bp) ||
	    !EVP_PKEY_get_bn_param(g->dh_params, OSSL_PKEY_PARAM_FFC_G, &bg)) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT,
			   "DH domain parameters lack p or g");
		goto out;
	}
	b->p = bn_bytes(bp, &pp->dh_p_len);
	b->g = bn_bytes(bg, &pp->dh_g_len);
	pp->dh_p = b->p;
	pp->dh_g = b->g;
	ok = 1;
out:
	BN_free(bp);
	BN_free(bg);
	return ok;
}

/* Translates the generation context into the kernel's parameters. */
static int gen_params(const struct ncrp_km_gen *g,
		      struct ncrlib_pair_params *pp, struct gen_bytes *b)
{
	memset(pp, 0, sizeof(*pp));
	pp->algo = ncrp_pk_kernel_name(g->type);
	pp->flags = gen_flags(g->type);
	switch (g->type) {
	case NCR_PKT_RSA:
		pp->rsa_bits = g->bits;
		if (g->e != NULL) {
			b->e = bn_bytes(g->e, &pp->rsa_e_len);
			pp->rsa_e = b->e;
		}
		return 1;
	case NCR_PKT_DSA:
		pp->dsa_p_bits = g->bits;
		pp->dsa_q_bits = g->qbits;
		return 1;
	case NCR_PKT_EC:
	case NCR_PKT_X25519:
		if (g->curve == NULL) {
			ncrp_raise(NCR_R_INVALID_ARGUMENT, "EC key generation "
				   "needs a curve (-pkeyopt "
				   "ec_paramgen_curve:P-256)");
			return 0;
		}
		pp->ecc_curve = g->curve->kernel;
		return 1;
	default:
		return gen_dh_domain(g, pp, b);
	}
}

/* Generates the pair in two new kernel keys; raises errors. */
static int gen_kernel_pair(const struct ncrp_km_gen *g,
			   struct ncrlib_pair_params *pp)
{
	int fd = ncrlib_dev_fd(), r;

	pp->priv = ncrlib_key_new(fd);
	pp->pub = pp->priv >= 0 ? ncrlib_key_new(fd) : pp->priv;
	if (pp->priv < 0 || pp->pub < 0) {
		ncrp_raise_errno("allocating kernel keys",
				 -(pp->priv < 0 ? pp->priv : pp->pub));
		return 0;
	}
	r = ncrlib_key_generate_pair(fd, pp);
	if (r == -EINVAL && g->curve != NULL)
		ncrp_raise(NCR_R_UNKNOWN_CURVE, "the kernel refused to "
			   "generate a %s key on %s", ncrp_pk_ossl_name(g->type),
			   g->curve->group);
	else if (r == -EINVAL)
		ncrp_raise(NCR_R_NOT_SUPPORTED, "the kernel refused to "
			   "generate a %s key with these parameters "
			   "(%u bits)", ncrp_pk_ossl_name(g->type), g->bits);
	else if (r < 0)
		ncrp_raise_errno("generating the key pair", -r);
	return r >= 0;
}

/* The key object holding the generated pair; takes pp->priv. */
static struct ncrp_pkey *gen_adopt(const struct ncrp_km_gen *g,
				   struct ncrlib_pair_params *pp)
{
	struct ncrp_pkey *k = ncrp_pkey_new(g->prov, g->type);

	if (k == NULL)
		return NULL;
	k->priv = ncrp_khandle_new(pp->priv);
	if (k->priv == NULL)
		goto fail;
	pp->priv = -1;
	k->kflags = pp->flags;
	if (ncrp_pkey_set_pub_from_kernel(k, pp->pub, g->dh_params))
		return k;
fail:
	ncrp_pkey_free(k);
	return NULL;
}

void *ncrp_km_gen(void *genctx, OSSL_CALLBACK *cb, void *cbarg)
{
	struct ncrp_km_gen *g = genctx;
	struct ncrlib_pair_params pp;
	struct gen_bytes b = { NULL, NULL, NULL };
	struct ncrp_pkey *k = NULL;

	(void)cb;
	(void)cbarg;
	if (!(g->selection & OSSL_KEYMGMT_SELECT_KEYPAIR)) {
		ncrp_raise(NCR_R_NOT_SUPPORTED, "ncr generates key pairs only; "
			   "generate domain parameters with the default "
			   "provider");
		return NULL;
	}
	if (!gen_params(g, &pp, &b)) {
		gen_bytes_free(&b);
		return NULL;
	}
	if (gen_kernel_pair(g, &pp))
		k = gen_adopt(g, &pp);
	ncrlib_key_free(ncrlib_dev_fd(), pp.priv);
	ncrlib_key_free(ncrlib_dev_fd(), pp.pub);
	gen_bytes_free(&b);
	return k;
}
