// SPDX-License-Identifier: GPL-2.0
/*
 * lib/ec_math.h on libcrypto, so that lib/ec.c is tested on the host with
 * an independent implementation of the arithmetic (EC_GROUP/EC_POINT/BN
 * and EVP X25519).  Same contract as driver/ec_math.c.
 */
#include "ec_math.h"

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>

struct ec_ctx {
	EC_GROUP *g;
	BN_CTX *bn;
	BIGNUM *p, *n;
};

static void ctx_free(struct ec_ctx *c)
{
	EC_GROUP_free(c->g);
	BN_CTX_free(c->bn);
	BN_free(c->p);
	BN_free(c->n);
}

static int ctx_new(struct ec_ctx *c, unsigned int curve, unsigned int nbytes)
{
	int nid = curve == NCR_EC_MATH_P256 ? NID_X9_62_prime256v1 :
		  curve == NCR_EC_MATH_P384 ? NID_secp384r1 : NID_undef;

	c->g = EC_GROUP_new_by_curve_name(nid);
	c->bn = BN_CTX_new();
	c->p = BN_new();
	c->n = BN_new();
	if (!c->g || !c->bn || !c->p || !c->n ||
	    !EC_GROUP_get_curve(c->g, c->p, NULL, NULL, c->bn) ||
	    !BN_copy(c->n, EC_GROUP_get0_order(c->g)) ||
	    (unsigned int)BN_num_bytes(c->p) != nbytes) {
		ctx_free(c);
		return -EINVAL;
	}
	return 0;
}

static BIGNUM *bn(const u8 *b, unsigned int n)
{
	return BN_bin2bn(b, (int)n, NULL);
}

/* Q from X || Y: coordinates below p and on the curve, else NULL. */
static EC_POINT *point_in(struct ec_ctx *c, const u8 *xy, unsigned int n)
{
	BIGNUM *x = bn(xy, n), *y = bn(xy + n, n);
	EC_POINT *q = EC_POINT_new(c->g);
	int ok = x && y && q && BN_cmp(x, c->p) < 0 && BN_cmp(y, c->p) < 0 &&
		 EC_POINT_set_affine_coordinates(c->g, q, x, y, c->bn) &&
		 EC_POINT_is_on_curve(c->g, q, c->bn) == 1;

	BN_free(x);
	BN_free(y);
	if (!ok) {
		EC_POINT_free(q);
		return NULL;
	}
	return q;
}

/* The affine coordinates of q (not infinity) into x (and y if non-NULL). */
static int point_out(struct ec_ctx *c, const EC_POINT *q, unsigned int n,
		     u8 *x, u8 *y)
{
	BIGNUM *bx = BN_new(), *by = BN_new();
	int ok = bx && by && !EC_POINT_is_at_infinity(c->g, q) &&
		 EC_POINT_get_affine_coordinates(c->g, q, bx, by, c->bn) &&
		 BN_bn2binpad(bx, x, (int)n) == (int)n &&
		 (!y || BN_bn2binpad(by, y, (int)n) == (int)n);

	BN_free(bx);
	BN_free(by);
	return ok ? 0 : -EINVAL;
}

int ncr_ec_math_init(void)
{
	return 0;	/* libcrypto's curves need no check */
}

int ncr_ec_math_pub(unsigned int curve, unsigned int nbytes, const u8 *d,
		    u8 *pub)
{
	struct ec_ctx c;
	BIGNUM *k;
	EC_POINT *q;
	int err = ctx_new(&c, curve, nbytes);

	if (err)
		return err;
	k = bn(d, nbytes);
	q = EC_POINT_new(c.g);
	err = -EINVAL;
	if (k && q && !BN_is_zero(k) && BN_cmp(k, c.n) < 0 &&
	    EC_POINT_mul(c.g, q, k, NULL, NULL, c.bn))
		err = point_out(&c, q, nbytes, pub, pub + nbytes);
	BN_clear_free(k);
	EC_POINT_free(q);
	ctx_free(&c);
	return err;
}

int ncr_ec_math_check_pub(unsigned int curve, unsigned int nbytes,
			  const u8 *pub)
{
	struct ec_ctx c;
	EC_POINT *q, *t;
	int err = ctx_new(&c, curve, nbytes);

	if (err)
		return err;
	q = point_in(&c, pub, nbytes);
	t = EC_POINT_new(c.g);
	err = -EINVAL;
	if (q && t && !EC_POINT_is_at_infinity(c.g, q) &&
	    EC_POINT_mul(c.g, t, NULL, q, c.n, c.bn) &&
	    EC_POINT_is_at_infinity(c.g, t))
		err = 0;
	EC_POINT_free(q);
	EC_POINT_free(t);
	ctx_free(&c);
	return err;
}

int ncr_ec_math_sign(unsigned int curve, unsigned int nbytes, const u8 *d,
		     const u8 *k, const u8 *b, const u8 *e, u8 *r, u8 *s)
{
	BIGNUM *bd = NULL, *bk = NULL, *bb = NULL, *be = NULL, *br, *bs, *t;
	struct ec_ctx c;
	EC_POINT *R;
	u8 x[NCR_EC_MAX_BYTES];
	int err = ctx_new(&c, curve, nbytes);

	if (err)
		return err;
	bd = bn(d, nbytes);
	bk = bn(k, nbytes);
	bb = bn(b, nbytes);
	be = bn(e, nbytes);
	br = BN_new();
	bs = BN_new();
	t = BN_new();
	R = EC_POINT_new(c.g);
	err = -EINVAL;
	if (!bd || !bk || !bb || !be || !br || !bs || !t || !R ||
	    !EC_POINT_mul(c.g, R, bk, NULL, NULL, c.bn) ||
	    point_out(&c, R, nbytes, x, NULL))
		goto out;
	/* r = x mod n; s = b (k b)^-1 (e + r d) mod n */
	if (!BN_bin2bn(x, (int)nbytes, br) || !BN_nnmod(br, br, c.n, c.bn) ||
	    !BN_mod_mul(t, bk, bb, c.n, c.bn) ||
	    !BN_mod_inverse(t, t, c.n, c.bn) ||
	    !BN_mod_mul(t, t, bb, c.n, c.bn) ||
	    !BN_mod_mul(bs, br, bd, c.n, c.bn) ||
	    !BN_mod_add(bs, bs, be, c.n, c.bn) ||
	    !BN_mod_mul(bs, bs, t, c.n, c.bn))
		goto out;
	err = -EAGAIN;
	if (BN_is_zero(br) || BN_is_zero(bs))
		goto out;
	err = BN_bn2binpad(br, r, (int)nbytes) == (int)nbytes &&
	      BN_bn2binpad(bs, s, (int)nbytes) == (int)nbytes ? 0 : -EINVAL;
out:
	BN_clear_free(bd);
	BN_clear_free(bk);
	BN_clear_free(bb);
	BN_free(be);
	BN_free(br);
	BN_free(bs);
	BN_clear_free(t);
	EC_POINT_free(R);
	ctx_free(&c);
	return err;
}

int ncr_ec_math_verify(unsigned int curve, unsigned int nbytes,
		       const u8 *pub, const u8 *e, const u8 *r, const u8 *s)
{
	BIGNUM *be = NULL, *br = NULL, *w = NULL, *u2 = NULL, *x = NULL;
	struct ec_ctx c;
	EC_POINT *q, *R = NULL;
	u8 xb[NCR_EC_MAX_BYTES];
	int ret = ctx_new(&c, curve, nbytes);

	if (ret)
		return ret;
	q = point_in(&c, pub, nbytes);
	be = bn(e, nbytes);
	br = bn(r, nbytes);
	w = bn(s, nbytes);
	u2 = BN_new();
	x = BN_new();
	R = EC_POINT_new(c.g);
	ret = 0;
	if (!q || !be || !br || !w || !u2 || !x || !R ||
	    !BN_mod_inverse(w, w, c.n, c.bn) ||
	    !BN_mod_mul(be, be, w, c.n, c.bn) ||
	    !BN_mod_mul(u2, br, w, c.n, c.bn) ||
	    !EC_POINT_mul(c.g, R, be, q, u2, c.bn) ||
	    point_out(&c, R, nbytes, xb, NULL))
		goto out;
	ret = BN_bin2bn(xb, (int)nbytes, x) && BN_nnmod(x, x, c.n, c.bn) &&
	      BN_cmp(x, br) == 0;
out:
	EC_POINT_free(q);
	EC_POINT_free(R);
	BN_free(be);
	BN_free(br);
	BN_free(w);
	BN_free(u2);
	BN_free(x);
	ctx_free(&c);
	return ret;
}

int ncr_ec_math_ecdh(unsigned int curve, unsigned int nbytes, const u8 *d,
		     const u8 *peer, u8 *x)
{
	struct ec_ctx c;
	EC_POINT *q, *R;
	BIGNUM *k;
	int err = ctx_new(&c, curve, nbytes);

	if (err)
		return err;
	q = point_in(&c, peer, nbytes);
	R = EC_POINT_new(c.g);
	k = bn(d, nbytes);
	err = -EINVAL;
	if (q && R && k && EC_POINT_mul(c.g, R, NULL, q, k, c.bn))
		err = point_out(&c, R, nbytes, x, NULL);
	EC_POINT_free(q);
	EC_POINT_free(R);
	BN_clear_free(k);
	ctx_free(&c);
	return err;
}

int ncr_ec_math_x25519(u8 out[NCR_X25519_BYTES],
		       const u8 k[NCR_X25519_BYTES],
		       const u8 u[NCR_X25519_BYTES])
{
	EVP_PKEY *sk = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, k,
						    NCR_X25519_BYTES);
	EVP_PKEY *pk = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, u,
						   NCR_X25519_BYTES);
	EVP_PKEY_CTX *c = sk ? EVP_PKEY_CTX_new(sk, NULL) : NULL;
	size_t len = NCR_X25519_BYTES;
	/* libcrypto refuses an all-zero result itself */
	int ok = c && pk && EVP_PKEY_derive_init(c) > 0 &&
		 EVP_PKEY_derive_set_peer(c, pk) > 0 &&
		 EVP_PKEY_derive(c, out, &len) > 0 && len == NCR_X25519_BYTES;

	EVP_PKEY_CTX_free(c);
	EVP_PKEY_free(sk);
	EVP_PKEY_free(pk);
	if (!ok)
		memset(out, 0, NCR_X25519_BYTES);
	return ok ? 0 : -EINVAL;
}

int ncr_ec_math_x25519_base(u8 out[NCR_X25519_BYTES],
			    const u8 k[NCR_X25519_BYTES])
{
	EVP_PKEY *sk = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, k,
						    NCR_X25519_BYTES);
	size_t len = NCR_X25519_BYTES;
	int ok = sk && EVP_PKEY_get_raw_public_key(sk, out, &len) &&
		 len == NCR_X25519_BYTES;

	EVP_PKEY_free(sk);
	return ok ? 0 : -EINVAL;
}
