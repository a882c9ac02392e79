// SPDX-License-Identifier: GPL-2.0
/* Strict DER encoding and decoding of RSA/DSA/DH keys and DSA signatures. */
#include "der.h"

#define TAG_INT 0x02
#define TAG_BITSTR 0x03
#define TAG_OCTSTR 0x04
#define TAG_NULL 0x05
#define TAG_OID 0x06
#define TAG_SEQ 0x30
#define TAG_CTX0 0xa0		/* PKCS#8 [0] attributes */

/* Full TLVs of the algorithm OIDs. */
static const u8 oid_rsa[] = {	/* 1.2.840.113549.1.1.1 rsaEncryption */
	0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01 };
static const u8 oid_dsa[] = {	/* 1.2.840.10040.4.1 id-dsa */
	0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x38, 0x04, 0x01 };
static const u8 oid_dh[] = {	/* 1.2.840.113549.1.3.1 dhKeyAgreement */
	0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x03, 0x01 };
static const u8 der_null[] = { TAG_NULL, 0x00 };

/* ---- decoding ---- */

struct der {
	const u8 *p;
	size_t len;
};

/* Reads one TLV with the given tag; definite, minimal lengths < 2^24. */
static int der_get(struct der *d, u8 tag, struct der *content)
{
	size_t l, n, pos = 2, i;

	if (d->len < 2 || d->p[0] != tag)
		return -EINVAL;
	l = d->p[1];
	if (l & 0x80) {
		n = l & 0x7f;
		/* 0: indefinite (BER only); > 3: absurd for a key */
		if (n == 0 || n > 3 || d->len - 2 < n || d->p[2] == 0)
			return -EINVAL;
		for (l = 0, i = 0; i < n; i++)
			l = (l << 8) | d->p[2 + i];
		if (l < 0x80)
			return -EINVAL;
		pos += n;
	}
	if (l > d->len - pos)
		return -EINVAL;
	content->p = d->p + pos;
	content->len = l;
	d->p += pos + l;
	d->len -= pos + l;
	return 0;
}

static u8 der_peek(const struct der *d)
{
	return d->len ? d->p[0] : 0;
}

/* A non-negative, minimally encoded INTEGER of sane size. */
static int der_get_uint(struct der *d, mp_int *v)
{
	struct der c;
	int err = der_get(d, TAG_INT, &c);

	if (err)
		return err;
	if (c.len == 0 || (c.p[0] & 0x80) || c.len > NCR_PK_MAX_BYTES + 1)
		return -EINVAL;
	if (c.len > 1 && c.p[0] == 0 && !(c.p[1] & 0x80))
		return -EINVAL;
	return ncr_mp_from_be(v, c.p, c.len);
}

static int der_get_zero(struct der *d)
{
	struct der c;
	int err = der_get(d, TAG_INT, &c);

	if (err)
		return err;
	return c.len == 1 && c.p[0] == 0 ? 0 : -EINVAL;
}

static int der_get_uints(struct der *d, mp_int *const *v, int n)
{
	int i, err = 0;

	for (i = 0; i < n && !err; i++)
		err = der_get_uint(d, v[i]);
	return err;
}

/* The whole of d must be one SEQUENCE; *inner gets its content. */
static int der_get_only_seq(const u8 *p, size_t len, struct der *inner)
{
	struct der d = { p, len };
	int err = der_get(&d, TAG_SEQ, inner);

	return err ? err : d.len ? -EINVAL : 0;
}

/* The whole of d must be one INTEGER. */
static int der_get_only_uint(struct der d, mp_int *v)
{
	int err = der_get_uint(&d, v);

	return err ? err : d.len ? -EINVAL : 0;
}

static int der_end(const struct der *d)
{
	return d->len ? -EINVAL : 0;
}

static const u8 *algo_oid(enum ncr_pk_algo algo, size_t *len)
{
	switch (algo) {
	case NCR_PK_RSA:
		*len = sizeof(oid_rsa);
		return oid_rsa;
	case NCR_PK_DSA:
		*len = sizeof(oid_dsa);
		return oid_dsa;
	case NCR_PK_DH:
		*len = sizeof(oid_dh);
		return oid_dh;
	default:
		*len = 0;
		return NULL;
	}
}

/* AlgorithmIdentifier for algo; sets the domain parameters of pk. */
static int der_get_algid(struct der *d, struct ncr_pk *pk)
{
	struct der a, params;
	size_t olen;
	const u8 *oid = algo_oid(pk->algo, &olen);
	int err = der_get(d, TAG_SEQ, &a);

	if (err)
		return err;
	if (a.len < olen || memcmp(a.p, oid, olen))
		return -EINVAL;
	a.p += olen;
	a.len -= olen;
	switch (pk->algo) {
	case NCR_PK_RSA:
		/* parameters NULL, as RFC 3279 requires and OpenSSL writes */
		return a.len == sizeof(der_null) &&
		       !memcmp(a.p, der_null, sizeof(der_null)) ? 0 : -EINVAL;
	case NCR_PK_DSA:
		err = der_get(&a, TAG_SEQ, &params);
		if (!err)
			err = der_get_uint(&params, &pk->dsa.p);
		if (!err)
			err = der_get_uint(&params, &pk->dsa.q);
		if (!err)
			err = der_get_uint(&params, &pk->dsa.g);
		break;
	case NCR_PK_DH:
		err = der_get(&a, TAG_SEQ, &params);
		if (!err)
			err = der_get_uint(&params, &pk->dh.p);
		if (!err)
			err = der_get_uint(&params, &pk->dh.g);
		/* PKCS#3 optional privateValueLength: checked, not kept */
		if (!err && params.len) {
			mp_int l;

			err = ncr_mp_errno(mp_init(&l));
			if (!err) {
				err = der_get_uint(&params, &l);
				mp_clear(&l);
			}
		}
		break;
	default:
		return -EINVAL;
	}
	if (!err)
		err = der_end(&params);
	return err ? err : der_end(&a);
}

static int rsa_get_public(struct der seq, struct ncr_rsa_key *k)
{
	mp_int *const v[] = { &k->n, &k->e };
	int err = der_get_uints(&seq, v, 2);

	return err ? err : der_end(&seq);
}

static int rsa_get_private(struct der seq, struct ncr_rsa_key *k)
{
	mp_int *const v[] = { &k->n, &k->e, &k->d, &k->p, &k->q, &k->dp,
			      &k->dq, &k->qinv };
	int err = der_get_zero(&seq);	/* version 0: two primes only */

	if (!err)
		err = der_get_uints(&seq, v, 8);
	if (!err)
		err = der_end(&seq);
	if (!err)
		k->has_private = true;
	return err;
}

static int check_key(struct ncr_pk *pk)
{
	switch (pk->algo) {
	case NCR_PK_RSA:
		pk->is_private = pk->rsa.has_private;
		return ncr_rsa_check_key(&pk->rsa);
	case NCR_PK_DSA:
		pk->is_private = pk->dsa.has_private;
		return ncr_dsa_check_key(&pk->dsa);
	case NCR_PK_DH:
		pk->is_private = pk->dh.has_private;
		return ncr_dh_check_key(&pk->dh);
	default:
		return -EINVAL;
	}
}

/* SubjectPublicKeyInfo content (after the outer SEQUENCE header). */
static int spki_get(struct der seq, struct ncr_pk *pk)
{
	struct der bits, key;
	int err = der_get_algid(&seq, pk);

	if (!err)
		err = der_get(&seq, TAG_BITSTR, &bits);
	if (!err)
		err = der_end(&seq);
	if (err)
		return err;
	/* no unused bits */
	if (bits.len < 1 || bits.p[0] != 0)
		return -EINVAL;
	bits.p++;
	bits.len--;
	switch (pk->algo) {
	case NCR_PK_RSA:
		err = der_get_only_seq(bits.p, bits.len, &key);
		return err ? err : rsa_get_public(key, &pk->rsa);
	case NCR_PK_DSA:
		return der_get_only_uint(bits, &pk->dsa.y);
	case NCR_PK_DH:
		return der_get_only_uint(bits, &pk->dh.y);
	default:
		return -EINVAL;
	}
}

int ncr_der_decode_public(struct ncr_pk *pk, enum ncr_pk_algo algo,
			  const u8 *der, size_t len)
{
	struct der seq;
	int err = ncr_pk_key_init(pk, algo);

	if (err)
		return err;
	err = der_get_only_seq(der, len, &seq);
	if (err)
		goto out;
	if (algo == NCR_PK_RSA && der_peek(&seq) == TAG_INT)
		err = rsa_get_public(seq, &pk->rsa);	/* PKCS#1 */
	else
		err = spki_get(seq, pk);
	if (!err)
		err = check_key(pk);
out:
	if (err)
		ncr_pk_key_clear(pk);
	return err;
}

/* y = g^x mod p for keys whose private encoding lacks y. */
static int derive_y(const mp_int *g, const mp_int *x, const mp_int *p,
		    mp_int *y)
{
	if (mp_iszero(p) || mp_isneg(x))
		return -EINVAL;
	return ncr_mp_errno(mp_exptmod(g, x, p, y));
}

/* PKCS#8 PrivateKeyInfo content after the version. */
static int pkcs8_get(struct der seq, struct ncr_pk *pk)
{
	struct der oct, attrs, inner;
	int err = der_get_algid(&seq, pk);

	if (!err)
		err = der_get(&seq, TAG_OCTSTR, &oct);
	if (!err && der_peek(&seq) == TAG_CTX0)
		err = der_get(&seq, TAG_CTX0, &attrs);	/* ignored */
	if (!err)
		err = der_end(&seq);
	if (err)
		return err;
	switch (pk->algo) {
	case NCR_PK_RSA:
		err = der_get_only_seq(oct.p, oct.len, &inner);
		return err ? err : rsa_get_private(inner, &pk->rsa);
	case NCR_PK_DSA:
		err = der_get_only_uint(oct, &pk->dsa.x);
		if (!err)
			err = derive_y(&pk->dsa.g, &pk->dsa.x, &pk->dsa.p,
				       &pk->dsa.y);
		pk->dsa.has_private = !err;
		return err;
	case NCR_PK_DH:
		err = der_get_only_uint(oct, &pk->dh.x);
		if (!err)
			err = derive_y(&pk->dh.g, &pk->dh.x, &pk->dh.p,
				       &pk->dh.y);
		pk->dh.has_private = !err;
		return err;
	default:
		return -EINVAL;
	}
}

static int dsa_get_private(struct der seq, struct ncr_dsa_key *k)
{
	mp_int *const v[] = { &k->p, &k->q, &k->g, &k->y, &k->x };
	int err = der_get_uints(&seq, v, 5);

	if (!err)
		err = der_end(&seq);
	k->has_private = !err;
	return err;
}

int ncr_der_decode_private(struct ncr_pk *pk, enum ncr_pk_algo algo,
			   const u8 *der, size_t len)
{
	struct der seq, rest;
	int err = ncr_pk_key_init(pk, algo);

	if (err)
		return err;
	err = der_get_only_seq(der, len, &seq);
	if (err)
		goto out;
	rest = seq;
	err = der_get_zero(&rest);
	if (err)
		goto out;
	if (der_peek(&rest) == TAG_SEQ)
		err = pkcs8_get(rest, pk);
	else if (algo == NCR_PK_RSA)
		err = rsa_get_private(seq, &pk->rsa);
	else if (algo == NCR_PK_DSA)
		err = dsa_get_private(rest, &pk->dsa);
	else
		err = -EINVAL;
	if (!err)
		err = check_key(pk);
out:
	if (err)
		ncr_pk_key_clear(pk);
	return err;
}

int ncr_der_decode_dsa_sig(const u8 *der, size_t len, mp_int *r, mp_int *s)
{
	struct der seq;
	int err = der_get_only_seq(der, len, &seq);

	if (!err)
		err = der_get_uint(&seq, r);
	if (!err)
		err = der_get_uint(&seq, s);
	return err ? err : der_end(&seq);
}

/* ---- encoding ---- */

struct wr {
	u8 *out;	/* NULL: only measure */
	size_t cap, pos;
};

static size_t hdr_len(size_t len)
{
	return len < 0x80 ? 2 : len < 0x100 ? 3 : len < 0x10000 ? 4 : 5;
}

static size_t tlv_len(size_t len)
{
	return hdr_len(len) + len;
}

/* Content length of INTEGER v (NULL means 0). */
static size_t int_len(const mp_int *v)
{
	int bits = v ? mp_count_bits(v) : 0;

	/* a leading 0x00 when the top bit of the first byte is set */
	return bits == 0 ? 1 : (size_t)bits / 8 + 1;
}

static void w_bytes(struct wr *w, const u8 *p, size_t n)
{
	if (w->out && w->pos + n <= w->cap)
		memcpy(w->out + w->pos, p, n);
	w->pos += n;
}

static void w_hdr(struct wr *w, u8 tag, size_t len)
{
	u8 h[5];
	size_t n = hdr_len(len), i;

	h[0] = tag;
	if (n == 2) {
		h[1] = (u8)len;
	} else {
		h[1] = (u8)(0x80 | (n - 2));
		for (i = 0; i < n - 2; i++)
			h[n - 1 - i] = (u8)(len >> (8 * i));
	}
	w_bytes(w, h, n);
}

static int w_int(struct wr *w, const mp_int *v)
{
	size_t n = int_len(v);

	w_hdr(w, TAG_INT, n);
	if (w->out && w->pos + n <= w->cap) {
		int err = v ? ncr_mp_to_fixed(v, w->out + w->pos, n) : 0;

		if (!v)
			w->out[w->pos] = 0;
		if (err)
			return err;
	}
	w->pos += n;
	return 0;
}

static size_t ints_len(const mp_int *const *v, int n)
{
	size_t l = 0;
	int i;

	for (i = 0; i < n; i++)
		l += tlv_len(int_len(v[i]));
	return l;
}

/* SEQUENCE of the given INTEGERs. */
static int w_int_seq(struct wr *w, const mp_int *const *v, int n)
{
	int i, err = 0;

	w_hdr(w, TAG_SEQ, ints_len(v, n));
	for (i = 0; i < n && !err; i++)
		err = w_int(w, v[i]);
	return err;
}

/* Domain parameters of pk in its AlgorithmIdentifier, as INTEGER list. */
static int algo_params(const struct ncr_pk *pk, const mp_int **v)
{
	switch (pk->algo) {
	case NCR_PK_DSA:
		v[0] = &pk->dsa.p;
		v[1] = &pk->dsa.q;
		v[2] = &pk->dsa.g;
		return 3;
	case NCR_PK_DH:
		v[0] = &pk->dh.p;
		v[1] = &pk->dh.g;
		return 2;
	default:
		return 0;
	}
}

static size_t algid_content_len(const struct ncr_pk *pk)
{
	const mp_int *v[3];
	int n = algo_params(pk, v);
	size_t olen;

	algo_oid(pk->algo, &olen);
	if (pk->algo == NCR_PK_RSA)
		return olen + sizeof(der_null);
	return olen + tlv_len(ints_len(v, n));
}

static int w_algid(struct wr *w, const struct ncr_pk *pk)
{
	const mp_int *v[3];
	int n = algo_params(pk, v);
	size_t olen;
	const u8 *oid = algo_oid(pk->algo, &olen);

	w_hdr(w, TAG_SEQ, algid_content_len(pk));
	w_bytes(w, oid, olen);
	if (pk->algo == NCR_PK_RSA) {
		w_bytes(w, der_null, sizeof(der_null));
		return 0;
	}
	return w_int_seq(w, v, n);
}

/* The subjectPublicKey content (inside the BIT STRING). */
static size_t pubkey_len(const struct ncr_pk *pk)
{
	const mp_int *rsa[] = { &pk->rsa.n, &pk->rsa.e };

	switch (pk->algo) {
	case NCR_PK_RSA:
		return tlv_len(ints_len(rsa, 2));
	case NCR_PK_DSA:
		return tlv_len(int_len(&pk->dsa.y));
	default:
		return tlv_len(int_len(&pk->dh.y));
	}
}

static int w_pubkey(struct wr *w, const struct ncr_pk *pk)
{
	const mp_int *rsa[] = { &pk->rsa.n, &pk->rsa.e };

	switch (pk->algo) {
	case NCR_PK_RSA:
		return w_int_seq(w, rsa, 2);
	case NCR_PK_DSA:
		return w_int(w, &pk->dsa.y);
	default:
		return w_int(w, &pk->dh.y);
	}
}

static int finish(struct wr *w, u8 *out, size_t *len, int err)
{
	if (err)
		return err;
	if (!out) {
		*len = w->pos;
		return 0;
	}
	if (w->pos > w->cap) {
		memzero_explicit(out, w->cap);
		*len = w->pos;
		return -ENOSPC;
	}
	*len = w->pos;
	return 0;
}

int ncr_der_encode_public(const struct ncr_pk *pk, u8 *out, size_t *len)
{
	struct wr w = { out, out ? *len : 0, 0 };
	size_t bits, content;
	u8 zero = 0;
	int err;

	if (pk->algo != NCR_PK_RSA && pk->algo != NCR_PK_DSA &&
	    pk->algo != NCR_PK_DH)
		return -EINVAL;
	if (pk->algo == NCR_PK_DH && mp_iszero(&pk->dh.p))
		return -EINVAL;	/* a bare DH value has no parameters */
	bits = 1 + pubkey_len(pk);
	content = tlv_len(algid_content_len(pk)) + tlv_len(bits);
	w_hdr(&w, TAG_SEQ, content);
	err = w_algid(&w, pk);
	w_hdr(&w, TAG_BITSTR, bits);
	w_bytes(&w, &zero, 1);
	if (!err)
		err = w_pubkey(&w, pk);
	return finish(&w, out, len, err);
}

int ncr_der_encode_private(const struct ncr_pk *pk, u8 *out, size_t *len)
{
	struct wr w = { out, out ? *len : 0, 0 };
	const struct ncr_rsa_key *r = &pk->rsa;
	const struct ncr_dsa_key *d = &pk->dsa;
	const mp_int *rv[] = { NULL, &r->n, &r->e, &r->d, &r->p, &r->q,
			       &r->dp, &r->dq, &r->qinv };
	const mp_int *dv[] = { NULL, &d->p, &d->q, &d->g, &d->y, &d->x };
	size_t oct, content;
	int err;

	if (!pk->is_private)
		return -EINVAL;
	switch (pk->algo) {
	case NCR_PK_RSA:
		err = w_int_seq(&w, rv, 9);
		break;
	case NCR_PK_DSA:
		err = w_int_seq(&w, dv, 6);
		break;
	case NCR_PK_DH:
		/* PKCS#8 { 0, AlgId { dhKeyAgreement, {p, g} }, OCTET { x } } */
		oct = tlv_len(int_len(&pk->dh.x));
		content = tlv_len(int_len(NULL)) +
			  tlv_len(algid_content_len(pk)) + tlv_len(oct);
		w_hdr(&w, TAG_SEQ, content);
		err = w_int(&w, NULL);
		if (!err)
			err = w_algid(&w, pk);
		w_hdr(&w, TAG_OCTSTR, oct);
		if (!err)
			err = w_int(&w, &pk->dh.x);
		break;
	default:
		return -EINVAL;
	}
	return finish(&w, out, len, err);
}

int ncr_der_encode_dsa_sig(const mp_int *r, const mp_int *s, u8 *out,
			   size_t *len)
{
	struct wr w = { out, out ? *len : 0, 0 };
	const mp_int *v[] = { r, s };

	return finish(&w, out, len, w_int_seq(&w, v, 2));
}
