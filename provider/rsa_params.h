/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RSA parameters of signatures (signature.c) and decryption
 * (asym_rsa.c): what the default provider's shadow context settled,
 * translated to the kernel's session parameters.  The kernel supports
 * PKCS#1 v1.5, PSS and OAEP; MGF1 always uses the message/OAEP digest, and
 * OAEP takes no label: anything else is refused with a reason.
 */
#ifndef NCRP_RSA_PARAMS_H
#define NCRP_RSA_PARAMS_H

#include "ncr_prov.h"

struct ncrp_rsa_settled {
	char md[64];		/* signature or OAEP digest, "" if unset */
	char mgf1[64];		/* "" if unset */
	int pad;		/* RSA_*_PADDING */
	int saltlen;		/* PSS: RSA_PSS_SALTLEN_* or bytes */
	size_t label_len;	/* OAEP label */
};

/* The signature parameters of @shadow (@rsa: also padding, salt, MGF1). */
void ncrp_rsa_read_sig(EVP_PKEY_CTX *shadow, int rsa,
		       struct ncrp_rsa_settled *s);
/* The decryption parameters of @shadow. */
void ncrp_rsa_read_dec(EVP_PKEY_CTX *shadow, struct ncrp_rsa_settled *s);

/*
 * Sets p->rsa_method and p->pss_salt for signing with @pub, whose digest
 * (s->md, already checked) is @mdsize bytes.  Raises errors.
 */
int ncrp_rsa_sig_params(struct ncrp_provctx *prov,
			const struct ncrp_rsa_settled *s, const EVP_PKEY *pub,
			size_t mdsize, struct ncrlib_sess_params *p);
/* Sets p->rsa_method and p->oaep_hash for decryption.  Raises errors. */
int ncrp_rsa_dec_params(struct ncrp_provctx *prov,
			const struct ncrp_rsa_settled *s,
			struct ncrlib_sess_params *p);

#endif /* NCRP_RSA_PARAMS_H */
