// SPDX-License-Identifier: GPL-2.0
/*
 * Montgomery exponentiation on 64-bit limbs (mont.h).  R = 2^(64n); a
 * number x is held as xR mod m.  Every reduction ends in a masked
 * subtraction, never a branch on a value.
 */
#include "mont.h"

typedef unsigned __int128 dlimb;

#define WIN 5			/* window bits of the secret exponentiation */
#define TABLE (1u << WIN)

struct mont {
	const u64 *m;
	size_t n;
	u64 minv;		/* -m^-1 mod 2^64 */
	u64 *t;			/* 2n + 2 limbs of scratch */
};

/* -x^-1 mod 2^64 for odd x: Newton's iteration doubles the good bits. */
static u64 neg_inv64(u64 x)
{
	u64 y = x;		/* x * x = 1 mod 8: three bits */
	int i;

	for (i = 0; i < 5; i++)
		y *= 2 - x * y;
	return 0 - y;
}

/*
 * r = s - m if hi:s >= m, else s (hi is 0 or 1 and hi:s < 2m); r and s
 * do not overlap.
 */
static void final_sub(const struct mont *c, u64 *r, const u64 *s, u64 hi)
{
	u64 borrow = 0, keep;
	size_t i;

	for (i = 0; i < c->n; i++) {
		dlimb d = (dlimb)s[i] - c->m[i] - borrow;

		r[i] = (u64)d;
		borrow = (u64)(d >> 64) & 1;
	}
	/* s < m exactly when the subtraction borrowed and hi is 0 */
	keep = 0 - (borrow & (hi ^ 1));
	for (i = 0; i < c->n; i++)
		r[i] = (r[i] & ~keep) | (s[i] & keep);
}

/* t[0..n) += a[0..n) * b; returns the carry limb. */
static u64 mul_add(u64 *restrict t, const u64 *restrict a, size_t n, u64 b)
{
	u64 carry = 0;
	size_t j;

	for (j = 0; j < n; j++) {
		dlimb p = (dlimb)a[j] * b + t[j] + carry;

		t[j] = (u64)p;
		carry = (u64)(p >> 64);
	}
	return carry;
}

/* r = t / R mod m for t (2n limbs, destroyed) below m * R. */
static void mont_redc(const struct mont *c, u64 *r, u64 *t)
{
	size_t n = c->n, i;
	u64 hi = 0;

	for (i = 0; i < n; i++) {
		dlimb p = (dlimb)t[i + n] + hi +
			  mul_add(t + i, c->m, n, t[i] * c->minv);

		t[i + n] = (u64)p;
		hi = (u64)(p >> 64);
	}
	final_sub(c, r, t + n, hi);
}

/* r = a * b / R mod m: the product row by row, then the reduction. */
static void mont_mul(const struct mont *c, u64 *r, const u64 *a, const u64 *b)
{
	size_t n = c->n, i;
	u64 *t = c->t;

	memset(t, 0, n * sizeof(*t));
	for (i = 0; i < n; i++)
		t[i + n] = mul_add(t + i, a, n, b[i]);
	mont_redc(c, r, t);
}

/* r = a^2 / R mod m: each cross product once, doubled, then the squares. */
static void mont_sqr(const struct mont *c, u64 *r, const u64 *a)
{
	size_t n = c->n, i;
	u64 *t = c->t, carry = 0, top = 0;

	/* row i adds a[i] a[j], j > i, at t[i + j] and sets t[i + n] */
	memset(t, 0, n * sizeof(*t));
	for (i = 0; i + 1 < n; i++)
		t[i + n] = mul_add(t + 2 * i + 1, a + i + 1, n - i - 1, a[i]);
	t[2 * n - 1] = 0;
	for (i = 0; i < n; i++) {
		dlimb sq = (dlimb)a[i] * a[i];
		u64 lo = t[2 * i], hi = t[2 * i + 1];
		dlimb p;

		/* the doubled cross products: (hi:lo) << 1, with the bit below */
		p = (dlimb)((lo << 1) | top) + (u64)sq + carry;
		t[2 * i] = (u64)p;
		top = hi >> 63;
		p = (dlimb)((hi << 1) | (lo >> 63)) + (u64)(sq >> 64) +
		    (u64)(p >> 64);
		t[2 * i + 1] = (u64)p;
		carry = (u64)(p >> 64);
	}
	mont_redc(c, r, t);
}

/* x = 2x mod m for x < m. */
static void mod_double(const struct mont *c, u64 *x, u64 *tmp)
{
	u64 top = 0;
	size_t i;

	for (i = 0; i < c->n; i++) {
		tmp[i] = (x[i] << 1) | top;
		top = x[i] >> 63;
	}
	final_sub(c, x, tmp, top);
}

/*
 * one = R mod m and rr = R^2 mod m.  From 2^(bits(m) - 1) < m, doublings
 * give R mod m and then 2^j R; s Montgomery squares of 2^j R give
 * 2^(j 2^s) R, which is R^2 for j 2^s = 64n.
 */
static void mont_consts(const struct mont *c, u64 *one, u64 *rr, u64 *tmp)
{
	size_t n = c->n, top_bits = 64, i, j = n, s = 6;
	u64 hi = c->m[n - 1];

	while (!(hi >> 63)) {
		hi <<= 1;
		top_bits--;
	}
	memset(one, 0, n * sizeof(*one));
	one[n - 1] = 1ULL << (top_bits - 1);
	for (i = top_bits - 1; i < 64; i++)
		mod_double(c, one, tmp);
	while (!(j & 1)) {
		j >>= 1;
		s++;
	}
	memcpy(rr, one, n * sizeof(*rr));
	for (i = 0; i < j; i++)
		mod_double(c, rr, tmp);
	for (i = 0; i < s; i++)
		mont_sqr(c, rr, rr);
}

/* r = table[idx], every entry read, whatever idx is. */
static void table_get(u64 *r, const u64 *table, size_t n, u64 idx)
{
	size_t i, k;

	memset(r, 0, n * sizeof(*r));
	for (k = 0; k < TABLE; k++) {
		u64 x = k ^ idx;
		u64 mask = ((x | (0 - x)) >> 63) - 1;	/* all ones if k == idx */

		for (i = 0; i < n; i++)
			r[i] |= table[k * n + i] & mask;
	}
}

/* Window w (bits WIN*w .. WIN*w + WIN - 1) of e, zeros past its end. */
static u64 window(const u64 *e, size_t elimbs, size_t w)
{
	size_t bit = w * WIN, limb = bit / 64, sh = bit % 64;
	u64 v = e[limb] >> sh;

	if (sh > 64 - WIN && limb + 1 < elimbs)
		v |= e[limb + 1] << (64 - sh);
	return v & (TABLE - 1);
}

struct exp_state {
	struct mont c;
	u64 *acc, *base, *tmp, *table;
	void *mem;
	size_t size;
};

static int exp_begin(struct exp_state *st, const u64 *m, size_t n,
		     size_t table_limbs)
{
	size_t limbs = (2 * n + 2) + 3 * n + table_limbs;

	if (!n || !(m[0] & 1) || !m[n - 1] || (n == 1 && m[0] == 1) ||
	    n > SIZE_MAX / sizeof(u64) / (3 + TABLE + 2))
		return -EINVAL;
	st->size = limbs * sizeof(u64);
	st->mem = ncr_malloc(st->size);
	if (!st->mem)
		return -ENOMEM;
	st->c.m = m;
	st->c.n = n;
	st->c.minv = neg_inv64(m[0]);
	st->c.t = st->mem;
	st->acc = st->c.t + 2 * n + 2;
	st->base = st->acc + n;
	st->tmp = st->base + n;
	st->table = table_limbs ? st->tmp + n : NULL;
	return 0;
}

/* r = acc / R (out of Montgomery form), scratch wiped and freed. */
static int exp_end(struct exp_state *st, u64 *r)
{
	size_t n = st->c.n;

	memcpy(st->c.t, st->acc, n * sizeof(u64));
	memset(st->c.t + n, 0, n * sizeof(u64));
	mont_redc(&st->c, r, st->c.t);
	ncr_free_sensitive(st->mem, st->size);
	return 0;
}

int ncr_mont_exp_secret(u64 *r, const u64 *a, const u64 *e, size_t elimbs,
			const u64 *m, size_t n)
{
	struct exp_state st;
	size_t w, k, nwin = (64 * elimbs + WIN - 1) / WIN;
	u64 *tab;
	int err;

	if (!elimbs)
		return -EINVAL;
	err = exp_begin(&st, m, n, (size_t)TABLE * n);
	if (err)
		return err;
	tab = st.table;
	/* table[k] = a^k R: table[0] = R, table[1] = a * R^2 / R */
	mont_consts(&st.c, tab, st.tmp, st.acc);
	mont_mul(&st.c, tab + n, a, st.tmp);
	for (k = 2; k < TABLE; k++)
		mont_mul(&st.c, tab + k * n, tab + (k - 1) * n, tab + n);
	table_get(st.acc, tab, n, window(e, elimbs, nwin - 1));
	for (w = nwin - 1; w-- > 0;) {
		for (k = 0; k < WIN; k++)
			mont_sqr(&st.c, st.acc, st.acc);
		table_get(st.tmp, tab, n, window(e, elimbs, w));
		mont_mul(&st.c, st.acc, st.acc, st.tmp);
	}
	return exp_end(&st, r);
}

int ncr_mont_exp_public(u64 *r, const u64 *a, const u64 *e, size_t elimbs,
			const u64 *m, size_t n)
{
	struct exp_state st;
	size_t bit;
	int err;

	err = exp_begin(&st, m, n, 0);
	if (err)
		return err;
	mont_consts(&st.c, st.acc, st.tmp, st.base);
	mont_mul(&st.c, st.base, a, st.tmp);	/* a R */
	bit = 64 * elimbs;
	while (bit > 0 && !((e[(bit - 1) / 64] >> ((bit - 1) % 64)) & 1))
		bit--;
	if (bit) {	/* from the top bit down; e = 0 leaves acc = R */
		bit--;
		memcpy(st.acc, st.base, st.c.n * sizeof(u64));
	}
	while (bit-- > 0) {
		mont_sqr(&st.c, st.acc, st.acc);
		if ((e[bit / 64] >> (bit % 64)) & 1)
			mont_mul(&st.c, st.acc, st.acc, st.base);
	}
	return exp_end(&st, r);
}
