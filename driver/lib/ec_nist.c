// SPDX-License-Identifier: GPL-2.0
/*
 * P-256 and P-384 (ec_nist.h): Montgomery arithmetic specialised per limb
 * count, complete projective formulas, a signed 5-bit comb for k G and a
 * fixed window for k P.  Numbers are little-endian 64-bit limbs inside,
 * big-endian bytes at the interface (lib/ec_math.h).
 */
#include "ec_math.h"
#include "ec_nist.h"

typedef unsigned __int128 dlimb;

#define INL static inline __attribute__((always_inline))
/* Fully unrolled limb loops are a third faster; -O2 leaves them rolled. */
#define UNROLL _Pragma("GCC unroll 12")

#define ND_MAX		6		/* P-384 */
#define WBITS		5		/* comb and window width */
#define WENTRIES	16		/* 2^(WBITS - 1) multiples per row */
#define P256_ROWS	52		/* ceil((256 + 1) / WBITS) */
#define P384_ROWS	77		/* ceil((384 + 1) / WBITS) */

/* An odd modulus in Montgomery form: R = 2^(64 nd). */
struct nist_mod {
	u64 m[ND_MAX];
	u64 minv;			/* -m^-1 mod 2^64 */
	u64 rr[ND_MAX];			/* R^2 mod m */
	u64 one[ND_MAX];		/* R mod m */
};

struct nist_pt {			/* projective (X : Y : Z), Montgomery */
	u64 x[ND_MAX], y[ND_MAX], z[ND_MAX];
};

struct nist_curve {
	unsigned int id, nbytes, nd, rows;
	const u8 *params;		/* b, Gx, Gy: nbytes each, BE */
	const struct nist_mod *p, *n;	/* the field and the order */
	u64 b[ND_MAX];			/* Montgomery form */
	u64 *table;			/* rows * WENTRIES affine (x, y) */
};

/* ---- the domain parameters (SEC 2 / FIPS 186-4 D.1.2) ---- */

/*
 * The moduli with their Montgomery constants, as constants: the compiler
 * folds the special limbs of p into the reduction.  A wrong one fails
 * every comparison of test_ec_nist with libcrypto.
 */
static const struct nist_mod p256_p = {
	.m = {
		0xffffffffffffffffULL, 0x00000000ffffffffULL, 0x0000000000000000ULL,
		0xffffffff00000001ULL,
	},
	.minv = 0x0000000000000001ULL,
	.rr = {
		0x0000000000000003ULL, 0xfffffffbffffffffULL, 0xfffffffffffffffeULL,
		0x00000004fffffffdULL,
	},
	.one = {
		0x0000000000000001ULL, 0xffffffff00000000ULL, 0xffffffffffffffffULL,
		0x00000000fffffffeULL,
	},
};

static const struct nist_mod p256_n = {
	.m = {
		0xf3b9cac2fc632551ULL, 0xbce6faada7179e84ULL, 0xffffffffffffffffULL,
		0xffffffff00000000ULL,
	},
	.minv = 0xccd1c8aaee00bc4fULL,
	.rr = {
		0x83244c95be79eea2ULL, 0x4699799c49bd6fa6ULL, 0x2845b2392b6bec59ULL,
		0x66e12d94f3d95620ULL,
	},
	.one = {
		0x0c46353d039cdaafULL, 0x4319055258e8617bULL, 0x0000000000000000ULL,
		0x00000000ffffffffULL,
	},
};

static const struct nist_mod p384_p = {
	.m = {
		0x00000000ffffffffULL, 0xffffffff00000000ULL, 0xfffffffffffffffeULL,
		0xffffffffffffffffULL, 0xffffffffffffffffULL, 0xffffffffffffffffULL,
	},
	.minv = 0x0000000100000001ULL,
	.rr = {
		0xfffffffe00000001ULL, 0x0000000200000000ULL, 0xfffffffe00000000ULL,
		0x0000000200000000ULL, 0x0000000000000001ULL, 0x0000000000000000ULL,
	},
	.one = {
		0xffffffff00000001ULL, 0x00000000ffffffffULL, 0x0000000000000001ULL,
		0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
	},
};

static const struct nist_mod p384_n = {
	.m = {
		0xecec196accc52973ULL, 0x581a0db248b0a77aULL, 0xc7634d81f4372ddfULL,
		0xffffffffffffffffULL, 0xffffffffffffffffULL, 0xffffffffffffffffULL,
	},
	.minv = 0x6ed46089e88fdc45ULL,
	.rr = {
		0x2d319b2419b409a9ULL, 0xff3d81e5df1aa419ULL, 0xbc3e483afcb82947ULL,
		0xd40d49174aab1cc5ULL, 0x3fb05b7a28266895ULL, 0x0c84ee012b39bf21ULL,
	},
	.one = {
		0x1313e695333ad68dULL, 0xa7e5f24db74f5885ULL, 0x389cb27e0bc8d220ULL,
		0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
	},
};


static const u8 p256_params[3 * 32] = {
	/* b */
	0x5a, 0xc6, 0x35, 0xd8, 0xaa, 0x3a, 0x93, 0xe7, 0xb3, 0xeb, 0xbd, 0x55,
	0x76, 0x98, 0x86, 0xbc, 0x65, 0x1d, 0x06, 0xb0, 0xcc, 0x53, 0xb0, 0xf6,
	0x3b, 0xce, 0x3c, 0x3e, 0x27, 0xd2, 0x60, 0x4b,
	/* Gx */
	0x6b, 0x17, 0xd1, 0xf2, 0xe1, 0x2c, 0x42, 0x47, 0xf8, 0xbc, 0xe6, 0xe5,
	0x63, 0xa4, 0x40, 0xf2, 0x77, 0x03, 0x7d, 0x81, 0x2d, 0xeb, 0x33, 0xa0,
	0xf4, 0xa1, 0x39, 0x45, 0xd8, 0x98, 0xc2, 0x96,
	/* Gy */
	0x4f, 0xe3, 0x42, 0xe2, 0xfe, 0x1a, 0x7f, 0x9b, 0x8e, 0xe7, 0xeb, 0x4a,
	0x7c, 0x0f, 0x9e, 0x16, 0x2b, 0xce, 0x33, 0x57, 0x6b, 0x31, 0x5e, 0xce,
	0xcb, 0xb6, 0x40, 0x68, 0x37, 0xbf, 0x51, 0xf5,
};

static const u8 p384_params[3 * 48] = {
	/* b */
	0xb3, 0x31, 0x2f, 0xa7, 0xe2, 0x3e, 0xe7, 0xe4, 0x98, 0x8e, 0x05, 0x6b,
	0xe3, 0xf8, 0x2d, 0x19, 0x18, 0x1d, 0x9c, 0x6e, 0xfe, 0x81, 0x41, 0x12,
	0x03, 0x14, 0x08, 0x8f, 0x50, 0x13, 0x87, 0x5a, 0xc6, 0x56, 0x39, 0x8d,
	0x8a, 0x2e, 0xd1, 0x9d, 0x2a, 0x85, 0xc8, 0xed, 0xd3, 0xec, 0x2a, 0xef,
	/* Gx */
	0xaa, 0x87, 0xca, 0x22, 0xbe, 0x8b, 0x05, 0x37, 0x8e, 0xb1, 0xc7, 0x1e,
	0xf3, 0x20, 0xad, 0x74, 0x6e, 0x1d, 0x3b, 0x62, 0x8b, 0xa7, 0x9b, 0x98,
	0x59, 0xf7, 0x41, 0xe0, 0x82, 0x54, 0x2a, 0x38, 0x55, 0x02, 0xf2, 0x5d,
	0xbf, 0x55, 0x29, 0x6c, 0x3a, 0x54, 0x5e, 0x38, 0x72, 0x76, 0x0a, 0xb7,
	/* Gy */
	0x36, 0x17, 0xde, 0x4a, 0x96, 0x26, 0x2c, 0x6f, 0x5d, 0x9e, 0x98, 0xbf,
	0x92, 0x92, 0xdc, 0x29, 0xf8, 0xf4, 0x1d, 0xbd, 0x28, 0x9a, 0x14, 0x7c,
	0xe9, 0xda, 0x31, 0x13, 0xb5, 0xf0, 0xb8, 0xc0, 0x0a, 0x60, 0xb1, 0xce,
	0x1d, 0x7e, 0x81, 0x9d, 0x7a, 0x43, 0x1d, 0x7c, 0x90, 0xea, 0x0e, 0x5f,
};

static u64 p256_table[P256_ROWS * WENTRIES * 2 * 4] __ro_after_init;
static u64 p384_table[P384_ROWS * WENTRIES * 2 * 6] __ro_after_init;

static struct nist_curve p256 __ro_after_init = {
	.id = NCR_EC_MATH_P256, .nbytes = 32, .nd = 4, .rows = P256_ROWS,
	.params = p256_params, .p = &p256_p, .n = &p256_n,
	.table = p256_table,
};
static struct nist_curve p384 __ro_after_init = {
	.id = NCR_EC_MATH_P384, .nbytes = 48, .nd = 6, .rows = P384_ROWS,
	.params = p384_params, .p = &p384_p, .n = &p384_n,
	.table = p384_table,
};

/* ---- limbs ---- */

static void limbs_from_be(u64 *r, const u8 *be, unsigned int nd)
{
	unsigned int i, j;

	for (i = 0; i < nd; i++) {
		u64 v = 0;

		for (j = 0; j < 8; j++)
			v = (v << 8) | be[(nd - 1 - i) * 8 + j];
		r[i] = v;
	}
}

static void limbs_to_be(u8 *be, const u64 *a, unsigned int nd)
{
	unsigned int i, j;

	for (i = 0; i < nd; i++)
		for (j = 0; j < 8; j++)
			be[(nd - 1 - i) * 8 + j] = (u8)(a[i] >> (56 - 8 * j));
}

/* All ones when a == 0 (a small), else 0. */
INL u64 mask_zero(u64 a)
{
	return ncr_ct_barrier(0 - ((a - 1) >> 63 & ((~a) >> 63)));
}

INL u64 limbs_or(const u64 *a, unsigned int nd)
{
	u64 v = 0;
	unsigned int i;

	UNROLL
	for (i = 0; i < nd; i++)
		v |= a[i];
	return v;
}

/* All ones when a == 0. */
INL u64 limbs_is_zero(const u64 *a, unsigned int nd)
{
	u64 v = limbs_or(a, nd);

	return ncr_ct_barrier(0 - (((v | (0 - v)) >> 63) ^ 1));
}

/* All ones when a == b. */
INL u64 limbs_eq(const u64 *a, const u64 *b, unsigned int nd)
{
	u64 v = 0;
	unsigned int i;

	UNROLL
	for (i = 0; i < nd; i++)
		v |= a[i] ^ b[i];
	return ncr_ct_barrier(0 - (((v | (0 - v)) >> 63) ^ 1));
}

/* r = mask ? a : r */
INL void limbs_cmov(u64 *r, const u64 *a, u64 mask, unsigned int nd)
{
	unsigned int i;

	mask = ncr_ct_barrier(mask);
	UNROLL
	for (i = 0; i < nd; i++)
		r[i] = (r[i] & ~mask) | (a[i] & mask);
}

/* r = a - b; the borrow (0 or 1). */
INL u64 limbs_sub(u64 *r, const u64 *a, const u64 *b, unsigned int nd)
{
	u64 borrow = 0;
	unsigned int i;

	UNROLL
	for (i = 0; i < nd; i++) {
		dlimb t = (dlimb)a[i] - b[i] - borrow;

		r[i] = (u64)t;
		borrow = (u64)(t >> 64) & 1;
	}
	return borrow;
}

/* ---- arithmetic modulo m, constant time; nd is a constant per curve ---- */

/* r = (hi:t) mod m for (hi:t) < 2m. */
INL void mod_reduce_once(u64 *r, const u64 *t, u64 hi, const u64 *m,
			 unsigned int nd)
{
	u64 s[ND_MAX] = { 0 }, keep;
	unsigned int i;

	keep = ncr_ct_barrier(0 - (limbs_sub(s, t, m, nd) & (hi ^ 1)));
	UNROLL
	for (i = 0; i < nd; i++)
		r[i] = (t[i] & keep) | (s[i] & ~keep);
}

/* r = a b / R mod m (CIOS), a, b < m; r may alias either. */
INL void mod_mul(u64 *r, const u64 *a, const u64 *b,
		 const struct nist_mod *md, unsigned int nd)
{
	u64 t[ND_MAX + 2] = { 0 };
	unsigned int i, j;

	UNROLL
	for (i = 0; i < nd; i++) {
		u64 c = 0, m;
		dlimb acc;

		UNROLL
		for (j = 0; j < nd; j++) {
			acc = (dlimb)a[j] * b[i] + t[j] + c;
			t[j] = (u64)acc;
			c = (u64)(acc >> 64);
		}
		acc = (dlimb)t[nd] + c;
		t[nd] = (u64)acc;
		t[nd + 1] = (u64)(acc >> 64);
		m = t[0] * md->minv;
		acc = (dlimb)m * md->m[0] + t[0];
		c = (u64)(acc >> 64);
		UNROLL
		for (j = 1; j < nd; j++) {
			acc = (dlimb)m * md->m[j] + t[j] + c;
			t[j - 1] = (u64)acc;
			c = (u64)(acc >> 64);
		}
		acc = (dlimb)t[nd] + c;
		t[nd - 1] = (u64)acc;
		t[nd] = t[nd + 1] + (u64)(acc >> 64);
	}
	mod_reduce_once(r, t, t[nd], md->m, nd);
}

/* r = a^2 / R mod m, a < m: each cross product once, then REDC. */
INL void mod_sqr(u64 *r, const u64 *a, const struct nist_mod *md,
		 unsigned int nd)
{
	u64 t[2 * ND_MAX] = { 0 }, c, hi;
	unsigned int i, j;
	dlimb acc;

	UNROLL
	for (i = 0; i < nd; i++) {
		c = 0;
		UNROLL
		for (j = i + 1; j < nd; j++) {
			acc = (dlimb)a[i] * a[j] + t[i + j] + c;
			t[i + j] = (u64)acc;
			c = (u64)(acc >> 64);
		}
		t[i + nd] = c;
	}
	UNROLL
	for (i = 2 * nd - 1; i > 0; i--)	/* double the cross products */
		t[i] = (t[i] << 1) | (t[i - 1] >> 63);
	t[0] <<= 1;
	c = 0;
	UNROLL
	for (i = 0; i < nd; i++) {
		acc = (dlimb)a[i] * a[i] + t[2 * i] + c;
		t[2 * i] = (u64)acc;
		acc = (dlimb)t[2 * i + 1] + (u64)(acc >> 64);
		t[2 * i + 1] = (u64)acc;
		c = (u64)(acc >> 64);
	}
	hi = 0;
	UNROLL
	for (i = 0; i < nd; i++) {
		u64 m = t[i] * md->minv;

		c = 0;
		UNROLL
		for (j = 0; j < nd; j++) {
			acc = (dlimb)m * md->m[j] + t[i + j] + c;
			t[i + j] = (u64)acc;
			c = (u64)(acc >> 64);
		}
		acc = (dlimb)t[i + nd] + c + hi;
		t[i + nd] = (u64)acc;
		hi = (u64)(acc >> 64);
	}
	mod_reduce_once(r, t + nd, hi, md->m, nd);
}

INL void mod_add(u64 *r, const u64 *a, const u64 *b,
		 const struct nist_mod *md, unsigned int nd)
{
	u64 s[ND_MAX] = { 0 }, c = 0;
	unsigned int i;

	UNROLL
	for (i = 0; i < nd; i++) {
		dlimb t = (dlimb)a[i] + b[i] + c;

		s[i] = (u64)t;
		c = (u64)(t >> 64);
	}
	mod_reduce_once(r, s, c, md->m, nd);
}

INL void mod_sub(u64 *r, const u64 *a, const u64 *b,
		 const struct nist_mod *md, unsigned int nd)
{
	u64 s[ND_MAX] = { 0 }, mask, c = 0;
	unsigned int i;

	mask = ncr_ct_barrier(0 - limbs_sub(s, a, b, nd));
	UNROLL
	for (i = 0; i < nd; i++) {
		dlimb t = (dlimb)s[i] + (md->m[i] & mask) + c;

		r[i] = (u64)t;
		c = (u64)(t >> 64);
	}
}

/*
 * r = a^(m - 2) = a^-1 (m prime; 0 for a = 0) in fixed 4-bit windows,
 * with the modulus's own product and square (out of line: copies of them
 * inlined here would each take a frame of their own).  The exponent is
 * public, so its digits may index the table.
 */
INL void mod_inv(u64 *r, const u64 *a, const struct nist_mod *md,
		 unsigned int nd,
		 void (*mul)(u64 *r, const u64 *a, const u64 *b),
		 void (*sqr)(u64 *r, const u64 *a))
{
	u64 e[ND_MAX], acc[ND_MAX], pw[16][ND_MAX];
	unsigned int i;
	int nib;

	memcpy(e, md->m, nd * 8);
	e[0] -= 2;			/* m is odd and > 2: no borrow */
	memcpy(pw[0], md->one, nd * 8);
	memcpy(pw[1], a, nd * 8);
	for (i = 2; i < 16; i++)
		mul(pw[i], pw[i - 1], a);
	memcpy(acc, md->one, nd * 8);
	for (nib = (int)nd * 16 - 1; nib >= 0; nib--) {
		unsigned int digit = (e[nib / 16] >> (4 * (nib % 16))) & 15;

		for (i = 0; i < 4; i++)
			sqr(acc, acc);
		if (digit)
			mul(acc, acc, pw[digit]);
	}
	memcpy(r, acc, nd * 8);
	memzero_explicit(acc, sizeof(acc));
	memzero_explicit(pw, sizeof(pw));
}

/* ---- points: Renes, Costello, Batina, algorithms 4, 5 and 6 (a = -3) ---- */

#define FM(r, a, b)	mod_mul(r, a, b, fp, nd)
#define FA(r, a, b)	mod_add(r, a, b, fp, nd)
#define FS(r, a, b)	mod_sub(r, a, b, fp, nd)
#define FQ(r, a)	mod_sqr(r, a, fp, nd)

/* A = yy - 3 t, B = yy + 3 t. */
INL void pt_ab(const struct nist_mod *fp, u64 *a, u64 *b, const u64 *yy,
	       const u64 *t, unsigned int nd)
{
	u64 t3[ND_MAX];

	FA(t3, t, t);
	FA(t3, t3, t);
	FS(a, yy, t3);
	FA(b, yy, t3);
}

/*
 * The end of an addition: X3 = B xy - yz u, Y3 = B A + v u,
 * Z3 = A yz + xy v.  r may be where the inputs came from.
 */
INL void pt_tail(const struct nist_mod *fp, struct nist_pt *r,
		 const u64 *a, const u64 *b, const u64 *xy, const u64 *yz,
		 const u64 *u, const u64 *v, unsigned int nd)
{
	u64 t0[ND_MAX], t1[ND_MAX];

	FM(t0, b, xy);
	FM(t1, yz, u);
	FS(r->x, t0, t1);
	FM(t0, b, a);
	FM(t1, v, u);
	FA(r->y, t0, t1);
	FM(t0, a, yz);
	FM(t1, xy, v);
	FA(r->z, t0, t1);
}

/* u = 3 (b w - (3 z + xx)), v = 3 xx - 3 z for the tail. */
INL void pt_uv(const struct nist_curve *c, const struct nist_mod *fp,
	       u64 *u, u64 *v, const u64 *w,
	       const u64 *z, const u64 *xx, unsigned int nd)
{
	u64 z3[ND_MAX], t0[ND_MAX];

	FA(z3, z, z);
	FA(z3, z3, z);
	FM(u, c->b, w);
	FA(t0, z3, xx);
	FS(u, u, t0);
	FA(t0, u, u);
	FA(u, t0, u);
	FA(t0, xx, xx);
	FA(t0, t0, xx);
	FS(v, t0, z3);
}

/* (s1 + s2)(q1 + q2) - (p1 + p2): the cross terms of a product. */
INL void pt_cross(const struct nist_mod *fp, u64 *r, const u64 *s1,
		  const u64 *s2, const u64 *q1, const u64 *q2, const u64 *p1,
		  const u64 *p2, unsigned int nd)
{
	u64 t0[ND_MAX], t1[ND_MAX];

	FA(t0, s1, s2);
	FA(t1, q1, q2);
	FM(r, t0, t1);
	FA(t0, p1, p2);
	FS(r, r, t0);
}

/* r = a + b, any points. */
INL void pt_add(const struct nist_curve *c, const struct nist_mod *fp,
		struct nist_pt *r,
		const struct nist_pt *p, const struct nist_pt *q,
		unsigned int nd)
{
	u64 xx[ND_MAX], yy[ND_MAX], zz[ND_MAX], xy[ND_MAX], yz[ND_MAX];
	u64 xz[ND_MAX], t[ND_MAX], u[ND_MAX], v[ND_MAX], a[ND_MAX], b3[ND_MAX];

	FM(xx, p->x, q->x);
	FM(yy, p->y, q->y);
	FM(zz, p->z, q->z);
	pt_cross(fp, xy, p->x, p->y, q->x, q->y, xx, yy, nd);
	pt_cross(fp, yz, p->y, p->z, q->y, q->z, yy, zz, nd);
	pt_cross(fp, xz, p->x, p->z, q->x, q->z, xx, zz, nd);
	FM(t, c->b, zz);
	FS(t, xz, t);
	pt_ab(fp, a, b3, yy, t, nd);
	pt_uv(c, fp, u, v, xz, zz, xx, nd);
	pt_tail(fp, r, a, b3, xy, yz, u, v, nd);
}

/* r = a + (x2, y2), the affine point not O. */
INL void pt_madd(const struct nist_curve *c, const struct nist_mod *fp,
		 struct nist_pt *r,
		 const struct nist_pt *a, const u64 *x2, const u64 *y2,
		 unsigned int nd)
{
	u64 xx[ND_MAX], yy[ND_MAX], xy[ND_MAX], yz[ND_MAX], xz[ND_MAX];
	u64 t[ND_MAX], u[ND_MAX], v[ND_MAX], a3[ND_MAX], b3[ND_MAX];

	FM(xx, a->x, x2);
	FM(yy, a->y, y2);
	pt_cross(fp, xy, a->x, a->y, x2, y2, xx, yy, nd);
	FM(yz, y2, a->z);
	FA(yz, yz, a->y);
	FM(xz, x2, a->z);
	FA(xz, xz, a->x);
	FM(t, c->b, a->z);
	FS(t, xz, t);
	pt_ab(fp, a3, b3, yy, t, nd);
	pt_uv(c, fp, u, v, xz, a->z, xx, nd);
	pt_tail(fp, r, a3, b3, xy, yz, u, v, nd);
}

/* r = 2 a. */
INL void pt_dbl(const struct nist_curve *c, const struct nist_mod *fp,
		struct nist_pt *r,
		const struct nist_pt *a, unsigned int nd)
{
	u64 xx[ND_MAX], yy[ND_MAX], zz[ND_MAX], xy2[ND_MAX], xz2[ND_MAX];
	u64 yz2[ND_MAX], t[ND_MAX], u[ND_MAX], v[ND_MAX], a3[ND_MAX];
	u64 b3[ND_MAX], t0[ND_MAX], t1[ND_MAX];

	FQ(xx, a->x);
	FQ(yy, a->y);
	FQ(zz, a->z);
	FM(xy2, a->x, a->y);
	FA(xy2, xy2, xy2);
	FM(xz2, a->x, a->z);
	FA(xz2, xz2, xz2);
	FM(yz2, a->y, a->z);
	FA(yz2, yz2, yz2);
	FM(t, c->b, zz);
	FS(t, t, xz2);
	pt_ab(fp, a3, b3, yy, t, nd);
	pt_uv(c, fp, u, v, xz2, zz, xx, nd);
	/* X3 = A xy2 - u yz2, Y3 = B A + v u, Z3 = 4 yz2 yy */
	FM(t0, a3, xy2);
	FM(t1, u, yz2);
	FS(r->x, t0, t1);
	FM(t0, b3, a3);
	FM(t1, v, u);
	FA(r->y, t0, t1);
	FM(t0, yz2, yy);
	FA(t0, t0, t0);
	FA(r->z, t0, t0);
}

/*
 * One doubling in Jacobian coordinates (x = X/Z^2, y = Y/Z^3; "dbl-2001-b"
 * for a = -3: 3M + 5S against the complete formula's 11M + 3S), for the
 * windows of k P (c_dbl5).  Not complete, but a doubling has one
 * exceptional input on a curve of odd order, O, which stays O (Z = 0).
 */
INL void pt_jdbl(const struct nist_mod *fp, u64 *x, u64 *y, u64 *z,
		 unsigned int nd)
{
	u64 d[ND_MAX], g[ND_MAX], b[ND_MAX], al[ND_MAX], t0[ND_MAX];
	u64 t1[ND_MAX];

	FQ(d, z);			/* delta = Z^2 */
	FQ(g, y);			/* gamma = Y^2 */
	FM(b, x, g);			/* beta = X gamma */
	FS(t0, x, d);
	FA(t1, x, d);
	FM(al, t0, t1);
	FA(t0, al, al);
	FA(al, t0, al);			/* alpha = 3 (X - delta)(X + delta) */
	FA(t0, y, z);
	FQ(t0, t0);
	FS(t0, t0, g);
	FS(z, t0, d);			/* Z3 = (Y + Z)^2 - gamma - delta */
	FA(b, b, b);
	FA(b, b, b);			/* 4 beta */
	FQ(t0, al);
	FA(t1, b, b);
	FS(x, t0, t1);			/* X3 = alpha^2 - 8 beta */
	FS(t0, b, x);
	FM(t0, al, t0);
	FQ(t1, g);
	FA(t1, t1, t1);
	FA(t1, t1, t1);
	FA(t1, t1, t1);
	FS(y, t0, t1);			/* Y3 = alpha (4 beta - X3) - 8 gamma^2 */
}

#undef FM
#undef FA
#undef FS
#undef FQ

/* ---- the two instances ---- */

/*
 * The two instances.  The modulus is a constant in each branch, so the
 * field and the order each get their own specialised code.
 */
#define NIST_INSTANCE(name, ND)						\
static __attribute__((__noinline__)) void name##_fmul(u64 *r, const u64 *a,	\
						  const u64 *b)		\
{									\
	mod_mul(r, a, b, &name##_p, ND);				\
}									\
static __attribute__((__noinline__)) void name##_fsqr(u64 *r, const u64 *a)	\
{									\
	mod_sqr(r, a, &name##_p, ND);					\
}									\
static __attribute__((__noinline__)) void name##_nmul(u64 *r, const u64 *a,	\
						  const u64 *b)		\
{									\
	mod_mul(r, a, b, &name##_n, ND);				\
}									\
static __attribute__((__noinline__)) void name##_nsqr(u64 *r, const u64 *a)	\
{									\
	mod_sqr(r, a, &name##_n, ND);					\
}									\
static void name##_mul(u64 *r, const u64 *a, const u64 *b,		\
		       const struct nist_mod *md)			\
{									\
	if (md == &name##_p)						\
		name##_fmul(r, a, b);					\
	else								\
		name##_nmul(r, a, b);					\
}									\
static void name##_inv(u64 *r, const u64 *a, const struct nist_mod *md)	\
{									\
	if (md == &name##_p)						\
		mod_inv(r, a, md, ND, name##_fmul, name##_fsqr);	\
	else								\
		mod_inv(r, a, md, ND, name##_nmul, name##_nsqr);	\
}									\
static void name##_add(struct nist_pt *r, const struct nist_pt *a,	\
		       const struct nist_pt *b)				\
{									\
	pt_add(&name, &name##_p, r, a, b, ND);				\
}									\
static void name##_madd(struct nist_pt *r, const struct nist_pt *a,	\
			const u64 *x, const u64 *y)			\
{									\
	pt_madd(&name, &name##_p, r, a, x, y, ND);			\
}									\
static void name##_dbl(struct nist_pt *r, const struct nist_pt *a)	\
{									\
	pt_dbl(&name, &name##_p, r, a, ND);				\
}									\
static void name##_jdbl(u64 *x, u64 *y, u64 *z)			\
{									\
	pt_jdbl(&name##_p, x, y, z, ND);				\
}

NIST_INSTANCE(p256, 4)
NIST_INSTANCE(p384, 6)

/* The curve is public: these branches are on which one. */
static void c_mul(const struct nist_curve *c, u64 *r, const u64 *a,
		  const u64 *b, const struct nist_mod *md)
{
	if (c->nd == 4)
		p256_mul(r, a, b, md);
	else
		p384_mul(r, a, b, md);
}

static void c_inv(const struct nist_curve *c, u64 *r, const u64 *a,
		  const struct nist_mod *md)
{
	if (c->nd == 4)
		p256_inv(r, a, md);
	else
		p384_inv(r, a, md);
}

static void c_add(const struct nist_curve *c, struct nist_pt *r,
		  const struct nist_pt *a, const struct nist_pt *b)
{
	if (c->nd == 4)
		p256_add(r, a, b);
	else
		p384_add(r, a, b);
}

static void c_madd(const struct nist_curve *c, struct nist_pt *r,
		   const struct nist_pt *a, const u64 *x, const u64 *y)
{
	if (c->nd == 4)
		p256_madd(r, a, x, y);
	else
		p384_madd(r, a, x, y);
}

static void c_dbl(const struct nist_curve *c, struct nist_pt *r,
		  const struct nist_pt *a)
{
	if (c->nd == 4)
		p256_dbl(r, a);
	else
		p384_dbl(r, a);
}

static void c_jdbl(const struct nist_curve *c, u64 *x, u64 *y, u64 *z)
{
	if (c->nd == 4)
		p256_jdbl(x, y, z);
	else
		p384_jdbl(x, y, z);
}

/*
 * q = 2^5 q by Jacobian doublings.  Projective (X : Y : Z) is
 * (X Z : Y Z^2 : Z) in Jacobian form and back (X Z : Y : Z^3); O, which
 * the first would make (0 : 0 : 0), is given as (1 : 1 : 0) instead.
 */
static void c_dbl5(const struct nist_curve *c, struct nist_pt *q)
{
	u64 x[ND_MAX] = { 0 }, y[ND_MAX] = { 0 }, z[ND_MAX] = { 0 };
	u64 t[ND_MAX] = { 0 }, inf;
	unsigned int nd = c->nd, i;

	inf = limbs_is_zero(q->z, nd);
	c_mul(c, x, q->x, q->z, c->p);
	c_mul(c, t, q->z, q->z, c->p);
	c_mul(c, y, q->y, t, c->p);
	memcpy(z, q->z, nd * 8);
	limbs_cmov(x, c->p->one, inf, nd);
	limbs_cmov(y, c->p->one, inf, nd);
	for (i = 0; i < WBITS; i++)
		c_jdbl(c, x, y, z);
	c_mul(c, q->x, x, z, c->p);
	memcpy(q->y, y, nd * 8);
	c_mul(c, t, z, z, c->p);
	c_mul(c, q->z, t, z, c->p);
}

/* ---- conversions and checks ---- */

/* r = a R mod m for a < m (a plain number in, Montgomery form out). */
static void c_to_mont(const struct nist_curve *c, u64 *r, const u64 *a,
		      const struct nist_mod *md)
{
	c_mul(c, r, a, md->rr, md);
}

static void c_from_mont(const struct nist_curve *c, u64 *r, const u64 *a,
			const struct nist_mod *md)
{
	u64 one[ND_MAX] = { 1 };

	c_mul(c, r, a, one, md);
}

/* All ones when y^2 = x^3 - 3 x + b (Montgomery form). */
static u64 c_affine_on_curve(const struct nist_curve *c, const u64 *x,
			     const u64 *y)
{
	u64 l[ND_MAX] = { 0 }, r[ND_MAX] = { 0 }, t[ND_MAX] = { 0 };
	unsigned int nd = c->nd;

	c_mul(c, l, y, y, c->p);
	c_mul(c, r, x, x, c->p);
	c_mul(c, r, r, x, c->p);
	mod_add(t, x, x, c->p, nd);
	mod_add(t, t, x, c->p, nd);
	mod_sub(r, r, t, c->p, nd);
	mod_add(r, r, c->b, c->p, nd);
	return limbs_eq(l, r, nd);
}

/* All ones when Y^2 Z = X^3 - 3 X Z^2 + b Z^3 and Z != 0. */
static u64 c_proj_on_curve(const struct nist_curve *c,
			   const struct nist_pt *q)
{
	u64 l[ND_MAX] = { 0 }, r[ND_MAX] = { 0 }, t[ND_MAX] = { 0 };
	u64 zz[ND_MAX] = { 0 };
	unsigned int nd = c->nd;

	c_mul(c, l, q->y, q->y, c->p);
	c_mul(c, l, l, q->z, c->p);
	c_mul(c, zz, q->z, q->z, c->p);
	c_mul(c, r, q->x, q->x, c->p);		/* X^3 - 3 X Z^2 = X (X^2 - 3 Z^2) */
	mod_add(t, zz, zz, c->p, nd);
	mod_add(t, t, zz, c->p, nd);
	mod_sub(r, r, t, c->p, nd);
	c_mul(c, r, r, q->x, c->p);
	c_mul(c, t, zz, q->z, c->p);
	c_mul(c, t, t, c->b, c->p);
	mod_add(r, r, t, c->p, nd);
	return limbs_eq(l, r, nd) & ~limbs_is_zero(q->z, nd);
}

/*
 * (x, y) = q / Z, and whether that went right: q on the curve, x Z = X,
 * y Z = Y and (x, y) on the curve, which also means q != O.  A fault in
 * the scalar multiplication or in the inversion is caught here unless it
 * lands on another point of the curve.  The verdict is public.
 */
static bool c_to_affine(const struct nist_curve *c, u64 *x, u64 *y,
		       const struct nist_pt *q)
{
	u64 zi[ND_MAX] = { 0 }, t[ND_MAX] = { 0 }, ok;
	unsigned int nd = c->nd;

	ok = c_proj_on_curve(c, q);
	c_inv(c, zi, q->z, c->p);
	c_mul(c, x, q->x, zi, c->p);
	c_mul(c, y, q->y, zi, c->p);
	c_mul(c, t, x, q->z, c->p);
	ok &= limbs_eq(t, q->x, nd);
	c_mul(c, t, y, q->z, c->p);
	ok &= limbs_eq(t, q->y, nd);
	ok &= c_affine_on_curve(c, x, y);
	ncr_declassify(&ok, sizeof(ok));
	return ok != 0;
}

/* ---- scalar multiplication ---- */

/*
 * Window i of k in signed form: bits 5i - 1 .. 5i + 4 give a digit in
 * [-16, 16] (Booth recoding: a set top bit borrows from the next window),
 * returned as its magnitude and a sign mask.  i is public.
 */
static u64 window_digit(const u64 *k, unsigned int nd, unsigned int i,
			u64 *neg)
{
	unsigned int start = i * WBITS, li, sh;
	u64 v, top, d;

	/* the 5 bits at 5i and the one below them */
	li = start / 64;
	sh = start % 64;
	v = li < nd ? k[li] >> sh : 0;
	if (sh + WBITS > 64 && li + 1 < nd)
		v |= k[li + 1] << (64 - sh);
	v = (v & ((1u << WBITS) - 1)) << 1;
	if (start)
		v |= (k[(start - 1) / 64] >> ((start - 1) % 64)) & 1;
	top = v >> WBITS;
	d = (v >> 1) + (v & 1);
	*neg = 0 - top;
	return (d & ~*neg) | (((1u << WBITS) - d) & *neg);
}

/* y = neg ? -y : y */
static void c_cneg(const struct nist_curve *c, u64 *y, u64 neg)
{
	u64 zero[ND_MAX] = { 0 }, t[ND_MAX] = { 0 };

	mod_sub(t, zero, y, c->p, c->nd);
	limbs_cmov(y, t, neg, c->nd);
}

static void pt_set_inf(const struct nist_curve *c, struct nist_pt *q)
{
	memset(q, 0, sizeof(*q));
	memcpy(q->y, c->p->one, c->nd * 8);
}

/* q = k G, any k < 2^(64 nd): one mixed addition per row. */
static void c_mul_g(const struct nist_curve *c, struct nist_pt *q,
		    const u64 *k)
{
	unsigned int nd = c->nd, i, j, w = 2 * nd;
	u64 x[ND_MAX] = { 0 }, y[ND_MAX] = { 0 }, mag, neg;
	struct nist_pt t;

	pt_set_inf(c, q);
	for (i = 0; i < c->rows; i++) {
		const u64 *row = c->table + (size_t)i * WENTRIES * w;

		mag = window_digit(k, nd, i, &neg);
		memset(x, 0, sizeof(x));
		memset(y, 0, sizeof(y));
		for (j = 0; j < WENTRIES; j++) {
			u64 m = mask_zero(mag ^ (j + 1));

			limbs_cmov(x, row + j * w, m, nd);
			limbs_cmov(y, row + j * w + nd, m, nd);
		}
		c_cneg(c, y, neg);
		c_madd(c, &t, q, x, y);
		limbs_cmov(q->x, t.x, ~mask_zero(mag), nd);
		limbs_cmov(q->y, t.y, ~mask_zero(mag), nd);
		limbs_cmov(q->z, t.z, ~mask_zero(mag), nd);
	}
	memzero_explicit(x, sizeof(x));
	memzero_explicit(y, sizeof(y));
	memzero_explicit(&t, sizeof(t));
}

/* The work space of c_mul_pt: 16 multiples and two points. */
struct mul_pt_tmp {
	struct nist_pt tab[WENTRIES];
	struct nist_pt e, t;
};

/* q = k P (P affine, Montgomery form, on the curve), any k < 2^(64 nd). */
static void c_mul_pt(const struct nist_curve *c, struct mul_pt_tmp *w,
		     struct nist_pt *q, const u64 *px, const u64 *py,
		     const u64 *k)
{
	unsigned int nd = c->nd, i, j;
	u64 mag, neg;

	memset(&w->tab[0], 0, sizeof(w->tab[0]));
	memcpy(w->tab[0].x, px, nd * 8);
	memcpy(w->tab[0].y, py, nd * 8);
	memcpy(w->tab[0].z, c->p->one, nd * 8);
	c_dbl(c, &w->tab[1], &w->tab[0]);
	for (j = 2; j < WENTRIES; j++)
		c_add(c, &w->tab[j], &w->tab[j - 1], &w->tab[0]);
	pt_set_inf(c, q);
	for (i = c->rows; i-- > 0;) {
		c_dbl5(c, q);
		mag = window_digit(k, nd, i, &neg);
		memset(&w->e, 0, sizeof(w->e));
		for (j = 0; j < WENTRIES; j++) {
			u64 m = mask_zero(mag ^ (j + 1));

			limbs_cmov(w->e.x, w->tab[j].x, m, nd);
			limbs_cmov(w->e.y, w->tab[j].y, m, nd);
			limbs_cmov(w->e.z, w->tab[j].z, m, nd);
		}
		c_cneg(c, w->e.y, neg);
		c_add(c, &w->t, q, &w->e);
		limbs_cmov(q->x, w->t.x, ~mask_zero(mag), nd);
		limbs_cmov(q->y, w->t.y, ~mask_zero(mag), nd);
		limbs_cmov(q->z, w->t.z, ~mask_zero(mag), nd);
	}
}

/* ---- set-up ---- */

/* One row: j B for j = 1..16 in affine form, from B = 2^(5 row) G. */
static void __init table_row(const struct nist_curve *c, u64 *row,
		      struct nist_pt *pts, const struct nist_pt *b)
{
	unsigned int nd = c->nd, j;
	u64 acc[ND_MAX] = { 0 }, inv[ND_MAX] = { 0 }, zi[ND_MAX] = { 0 };
	u64 pre[WENTRIES][ND_MAX] = { 0 };

	pts[0] = *b;
	c_dbl(c, &pts[1], b);
	for (j = 2; j < WENTRIES; j++)
		c_add(c, &pts[j], &pts[j - 1], b);
	/* one inversion for the row (Montgomery's trick) */
	memcpy(acc, c->p->one, nd * 8);
	for (j = 0; j < WENTRIES; j++) {
		memcpy(pre[j], acc, nd * 8);
		c_mul(c, acc, acc, pts[j].z, c->p);
	}
	c_inv(c, inv, acc, c->p);
	for (j = WENTRIES; j-- > 0;) {
		c_mul(c, zi, inv, pre[j], c->p);
		c_mul(c, inv, inv, pts[j].z, c->p);
		c_mul(c, row + 2 * nd * j, pts[j].x, zi, c->p);
		c_mul(c, row + 2 * nd * j + nd, pts[j].y, zi, c->p);
	}
}

static void __init curve_setup(struct nist_curve *c, struct nist_pt *pts)
{
	unsigned int nd = c->nd, nb = c->nbytes, i, s;
	struct nist_pt b;
	u64 t[ND_MAX] = { 0 };

	limbs_from_be(t, c->params, nd);
	c_to_mont(c, c->b, t, c->p);
	memset(&b, 0, sizeof(b));
	limbs_from_be(t, c->params + nb, nd);
	c_to_mont(c, b.x, t, c->p);
	limbs_from_be(t, c->params + 2 * nb, nd);
	c_to_mont(c, b.y, t, c->p);
	memcpy(b.z, c->p->one, nd * 8);
	for (i = 0; i < c->rows; i++) {
		table_row(c, c->table + (size_t)i * WENTRIES * 2 * nd, pts, &b);
		for (s = 0; s < WBITS; s++)
			c_dbl(c, &b, &b);
	}
}

int __init ncr_ec_nist_init(void)
{
	size_t size = WENTRIES * sizeof(struct nist_pt);
	struct nist_pt *pts = ncr_malloc(size);

	if (!pts)
		return -ENOMEM;
	curve_setup(&p256, pts);
	curve_setup(&p384, pts);
	ncr_free_sensitive(pts, size);
	return 0;
}

/* ---- lib/ec_math.h ---- */

static const struct nist_curve *curve_of(unsigned int id, unsigned int nbytes)
{
	const struct nist_curve *c = id == NCR_EC_MATH_P256 ? &p256 :
				     id == NCR_EC_MATH_P384 ? &p384 : NULL;

	return c && c->nbytes == nbytes ? c : NULL;
}

/* A coordinate from big-endian bytes: false when >= p. */
static bool coord_in(const struct nist_curve *c, u64 *r, const u8 *be)
{
	u64 t[ND_MAX] = { 0 };

	limbs_from_be(r, be, c->nd);
	return limbs_sub(t, r, c->p->m, c->nd) == 1;
}

/* An encoded point X || Y into Montgomery form: false when not on it. */
static bool point_in(const struct nist_curve *c, u64 *x, u64 *y,
		     const u8 *xy)
{
	if (!coord_in(c, x, xy) || !coord_in(c, y, xy + c->nbytes))
		return false;
	c_to_mont(c, x, x, c->p);
	c_to_mont(c, y, y, c->p);
	return c_affine_on_curve(c, x, y) != 0;
}

static void coord_out(const struct nist_curve *c, u8 *be, const u64 *a)
{
	u64 t[ND_MAX] = { 0 };

	c_from_mont(c, t, a, c->p);
	limbs_to_be(be, t, c->nd);
}

/*
 * The frames below an entry point's, which the arithmetic has left full of
 * intermediates (products of d, of k, of the shared point): each of these
 * zeroes 1.5 KiB, together more than the deepest chain of calls (about
 * 2 KiB: sign, c_to_affine, the inversion, a product) takes.
 */
static __attribute__((__noinline__)) void scrub_deeper(void)
{
	u8 junk[1536];

	memzero_explicit(junk, sizeof(junk));
}

static __attribute__((__noinline__)) void scrub_stack(void)
{
	u8 junk[1536];

	memzero_explicit(junk, sizeof(junk));
	scrub_deeper();
}

/* Everything a signature or key agreement holds, wiped as a block. */
struct nist_tmp {
	struct nist_pt q, q2;
	u64 k[ND_MAX], d[ND_MAX], b[ND_MAX], e[ND_MAX], r[ND_MAX];
	u64 s[ND_MAX], t[ND_MAX], u[ND_MAX], x[ND_MAX], y[ND_MAX];
	struct mul_pt_tmp mp;
};

static struct nist_tmp *tmp_new(void)
{
	struct nist_tmp *w = ncr_malloc(sizeof(*w));

	if (w)
		memset(w, 0, sizeof(*w));
	return w;
}

/* The work space and the stack the arithmetic used. */
static void tmp_free(struct nist_tmp *w)
{
	ncr_free_sensitive(w, sizeof(*w));
	scrub_stack();
}

int ncr_ec_math_pub(unsigned int curve, unsigned int nbytes, const u8 *d,
		    u8 *pub)
{
	const struct nist_curve *c = curve_of(curve, nbytes);
	struct nist_tmp *w;
	int err = -EIO;

	if (!c)
		return -EINVAL;
	w = tmp_new();
	if (!w)
		return -ENOMEM;
	limbs_from_be(w->k, d, c->nd);
	c_mul_g(c, &w->q, w->k);
	if (c_to_affine(c, w->x, w->y, &w->q)) {
		coord_out(c, pub, w->x);
		coord_out(c, pub + nbytes, w->y);
		err = 0;
	}
	tmp_free(w);
	return err;
}

int ncr_ec_math_check_pub(unsigned int curve, unsigned int nbytes,
			  const u8 *pub)
{
	const struct nist_curve *c = curve_of(curve, nbytes);
	u64 x[ND_MAX] = { 0 }, y[ND_MAX] = { 0 };

	/*
	 * On the curve is enough: both curves have prime order n (cofactor
	 * 1), so n Q = O holds for every point of them, and an encoded point
	 * is never O.  The point is public: no work space to allocate, wipe.
	 */
	return c && point_in(c, x, y, pub) ? 0 : -EINVAL;
}

/* r = x mod n for x < p < 2n (plain numbers). */
static void reduce_by_n(const struct nist_curve *c, u64 *r, const u64 *x)
{
	mod_reduce_once(r, x, 0, c->n->m, c->nd);
}

/*
 * s = k^-1 (e + r d) as (k b)^-1 (b e + b r d) mod n: the inversion never
 * sees k alone.  Inputs and s are plain numbers below n.
 */
static void sign_s(const struct nist_curve *c, struct nist_tmp *w)
{
	const struct nist_mod *n = c->n;
	u64 km[ND_MAX] = { 0 }, bm[ND_MAX] = { 0 }, dm[ND_MAX] = { 0 };
	u64 em[ND_MAX] = { 0 }, rm[ND_MAX] = { 0 };
	u64 v[ND_MAX] = { 0 };

	c_to_mont(c, km, w->k, n);
	c_to_mont(c, bm, w->b, n);
	c_to_mont(c, dm, w->d, n);
	c_to_mont(c, em, w->e, n);
	c_to_mont(c, rm, w->r, n);
	c_mul(c, w->s, km, bm, n);
	c_inv(c, w->s, w->s, n);		/* (k b)^-1 */
	c_mul(c, v, bm, rm, n);
	c_mul(c, v, v, dm, n);			/* b r d */
	c_mul(c, bm, bm, em, n);		/* b e */
	mod_add(v, v, bm, n, c->nd);
	c_mul(c, w->s, w->s, v, n);
	c_from_mont(c, w->s, w->s, n);
	memzero_explicit(km, sizeof(km));
	memzero_explicit(bm, sizeof(bm));
	memzero_explicit(dm, sizeof(dm));
	memzero_explicit(em, sizeof(em));
	memzero_explicit(rm, sizeof(rm));
	memzero_explicit(v, sizeof(v));
}

/*
 * Whether s k = e + r d (mod n), recomputed from the plain inputs: a fault
 * in the blinded arithmetic of sign_s() shows here.  The verdict is public.
 */
static bool sign_s_holds(const struct nist_curve *c, struct nist_tmp *w)
{
	const struct nist_mod *n = c->n;
	u64 l[ND_MAX] = { 0 }, r[ND_MAX] = { 0 }, ok;

	c_to_mont(c, l, w->s, n);
	c_mul(c, l, l, w->k, n);		/* s k (plain: one R cancels) */
	c_to_mont(c, r, w->r, n);
	c_mul(c, r, r, w->d, n);		/* r d */
	mod_add(r, r, w->e, n, c->nd);
	ok = limbs_eq(l, r, c->nd);
	ncr_declassify(&ok, sizeof(ok));
	memzero_explicit(l, sizeof(l));
	memzero_explicit(r, sizeof(r));
	return ok != 0;
}

int ncr_ec_math_sign(unsigned int curve, unsigned int nbytes, const u8 *d,
		     const u8 *k, const u8 *b, const u8 *e, u8 *r, u8 *s)
{
	const struct nist_curve *c = curve_of(curve, nbytes);
	unsigned int nd;
	struct nist_tmp *w;
	int err = -EIO;

	if (!c)
		return -EINVAL;
	nd = c->nd;
	w = tmp_new();
	if (!w)
		return -ENOMEM;
	limbs_from_be(w->k, k, nd);
	limbs_from_be(w->b, b, nd);
	limbs_from_be(w->d, d, nd);
	limbs_from_be(w->u, e, nd);
	reduce_by_n(c, w->e, w->u);
	c_mul_g(c, &w->q, w->k);
	if (!c_to_affine(c, w->x, w->y, &w->q))
		goto out;
	c_from_mont(c, w->t, w->x, c->p);
	reduce_by_n(c, w->r, w->t);
	ncr_declassify(w->r, sizeof(w->r));	/* r and s are the output */
	err = -EAGAIN;
	if (limbs_is_zero(w->r, nd))
		goto out;
	sign_s(c, w);
	if (!sign_s_holds(c, w)) {
		err = -EIO;
		goto out;
	}
	ncr_declassify(w->s, sizeof(w->s));
	if (limbs_is_zero(w->s, nd))
		goto out;
	limbs_to_be(r, w->r, nd);
	limbs_to_be(s, w->s, nd);
	err = 0;
out:
	tmp_free(w);
	return err;
}

int ncr_ec_math_verify(unsigned int curve, unsigned int nbytes,
		       const u8 *pub, const u8 *e, const u8 *r, const u8 *s)
{
	const struct nist_curve *c = curve_of(curve, nbytes);
	const struct nist_mod *n;
	struct nist_tmp *w;
	unsigned int nd;
	int ret = 0;

	if (!c)
		return -EINVAL;
	n = c->n;
	nd = c->nd;
	w = tmp_new();
	if (!w)
		return -ENOMEM;
	if (!point_in(c, w->x, w->y, pub))
		goto out;
	limbs_from_be(w->u, e, nd);
	reduce_by_n(c, w->e, w->u);
	limbs_from_be(w->r, r, nd);
	limbs_from_be(w->s, s, nd);
	/* u1 = e / s, u2 = r / s (mod n; from Montgomery form with 1) */
	c_to_mont(c, w->t, w->s, n);
	c_inv(c, w->t, w->t, n);
	c_mul(c, w->k, w->t, w->e, n);
	c_mul(c, w->d, w->t, w->r, n);
	c_mul_g(c, &w->q, w->k);
	c_mul_pt(c, &w->mp, &w->q2, w->x, w->y, w->d);
	c_add(c, &w->q, &w->q, &w->q2);
	if (limbs_is_zero(w->q.z, nd) || !c_to_affine(c, w->x, w->y, &w->q))
		goto out;
	c_from_mont(c, w->t, w->x, c->p);
	reduce_by_n(c, w->u, w->t);
	ret = limbs_eq(w->u, w->r, nd) ? 1 : 0;
out:
	tmp_free(w);
	return ret;
}

int ncr_ec_math_ecdh(unsigned int curve, unsigned int nbytes, const u8 *d,
		     const u8 *peer, u8 *x)
{
	const struct nist_curve *c = curve_of(curve, nbytes);
	struct nist_tmp *w;
	int err = -EINVAL;

	if (!c)
		return -EINVAL;
	w = tmp_new();
	if (!w)
		return -ENOMEM;
	if (!point_in(c, w->x, w->y, peer))
		goto out;
	limbs_from_be(w->k, d, c->nd);
	c_mul_pt(c, &w->mp, &w->q, w->x, w->y, w->k);
	/* O cannot come from d in [1, n - 1] and a point of prime order */
	err = -EIO;
	if (c_to_affine(c, w->x, w->y, &w->q)) {
		coord_out(c, x, w->x);
		err = 0;
	}
out:
	tmp_free(w);
	return err;
}
