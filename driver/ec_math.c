// SPDX-License-Identifier: GPL-2.0
/*
 * lib/ec_math.h on the kernel's crypto/ecc.c (P-256, P-384) and
 * lib/crypto curve25519.  crypto/ecc.c takes private keys and points as
 * big-endian bytes in u64 arrays (it swaps them itself) and its vli_*
 * helpers take native little-endian digit arrays (vli_from_be64).
 */
#include <crypto/curve25519.h>
#include <crypto/ecdh.h>
#include <crypto/internal/ecc.h>
#include <linux/build_bug.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "lib/ec_math.h"

static_assert(NCR_EC_MATH_P256 == ECC_CURVE_NIST_P256);
static_assert(NCR_EC_MATH_P384 == ECC_CURVE_NIST_P384);
static_assert(NCR_EC_MAX_BYTES <= ECC_MAX_BYTES);

/* The curve, or NULL when nbytes is not its size. */
static const struct ecc_curve *ec_curve(unsigned int id, unsigned int nbytes)
{
	const struct ecc_curve *c = ecc_get_curve(id);

	if (!c || nbytes % 8 || nbytes > NCR_EC_MAX_BYTES ||
	    c->g.ndigits != nbytes / 8)
		return NULL;
	return c;
}

int ncr_ec_math_pub(unsigned int curve, unsigned int nbytes, const u8 *d,
		    u8 *pub)
{
	u64 priv[NCR_EC_MAX_BYTES / 8], pt[2 * NCR_EC_MAX_BYTES / 8];
	int err;

	if (!ec_curve(curve, nbytes))
		return -EINVAL;
	memcpy(priv, d, nbytes);
	err = ecc_make_pub_key(curve, nbytes / 8, priv, pt);
	memzero_explicit(priv, sizeof(priv));
	if (!err)
		memcpy(pub, pt, 2 * nbytes);
	/* -EAGAIN: d * G failed its own validation, d was out of range */
	return err == -EAGAIN ? -EINVAL : err;
}

int ncr_ec_math_check_pub(unsigned int curve, unsigned int nbytes,
			  const u8 *pub)
{
	const struct ecc_curve *c = ec_curve(curve, nbytes);
	u64 x[NCR_EC_MAX_BYTES / 8], y[NCR_EC_MAX_BYTES / 8];
	struct ecc_point q = ECC_POINT_INIT(x, y, nbytes / 8);
	int err;

	if (!c)
		return -EINVAL;
	vli_from_be64(x, pub, nbytes / 8);
	vli_from_be64(y, pub + nbytes, nbytes / 8);
	err = ecc_is_pubkey_valid_full(c, &q);
	return err == -ENOMEM ? err : err ? -EINVAL : 0;
}

/* r = a + b mod n for a, b < n, without branches on the values. */
static void ec_mod_add(u64 *r, const u64 *a, const u64 *b, const u64 *n,
		       unsigned int nd)
{
	u64 sum[NCR_EC_MAX_BYTES / 8], diff[NCR_EC_MAX_BYTES / 8];
	u64 carry = 0, borrow = 0, s, t, keep;
	unsigned int i;

	for (i = 0; i < nd; i++) {
		s = a[i] + carry;
		carry = s < carry;
		s += b[i];
		carry |= s < b[i];
		sum[i] = s;
	}
	for (i = 0; i < nd; i++) {
		t = sum[i] - n[i] - borrow;
		borrow = (sum[i] < n[i]) | ((sum[i] == n[i]) & borrow);
		diff[i] = t;
	}
	/* sum - n unless the sum was below n (no carry, a borrow) */
	keep = 0 - ((carry ^ 1) & borrow);
	for (i = 0; i < nd; i++)
		r[i] = (sum[i] & keep) | (diff[i] & ~keep);
	memzero_explicit(sum, sizeof(sum));
	memzero_explicit(diff, sizeof(diff));
}

/* x = x mod n for x < 2n (a coordinate or a truncated digest). */
static void ec_reduce_once(u64 *x, const u64 *n, unsigned int nd)
{
	if (vli_cmp(x, n, nd) >= 0)
		vli_sub(x, x, n, nd);
}

struct ec_sign_tmp {
	u64 pt[2 * NCR_EC_MAX_BYTES / 8];
	u64 kbe[NCR_EC_MAX_BYTES / 8];
	u64 r[NCR_EC_MAX_BYTES / 8], s[NCR_EC_MAX_BYTES / 8];
	u64 k[NCR_EC_MAX_BYTES / 8], b[NCR_EC_MAX_BYTES / 8];
	u64 d[NCR_EC_MAX_BYTES / 8], e[NCR_EC_MAX_BYTES / 8];
	u64 t[NCR_EC_MAX_BYTES / 8];
};

/* s = k^-1 (e + r d), k^-1 = b (k b)^-1: the inversion never sees k. */
static void ec_sign_s(struct ec_sign_tmp *w, const u64 *n, unsigned int nd)
{
	vli_mod_mult_slow(w->t, w->k, w->b, n, nd);
	vli_mod_inv(w->t, w->t, n, nd);
	vli_mod_mult_slow(w->t, w->t, w->b, n, nd);
	vli_mod_mult_slow(w->s, w->r, w->d, n, nd);
	ec_mod_add(w->s, w->s, w->e, n, nd);
	vli_mod_mult_slow(w->s, w->s, w->t, n, nd);
}

int ncr_ec_math_sign(unsigned int curve, unsigned int nbytes, const u8 *d,
		     const u8 *k, const u8 *b, const u8 *e, u8 *r, u8 *s)
{
	const struct ecc_curve *c = ec_curve(curve, nbytes);
	unsigned int nd = nbytes / 8;
	struct ec_sign_tmp *w;
	int err;

	if (!c)
		return -EINVAL;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	memcpy(w->kbe, k, nbytes);
	err = ecc_make_pub_key(curve, nd, w->kbe, w->pt);	/* R = k G */
	if (err)
		goto out;
	vli_from_be64(w->r, w->pt, nd);
	ec_reduce_once(w->r, c->n, nd);
	err = -EAGAIN;
	if (vli_is_zero(w->r, nd))
		goto out;
	vli_from_be64(w->k, k, nd);
	vli_from_be64(w->b, b, nd);
	vli_from_be64(w->d, d, nd);
	vli_from_be64(w->e, e, nd);
	ec_reduce_once(w->e, c->n, nd);
	ec_sign_s(w, c->n, nd);
	if (vli_is_zero(w->s, nd))
		goto out;
	ecc_swap_digits(w->r, (u64 *)w->pt, nd);
	memcpy(r, w->pt, nbytes);
	ecc_swap_digits(w->s, (u64 *)w->pt, nd);
	memcpy(s, w->pt, nbytes);
	err = 0;
out:
	kfree_sensitive(w);
	return err;
}

int ncr_ec_math_verify(unsigned int curve, unsigned int nbytes,
		       const u8 *pub, const u8 *e, const u8 *r, const u8 *s)
{
	const struct ecc_curve *c = ec_curve(curve, nbytes);
	u64 qx[NCR_EC_MAX_BYTES / 8], qy[NCR_EC_MAX_BYTES / 8];
	u64 x[NCR_EC_MAX_BYTES / 8], y[NCR_EC_MAX_BYTES / 8];
	u64 rr[NCR_EC_MAX_BYTES / 8], w[NCR_EC_MAX_BYTES / 8];
	u64 u1[NCR_EC_MAX_BYTES / 8], u2[NCR_EC_MAX_BYTES / 8];
	unsigned int nd = nbytes / 8;
	struct ecc_point q = ECC_POINT_INIT(qx, qy, nd);
	struct ecc_point res = ECC_POINT_INIT(x, y, nd);

	if (!c)
		return -EINVAL;
	vli_from_be64(qx, pub, nd);
	vli_from_be64(qy, pub + nbytes, nd);
	vli_from_be64(rr, r, nd);
	vli_from_be64(w, s, nd);
	vli_from_be64(u1, e, nd);
	ec_reduce_once(u1, c->n, nd);
	/* w = s^-1, u1 = e w, u2 = r w, R = u1 G + u2 Q */
	vli_mod_inv(w, w, c->n, nd);
	vli_mod_mult_slow(u1, u1, w, c->n, nd);
	vli_mod_mult_slow(u2, rr, w, c->n, nd);
	ecc_point_mult_shamir(&res, u1, &c->g, u2, &q, c);
	/* O comes out as x = 0, never equal to r >= 1 */
	ec_reduce_once(x, c->n, nd);
	return vli_cmp(x, rr, nd) == 0;
}

int ncr_ec_math_ecdh(unsigned int curve, unsigned int nbytes, const u8 *d,
		     const u8 *peer, u8 *x)
{
	u64 priv[NCR_EC_MAX_BYTES / 8], pt[2 * NCR_EC_MAX_BYTES / 8];
	u64 sec[NCR_EC_MAX_BYTES / 8];
	int err;

	if (!ec_curve(curve, nbytes))
		return -EINVAL;
	memcpy(priv, d, nbytes);
	memcpy(pt, peer, 2 * nbytes);
	/* validates the peer (on the curve: enough for a prime order) */
	err = crypto_ecdh_shared_secret(curve, nbytes / 8, priv, pt, sec);
	if (!err)
		memcpy(x, sec, nbytes);
	memzero_explicit(priv, sizeof(priv));
	memzero_explicit(sec, sizeof(sec));
	/* -EFAULT: the product is the point at infinity */
	return err == -ENOMEM ? err : err ? -EINVAL : 0;
}

int ncr_ec_math_x25519(u8 out[NCR_X25519_BYTES],
		       const u8 k[NCR_X25519_BYTES],
		       const u8 u[NCR_X25519_BYTES])
{
	if (curve25519(out, k, u))
		return 0;
	memzero_explicit(out, NCR_X25519_BYTES);
	return -EINVAL;
}

int ncr_ec_math_x25519_base(u8 out[NCR_X25519_BYTES],
			    const u8 k[NCR_X25519_BYTES])
{
	if (curve25519_generate_public(out, k))
		return 0;
	memzero_explicit(out, NCR_X25519_BYTES);
	return -EINVAL;
}
