// SPDX-License-Identifier: GPL-2.0
/*
 * The SubjectPublicKeyInfo and PKCS#8 envelopes around each algorithm's
 * own parts (struct ncr_pk_ops), and the choice between formats.
 */
#include "der.h"

/* AlgorithmIdentifier of pk's algorithm; sets its domain parameters. */
static int get_algid(struct ncr_der *d, struct ncr_pk *pk)
{
	const struct ncr_pk_ops *ops = pk->ops;
	struct ncr_der a;
	int err = ncr_der_get(d, NCR_DER_SEQ, &a);

	if (err)
		return err;
	if (!ops->oid)
		return ops->get_params(pk, a);
	if (a.len < ops->oid_len || memcmp(a.p, ops->oid, ops->oid_len))
		return -EINVAL;
	a.p += ops->oid_len;
	a.len -= ops->oid_len;
	return ops->get_params(pk, a);
}

/* SubjectPublicKeyInfo content (after the outer SEQUENCE header). */
static int spki_get(struct ncr_der seq, struct ncr_pk *pk)
{
	struct ncr_der bits;
	int err = get_algid(&seq, pk);

	if (!err)
		err = ncr_der_get(&seq, NCR_DER_BITSTR, &bits);
	if (!err)
		err = ncr_der_end(&seq);
	if (err)
		return err;
	/* no unused bits */
	if (bits.len < 1 || bits.p[0] != 0)
		return -EINVAL;
	bits.p++;
	bits.len--;
	return pk->ops->get_public(pk, bits);
}

static int public_get(struct ncr_pk *pk, const u8 *der, size_t len)
{
	struct ncr_der seq, all = { der, len };
	int err = ncr_der_get_only_seq(der, len, &seq);

	if (err)
		return err;
	/* a bare subjectPublicKey (RSA: PKCS#1) */
	if (ncr_der_peek(&seq) == NCR_DER_INT)
		return pk->ops->get_public(pk, all);
	return spki_get(seq, pk);
}

/* PKCS#8 PrivateKeyInfo content after the version. */
static int pkcs8_get(struct ncr_der seq, struct ncr_pk *pk)
{
	struct ncr_der oct, attrs;
	int err = get_algid(&seq, pk);

	if (!err)
		err = ncr_der_get(&seq, NCR_DER_OCTSTR, &oct);
	if (!err && ncr_der_peek(&seq) == NCR_DER_CTX0)
		err = ncr_der_get(&seq, NCR_DER_CTX0, &attrs);	/* ignored */
	if (!err)
		err = ncr_der_end(&seq);
	return err ? err : pk->ops->get_pkcs8(pk, oct);
}

static int private_get(struct ncr_pk *pk, const u8 *der, size_t len)
{
	struct ncr_der seq, rest;
	int err = ncr_der_get_only_seq(der, len, &seq);

	if (err)
		return err;
	rest = seq;
	/* PKCS#8 is version 0; the algorithm's format checks its own */
	if (!ncr_der_get_uint(&rest, NULL) &&
	    ncr_der_peek(&rest) == NCR_DER_SEQ)
		return pkcs8_get(rest, pk);
	return pk->ops->get_private ? pk->ops->get_private(pk, seq) : -EINVAL;
}

int ncr_pk_decode(struct ncr_pk *pk, const struct ncr_pk_ops *ops,
		  const u8 *der, size_t len,
		  int (*get)(struct ncr_pk *pk, const u8 *der, size_t len))
{
	int err = ncr_pk_key_init(pk, ops);

	if (err)
		return err;
	err = get(pk, der, len);
	if (!err)
		err = ops->check(pk);
	if (err)
		ncr_pk_key_clear(pk);
	return err;
}

int ncr_der_decode_public(struct ncr_pk *pk, const struct ncr_pk_ops *ops,
			  const u8 *der, size_t len)
{
	return ncr_pk_decode(pk, ops, der, len, public_get);
}

int ncr_der_decode_private(struct ncr_pk *pk, const struct ncr_pk_ops *ops,
			   const u8 *der, size_t len)
{
	return ncr_pk_decode(pk, ops, der, len, private_get);
}

static int put_algid(struct ncr_der_wr *w, const void *arg)
{
	const struct ncr_pk *pk = arg;

	if (pk->ops->oid)
		ncr_der_put_bytes(w, pk->ops->oid, pk->ops->oid_len);
	return pk->ops->put_params(w, pk);
}

static int put_bits(struct ncr_der_wr *w, const void *arg)
{
	const struct ncr_pk *pk = arg;
	static const u8 unused_bits;

	ncr_der_put_bytes(w, &unused_bits, 1);
	return pk->ops->put_public(w, pk);
}

static int put_spki(struct ncr_der_wr *w, const void *arg)
{
	int err = ncr_der_put_tlv(w, NCR_DER_SEQ, put_algid, arg);

	return err ? err : ncr_der_put_tlv(w, NCR_DER_BITSTR, put_bits, arg);
}

static int put_pkcs8_key(struct ncr_der_wr *w, const void *arg)
{
	const struct ncr_pk *pk = arg;

	return pk->ops->put_pkcs8(w, pk);
}

/* PKCS#8 { 0, AlgorithmIdentifier, OCTET STRING { privateKey } } */
static int put_pkcs8(struct ncr_der_wr *w, const void *arg)
{
	int err = ncr_der_put_int(w, NULL);

	if (!err)
		err = ncr_der_put_tlv(w, NCR_DER_SEQ, put_algid, arg);
	return err ? err : ncr_der_put_tlv(w, NCR_DER_OCTSTR, put_pkcs8_key,
					   arg);
}

int ncr_der_put_pkcs8(struct ncr_der_wr *w, const struct ncr_pk *pk)
{
	return ncr_der_put_tlv(w, NCR_DER_SEQ, put_pkcs8, pk);
}

int ncr_der_encode_public(const struct ncr_pk *pk, u8 *out, size_t *len)
{
	struct ncr_der_wr w = { out, out ? *len : 0, 0 };

	if (!pk->ops)
		return -EINVAL;
	return ncr_der_finish(&w, out, len,
			      ncr_der_put_tlv(&w, NCR_DER_SEQ, put_spki, pk));
}

int ncr_der_encode_private(const struct ncr_pk *pk, u8 *out, size_t *len)
{
	struct ncr_der_wr w = { out, out ? *len : 0, 0 };
	int err;

	if (!pk->ops || !pk->is_private)
		return -EINVAL;
	if (pk->ops->put_private)
		err = pk->ops->put_private(&w, pk);
	else
		err = ncr_der_put_pkcs8(&w, pk);
	return ncr_der_finish(&w, out, len, err);
}
