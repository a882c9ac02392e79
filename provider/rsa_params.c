// SPDX-License-Identifier: GPL-2.0
/* RSA padding, digest, MGF1 and salt length for the kernel (rsa_params.h). */
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rsa.h>
#include "rsa_params.h"

void ncrp_rsa_read_sig(EVP_PKEY_CTX *shadow, int rsa,
		       struct ncrp_rsa_settled *s)
{
	OSSL_PARAM p[5];
	int n = 0;

	memset(s, 0, sizeof(*s));
	s->pad = RSA_PKCS1_PADDING;
	p[n++] = OSSL_PARAM_construct_utf8_string(OSSL_SIGNATURE_PARAM_DIGEST,
						  s->md, sizeof(s->md));
	if (rsa) {
		p[n++] = OSSL_PARAM_construct_int(
			OSSL_SIGNATURE_PARAM_PAD_MODE, &s->pad);
		p[n++] = OSSL_PARAM_construct_int(
			OSSL_SIGNATURE_PARAM_PSS_SALTLEN, &s->saltlen);
		p[n++] = OSSL_PARAM_construct_utf8_string(
			OSSL_SIGNATURE_PARAM_MGF1_DIGEST, s->mgf1,
			sizeof(s->mgf1));
	}
	p[n] = OSSL_PARAM_construct_end();
	/* Parameters the shadow has not set stay at their defaults. */
	EVP_PKEY_CTX_get_params(shadow, p);
}

void ncrp_rsa_read_dec(EVP_PKEY_CTX *shadow, struct ncrp_rsa_settled *s)
{
	void *label = NULL;
	OSSL_PARAM q[5];

	memset(s, 0, sizeof(*s));
	s->pad = RSA_PKCS1_PADDING;
	q[0] = OSSL_PARAM_construct_int(OSSL_ASYM_CIPHER_PARAM_PAD_MODE,
					&s->pad);
	q[1] = OSSL_PARAM_construct_utf8_string(
		OSSL_ASYM_CIPHER_PARAM_OAEP_DIGEST, s->md, sizeof(s->md));
	q[2] = OSSL_PARAM_construct_utf8_string(
		OSSL_ASYM_CIPHER_PARAM_MGF1_DIGEST, s->mgf1, sizeof(s->mgf1));
	q[3] = OSSL_PARAM_construct_octet_ptr(
		OSSL_ASYM_CIPHER_PARAM_OAEP_LABEL, &label, 0);
	q[4] = OSSL_PARAM_construct_end();
	EVP_PKEY_CTX_get_params(shadow, q);
	if (label != NULL && OSSL_PARAM_modified(&q[3]))
		s->label_len = q[3].return_size;
}

/* The kernel's MGF1 is its message/OAEP digest: is @mgf1 (if set) that? */
static int mgf1_is(struct ncrp_provctx *prov, const char *mgf1,
		   const char *kernel_md)
{
	return mgf1[0] == '\0' ||
	       ncrp_md_kernel_name(prov, mgf1, NULL) == kernel_md;
}

/* The PSS salt length for the kernel, or -1 (raised) if impossible. */
static int64_t pss_salt(const struct ncrp_rsa_settled *s,
			const EVP_PKEY *pub, size_t mdsize)
{
	long emlen = (EVP_PKEY_get_bits(pub) - 1 + 7) / 8;
	long max = emlen - (long)mdsize - 2;
	int64_t salt;

	if (s->saltlen == RSA_PSS_SALTLEN_DIGEST)
		salt = (int64_t)mdsize;
	else if (s->saltlen == RSA_PSS_SALTLEN_MAX ||
		 s->saltlen == RSA_PSS_SALTLEN_AUTO)
		salt = max;
	else if (s->saltlen >= 0 && s->saltlen <= max)
		salt = s->saltlen;
	else {
		ncrp_raise(NCR_R_NOT_SUPPORTED, "PSS salt length %d",
			   s->saltlen);
		return -1;
	}
	if (max < 0 || salt > max) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT,
			   "key too small for PSS with %s", s->md);
		return -1;
	}
	return salt;
}

int ncrp_rsa_sig_params(struct ncrp_provctx *prov,
			const struct ncrp_rsa_settled *s, const EVP_PKEY *pub,
			size_t mdsize, struct ncrlib_sess_params *p)
{
	if (s->pad == RSA_PKCS1_PADDING) {
		p->rsa_method = RSA_PKCS1_V1_5;
		return 1;
	}
	if (s->pad != RSA_PKCS1_PSS_PADDING) {
		ncrp_raise(NCR_R_NOT_SUPPORTED, "RSA padding mode %d "
			   "for signing (PKCS#1 v1.5 and PSS only)", s->pad);
		return 0;
	}
	p->rsa_method = RSA_PKCS1_PSS;
	if (!mgf1_is(prov, s->mgf1, p->sig_hash)) {
		ncrp_raise(NCR_R_NOT_SUPPORTED, "PSS with MGF1 digest %s: the "
			   "kernel uses the signature digest %s", s->mgf1,
			   s->md);
		return 0;
	}
	p->pss_salt = pss_salt(s, pub, mdsize);
	return p->pss_salt >= 0;
}

int ncrp_rsa_dec_params(struct ncrp_provctx *prov,
			const struct ncrp_rsa_settled *s,
			struct ncrlib_sess_params *p)
{
	const char *md = s->md[0] != '\0' ? s->md : "SHA1";

	if (s->pad == RSA_PKCS1_PADDING) {
		p->rsa_method = RSA_PKCS1_V1_5;
		return 1;
	}
	if (s->pad != RSA_PKCS1_OAEP_PADDING) {
		ncrp_raise(NCR_R_NOT_SUPPORTED, "RSA padding mode %d for "
			   "decryption (PKCS#1 v1.5 and OAEP only)", s->pad);
		return 0;
	}
	p->rsa_method = RSA_PKCS1_OAEP;
	if (s->label_len != 0) {
		ncrp_raise(NCR_R_NOT_SUPPORTED, "OAEP with a label: "
			   "the kernel supports only an empty label");
		return 0;
	}
	p->oaep_hash = ncrp_md_kernel_name(prov, md, NULL);
	if (p->oaep_hash == NULL) {
		ncrp_raise(NCR_R_NOT_SUPPORTED, "OAEP digest %s", md);
		return 0;
	}
	if (!mgf1_is(prov, s->mgf1, p->oaep_hash)) {
		ncrp_raise(NCR_R_NOT_SUPPORTED, "OAEP with MGF1 digest %s: the "
			   "kernel uses the OAEP digest %s", s->mgf1, md);
		return 0;
	}
	return 1;
}
