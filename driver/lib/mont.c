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
	u64 *t;			/* 4n limbs of scratch */
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
	keep = ncr_ct_barrier(0 - (borrow & (hi ^ 1)));
	for (i = 0; i < c->n; i++)
		r[i] = (r[i] & ~keep) | (s[i] & keep);
}

/*
 * Product scanning (Comba): each column of products is summed in a
 * three-limb accumulator lo + hi * 2^64 held in registers and stored
 * once; under emulation a load or store costs more than a multiply.
 */
#define MAC(lo, hi, x, y)						\
	do {								\
		dlimb p_ = (dlimb)(x) * (y);				\
		u64 l_ = (lo) + (u64)p_;				\
									\
		(hi) += (u64)(p_ >> 64) + (u64)(l_ < (u64)p_);		\
		(lo) = l_;						\
	} while (0)

#define ADD(lo, hi, x)							\
	do {								\
		u64 l_ = (lo) + (x);					\
									\
		(hi) += (u64)(l_ < (lo));				\
		(lo) = l_;						\
	} while (0)

#define SHIFT(lo, hi)							\
	do {								\
		(lo) = (u64)(hi);					\
		(hi) >>= 64;						\
	} while (0)

/*
 * r = (t + a * b) / R mod m, t (2n limbs) or a and b may be absent, where
 * t + a * b < m * R; the quotient limbs go to q (n limbs), the result
 * through out (n limbs) to r.  Column i adds t[i], the products a[j]
 * b[i - j] and q[j] m[i - j]; in the low n columns q[i] is chosen to
 * clear the column.
 */
static inline __attribute__((always_inline))
void mont_columns(const struct mont *c, u64 *r, const u64 *t,
		  const u64 *a, const u64 *b, u64 *q, u64 *out)
{
	const u64 *m = c->m;
	size_t n = c->n, i, j;
	u64 lo = 0;
	dlimb hi = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++) {
			if (a)
				MAC(lo, hi, a[j], b[i - j]);
			MAC(lo, hi, q[j], m[i - j]);
		}
		if (a)
			MAC(lo, hi, a[i], b[0]);
		if (t)
			ADD(lo, hi, t[i]);
		q[i] = lo * c->minv;
		MAC(lo, hi, q[i], m[0]);
		SHIFT(lo, hi);
	}
	for (i = n; i < 2 * n; i++) {
		for (j = i - n + 1; j < n; j++) {
			if (a)
				MAC(lo, hi, a[j], b[i - j]);
			MAC(lo, hi, q[j], m[i - j]);
		}
		if (t)
			ADD(lo, hi, t[i]);
		out[i - n] = lo;
		SHIFT(lo, hi);
	}
	final_sub(c, r, out, lo);
}

/* r = a * b / R mod m. */
static void mont_mul(const struct mont *c, u64 *r, const u64 *a, const u64 *b)
{
	mont_columns(c, r, NULL, a, b, c->t + 2 * c->n, c->t + 3 * c->n);
}

/* r = t / R mod m for t (2n limbs) below m * R. */
static void mont_redc(const struct mont *c, u64 *r, const u64 *t)
{
	mont_columns(c, r, t, NULL, NULL, c->t + 2 * c->n, c->t + 3 * c->n);
}

/* r = a^2 / R mod m: each cross product once, doubled, then the square. */
static void mont_sqr(const struct mont *c, u64 *r, const u64 *a)
{
	size_t n = c->n, k, i;
	u64 *t = c->t, lo = 0;
	dlimb hi = 0;

	for (k = 0; k < 2 * n - 1; k++) {
		u64 xlo = 0;
		dlimb xhi = 0;

		/* under n/2 products of 128 bits: doubled, still 3 limbs */
		for (i = k < n ? 0 : k - n + 1; i < k - i; i++)
			MAC(xlo, xhi, a[i], a[k - i]);
		xhi = (xhi << 1) | (xlo >> 63);
		ADD(lo, hi, xlo << 1);
		hi += xhi;
		if (!(k & 1))
			MAC(lo, hi, a[k / 2], a[k / 2]);
		t[k] = lo;
		SHIFT(lo, hi);
	}
	t[2 * n - 1] = lo;
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
		/* all ones if k == idx; clang skips the loads otherwise */
		u64 mask = ncr_ct_barrier(((x | (0 - x)) >> 63) - 1);

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

/*
 * r = a R mod m for a of alimbs limbs (n to 2n), rr = R^2 mod m.  A wider
 * a = hi R + lo gives lo R + hi R^2, each a product of a number below R
 * with one below m, so that any value of a is taken without a division.
 */
static void to_mont(const struct mont *c, u64 *r, const u64 *a,
		    size_t alimbs, const u64 *rr)
{
	size_t n = c->n, i;
	u64 *hi = c->t, *s = c->t + n, carry = 0;

	if (alimbs == n) {
		mont_mul(c, r, a, rr);
		return;
	}
	memset(hi, 0, n * sizeof(u64));
	memcpy(hi, a + n, (alimbs - n) * sizeof(u64));
	mont_mul(c, s, hi, rr);		/* hi R */
	mont_mul(c, s, s, rr);		/* hi R^2 */
	mont_mul(c, r, a, rr);		/* lo R (r may alias a: lo read here) */
	for (i = 0; i < n; i++) {
		dlimb d = (dlimb)r[i] + s[i] + carry;

		hi[i] = (u64)d;
		carry = (u64)(d >> 64);
	}
	final_sub(c, r, hi, carry);
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
	size_t limbs = 4 * n + 3 * n + table_limbs;

	if (!n || !(m[0] & 1) || !m[n - 1] || (n == 1 && m[0] == 1) ||
	    n > SIZE_MAX / sizeof(u64) / (7 + TABLE))
		return -EINVAL;
	st->size = limbs * sizeof(u64);
	st->mem = ncr_malloc(st->size);
	if (!st->mem)
		return -ENOMEM;
	st->c.m = m;
	st->c.n = n;
	st->c.minv = neg_inv64(m[0]);
	st->c.t = st->mem;
	st->acc = st->c.t + 4 * n;
	st->base = st->acc + n;
	st->tmp = st->base + n;
	st->table = table_limbs ? st->tmp + n : NULL;
	return 0;
}

/* exp_begin for a base of alimbs limbs, n to 2n. */
static int exp_begin_base(struct exp_state *st, size_t alimbs, const u64 *m,
			  size_t n, size_t table_limbs)
{
	if (alimbs < n || alimbs > 2 * n)
		return -EINVAL;
	return exp_begin(st, m, n, table_limbs);
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

/* The caller was killed: scratch wiped and freed, r untouched. */
static int exp_abort(struct exp_state *st)
{
	ncr_free_sensitive(st->mem, st->size);
	return -EINTR;
}

int ncr_mont_exp_secret(u64 *r, const u64 *a, size_t alimbs, const u64 *e,
			size_t elimbs, const u64 *m, size_t n)
{
	struct exp_state st;
	size_t w, k, nwin = (64 * elimbs + WIN - 1) / WIN;
	u64 *tab;
	int err;

	if (!elimbs)
		return -EINVAL;
	err = exp_begin_base(&st, alimbs, m, n, (size_t)TABLE * n);
	if (err)
		return err;
	tab = st.table;
	/* table[k] = a^k R: table[0] = R, table[1] = a R */
	mont_consts(&st.c, tab, st.tmp, st.acc);
	to_mont(&st.c, tab + n, a, alimbs, st.tmp);
	for (k = 2; k < TABLE; k++)
		mont_mul(&st.c, tab + k * n, tab + (k - 1) * n, tab + n);
	table_get(st.acc, tab, n, window(e, elimbs, nwin - 1));
	for (w = nwin - 1; w-- > 0;) {
		if (ncr_should_stop())	/* the window count is public */
			return exp_abort(&st);
		for (k = 0; k < WIN; k++)
			mont_sqr(&st.c, st.acc, st.acc);
		table_get(st.tmp, tab, n, window(e, elimbs, w));
		mont_mul(&st.c, st.acc, st.acc, st.tmp);
	}
	return exp_end(&st, r);
}

int ncr_mont_exp_public(u64 *r, const u64 *a, size_t alimbs, const u64 *e,
			size_t elimbs, const u64 *m, size_t n)
{
	struct exp_state st;
	size_t bit;
	int err;

	err = exp_begin_base(&st, alimbs, m, n, 0);
	if (err)
		return err;
	mont_consts(&st.c, st.acc, st.tmp, st.base);
	to_mont(&st.c, st.base, a, alimbs, st.tmp);
	bit = 64 * elimbs;
	while (bit > 0 && !((e[(bit - 1) / 64] >> ((bit - 1) % 64)) & 1))
		bit--;
	if (bit) {	/* from the top bit down; e = 0 leaves acc = R */
		bit--;
		memcpy(st.acc, st.base, st.c.n * sizeof(u64));
	}
	while (bit-- > 0) {
		if (ncr_should_stop())
			return exp_abort(&st);
		mont_sqr(&st.c, st.acc, st.acc);
		if ((e[bit / 64] >> (bit % 64)) & 1)
			mont_mul(&st.c, st.acc, st.acc, st.base);
	}
	return exp_end(&st, r);
}

int ncr_mont_mul(u64 *r, const u64 *a, const u64 *b, const u64 *m, size_t n)
{
	struct exp_state st;
	int err = exp_begin(&st, m, n, 0);

	if (err)
		return err;
	mont_mul(&st.c, r, a, b);
	ncr_free_sensitive(st.mem, st.size);
	return 0;
}

int ncr_mont_to(u64 *r, const u64 *a, const u64 *m, size_t n)
{
	struct exp_state st;
	int err = exp_begin(&st, m, n, 0);

	if (err)
		return err;
	mont_consts(&st.c, st.acc, st.tmp, st.base);
	mont_mul(&st.c, r, a, st.tmp);	/* a R^2 / R */
	ncr_free_sensitive(st.mem, st.size);
	return 0;
}
