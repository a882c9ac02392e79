// SPDX-License-Identifier: GPL-2.0
/*
 * PKCS #1 v2.2 (RFC 8017) encoding methods: EMSA-PKCS1-v1_5, EMSA-PSS,
 * RSAES-PKCS1-v1_5 and RSAES-OAEP.  Pure code, see pkcs1.h.
 *
 * The two decryption decoders never branch or index memory on values
 * derived from the decrypted block: they compute a validity mask, move the
 * message into place with a shift of secret length done in O(log n) fixed
 * passes, and only the final return value depends on validity.
 */
#include "pkcs1.h"

struct ncr_hash_info {
	const char *name;
	size_t size;
	const u8 *prefix;	/* DER DigestInfo up to the digest octets */
	size_t prefix_len;
};

static const u8 di_sha1[] = {
	0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a,
	0x05, 0x00, 0x04, 0x14 };
static const u8 di_sha224[] = {
	0x30, 0x2d, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
	0x03, 0x04, 0x02, 0x04, 0x05, 0x00, 0x04, 0x1c };
static const u8 di_sha256[] = {
	0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
	0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20 };
static const u8 di_sha384[] = {
	0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
	0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30 };
static const u8 di_sha512[] = {
	0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65,
	0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40 };

static const struct ncr_hash_info hash_info[NCR_HASH_COUNT] = {
	[NCR_HASH_SHA1] = { "sha1", 20, di_sha1, sizeof(di_sha1) },
	[NCR_HASH_SHA224] = { "sha224", 28, di_sha224, sizeof(di_sha224) },
	[NCR_HASH_SHA256] = { "sha256", 32, di_sha256, sizeof(di_sha256) },
	[NCR_HASH_SHA384] = { "sha384", 48, di_sha384, sizeof(di_sha384) },
	[NCR_HASH_SHA512] = { "sha512", 64, di_sha512, sizeof(di_sha512) },
};

int ncr_pkcs1_hash_by_name(const char *name, enum ncr_hash_id *id)
{
	unsigned int i;

	for (i = 0; i < NCR_HASH_COUNT; i++) {
		if (strcmp(name, hash_info[i].name) == 0) {
			*id = i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *ncr_pkcs1_hash_name(enum ncr_hash_id id)
{
	return (unsigned int)id < NCR_HASH_COUNT ? hash_info[id].name : NULL;
}

size_t ncr_pkcs1_hash_size(enum ncr_hash_id id)
{
	return (unsigned int)id < NCR_HASH_COUNT ? hash_info[id].size : 0;
}

/* Rejects hash ops whose claimed size does not match the algorithm. */
static int check_hash(const struct ncr_hash_ops *h)
{
	if (!h || !h->digest || (unsigned int)h->id >= NCR_HASH_COUNT ||
	    h->digest_size != hash_info[h->id].size)
		return -EINVAL;
	return 0;
}

/* Constant-time helpers: masks are all-ones (true) or zero (false). */
static inline size_t ct_barrier(size_t x)
{
	return ncr_ct_barrier(x);
}

static inline size_t ct_msb(size_t a)
{
	return 0 - (ct_barrier(a) >> (sizeof(a) * 8 - 1));
}

static inline size_t ct_is_zero(size_t a)
{
	return ct_msb(~a & (a - 1));
}

static inline size_t ct_eq(size_t a, size_t b)
{
	return ct_is_zero(a ^ b);
}

static inline size_t ct_lt(size_t a, size_t b)
{
	return ct_msb(a ^ ((a ^ b) | ((a - b) ^ b)));
}

/*
 * The barrier hides that mask is 0 or ~0: otherwise the compiler may turn
 * the select into a branch or a secret-dependent address (clang did).
 */
static inline size_t ct_sel(size_t mask, size_t a, size_t b)
{
	mask = ct_barrier(mask);
	return (mask & a) | (~mask & b);
}

/* 0 or -EBADMSG without a branch: callers decide, the decoder does not. */
static inline int ct_result(size_t good)
{
	return (int)(s32)(u32)ct_sel(good, 0, (size_t)-EBADMSG);
}

/*
 * buf[0..len) holds a message preceded by `shift` bytes of junk
 * (0 <= shift <= len, secret): move the message to the front with
 * log2(len) passes whose memory accesses do not depend on shift.
 */
static void ct_shift_left(u8 *buf, size_t len, size_t shift)
{
	size_t step, i;

	for (step = 1; step < len; step <<= 1) {
		size_t take = ~ct_is_zero(shift & step);

		for (i = 0; i + step < len; i++)
			buf[i] = (u8)ct_sel(take, buf[i + step], buf[i]);
	}
}

int ncr_mgf1_xor(const struct ncr_hash_ops *h, const u8 *seed, size_t slen,
		 u8 *out, size_t len)
{
	u8 t[NCR_PKCS1_MAX_DIGEST];
	u8 cnt[4];
	struct ncr_hash_seg segs[2] = {
		{ seed, slen }, { cnt, sizeof(cnt) } };
	size_t done = 0, n, i;
	u32 c = 0;
	int err;

	err = check_hash(h);
	if (err)
		return err;
	while (done < len) {
		cnt[0] = c >> 24;
		cnt[1] = c >> 16;
		cnt[2] = c >> 8;
		cnt[3] = c;
		err = h->digest(h->ctx, segs, 2, t);
		if (err)
			break;
		n = len - done < h->digest_size ? len - done : h->digest_size;
		for (i = 0; i < n; i++)
			out[done + i] ^= t[i];
		done += n;
		c++;
	}
	memzero_explicit(t, sizeof(t));
	return err;
}

/* ---- EMSA-PKCS1-v1_5 (RFC 8017 9.2) ---- */

int ncr_emsa_pkcs1_v15_encode(enum ncr_hash_id hash, const u8 *digest,
			      size_t dlen, u8 *block, size_t k)
{
	const struct ncr_hash_info *hi;
	size_t tlen;

	if ((unsigned int)hash >= NCR_HASH_COUNT)
		return -EINVAL;
	hi = &hash_info[hash];
	if (dlen != hi->size)
		return -EINVAL;
	tlen = hi->prefix_len + dlen;
	if (k < tlen + 11)
		return -EINVAL;
	block[0] = 0x00;
	block[1] = 0x01;
	memset(block + 2, 0xff, k - tlen - 3);
	block[k - tlen - 1] = 0x00;
	memcpy(block + k - tlen, hi->prefix, hi->prefix_len);
	memcpy(block + k - dlen, digest, dlen);
	return 0;
}

/* Re-encoding and comparing accepts exactly one (the DER) form. */
int ncr_emsa_pkcs1_v15_verify(enum ncr_hash_id hash, const u8 *digest,
			      size_t dlen, const u8 *block, size_t k)
{
	u8 *em;
	int err;

	em = ncr_malloc(k ? k : 1);
	if (!em)
		return -ENOMEM;
	err = ncr_emsa_pkcs1_v15_encode(hash, digest, dlen, em, k);
	if (!err && crypto_memneq(em, block, k))
		err = -EBADMSG;
	ncr_free_sensitive(em, k ? k : 1);
	return err;
}

/* ---- EMSA-PSS (RFC 8017 9.1) ---- */

/* emLen and the offset of EM inside the k-byte block, or -EINVAL. */
static int pss_layout(size_t mod_bits, size_t k, size_t *em_len,
		      size_t *off)
{
	size_t em_bits;

	if (mod_bits < 2 || (mod_bits + 7) / 8 != k)
		return -EINVAL;
	em_bits = mod_bits - 1;
	*em_len = (em_bits + 7) / 8;
	*off = k - *em_len;
	return 0;
}

/* H = Hash(0x00 * 8 || mHash || salt) */
static int pss_hash(const struct ncr_hash_ops *h, const u8 *mhash,
		    const u8 *salt, size_t slen, u8 *out)
{
	static const u8 zeros[8];
	struct ncr_hash_seg segs[3] = {
		{ zeros, sizeof(zeros) },
		{ mhash, h->digest_size },
		{ salt, slen } };

	return h->digest(h->ctx, segs, 3, out);
}

int ncr_emsa_pss_encode(const struct ncr_hash_ops *h, const u8 *mhash,
			size_t salt_len, ncr_rng_fn rng, void *rng_ctx,
			size_t mod_bits, u8 *block, size_t k)
{
	size_t em_len, off, hlen, db_len;
	u8 *em, *salt;
	int err;

	err = check_hash(h);
	if (!err)
		err = pss_layout(mod_bits, k, &em_len, &off);
	if (err)
		return err;
	hlen = h->digest_size;
	if (salt_len > em_len || em_len < hlen + salt_len + 2)
		return -EINVAL;
	db_len = em_len - hlen - 1;
	em = block + off;
	memset(block, 0, k);
	/* DB = PS || 0x01 || salt, with the salt drawn in place */
	salt = em + db_len - salt_len;
	em[db_len - salt_len - 1] = 0x01;
	if (salt_len) {
		err = rng(rng_ctx, salt, salt_len);
		if (err)
			goto out;
	}
	err = pss_hash(h, mhash, salt, salt_len, em + db_len);
	if (err)
		goto out;
	err = ncr_mgf1_xor(h, em + db_len, hlen, em, db_len);
	if (err)
		goto out;
	em[0] &= 0xff >> (8 * em_len - (mod_bits - 1));
	em[em_len - 1] = 0xbc;
out:
	if (err)
		memzero_explicit(block, k);
	return err;
}

int ncr_emsa_pss_verify(const struct ncr_hash_ops *h, const u8 *mhash,
			size_t salt_len, size_t mod_bits, const u8 *block,
			size_t k)
{
	u8 hh[NCR_PKCS1_MAX_DIGEST];
	size_t em_len, off, hlen, db_len, i, top_mask;
	const u8 *em;
	u8 *db;
	int err;

	err = check_hash(h);
	if (!err)
		err = pss_layout(mod_bits, k, &em_len, &off);
	if (err)
		return err;
	hlen = h->digest_size;
	em = block + off;
	if ((off && block[0]) || em_len < hlen + 2 || em[em_len - 1] != 0xbc)
		return -EBADMSG;
	if (salt_len != NCR_PSS_SALT_AUTO &&
	    (salt_len > em_len || em_len < hlen + salt_len + 2))
		return -EBADMSG;
	db_len = em_len - hlen - 1;
	top_mask = 0xff >> (8 * em_len - (mod_bits - 1));
	if (em[0] & ~top_mask)
		return -EBADMSG;
	db = ncr_malloc(db_len);
	if (!db)
		return -ENOMEM;
	memcpy(db, em, db_len);
	err = ncr_mgf1_xor(h, em + db_len, hlen, db, db_len);
	if (err)
		goto out;
	db[0] &= top_mask;
	/* PS is zeros, then 0x01, then the salt */
	for (i = 0; i < db_len && db[i] == 0; i++)
		;
	err = -EBADMSG;
	if (i == db_len || db[i] != 0x01)
		goto out;
	if (salt_len != NCR_PSS_SALT_AUTO && db_len - i - 1 != salt_len)
		goto out;
	err = pss_hash(h, mhash, db + i + 1, db_len - i - 1, hh);
	if (err)
		goto out;
	err = crypto_memneq(hh, em + db_len, hlen) ? -EBADMSG : 0;
out:
	ncr_free_sensitive(db, db_len);
	return err;
}

/* ---- RSAES-PKCS1-v1_5 (RFC 8017 7.2) ---- */

size_t ncr_rsaes_pkcs1_v15_max_msg(size_t k)
{
	return k < 11 ? 0 : k - 11;
}

/* Random bytes, none of them zero. */
static int rng_nonzero(ncr_rng_fn rng, void *ctx, u8 *buf, size_t len)
{
	size_t i;
	int err, tries;

	err = rng(ctx, buf, len);
	if (err)
		return err;
	for (i = 0; i < len; i++) {
		for (tries = 0; buf[i] == 0; tries++) {
			/* a source giving 1000 zeros in a row is broken */
			if (tries == 1000)
				return -EIO;
			err = rng(ctx, buf + i, 1);
			if (err)
				return err;
		}
	}
	return 0;
}

int ncr_rsaes_pkcs1_v15_encode(const u8 *msg, size_t mlen, ncr_rng_fn rng,
			       void *rng_ctx, u8 *block, size_t k)
{
	size_t ps_len;
	int err;

	if (k < 11)
		return -EINVAL;
	if (mlen > k - 11)
		return -EMSGSIZE;
	ps_len = k - mlen - 3;
	block[0] = 0x00;
	block[1] = 0x02;
	err = rng_nonzero(rng, rng_ctx, block + 2, ps_len);
	if (err) {
		memzero_explicit(block, k);
		return err;
	}
	block[2 + ps_len] = 0x00;
	memcpy(block + 3 + ps_len, msg, mlen);
	return 0;
}

int ncr_rsaes_pkcs1_v15_decode(const u8 *block, size_t k, u8 *out,
			       size_t out_cap, size_t *out_len)
{
	size_t good, found = 0, zero_idx = 0, i, tlen, mlen;

	if (k < 11)
		return -EINVAL;
	tlen = k - 11;
	if (out_cap < tlen)
		return -ERANGE;
	good = ct_is_zero(block[0]) & ct_eq(block[1], 2);
	for (i = 2; i < k; i++) {
		size_t z = ct_is_zero(block[i]);

		zero_idx = ct_sel(~found & z, i, zero_idx);
		found |= z;
	}
	/* at least 8 bytes of PS: the separator is at index 10 or later */
	good &= found & ~ct_lt(zero_idx, 10);
	mlen = ct_sel(good, k - zero_idx - 1, 0);
	memcpy(out, block + 11, tlen);
	ct_shift_left(out, tlen, tlen - mlen);
	for (i = 0; i < tlen; i++)
		out[i] &= (u8)good;
	*out_len = mlen;
	return ct_result(good);
}

/* ---- RSAES-OAEP (RFC 8017 7.1) ---- */

size_t ncr_rsaes_oaep_max_msg(const struct ncr_hash_ops *h, size_t k)
{
	if (check_hash(h) || k < 2 * h->digest_size + 2)
		return 0;
	return k - 2 * h->digest_size - 2;
}

static int hash_label(const struct ncr_hash_ops *h, const u8 *label,
		      size_t llen, u8 *out)
{
	struct ncr_hash_seg seg = { label, llen };

	return h->digest(h->ctx, &seg, 1, out);
}

int ncr_rsaes_oaep_encode(const struct ncr_hash_ops *h, const u8 *label,
			  size_t llen, const u8 *msg, size_t mlen,
			  ncr_rng_fn rng, void *rng_ctx, u8 *block, size_t k)
{
	size_t hlen, db_len;
	u8 *seed, *db;
	int err;

	err = check_hash(h);
	if (err)
		return err;
	hlen = h->digest_size;
	if (k < 2 * hlen + 2)
		return -EINVAL;
	if (mlen > k - 2 * hlen - 2)
		return -EMSGSIZE;
	db_len = k - hlen - 1;
	seed = block + 1;
	db = block + 1 + hlen;
	memset(block, 0, k);
	err = hash_label(h, label, llen, db);
	if (err)
		goto out;
	db[db_len - mlen - 1] = 0x01;
	memcpy(db + db_len - mlen, msg, mlen);
	err = rng(rng_ctx, seed, hlen);
	if (err)
		goto out;
	err = ncr_mgf1_xor(h, seed, hlen, db, db_len);
	if (err)
		goto out;
	err = ncr_mgf1_xor(h, db, db_len, seed, hlen);
out:
	if (err)
		memzero_explicit(block, k);
	return err;
}

int ncr_rsaes_oaep_decode(const struct ncr_hash_ops *h, const u8 *label,
			  size_t llen, const u8 *block, size_t k, u8 *out,
			  size_t out_cap, size_t *out_len)
{
	u8 lhash[NCR_PKCS1_MAX_DIGEST];
	size_t hlen, db_len, tlen, good, found = 0, one_idx = 0, i, mlen;
	u8 *tmp, *seed, *db;
	int err;

	err = check_hash(h);
	if (err)
		return err;
	hlen = h->digest_size;
	if (k < 2 * hlen + 2)
		return -EINVAL;
	tlen = k - 2 * hlen - 2;
	if (out_cap < tlen)
		return -ERANGE;
	db_len = k - hlen - 1;
	tmp = ncr_malloc(k);
	if (!tmp)
		return -ENOMEM;
	memcpy(tmp, block, k);
	seed = tmp + 1;
	db = tmp + 1 + hlen;
	err = hash_label(h, label, llen, lhash);
	if (!err)
		err = ncr_mgf1_xor(h, db, db_len, seed, hlen);
	if (!err)
		err = ncr_mgf1_xor(h, seed, hlen, db, db_len);
	if (err)
		goto out;
	good = ct_is_zero(tmp[0]);
	good &= ct_is_zero(crypto_memneq(db, lhash, hlen));
	/* after lHash': zeros, 0x01, message; anything else is an error */
	for (i = hlen; i < db_len; i++) {
		size_t one = ct_eq(db[i], 1);
		size_t zero = ct_is_zero(db[i]);

		one_idx = ct_sel(~found & one, i, one_idx);
		good &= found | one | zero;
		found |= one;
	}
	good &= found;
	mlen = ct_sel(good, db_len - one_idx - 1, 0);
	memcpy(out, db + hlen + 1, tlen);
	ct_shift_left(out, tlen, tlen - mlen);
	for (i = 0; i < tlen; i++)
		out[i] &= (u8)good;
	*out_len = mlen;
	err = ct_result(good);
out:
	memzero_explicit(lhash, sizeof(lhash));
	ncr_free_sensitive(tmp, k);
	return err;
}
