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
#include "lib/ec_scalar.h"

static_assert(NCR_EC_MATH_P256 == ECC_CURVE_NIST_P256);
static_assert(NCR_EC_MATH_P384 == ECC_CURVE_NIST_P384);
static_assert(NCR_EC_MAX_BYTES <= ECC_MAX_BYTES);
static_assert(NCR_EC_MAX_BYTES / 8 <= NCR_EC_SCALAR_LIMBS);

#define EC_ND (NCR_EC_MAX_BYTES / 8)	/* u64 digits of the largest curve */

/* The curve, or NULL when nbytes is not its size. */
static const struct ecc_curve *ec_curve(unsigned int id, unsigned int nbytes)
{
	const struct ecc_curve *c = ecc_get_curve(id);

	if (!c || nbytes % 8 || nbytes > NCR_EC_MAX_BYTES ||
	    c->g.ndigits != nbytes / 8)
		return NULL;
	return c;
}

/*
 * crypto/ecc.c leaves copies of scalars (k, d, d + n) in its stack frames;
 * overwrite that stack once its callers are back.
 */
static noinline void ec_scrub_stack(void)
{
	u8 junk[1024];

	memzero_explicit(junk, sizeof(junk));
}

/*
 * The form in which crypto/ecc.c takes a private scalar: big-endian bytes
 * in u64 words (which it swapped itself) up to 6.9; since 6.10 (the ECDH
 * byte-order fixes) native digits.  The prototype did not change, so no
 * compile-time probe can tell: ncr_ec_math_init() asks the kernel for d G
 * and compares it with this file's complete formulas.
 */
static bool ecc_native_scalar __ro_after_init;

/* s = the big-endian scalar be in the form crypto/ecc.c takes. */
static void ec_scalar_arg(const u64 *be, u64 *s, unsigned int nd)
{
	if (ecc_native_scalar)
		ecc_swap_digits(be, s, nd);
	else
		memcpy(s, be, nd * 8);
}

/* ecc_make_pub_key() of a big-endian scalar. */
static int ec_make_pub(unsigned int curve, unsigned int nd, const u64 *be,
		       u64 *pt)
{
	u64 s[EC_ND];
	int err;

	ec_scalar_arg(be, s, nd);
	err = ecc_make_pub_key(curve, nd, s, pt);
	memzero_explicit(s, sizeof(s));
	ec_scrub_stack();
	return err;
}

/* crypto_ecdh_shared_secret() of a big-endian scalar. */
static int ec_shared(unsigned int curve, unsigned int nd, const u64 *be,
		     const u64 *pt, u64 *out)
{
	u64 s[EC_ND];
	int err;

	ec_scalar_arg(be, s, nd);
	err = crypto_ecdh_shared_secret(curve, nd, s, pt, out);
	memzero_explicit(s, sizeof(s));
	ec_scrub_stack();
	return err;
}

/*
 * be = n - be (big-endian bytes in u64 words, as crypto/ecc.c takes
 * scalars).  x(d P) = x((n - d) P), and y flips: crypto/ecc.c's ladder
 * gets a few scalars next to multiples of n wrong (d = n - 2 among them),
 * n - d is then far from them.
 */
static void ec_negate_scalar(const struct ecc_curve *c, u64 *be,
			     unsigned int nd)
{
	u64 v[EC_ND];

	ecc_swap_digits(be, v, nd);
	vli_sub(v, c->n, v, nd);
	ecc_swap_digits(v, be, nd);
	memzero_explicit(v, sizeof(v));
}

/* x = x mod n for x < 2n (a coordinate or a truncated digest). */
static void ec_reduce_once(u64 *x, const u64 *n, unsigned int nd)
{
	if (vli_cmp(x, n, nd) >= 0)
		vli_sub(x, x, n, nd);
}

struct ec_sign_tmp {
	u64 pt[2 * EC_ND], g[2 * EC_ND];
	u64 kbe[EC_ND];
	u64 r[EC_ND], s[EC_ND];
	u64 k[EC_ND], b[EC_ND];
	u64 d[EC_ND], e[EC_ND];
};

/*
 * r = x(k G) mod n.  crypto_ecdh_shared_secret() starts the ladder from a
 * random Z (ecc_make_pub_key() would not), so no two signatures run it on
 * the same values.  -EFAULT is its O, which k next to a multiple of n
 * gives wrongly: another k.
 */
static int ec_sign_r(struct ec_sign_tmp *w, const struct ecc_curve *c,
		     unsigned int curve, unsigned int nd)
{
	int err;

	ecc_swap_digits(c->g.x, w->g, nd);
	ecc_swap_digits(c->g.y, w->g + nd, nd);
	err = ec_shared(curve, nd, w->kbe, w->g, w->pt);
	if (err)
		return err == -EFAULT ? -EAGAIN : err;
	vli_from_be64(w->r, w->pt, nd);
	ec_reduce_once(w->r, c->n, nd);
	return vli_is_zero(w->r, nd) ? -EAGAIN : 0;
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
	err = ec_sign_r(w, c, curve, nd);
	if (err)
		goto out;
	vli_from_be64(w->k, k, nd);
	vli_from_be64(w->b, b, nd);
	vli_from_be64(w->d, d, nd);
	vli_from_be64(w->e, e, nd);
	ec_reduce_once(w->e, c->n, nd);
	err = ncr_ec_scalar_sign_s(w->s, w->k, w->b, w->d, w->e, w->r, c->n,
				   nd);
	if (err)
		goto out;
	err = -EAGAIN;
	if (vli_is_zero(w->s, nd))
		goto out;
	ecc_swap_digits(w->r, (u64 *)w->pt, nd);
	memcpy(r, w->pt, nbytes);
	ecc_swap_digits(w->s, (u64 *)w->pt, nd);
	memcpy(s, w->pt, nbytes);
	err = 0;
out:
	kfree_sensitive(w);
	ec_scrub_stack();
	return err;
}

/* ---- a complete (slow) u1 G + u2 Q for what the fast path rejects ---- */

struct ec_apt {			/* affine point, or O */
	u64 x[EC_ND], y[EC_ND];
	bool inf;
};

/* r = p + q on c (any of them O, p = q, p = -q included). */
static void ec_apt_add(struct ec_apt *r, const struct ec_apt *p,
		       const struct ec_apt *q, const struct ecc_curve *c)
{
	unsigned int nd = c->g.ndigits;
	u64 l[EC_ND], t[EC_ND], x3[EC_ND];

	if (p->inf || q->inf) {
		*r = p->inf ? *q : *p;
		return;
	}
	if (!vli_cmp(p->x, q->x, nd)) {
		if (vli_cmp(p->y, q->y, nd) || vli_is_zero(p->y, nd)) {
			r->inf = true;
			return;
		}
		/* l = (3 x^2 + a) / 2y */
		vli_mod_mult_slow(l, p->x, p->x, c->p, nd);
		ncr_ec_scalar_add(t, l, l, c->p, nd);
		ncr_ec_scalar_add(l, t, l, c->p, nd);
		ncr_ec_scalar_add(l, l, c->a, c->p, nd);
		ncr_ec_scalar_add(t, p->y, p->y, c->p, nd);
	} else {
		/* l = (y2 - y1) / (x2 - x1) */
		ncr_ec_scalar_sub(l, q->y, p->y, c->p, nd);
		ncr_ec_scalar_sub(t, q->x, p->x, c->p, nd);
	}
	vli_mod_inv(t, t, c->p, nd);
	vli_mod_mult_slow(l, l, t, c->p, nd);
	/* x3 = l^2 - x1 - x2, y3 = l (x1 - x3) - y1 */
	vli_mod_mult_slow(x3, l, l, c->p, nd);
	ncr_ec_scalar_sub(x3, x3, p->x, c->p, nd);
	ncr_ec_scalar_sub(x3, x3, q->x, c->p, nd);
	ncr_ec_scalar_sub(t, p->x, x3, c->p, nd);
	vli_mod_mult_slow(t, l, t, c->p, nd);
	ncr_ec_scalar_sub(r->y, t, p->y, c->p, nd);
	memcpy(r->x, x3, sizeof(x3));
	r->inf = false;
}

/*
 * Whether q is an affine point of c: x, y < p and y^2 = x^3 + a x + b.  The
 * curves have prime order, so that is the whole validation.  This does not
 * use crypto/ecc.c's fast reduction, which some kernels (Debian's 6.12.95)
 * get wrong for valid points with a small y or x near p / 3.
 */
static bool ec_apt_on_curve(const struct ecc_curve *c, const struct ec_apt *q)
{
	unsigned int nd = c->g.ndigits;
	u64 l[EC_ND], r[EC_ND];

	if (q->inf || vli_cmp(q->x, c->p, nd) >= 0 ||
	    vli_cmp(q->y, c->p, nd) >= 0)
		return false;
	vli_mod_mult_slow(l, q->y, q->y, c->p, nd);
	vli_mod_mult_slow(r, q->x, q->x, c->p, nd);
	ncr_ec_scalar_add(r, r, c->a, c->p, nd);
	vli_mod_mult_slow(r, r, q->x, c->p, nd);
	ncr_ec_scalar_add(r, r, c->b, c->p, nd);
	return !vli_cmp(l, r, nd);
}

/* q = the big-endian x || y of nbytes each. */
static void ec_apt_from_be(struct ec_apt *q, const u8 *pt, unsigned int nbytes)
{
	vli_from_be64(q->x, pt, nbytes / 8);
	vli_from_be64(q->y, pt + nbytes, nbytes / 8);
	q->inf = false;
}

int ncr_ec_math_check_pub(unsigned int curve, unsigned int nbytes,
			  const u8 *pub)
{
	const struct ecc_curve *c = ec_curve(curve, nbytes);
	struct ec_apt q;

	if (!c)
		return -EINVAL;
	ec_apt_from_be(&q, pub, nbytes);
	return ec_apt_on_curve(c, &q) ? 0 : -EINVAL;
}

/* q = be * G (be: scalar in [1, n - 1], as crypto/ecc.c takes it). */
static int ec_base_mult(const struct ecc_curve *c, unsigned int curve,
			unsigned int nd, u64 *be, struct ec_apt *q)
{
	u64 pt[2 * EC_ND];
	int err;

	/* -EAGAIN: be * G failed its own full validation */
	err = ec_make_pub(curve, nd, be, pt);
	if (err == -EAGAIN) {
		ec_negate_scalar(c, be, nd);
		err = ec_make_pub(curve, nd, be, pt);
		if (!err) {	/* -(x, y) = (x, p - y) */
			vli_from_be64(q->y, pt + nd, nd);
			vli_sub(q->y, c->p, q->y, nd);
			ecc_swap_digits(q->y, pt + nd, nd);
		}
	}
	if (err)
		return err == -EAGAIN ? -EINVAL : err;
	vli_from_be64(q->x, pt, nd);
	vli_from_be64(q->y, pt + nd, nd);
	q->inf = false;
	return 0;
}

struct ec_pub_tmp {
	u64 d[EC_ND], d1[EC_ND], d2[EC_ND], be[EC_ND];
	struct ec_apt p1, p2, q;
};

/* d1 uniform in [1, n - 1], d2 = d - d1 mod n, both nonzero. */
static int ec_split_scalar(struct ec_pub_tmp *w, const struct ecc_curve *c,
			   unsigned int nd)
{
	int i;

	for (i = 0; i < 8; i++) {
		get_random_bytes(w->d1, nd * 8);
		if (vli_cmp(w->d1, c->n, nd) >= 0 || vli_is_zero(w->d1, nd))
			continue;
		ncr_ec_scalar_sub(w->d2, w->d, w->d1, c->n, nd);
		if (!vli_is_zero(w->d2, nd))
			return 0;
	}
	return -EIO;
}

/*
 * pub = d1 G + d2 G for a fresh split of d: import, unwrap and storage
 * unwrap recompute the public key of the same d as often as the caller
 * likes, and the ladder must not run on the same scalar each time.
 */
int ncr_ec_math_pub(unsigned int curve, unsigned int nbytes, const u8 *d,
		    u8 *pub)
{
	const struct ecc_curve *c = ec_curve(curve, nbytes);
	unsigned int nd = nbytes / 8;
	struct ec_pub_tmp *w;
	int err;

	if (!c)
		return -EINVAL;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	vli_from_be64(w->d, d, nd);
	err = ec_split_scalar(w, c, nd);
	if (!err) {
		ecc_swap_digits(w->d1, w->be, nd);
		err = ec_base_mult(c, curve, nd, w->be, &w->p1);
	}
	if (!err) {
		ecc_swap_digits(w->d2, w->be, nd);
		err = ec_base_mult(c, curve, nd, w->be, &w->p2);
	}
	if (!err) {
		ec_apt_add(&w->q, &w->p1, &w->p2, c);
		err = w->q.inf ? -EINVAL : 0;	/* d = 0 mod n */
	}
	if (!err) {
		ecc_swap_digits(w->q.x, w->be, nd);
		memcpy(pub, w->be, nbytes);
		ecc_swap_digits(w->q.y, w->be, nd);
		memcpy(pub + nbytes, w->be, nbytes);
	}
	kfree_sensitive(w);
	ec_scrub_stack();
	return err;
}

/*
 * crypto/ecc.c's ecc_point_mult_shamir() adds without checking for equal
 * points, so a valid signature whose intermediate sums meet (Wycheproof's
 * "Edge case for Shamir multiplication", "extreme value for k") comes out
 * wrong.  A rejection is therefore checked again with complete affine
 * formulas: public values only, time is no concern.  (The double-and-add
 * of ec_apt_mult2() is also what ECDH falls back on, with a fresh secret.)
 */
static int ec_apt_mult2(const struct ecc_curve *c, struct ec_apt *out,
			const u64 *u1, const struct ec_apt *p1,
			const u64 *u2, const struct ec_apt *p2)
{
	unsigned int nd = c->g.ndigits;
	struct ec_apt *t = kmalloc_array(4, sizeof(*t), GFP_KERNEL);
	const struct ec_apt *tab[4] = { NULL, p1, p2, &t[1] };
	int i;

	if (!t)
		return -ENOMEM;
	ec_apt_add(&t[1], p1, p2, c);
	t[0].inf = true;
	for (i = nd * 64 - 1; i >= 0; i--) {
		unsigned int idx = ((u1[i / 64] >> (i % 64)) & 1) |
				   (((u2[i / 64] >> (i % 64)) & 1) << 1);

		ec_apt_add(&t[2], &t[0], &t[0], c);
		t[0] = t[2];
		if (idx) {
			ec_apt_add(&t[2], &t[0], tab[idx], c);
			t[0] = t[2];
		}
	}
	*out = t[0];
	kfree_sensitive(t);
	return 0;
}

static int ec_verify_complete(const struct ecc_curve *c, const u64 *u1,
			      const u64 *u2, const struct ec_apt *q,
			      const u64 *r)
{
	unsigned int nd = c->g.ndigits;
	struct ec_apt g, res;
	int err;

	memcpy(g.x, c->g.x, nd * 8);
	memcpy(g.y, c->g.y, nd * 8);
	g.inf = false;
	err = ec_apt_mult2(c, &res, u1, &g, u2, q);
	if (err)
		return err;
	if (res.inf)
		return 0;
	ec_reduce_once(res.x, c->n, nd);
	return !vli_cmp(res.x, r, nd);
}

int ncr_ec_math_verify(unsigned int curve, unsigned int nbytes,
		       const u8 *pub, const u8 *e, const u8 *r, const u8 *s)
{
	const struct ecc_curve *c = ec_curve(curve, nbytes);
	u64 x[EC_ND], y[EC_ND], rr[EC_ND], w[EC_ND], u1[EC_ND], u2[EC_ND];
	unsigned int nd = nbytes / 8;
	struct ecc_point res = ECC_POINT_INIT(x, y, nd);
	struct ec_apt q;
	struct ecc_point qp = ECC_POINT_INIT(q.x, q.y, nd);

	if (!c)
		return -EINVAL;
	ec_apt_from_be(&q, pub, nbytes);
	vli_from_be64(rr, r, nd);
	vli_from_be64(w, s, nd);
	vli_from_be64(u1, e, nd);
	ec_reduce_once(u1, c->n, nd);
	/* w = s^-1, u1 = e w, u2 = r w, R = u1 G + u2 Q */
	vli_mod_inv(w, w, c->n, nd);
	vli_mod_mult_slow(u1, u1, w, c->n, nd);
	vli_mod_mult_slow(u2, rr, w, c->n, nd);
	ecc_point_mult_shamir(&res, u1, &c->g, u2, &qp, c);
	/* O comes out as x = 0, never equal to r >= 1 */
	ec_reduce_once(x, c->n, nd);
	if (!vli_cmp(x, rr, nd))
		return 1;
	return ec_verify_complete(c, u1, u2, &q, rr);
}

struct ec_ecdh_tmp {
	u64 d[EC_ND], b[EC_ND], db[EC_ND], zero[EC_ND];
	u64 be[EC_ND], pt[2 * EC_ND];
	struct ec_apt q, bq;
};

/*
 * crypto/ecc.c refuses some valid (d, Q): its ladder gives O for d next to
 * a multiple of n (-EFAULT), and some kernels' reduction rejects valid
 * peers with special coordinates (-EINVAL).  Then d Q = (d / b) (b Q) for a
 * random b: another scalar on a random point.  b Q comes from the complete
 * formulas, whose time depends on b, which is fresh and used once; the
 * product with d has the secret 1 / b as its other factor.
 */
static int ec_ecdh_blinded(const struct ecc_curve *c, unsigned int curve,
			   unsigned int nd, struct ec_ecdh_tmp *w, u64 *sec)
{
	int i, err = -EINVAL;

	for (i = 0; i < 4 && err; i++) {
		get_random_bytes(w->b, nd * 8);
		if (vli_cmp(w->b, c->n, nd) >= 0 || vli_is_zero(w->b, nd))
			continue;
		err = ec_apt_mult2(c, &w->bq, w->b, &w->q, w->zero, &w->q);
		if (err)
			return err;
		if (w->bq.inf)
			return -EINVAL;
		err = ncr_ec_scalar_inv(w->b, w->b, c->n, nd) ?:
		      ncr_ec_scalar_mul(w->db, w->b, w->d, c->n, nd);
		if (err)
			return err;
		ecc_swap_digits(w->db, w->be, nd);
		ecc_swap_digits(w->bq.x, w->pt, nd);
		ecc_swap_digits(w->bq.y, w->pt + nd, nd);
		err = ec_shared(curve, nd, w->be, w->pt, sec);
		if (err == -ENOMEM)
			return err;
	}
	return err;
}

int ncr_ec_math_ecdh(unsigned int curve, unsigned int nbytes, const u8 *d,
		     const u8 *peer, u8 *x)
{
	const struct ecc_curve *c = ec_curve(curve, nbytes);
	unsigned int nd = nbytes / 8;
	struct ec_ecdh_tmp *w;
	u64 sec[EC_ND];
	int err = -EINVAL;

	if (!c)
		return -EINVAL;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	ec_apt_from_be(&w->q, peer, nbytes);
	if (!ec_apt_on_curve(c, &w->q))
		goto out;
	memcpy(w->be, d, nbytes);
	memcpy(w->pt, peer, 2 * nbytes);
	err = ec_shared(curve, nd, w->be, w->pt, sec);
	if (err && err != -ENOMEM) {
		vli_from_be64(w->d, d, nd);
		err = ec_ecdh_blinded(c, curve, nd, w, sec);
	}
	if (!err)
		memcpy(x, sec, nbytes);
out:
	kfree_sensitive(w);
	memzero_explicit(sec, sizeof(sec));
	ec_scrub_stack();
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

/*
 * Whether ecc_make_pub_key() and crypto_ecdh_shared_secret() compute d G
 * (ref, from the complete formulas) when given the scalar in the native
 * (or big-endian) form.  d is a fixed value far from multiples of n: the
 * ladder is wrong next to them (1 G among them).
 */
static bool __init ec_form_matches(const struct ecc_curve *c, const u64 *d,
			    const struct ec_apt *ref, bool native)
{
	unsigned int nd = c->g.ndigits;
	u64 be[EC_ND], g[2 * EC_ND], want[2 * EC_ND], pt[2 * EC_ND];

	ecc_native_scalar = native;
	ecc_swap_digits(d, be, nd);
	ecc_swap_digits(c->g.x, g, nd);
	ecc_swap_digits(c->g.y, g + nd, nd);
	ecc_swap_digits(ref->x, want, nd);
	ecc_swap_digits(ref->y, want + nd, nd);
	if (ec_make_pub(ECC_CURVE_NIST_P256, nd, be, pt) ||
	    memcmp(pt, want, 2 * nd * 8))
		return false;
	return !ec_shared(ECC_CURVE_NIST_P256, nd, be, g, pt) &&
	       !memcmp(pt, want, nd * 8);
}

int __init ncr_ec_math_init(void)
{
	static const u64 d[4] = { 0x0123456789abcdefULL, 0xfedcba9876543210ULL,
				  0x0f1e2d3c4b5a6978ULL, 0x1234567812345678ULL };
	const struct ecc_curve *c = ecc_get_curve(ECC_CURVE_NIST_P256);
	const u64 zero[4] = { 0 };
	struct ec_apt g, ref;
	int err;

	if (c && c->g.ndigits == ARRAY_SIZE(d)) {
		memcpy(g.x, c->g.x, sizeof(d));
		memcpy(g.y, c->g.y, sizeof(d));
		g.inf = false;
		err = ec_apt_mult2(c, &ref, d, &g, zero, &g);
		if (err)
			return err;
		if (!ref.inf && (ec_form_matches(c, d, &ref, true) ||
				 ec_form_matches(c, d, &ref, false)))
			return 0;
	}
	pr_err("ncr: the kernel's crypto/ecc.c computes d G unlike every scalar form known here; not loading\n");
	return -ENOPKG;
}
