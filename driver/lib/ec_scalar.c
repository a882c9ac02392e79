// SPDX-License-Identifier: GPL-2.0
/*
 * Constant-time arithmetic modulo a curve order (ec_scalar.h): sums with
 * masked corrections, products and the inverse in Montgomery form
 * (lib/mont.c: no branch and no memory address depends on a value).
 */
#include "ec_scalar.h"
#include "mont.h"

#define LIMBS NCR_EC_SCALAR_LIMBS

/* r = a - b on nd limbs; the borrow out (0 or 1). */
static u64 sub_limbs(u64 *r, const u64 *a, const u64 *b, size_t nd)
{
	u64 borrow = 0;
	size_t i;

	for (i = 0; i < nd; i++) {
		u64 t = a[i] - b[i];
		u64 b1 = a[i] < b[i];

		r[i] = t - borrow;
		borrow = b1 | (t < borrow);
	}
	return borrow;
}

/* r = s - m if (carry:s) >= m, else s; (carry:s) < 2m. */
static void reduce_once(u64 *r, const u64 *s, u64 carry, const u64 *m,
			size_t nd)
{
	u64 diff[LIMBS], keep;
	size_t i;

	/* keep s when the subtraction borrowed and there was no carry */
	keep = 0 - (sub_limbs(diff, s, m, nd) & (carry ^ 1));
	for (i = 0; i < nd; i++)
		r[i] = (s[i] & keep) | (diff[i] & ~keep);
	memzero_explicit(diff, sizeof(diff));
}

void ncr_ec_scalar_add(u64 *r, const u64 *a, const u64 *b, const u64 *n,
		       size_t nd)
{
	u64 sum[LIMBS], carry = 0;
	size_t i;

	for (i = 0; i < nd; i++) {
		u64 t = a[i] + carry;
		u64 c1 = t < carry;

		sum[i] = t + b[i];
		carry = c1 | (sum[i] < b[i]);
	}
	reduce_once(r, sum, carry, n, nd);
	memzero_explicit(sum, sizeof(sum));
}

void ncr_ec_scalar_sub(u64 *r, const u64 *a, const u64 *b, const u64 *n,
		       size_t nd)
{
	u64 nb[LIMBS];

	/* -b = n - b, which is n for b = 0: reduce_once maps it to 0 */
	sub_limbs(nb, n, b, nd);
	reduce_once(nb, nb, 0, n, nd);
	ncr_ec_scalar_add(r, a, nb, n, nd);
	memzero_explicit(nb, sizeof(nb));
}

int ncr_ec_scalar_mul(u64 *r, const u64 *a, const u64 *b, const u64 *n,
		      size_t nd)
{
	u64 ar[LIMBS];
	int err;

	if (nd > LIMBS)
		return -EINVAL;
	/* (a R) b / R = a b */
	err = ncr_mont_to(ar, a, n, nd);
	if (!err)
		err = ncr_mont_mul(r, ar, b, n, nd);
	memzero_explicit(ar, sizeof(ar));
	return err;
}

int ncr_ec_scalar_inv(u64 *r, const u64 *a, const u64 *n, size_t nd)
{
	u64 e[LIMBS], borrow = 2;
	size_t i;

	if (nd > LIMBS)
		return -EINVAL;
	for (i = 0; i < nd; i++) {	/* e = n - 2, public */
		e[i] = n[i] - borrow;
		borrow = n[i] < borrow;
	}
	return ncr_mont_exp_secret(r, a, nd, e, nd, n, nd);
}

int ncr_ec_scalar_sign_s(u64 *s, const u64 *k, const u64 *b, const u64 *d,
			 const u64 *e, const u64 *r, const u64 *n, size_t nd)
{
	u64 t[LIMBS], u[LIMBS], v[LIMBS];
	int err;

	/* t = (k b)^-1: the inversion never sees k */
	err = ncr_ec_scalar_mul(t, k, b, n, nd);
	if (!err)
		err = ncr_ec_scalar_inv(t, t, n, nd);
	/* u = (b r) d, v = b e */
	if (!err)
		err = ncr_ec_scalar_mul(u, b, r, n, nd);
	if (!err)
		err = ncr_ec_scalar_mul(u, u, d, n, nd);
	if (!err)
		err = ncr_ec_scalar_mul(v, b, e, n, nd);
	if (!err) {
		ncr_ec_scalar_add(u, u, v, n, nd);
		err = ncr_ec_scalar_mul(s, u, t, n, nd);
	}
	memzero_explicit(t, sizeof(t));
	memzero_explicit(u, sizeof(u));
	memzero_explicit(v, sizeof(v));
	return err;
}
