// SPDX-License-Identifier: GPL-2.0
/* HMAC and HMAC_DRBG (RFC 6979 3.2) over struct ncr_hash_ops. */
#include "hmac_drbg.h"

#define HMAC_MAX_BLOCK	128
#define HMAC_MAX_SEGS	6

static size_t hmac_block_size(enum ncr_hash_id id)
{
	return id == NCR_HASH_SHA384 || id == NCR_HASH_SHA512 ? 128 : 64;
}

/* H((K ^ pad) || segs...) */
static int hmac_pass(const struct ncr_hash_ops *h, const u8 *key, size_t bs,
		     u8 pad, const struct ncr_hash_seg *segs,
		     unsigned int nsegs, u8 *out)
{
	struct ncr_hash_seg all[HMAC_MAX_SEGS + 1];
	u8 block[HMAC_MAX_BLOCK];
	unsigned int i;
	int err;

	for (i = 0; i < bs; i++)
		block[i] = key[i] ^ pad;
	all[0].data = block;
	all[0].len = bs;
	for (i = 0; i < nsegs; i++)
		all[i + 1] = segs[i];
	err = h->digest(h->ctx, all, nsegs + 1, out);
	memzero_explicit(block, sizeof(block));
	return err;
}

int ncr_hmac(const struct ncr_hash_ops *h, const u8 *key, size_t klen,
	     const struct ncr_hash_seg *segs, unsigned int nsegs, u8 *out)
{
	size_t bs = hmac_block_size(h->id);
	u8 k0[HMAC_MAX_BLOCK], inner[NCR_PKCS1_MAX_DIGEST];
	struct ncr_hash_seg s = { inner, h->digest_size };
	int err = 0;

	if (nsegs > HMAC_MAX_SEGS || h->digest_size > sizeof(inner))
		return -EINVAL;
	memset(k0, 0, sizeof(k0));
	if (klen > bs) {
		struct ncr_hash_seg ks = { key, klen };

		err = h->digest(h->ctx, &ks, 1, k0);
	} else {
		memcpy(k0, key, klen);
	}
	if (!err)
		err = hmac_pass(h, k0, bs, 0x36, segs, nsegs, inner);
	if (!err)
		err = hmac_pass(h, k0, bs, 0x5c, &s, 1, out);
	memzero_explicit(k0, sizeof(k0));
	memzero_explicit(inner, sizeof(inner));
	return err;
}

/* K = HMAC_K(V || sep || seed), V = HMAC_K(V) (RFC 6979 3.2 d-g). */
static int drbg_update(struct ncr_hmac_drbg *d, u8 sep,
		       const struct ncr_hash_seg *seed, unsigned int nseed)
{
	struct ncr_hash_seg segs[HMAC_MAX_SEGS];
	size_t n = d->h->digest_size;
	unsigned int i;
	int err;

	if (nseed > HMAC_MAX_SEGS - 2)
		return -EINVAL;
	segs[0].data = d->v;
	segs[0].len = n;
	segs[1].data = &sep;
	segs[1].len = 1;
	for (i = 0; i < nseed; i++)
		segs[i + 2] = seed[i];
	err = ncr_hmac(d->h, d->k, n, segs, nseed + 2, d->k);
	if (!err)
		err = ncr_hmac(d->h, d->k, n, segs, 1, d->v);
	return err;
}

int ncr_hmac_drbg_init(struct ncr_hmac_drbg *d, const struct ncr_hash_ops *h,
		       const struct ncr_hash_seg *seed, unsigned int nseed)
{
	int err;

	if (h->digest_size > NCR_PKCS1_MAX_DIGEST)
		return -EINVAL;
	d->h = h;
	memset(d->k, 0x00, sizeof(d->k));
	memset(d->v, 0x01, sizeof(d->v));
	err = drbg_update(d, 0x00, seed, nseed);
	if (!err)
		err = drbg_update(d, 0x01, seed, nseed);
	return err;
}

int ncr_hmac_drbg_generate(struct ncr_hmac_drbg *d, u8 *out, size_t len)
{
	size_t n = d->h->digest_size, take;
	struct ncr_hash_seg v = { d->v, n };
	int err = 0;

	while (!err && len) {
		err = ncr_hmac(d->h, d->k, n, &v, 1, d->v);
		take = len < n ? len : n;
		if (!err)
			memcpy(out, d->v, take);
		out += take;
		len -= take;
	}
	return err;
}

int ncr_hmac_drbg_reject(struct ncr_hmac_drbg *d)
{
	return drbg_update(d, 0x00, NULL, 0);
}

void ncr_hmac_drbg_wipe(struct ncr_hmac_drbg *d)
{
	memzero_explicit(d, sizeof(*d));
}
