// SPDX-License-Identifier: GPL-2.0
/*
 * AES key wrap: RFC 3394 (KW) and RFC 5649 (KWP).  Pure code; see aes_kw.h.
 *
 * The wrapping functions W and W^-1 work on a buffer laid out as the
 * ciphertext: semiblock 0 is the integrity register A, semiblocks 1..n are
 * R[1..n] (the "index based" formulation of RFC 3394 section 2.2).
 */
#include "aes_kw.h"

static const u8 kw_default_iv[AES_KW_IV_LEN] = {
	0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6
};

static const u8 kwp_default_aiv[AES_KWP_AIV_LEN] = { 0xa6, 0x59, 0x59, 0xa6 };

/* A ^= t, t as a 64-bit big-endian number (RFC 3394 2.2.1 step 2). */
static void xor_counter(u8 *a, u64 t)
{
	int i;

	for (i = AES_KW_SEMIBLOCK - 1; i >= 0; i--) {
		a[i] ^= (u8)t;
		t >>= 8;
	}
}

/* W: buf holds A || R[1..n], n >= 2; transformed in place. */
static int kw_w(const struct aes_kw_cipher *c, u8 *buf, size_t n)
{
	u8 b[AES_KW_BLOCK];
	size_t i, j;
	u64 t;
	int ret = 0;

	for (j = 0; j < 6; j++) {
		for (i = 1; i <= n; i++) {
			u8 *r = buf + i * AES_KW_SEMIBLOCK;

			memcpy(b, buf, AES_KW_SEMIBLOCK);
			memcpy(b + AES_KW_SEMIBLOCK, r, AES_KW_SEMIBLOCK);
			ret = c->encrypt(c->ctx, b);
			if (ret)
				goto out;
			t = (u64)n * j + i;
			memcpy(buf, b, AES_KW_SEMIBLOCK);
			xor_counter(buf, t);
			memcpy(r, b + AES_KW_SEMIBLOCK, AES_KW_SEMIBLOCK);
		}
	}
out:
	memzero_explicit(b, sizeof(b));
	return ret;
}

/* W^-1: buf holds C[0..n], n >= 2; transformed in place into A || R. */
static int kw_w_inv(const struct aes_kw_cipher *c, u8 *buf, size_t n)
{
	u8 b[AES_KW_BLOCK];
	size_t i, j;
	u64 t;
	int ret = 0;

	for (j = 6; j-- > 0;) {
		for (i = n; i >= 1; i--) {
			u8 *r = buf + i * AES_KW_SEMIBLOCK;

			t = (u64)n * j + i;
			memcpy(b, buf, AES_KW_SEMIBLOCK);
			xor_counter(b, t);
			memcpy(b + AES_KW_SEMIBLOCK, r, AES_KW_SEMIBLOCK);
			ret = c->decrypt(c->ctx, b);
			if (ret)
				goto out;
			memcpy(buf, b, AES_KW_SEMIBLOCK);
			memcpy(r, b + AES_KW_SEMIBLOCK, AES_KW_SEMIBLOCK);
		}
	}
out:
	memzero_explicit(b, sizeof(b));
	return ret;
}

int aes_kw_wrap(const struct aes_kw_cipher *c, const u8 *iv,
		const u8 *in, size_t in_len, u8 *out, size_t *out_len)
{
	size_t n = in_len / AES_KW_SEMIBLOCK;

	if (in_len % AES_KW_SEMIBLOCK || n < 2 || in_len > AES_KW_MAX_INPUT)
		return -EINVAL;
	if (*out_len < aes_kw_wrapped_len(in_len))
		return -ERANGE;

	memmove(out + AES_KW_SEMIBLOCK, in, in_len);
	memcpy(out, iv ? iv : kw_default_iv, AES_KW_IV_LEN);
	*out_len = aes_kw_wrapped_len(in_len);
	return kw_w(c, out, n);
}

/* Unwrapping works on a private copy, released zeroed. */
static u8 *unwrap_buf_dup(const u8 *in, size_t in_len)
{
	u8 *buf = ncr_malloc(in_len);

	if (buf)
		memcpy(buf, in, in_len);
	return buf;
}

int aes_kw_unwrap(const struct aes_kw_cipher *c, const u8 *iv,
		  const u8 *in, size_t in_len, u8 *out, size_t *out_len)
{
	size_t n = in_len / AES_KW_SEMIBLOCK - 1;
	size_t plen = in_len - AES_KW_SEMIBLOCK;
	u8 *buf;
	int ret;

	if (in_len % AES_KW_SEMIBLOCK || in_len < 3 * AES_KW_SEMIBLOCK ||
	    in_len > aes_kw_wrapped_len(AES_KW_MAX_INPUT))
		return -EINVAL;
	if (*out_len < plen)
		return -ERANGE;

	buf = unwrap_buf_dup(in, in_len);
	if (!buf)
		return -ENOMEM;
	ret = kw_w_inv(c, buf, n);
	if (ret)
		goto out;
	if (crypto_memneq(buf, iv ? iv : kw_default_iv, AES_KW_IV_LEN)) {
		ret = -EBADMSG;
		goto out;
	}
	memcpy(out, buf + AES_KW_SEMIBLOCK, plen);
	*out_len = plen;
out:
	ncr_free_sensitive(buf, in_len);
	return ret;
}

int aes_kwp_wrap(const struct aes_kw_cipher *c, const u8 *aiv,
		 const u8 *in, size_t in_len, u8 *out, size_t *out_len)
{
	size_t total = aes_kwp_wrapped_len(in_len);
	size_t n = total / AES_KW_SEMIBLOCK - 1;
	u32 mli = (u32)in_len;

	if (in_len == 0 || in_len > AES_KW_MAX_INPUT)
		return -EINVAL;
	if (*out_len < total)
		return -ERANGE;

	/* Plaintext first (in may alias out), then zero padding, then AIV. */
	memmove(out + AES_KW_SEMIBLOCK, in, in_len);
	memset(out + AES_KW_SEMIBLOCK + in_len, 0,
	       total - AES_KW_SEMIBLOCK - in_len);
	memcpy(out, aiv ? aiv : kwp_default_aiv, AES_KWP_AIV_LEN);
	out[4] = mli >> 24;
	out[5] = mli >> 16;
	out[6] = mli >> 8;
	out[7] = mli;
	*out_len = total;

	/* RFC 5649 4.1: a single semiblock is one plain AES encryption. */
	if (n == 1)
		return c->encrypt(c->ctx, out);
	return kw_w(c, out, n);
}

/* 1 if a < b, else 0, without branches; a, b < 2^63. */
static u64 ct_lt(u64 a, u64 b)
{
	return (a - b) >> 63;
}

/*
 * RFC 5649 section 3 checks on the unwrapped A || P, in constant time:
 * AIV matches, 8(n-1) < MLI <= 8n, and the padding bytes are zero.
 * Returns 0 when valid, nonzero otherwise; *mli_out gets the MLI.
 */
static unsigned long kwp_check(const u8 *buf, size_t n, const u8 *aiv,
			       size_t *mli_out)
{
	const u8 *last = buf + n * AES_KW_SEMIBLOCK;	/* last semiblock */
	u64 mli = ((u64)buf[4] << 24) | ((u64)buf[5] << 16) |
		  ((u64)buf[6] << 8) | buf[7];
	u64 lo = (u64)(n - 1) * AES_KW_SEMIBLOCK;
	u64 hi = (u64)n * AES_KW_SEMIBLOCK;
	unsigned long bad;
	u8 pad = 0;
	size_t i;

	bad = crypto_memneq(buf, aiv, AES_KWP_AIV_LEN);
	bad |= 1 ^ ct_lt(lo, mli);		/* need mli > lo */
	bad |= ct_lt(hi, mli);			/* need mli <= hi */
	for (i = 0; i < AES_KW_SEMIBLOCK; i++) {
		/* byte at plaintext offset lo + i is padding if >= mli */
		u8 is_pad = (u8)(0 - (1 ^ ct_lt(lo + i, mli)));

		pad |= last[i] & is_pad;
	}
	bad |= pad;
	*mli_out = (size_t)mli;
	return bad;
}

int aes_kwp_unwrap(const struct aes_kw_cipher *c, const u8 *aiv,
		   const u8 *in, size_t in_len, u8 *out, size_t *out_len)
{
	size_t n = in_len / AES_KW_SEMIBLOCK - 1;
	size_t mli;
	u8 *buf;
	int ret;

	if (in_len % AES_KW_SEMIBLOCK || in_len < 2 * AES_KW_SEMIBLOCK ||
	    in_len > aes_kwp_wrapped_len(AES_KW_MAX_INPUT))
		return -EINVAL;

	buf = unwrap_buf_dup(in, in_len);
	if (!buf)
		return -ENOMEM;
	if (n == 1)
		ret = c->decrypt(c->ctx, buf);
	else
		ret = kw_w_inv(c, buf, n);
	if (ret)
		goto out;
	if (kwp_check(buf, n, aiv ? aiv : kwp_default_aiv, &mli)) {
		ret = -EBADMSG;
		goto out;
	}
	if (*out_len < mli) {
		ret = -ERANGE;
		goto out;
	}
	memcpy(out, buf + AES_KW_SEMIBLOCK, mli);
	*out_len = mli;
out:
	ncr_free_sensitive(buf, in_len);
	return ret;
}
