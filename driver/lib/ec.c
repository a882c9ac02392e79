// SPDX-License-Identifier: GPL-2.0
/* Elliptic-curve keys: curves, ranges, DER, ECDSA, ECDH and X25519. */
#include "pk_key.h"
#include "der.h"
#include "hmac_drbg.h"

static const char *const p256_names[] = {
	NCR_ECC_CURVE_P256, "prime256v1", "secp256r1", NULL };
static const char *const p384_names[] = {
	NCR_ECC_CURVE_P384, "secp384r1", NULL };
static const char *const x25519_names[] = {
	NCR_ECC_CURVE_X25519, "X25519", NULL };

static const u8 p256_oid[] = {	/* 1.2.840.10045.3.1.7 prime256v1 */
	0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
static const u8 p384_oid[] = {	/* 1.3.132.0.34 secp384r1 */
	0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22 };
static const u8 x25519_oid[] = {	/* 1.3.101.110 id-X25519 */
	0x06, 0x03, 0x2b, 0x65, 0x6e };
static const u8 ec_public_key_oid[] = {	/* 1.2.840.10045.2.1 */
	0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01 };

static const u8 p256_n[] = {
	0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84,
	0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51 };
static const u8 p384_n[] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xc7, 0x63, 0x4d, 0x81, 0xf4, 0x37, 0x2d, 0xdf,
	0x58, 0x1a, 0x0d, 0xb2, 0x48, 0xb0, 0xa7, 0x7a,
	0xec, 0xec, 0x19, 0x6a, 0xcc, 0xc5, 0x29, 0x73 };

/*
 * The orders of the NIST curves are whole bytes long, so bits2int of
 * RFC 6979 2.3.2 is "the leftmost nbytes bytes" throughout.
 */
static const struct ncr_ec_curve ec_curves[] = {
	{ NCR_ECC_CURVE_P256, p256_names, NCR_EC_NIST, NCR_EC_MATH_P256,
	  32, 256, 128, p256_oid, sizeof(p256_oid), p256_n },
	{ NCR_ECC_CURVE_P384, p384_names, NCR_EC_NIST, NCR_EC_MATH_P384,
	  48, 384, 192, p384_oid, sizeof(p384_oid), p384_n },
	{ NCR_ECC_CURVE_X25519, x25519_names, NCR_EC_X25519, 0,
	  NCR_X25519_BYTES, 253, 128, x25519_oid, sizeof(x25519_oid), NULL },
};

#define EC_NCURVES (sizeof(ec_curves) / sizeof(ec_curves[0]))
#define EC_SIG_MAX 104		/* P-384: 2 * (2 + 49) + 2 */
#define EC_NONCE_EXTRA 32	/* hedging bytes (RFC 6979 3.6) */
#define EC_MAX_TRIES 64		/* k or d rejected 64 times: the RNG is broken */

const struct ncr_ec_curve *ncr_ec_curve_find(const char *name)
{
	size_t i, j;

	if (!name)
		return NULL;
	for (i = 0; i < EC_NCURVES; i++)
		for (j = 0; ec_curves[i].aliases[j]; j++)
			if (!strcmp(name, ec_curves[i].aliases[j]))
				return &ec_curves[i];
	return NULL;
}

static bool ec_is_nist(const struct ncr_ec_curve *c)
{
	return c->kind == NCR_EC_NIST;
}

/* The stored public value: X || Y, or u. */
static size_t ec_pub_len(const struct ncr_ec_curve *c)
{
	return ec_is_nist(c) ? 2 * c->nbytes : c->nbytes;
}

/* 0 < x < n, without branches on x (d and k are secrets). */
static bool ec_in_range(const u8 *x, const u8 *n, size_t len)
{
	unsigned int lt = 0, gt = 0, nz = 0, undecided;
	size_t i;

	for (i = 0; i < len; i++) {
		undecided = 1 ^ (lt | gt);
		lt |= undecided & (((unsigned int)x[i] - n[i]) >> 8 & 1);
		gt |= undecided & (((unsigned int)n[i] - x[i]) >> 8 & 1);
		nz |= x[i];
	}
	return lt & ((nz + 0xff) >> 8);
}

/* A uniform scalar in [1, n - 1] by rejection (n is close to 2^bits). */
static int ec_rand_scalar(const struct ncr_ec_curve *c, u8 *x)
{
	int i, err;

	for (i = 0; i < EC_MAX_TRIES; i++) {
		err = ncr_random_bytes(x, c->nbytes);
		if (err)
			return err;
		if (ec_in_range(x, c->order, c->nbytes))
			return 0;
	}
	return -EIO;
}

static int ec_make_pub(const struct ncr_ec_curve *c, const u8 *d, u8 *pub)
{
	if (!ec_is_nist(c))
		return ncr_ec_math_x25519_base(pub, d);
	if (!ec_in_range(d, c->order, c->nbytes))
		return -EINVAL;
	return ncr_ec_math_pub(c->math_id, c->nbytes, d, pub);
}

/* ---- key life cycle ---- */

static int ec_init(struct ncr_pk *pk)
{
	memset(&pk->ec, 0, sizeof(pk->ec));
	return 0;
}

static void ec_clear(struct ncr_pk *pk)
{
	memzero_explicit(&pk->ec, sizeof(pk->ec));
}

/* An imported key: d in range and the public value d * G (or given). */
static int ec_check(struct ncr_pk *pk)
{
	struct ncr_ec_key *k = &pk->ec;
	const struct ncr_ec_curve *c = k->curve;
	u8 pub[2 * NCR_EC_MAX_BYTES];
	int err;

	pk->is_private = false;
	if (!c)
		return -EINVAL;
	if (!k->has_private) {
		if (!k->has_pub)
			return -EINVAL;
		return ec_is_nist(c) ?
		       ncr_ec_math_check_pub(c->math_id, c->nbytes, k->pub) : 0;
	}
	err = ec_make_pub(c, k->d, pub);
	if (!err && k->has_pub &&
	    crypto_memneq(pub, k->pub, ec_pub_len(c)))
		err = -EINVAL;
	if (!err) {
		memcpy(k->pub, pub, ec_pub_len(c));
		k->has_pub = true;
		pk->is_private = true;
	}
	return err;
}

static int ec_generate(struct ncr_pk *pk, struct nlattr *tb[])
{
	struct ncr_ec_key *k = &pk->ec;
	const struct ncr_ec_curve *c;
	int err;

	c = ncr_ec_curve_find(ncr_pk_attr_str(tb, NCR_ATTR_ECC_CURVE));
	if (!c)
		return -EINVAL;
	k->curve = c;
	if (ec_is_nist(c)) {
		err = ec_rand_scalar(c, k->d);
	} else {
		/* RFC 7748 5: the clamped form, as OpenSSL stores it */
		err = ncr_random_bytes(k->d, c->nbytes);
		k->d[0] &= 248;
		k->d[31] = (k->d[31] & 127) | 64;
	}
	if (!err)
		err = ec_make_pub(c, k->d, k->pub);
	k->has_pub = k->has_private = !err;
	return err;
}

static int ec_copy_public(struct ncr_pk *dst, const struct ncr_pk *src)
{
	const struct ncr_ec_key *s = &src->ec;
	struct ncr_ec_key *d = &dst->ec;

	if (!s->curve || !s->has_pub)
		return -EINVAL;
	d->curve = s->curve;
	memcpy(d->pub, s->pub, sizeof(d->pub));
	d->has_pub = true;
	d->has_private = false;
	return 0;
}

static unsigned int ec_bits(const struct ncr_pk *pk)
{
	return pk->ec.curve ? pk->ec.curve->bits : 0;
}

static unsigned int ec_strength(const struct ncr_pk *pk)
{
	return pk->ec.curve ? pk->ec.curve->strength : 0;
}

/* Longest signature (NIST), or the shared secret (X25519). */
static size_t ec_max_len(const struct ncr_pk *pk)
{
	const struct ncr_ec_curve *c = pk->ec.curve;

	if (!c)
		return 0;
	/* SEQUENCE { INTEGER r, INTEGER s }, each with a 0x00 at most */
	return ec_is_nist(c) ? 2 * (2 + c->nbytes + 1) + 2 : c->nbytes;
}

static const char *ec_curve_name(const struct ncr_pk *pk)
{
	return pk->ec.curve ? pk->ec.curve->name : NULL;
}

static bool ec_supports(const struct ncr_pk *pk, u32 op)
{
	return pk->ec.curve && ec_is_nist(pk->ec.curve) &&
	       (op == NCR_OP_SIGN || op == NCR_OP_VERIFY);
}

/* ---- DER ---- */

/*
 * The whole AlgorithmIdentifier content: id-ecPublicKey with a namedCurve
 * (explicit parameters are refused), or id-X25519 without parameters.
 */
static int ec_get_params(struct ncr_pk *pk, struct ncr_der a)
{
	const size_t al = sizeof(ec_public_key_oid);
	const struct ncr_ec_curve *c;
	size_t i;

	for (i = 0; i < EC_NCURVES; i++) {
		c = &ec_curves[i];
		if (!ec_is_nist(c)) {
			if (a.len == c->oid_len && !memcmp(a.p, c->oid, a.len))
				break;
		} else if (a.len == al + c->oid_len &&
			   !memcmp(a.p, ec_public_key_oid, al) &&
			   !memcmp(a.p + al, c->oid, c->oid_len)) {
			break;
		}
	}
	if (i == EC_NCURVES)
		return -EINVAL;
	pk->ec.curve = c;
	return 0;
}

static int ec_put_params(struct ncr_der_wr *w, const struct ncr_pk *pk)
{
	const struct ncr_ec_curve *c = pk->ec.curve;

	if (!c)
		return -EINVAL;
	if (ec_is_nist(c))
		ncr_der_put_bytes(w, ec_public_key_oid,
				  sizeof(ec_public_key_oid));
	ncr_der_put_bytes(w, c->oid, c->oid_len);
	return 0;
}

/* The subjectPublicKey: 0x04 || X || Y (uncompressed only), or u. */
static int ec_get_point(const struct ncr_ec_curve *c, struct ncr_ec_key *k,
			struct ncr_der key)
{
	if (ec_is_nist(c)) {
		if (key.len != 1 + 2 * c->nbytes || key.p[0] != 0x04)
			return -EINVAL;
		key.p++;
		key.len--;
	} else if (key.len != c->nbytes) {
		return -EINVAL;
	}
	memcpy(k->pub, key.p, key.len);
	k->has_pub = true;
	return 0;
}

static int ec_get_public(struct ncr_pk *pk, struct ncr_der key)
{
	/* a bare point carries no curve: SubjectPublicKeyInfo only */
	if (!pk->ec.curve)
		return -EINVAL;
	return ec_get_point(pk->ec.curve, &pk->ec, key);
}

static int ec_put_public(struct ncr_der_wr *w, const struct ncr_pk *pk)
{
	const struct ncr_ec_key *k = &pk->ec;
	static const u8 uncompressed = 0x04;

	if (!k->curve || !k->has_pub)
		return -EINVAL;
	if (ec_is_nist(k->curve))
		ncr_der_put_bytes(w, &uncompressed, 1);
	ncr_der_put_bytes(w, k->pub, ec_pub_len(k->curve));
	return 0;
}

#define EC_DER_CTX1 0xa1	/* ECPrivateKey [1] publicKey */

/* [0] parameters: exactly a namedCurve; set or equal to the known one. */
static int ec_get_named_curve(struct ncr_ec_key *k, struct ncr_der p)
{
	const struct ncr_ec_curve *c = NULL;
	size_t i;

	for (i = 0; i < EC_NCURVES; i++)
		if (ec_is_nist(&ec_curves[i]) &&
		    p.len == ec_curves[i].oid_len &&
		    !memcmp(p.p, ec_curves[i].oid, p.len))
			c = &ec_curves[i];
	if (!c || (k->curve && k->curve != c))
		return -EINVAL;
	k->curve = c;
	return 0;
}

/* [1] publicKey: a BIT STRING without unused bits around the point. */
static int ec_get_ctx_point(struct ncr_ec_key *k, struct ncr_der p)
{
	struct ncr_der bits;
	int err = ncr_der_get(&p, NCR_DER_BITSTR, &bits);

	if (!err)
		err = ncr_der_end(&p);
	if (err || bits.len < 1 || bits.p[0] != 0)
		return -EINVAL;
	bits.p++;
	bits.len--;
	return ec_get_point(k->curve, k, bits);
}

/*
 * RFC 5915 ECPrivateKey content { 1, OCTET STRING d, [0] namedCurve
 * OPTIONAL, [1] publicKey OPTIONAL }; the curve must be known at the end
 * (from [0] or the PKCS#8 AlgorithmIdentifier).  ec_check() recomputes
 * the public point and compares it with [1].
 */
static int ec_get_ecprivatekey(struct ncr_pk *pk, struct ncr_der seq)
{
	struct ncr_ec_key *k = &pk->ec;
	struct ncr_der ver, d, ctx;
	int err = ncr_der_get(&seq, NCR_DER_INT, &ver);

	if (!err && (ver.len != 1 || ver.p[0] != 1))
		err = -EINVAL;
	if (!err)
		err = ncr_der_get(&seq, NCR_DER_OCTSTR, &d);
	if (!err && ncr_der_peek(&seq) == NCR_DER_CTX0) {
		err = ncr_der_get(&seq, NCR_DER_CTX0, &ctx);
		if (!err)
			err = ec_get_named_curve(k, ctx);
	}
	if (!err && (!k->curve || !ec_is_nist(k->curve) ||
		     d.len != k->curve->nbytes))
		err = -EINVAL;
	if (!err && ncr_der_peek(&seq) == EC_DER_CTX1) {
		err = ncr_der_get(&seq, EC_DER_CTX1, &ctx);
		if (!err)
			err = ec_get_ctx_point(k, ctx);
	}
	if (!err)
		err = ncr_der_end(&seq);
	if (err)
		return err;
	memcpy(k->d, d.p, d.len);
	k->has_private = true;
	return 0;
}

/* The PKCS#8 privateKey: an ECPrivateKey, or CurvePrivateKey (RFC 8410). */
static int ec_get_pkcs8(struct ncr_pk *pk, struct ncr_der key)
{
	const struct ncr_ec_curve *c = pk->ec.curve;
	struct ncr_der in;
	int err;

	if (!c)
		return -EINVAL;
	if (ec_is_nist(c)) {
		err = ncr_der_get_only_seq(key.p, key.len, &in);
		return err ? err : ec_get_ecprivatekey(pk, in);
	}
	err = ncr_der_get(&key, NCR_DER_OCTSTR, &in);
	if (!err)
		err = ncr_der_end(&key);
	if (!err && in.len != c->nbytes)
		err = -EINVAL;
	if (err)
		return err;
	memcpy(pk->ec.d, in.p, in.len);
	pk->ec.has_private = true;
	return 0;
}

/* A bare private key in its own format: only the ECPrivateKey has one. */
static int ec_get_private(struct ncr_pk *pk, struct ncr_der seq)
{
	return ec_get_ecprivatekey(pk, seq);
}

static int ec_put_curve(struct ncr_der_wr *w, const void *arg)
{
	const struct ncr_ec_curve *c = arg;

	ncr_der_put_bytes(w, c->oid, c->oid_len);
	return 0;
}

static int ec_put_point_bits(struct ncr_der_wr *w, const void *arg)
{
	static const u8 unused_bits;

	ncr_der_put_bytes(w, &unused_bits, 1);
	return ec_put_public(w, arg);
}

static int ec_put_ctx_point(struct ncr_der_wr *w, const void *arg)
{
	return ncr_der_put_tlv(w, NCR_DER_BITSTR, ec_put_point_bits, arg);
}

/* ECPrivateKey content, as `openssl ec -outform DER` writes it. */
static int ec_put_ecprivatekey(struct ncr_der_wr *w, const void *arg)
{
	const struct ncr_pk *pk = arg;
	const struct ncr_ec_curve *c = pk->ec.curve;
	static const u8 version[] = { NCR_DER_INT, 1, 1 };
	int err;

	ncr_der_put_bytes(w, version, sizeof(version));
	ncr_der_put_hdr(w, NCR_DER_OCTSTR, c->nbytes);
	ncr_der_put_bytes(w, pk->ec.d, c->nbytes);
	err = ncr_der_put_tlv(w, NCR_DER_CTX0, ec_put_curve, c);
	return err ? err : ncr_der_put_tlv(w, EC_DER_CTX1, ec_put_ctx_point,
					   pk);
}

static int ec_put_pkcs8(struct ncr_der_wr *w, const struct ncr_pk *pk)
{
	const struct ncr_ec_curve *c = pk->ec.curve;

	if (!c || !pk->ec.has_private)
		return -EINVAL;
	if (ec_is_nist(c))
		return ncr_der_put_tlv(w, NCR_DER_SEQ, ec_put_ecprivatekey, pk);
	ncr_der_put_hdr(w, NCR_DER_OCTSTR, c->nbytes);
	ncr_der_put_bytes(w, pk->ec.d, c->nbytes);
	return 0;
}

/* NIST keys leave as an ECPrivateKey, X25519 keys as PKCS#8. */
static int ec_put_private(struct ncr_der_wr *w, const struct ncr_pk *pk)
{
	const struct ncr_ec_curve *c = pk->ec.curve;

	if (!c || !pk->ec.has_private)
		return -EINVAL;
	if (ec_is_nist(c))
		return ncr_der_put_tlv(w, NCR_DER_SEQ, ec_put_ecprivatekey, pk);
	return ncr_der_put_pkcs8(w, pk);
}

/* ---- ECDSA ---- */

/* e = bits2int(digest) (RFC 6979 2.3.2, SEC 1 4.1.3 step 5). */
static void ec_bits2int(const struct ncr_ec_curve *c, const u8 *digest,
			size_t dlen, u8 *e)
{
	size_t n = dlen < c->nbytes ? dlen : c->nbytes;

	memset(e, 0, c->nbytes - n);
	memcpy(e + c->nbytes - n, digest, n);
}

/* x = x - n when x >= n (x < 2n: bits2octets of RFC 6979 2.3.4). */
static void ec_reduce_once(const struct ncr_ec_curve *c, u8 *x)
{
	unsigned int borrow = 0, t;
	u8 diff[NCR_EC_MAX_BYTES];
	size_t i;

	for (i = c->nbytes; i-- > 0;) {
		t = (unsigned int)x[i] - c->order[i] - borrow;
		diff[i] = (u8)t;
		borrow = (t >> 8) & 1;
	}
	if (!borrow)
		memcpy(x, diff, c->nbytes);
}

/* The next candidate k in [1, n - 1] (RFC 6979 3.2 h). */
static int ec_next_nonce(const struct ncr_ec_curve *c,
			 struct ncr_hmac_drbg *drbg, bool first, u8 *k)
{
	int i, err = 0;

	for (i = 0; i < EC_MAX_TRIES; i++) {
		if (!first || i)
			err = ncr_hmac_drbg_reject(drbg);
		if (!err)
			err = ncr_hmac_drbg_generate(drbg, k, c->nbytes);
		if (err)
			return err;
		if (ec_in_range(k, c->order, c->nbytes))
			return 0;
	}
	return -EIO;
}

bool ncr_ec_verify_signatures;

/* r, s -> DER, after checking the signature if asked to. */
static int ec_sig_finish(const struct ncr_ec_key *k, const u8 *e,
			 const u8 *r, const u8 *s, u8 *sig, size_t *len)
{
	const struct ncr_ec_curve *c = k->curve;
	u8 buf[EC_SIG_MAX];
	size_t n = sizeof(buf);
	mp_int mr, ms;
	int err;

	if (ncr_ec_verify_signatures) {
		err = ncr_ec_math_verify(c->math_id, c->nbytes, k->pub, e, r,
					 s);
		if (err != 1)
			return err < 0 ? err : -EIO;
	}
	err = ncr_mp_errno(mp_init_multi(&mr, &ms, NULL));
	if (err)
		return err;
	err = ncr_mp_from_be(&mr, r, c->nbytes);
	if (!err)
		err = ncr_mp_from_be(&ms, s, c->nbytes);
	if (!err)
		err = ncr_der_encode_dsa_sig(&mr, &ms, buf, &n);
	if (!err && n > *len)
		err = -ERANGE;
	if (!err) {
		memcpy(sig, buf, n);
		*len = n;
	}
	mp_clear_multi(&mr, &ms, NULL);
	return err;
}

int ncr_ec_sign_digest(const struct ncr_ec_key *k,
		       const struct ncr_hash_ops *h, const u8 *digest,
		       size_t dlen, const u8 *extra, size_t extra_len,
		       u8 *sig, size_t *len)
{
	const struct ncr_ec_curve *c = k->curve;
	u8 e[NCR_EC_MAX_BYTES], h1[NCR_EC_MAX_BYTES], nonce[NCR_EC_MAX_BYTES];
	u8 b[NCR_EC_MAX_BYTES], r[NCR_EC_MAX_BYTES], s[NCR_EC_MAX_BYTES];
	struct ncr_hash_seg seed[3];
	struct ncr_hmac_drbg drbg;
	int i, err;

	if (!c || !ec_is_nist(c) || !k->has_private || !h)
		return -EINVAL;
	ec_bits2int(c, digest, dlen, e);
	memcpy(h1, e, c->nbytes);
	ec_reduce_once(c, h1);
	seed[0] = (struct ncr_hash_seg){ k->d, c->nbytes };
	seed[1] = (struct ncr_hash_seg){ h1, c->nbytes };
	seed[2] = (struct ncr_hash_seg){ extra, extra_len };
	err = ncr_hmac_drbg_init(&drbg, h, seed, extra_len ? 3 : 2);
	for (i = 0; !err && i < EC_MAX_TRIES; i++) {
		err = ec_next_nonce(c, &drbg, i == 0, nonce);
		if (!err)
			err = ec_rand_scalar(c, b);
		if (!err)
			err = ncr_ec_math_sign(c->math_id, c->nbytes, k->d,
					       nonce, b, e, r, s);
		if (err != -EAGAIN)
			break;
		err = 0;
	}
	if (!err && i == EC_MAX_TRIES)
		err = -EIO;
	if (!err)
		err = ec_sig_finish(k, e, r, s, sig, len);
	ncr_hmac_drbg_wipe(&drbg);
	memzero_explicit(nonce, sizeof(nonce));
	memzero_explicit(b, sizeof(b));
	/* a signature that failed its check may expose d: r, s go too */
	memzero_explicit(r, sizeof(r));
	memzero_explicit(s, sizeof(s));
	memzero_explicit(e, sizeof(e));
	memzero_explicit(h1, sizeof(h1));
	return err;
}

int ncr_ec_verify_digest(const struct ncr_ec_key *k, const u8 *digest,
			 size_t dlen, const u8 *sig, size_t len)
{
	const struct ncr_ec_curve *c = k->curve;
	u8 e[NCR_EC_MAX_BYTES], r[NCR_EC_MAX_BYTES], s[NCR_EC_MAX_BYTES];
	mp_int mr, ms;
	int err;

	if (!c || !ec_is_nist(c) || !k->has_pub)
		return -EINVAL;
	err = ncr_mp_errno(mp_init_multi(&mr, &ms, NULL));
	if (err)
		return err;
	err = ncr_der_decode_dsa_sig(sig, len, &mr, &ms);
	/* too large for n, malformed: invalid */
	if (!err)
		err = ncr_mp_to_fixed(&mr, r, c->nbytes);
	if (!err)
		err = ncr_mp_to_fixed(&ms, s, c->nbytes);
	mp_clear_multi(&mr, &ms, NULL);
	if (err)
		return err == -EINVAL ? 0 : err;
	if (!ec_in_range(r, c->order, c->nbytes) ||
	    !ec_in_range(s, c->order, c->nbytes))
		return 0;
	ec_bits2int(c, digest, dlen, e);
	return ncr_ec_math_verify(c->math_id, c->nbytes, k->pub, e, r, s);
}

static int ec_setup(struct ncr_pk_params *p, u32 op, struct nlattr *tb[],
		    ncr_pk_hash_fn hash)
{
	if (op != NCR_OP_SIGN && op != NCR_OP_VERIFY)
		return -EINVAL;
	/* the nonce's HMAC_DRBG hashes with the session's hash */
	p->pad_hash = op == NCR_OP_SIGN;
	return hash(ncr_pk_attr_str(tb, NCR_ATTR_SIGNATURE_HASH_ALGORITHM),
		    &p->hash);
}

static int ec_sign(struct ncr_pk *pk, const struct ncr_pk_params *p,
		   const u8 *digest, u8 *sig, size_t *len)
{
	u8 extra[EC_NONCE_EXTRA];
	int err = ncr_random_bytes(extra, sizeof(extra));

	if (!err)
		err = ncr_ec_sign_digest(&pk->ec, p->hops, digest,
					 ncr_pkcs1_hash_size(p->hash), extra,
					 sizeof(extra), sig, len);
	memzero_explicit(extra, sizeof(extra));
	return err;
}

static int ec_verify(const struct ncr_pk *pk, const struct ncr_pk_params *p,
		     const u8 *digest, const u8 *sig, size_t len)
{
	return ncr_ec_verify_digest(&pk->ec, digest,
				    ncr_pkcs1_hash_size(p->hash), sig, len);
}

/* ---- ECDH, X25519 ---- */

/* The peer's public value: the bare point or u, or its SPKI. */
static int ec_peer(const struct ncr_ec_curve *c, const u8 *peer, size_t len,
		   u8 *out)
{
	struct ncr_der raw = { peer, len };
	struct ncr_ec_key k;
	struct ncr_pk *spki;
	int err;

	if (!ec_get_point(c, &k, raw)) {
		memcpy(out, k.pub, ec_pub_len(c));
		return 0;
	}
	spki = ncr_pk_alloc();
	if (!spki)
		return -ENOMEM;
	err = ncr_der_decode_public(spki, &ncr_pk_ec, peer, len);
	if (!err && spki->ec.curve != c)
		err = -EINVAL;
	if (!err)
		memcpy(out, spki->ec.pub, ec_pub_len(c));
	ncr_pk_free(spki);
	return err;
}

static int ec_derive(const struct ncr_pk *pk, const u8 *peer, size_t peer_len,
		     u8 *out, size_t *len)
{
	const struct ncr_ec_key *k = &pk->ec;
	const struct ncr_ec_curve *c = k->curve;
	u8 q[2 * NCR_EC_MAX_BYTES];
	int err;

	if (!c || !k->has_private)
		return -EINVAL;
	if (*len < c->nbytes)
		return -ENOSPC;
	err = ec_peer(c, peer, peer_len, q);
	if (!err)
		err = ec_is_nist(c) ?
		      ncr_ec_math_ecdh(c->math_id, c->nbytes, k->d, q, out) :
		      ncr_ec_math_x25519(out, k->d, q);
	if (!err)
		*len = c->nbytes;
	return err;
}

const struct ncr_pk_ops ncr_pk_ec = {
	.name = "ecdsa",
	.derive_name = NCR_DERIVE_ECDH,
	.init = ec_init,
	.clear = ec_clear,
	.check = ec_check,
	.generate = ec_generate,
	.copy_public = ec_copy_public,
	.bits = ec_bits,
	.strength = ec_strength,
	.max_len = ec_max_len,
	.curve_name = ec_curve_name,
	.supports = ec_supports,
	.oid = NULL,		/* two algorithms: ec_get_params decides */
	.get_params = ec_get_params,
	.put_params = ec_put_params,
	.get_public = ec_get_public,
	.put_public = ec_put_public,
	.get_pkcs8 = ec_get_pkcs8,
	.put_pkcs8 = ec_put_pkcs8,
	.get_private = ec_get_private,
	.put_private = ec_put_private,
	.setup = ec_setup,
	.sign = ec_sign,
	.verify = ec_verify,
	.derive = ec_derive,
};
