// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness for driver/lib/pkcs1.c.  Properties:
 *  - the constant-time decryption decoders agree exactly with plain
 *    branching reference decoders written here from RFC 8017 (result,
 *    message), and clear their output on failure;
 *  - the verifiers never crash and only return 0, -EBADMSG or -EINVAL;
 *  - encode -> decode/verify round-trips for every length and salt.
 * The hash is a fast deterministic stand-in (not cryptographic): the
 * encodings only need a function of the right output size.
 */
#include "pkcs1.h"
#include "fuzz.h"
#include "../unit/toy_hash.h"

#include <stdlib.h>

/* Deterministic "random" bytes from the fuzz input. */
struct byte_rng {
	u64 state;
};

static int fuzz_rng(void *ctx, u8 *buf, size_t len)
{
	struct byte_rng *r = ctx;
	size_t i;

	for (i = 0; i < len; i++) {
		r->state = mix(r->state);
		buf[i] = (u8)r->state;
	}
	return 0;
}

/* RFC 8017 7.2.2 step 3, written plainly. */
static int ref_v15_decode(const u8 *em, size_t k, size_t *off)
{
	size_t i;

	if (k < 11 || em[0] != 0 || em[1] != 2)
		return -EBADMSG;
	for (i = 2; i < k && em[i]; i++)
		;
	if (i == k || i < 10)
		return -EBADMSG;
	*off = i + 1;
	return 0;
}

/* RFC 8017 7.1.2 steps 3-4, written plainly; returns the message offset. */
static int ref_oaep_decode(const struct ncr_hash_ops *h, const u8 *em,
			   size_t k, u8 *tmp, size_t *off)
{
	size_t hl = h->digest_size, i;
	u8 lh[NCR_PKCS1_MAX_DIGEST];
	struct ncr_hash_seg s = { NULL, 0 };

	memcpy(tmp, em, k);
	ncr_mgf1_xor(h, tmp + 1 + hl, k - hl - 1, tmp + 1, hl);
	ncr_mgf1_xor(h, tmp + 1, hl, tmp + 1 + hl, k - hl - 1);
	h->digest(h->ctx, &s, 1, lh);
	if (em[0] != 0 || memcmp(tmp + 1 + hl, lh, hl))
		return -EBADMSG;
	for (i = 1 + 2 * hl; i < k && tmp[i] == 0; i++)
		;
	if (i == k || tmp[i] != 1)
		return -EBADMSG;
	*off = i + 1;
	return 0;
}

static void check_zero(const u8 *p, size_t n)
{
	while (n--)
		if (*p++)
			abort();
}

static void fuzz_decoders(const struct ncr_hash_ops *h, const u8 *em,
			  size_t k)
{
	u8 *out = malloc(k + 1), *tmp = malloc(k + 1);
	size_t olen = 0, off = 0;
	int err, ref;

	err = ncr_rsaes_pkcs1_v15_decode(em, k, out, k, &olen);
	if (k < 11) {
		if (err != -EINVAL)
			abort();
	} else {
		ref = ref_v15_decode(em, k, &off);
		if (err != ref)
			abort();
		if (!err && (olen != k - off || memcmp(out, em + off, olen)))
			abort();
		if (err)
			check_zero(out, k - 11);
	}
	err = ncr_rsaes_oaep_decode(h, NULL, 0, em, k, out, k, &olen);
	if (k < 2 * h->digest_size + 2) {
		if (err != -EINVAL)
			abort();
	} else {
		ref = ref_oaep_decode(h, em, k, tmp, &off);
		if (err != ref)
			abort();
		if (!err && (olen != k - off || memcmp(out, tmp + off, olen)))
			abort();
		if (err)
			check_zero(out, k - 2 * h->digest_size - 2);
	}
	free(out);
	free(tmp);
}

/*
 * A valid block, then the same with one byte set to 0, to 1 or with a bit
 * flipped, through the decoders: these near misses reach the checks that
 * random blocks almost never get past.
 */
static void near_misses(const struct ncr_hash_ops *h, u8 *blk, size_t k,
			u8 sel)
{
	size_t pos = (sel * 7u) % k;
	u8 saved = blk[pos];

	fuzz_decoders(h, blk, k);
	blk[pos] = 0;
	fuzz_decoders(h, blk, k);
	blk[pos] = 1;
	fuzz_decoders(h, blk, k);
	blk[pos] = saved ^ (u8)(1u << (sel % 8));
	fuzz_decoders(h, blk, k);
	blk[pos] = saved;
}

/*
 * Blocks shaped like the encodings but with a fuzz-chosen body (bytes
 * mapped so that 0x00 and 0x01 are frequent): an OAEP DB = lHash || body
 * masked as the encoder does, and a v1.5 block 00 02 || body.
 */
static void shaped_blocks(const struct ncr_hash_ops *h, const u8 *body,
			  size_t blen, size_t k)
{
	struct byte_rng rng = { blen };
	size_t hl = h->digest_size, i;
	struct ncr_hash_seg s = { NULL, 0 };
	u8 *blk;

	if (k < 2 * hl + 2 || blen < k)
		return;
	blk = calloc(1, k);
	for (i = 0; i < k; i++)
		blk[i] = body[i] < 96 ? 0 : body[i] < 128 ? 1 : body[i];
	/* v1.5: keep the fuzz-chosen zeros/ones after the 00 02 header */
	blk[0] = body[0] & 1;
	blk[1] = 2;
	fuzz_decoders(h, blk, k);
	/* OAEP */
	blk[0] = body[0] & 1;
	h->digest(h->ctx, &s, 1, blk + 1 + hl);
	fuzz_rng(&rng, blk + 1, hl);
	ncr_mgf1_xor(h, blk + 1, hl, blk + 1 + hl, k - hl - 1);
	ncr_mgf1_xor(h, blk + 1 + hl, k - hl - 1, blk + 1, hl);
	fuzz_decoders(h, blk, k);
	free(blk);
}

static void fuzz_verifiers(const struct ncr_hash_ops *h, const u8 *mh,
			   const u8 *em, size_t k, u8 sel)
{
	size_t bits = k ? 8 * k - (sel & 7) : 0;
	size_t salt = sel >> 3;
	int err;

	err = ncr_emsa_pss_verify(h, mh, salt, bits, em, k);
	if (err && err != -EBADMSG && err != -EINVAL)
		abort();
	err = ncr_emsa_pss_verify(h, mh, NCR_PSS_SALT_AUTO, bits, em, k);
	if (err && err != -EBADMSG && err != -EINVAL)
		abort();
	err = ncr_emsa_pkcs1_v15_verify(h->id, mh, h->digest_size, em, k);
	if (err && err != -EBADMSG && err != -EINVAL)
		abort();
}

static void fuzz_roundtrip(const struct ncr_hash_ops *h, const u8 *mh,
			   const u8 *msg, size_t mlen, size_t k, u8 sel)
{
	struct byte_rng rng = { mix(mlen ^ ((u64)k << 32)) };
	size_t bits = 8 * k - (sel & 7), olen, salt;
	u8 *blk = malloc(k), *out = malloc(k);
	int err;

	err = ncr_rsaes_pkcs1_v15_encode(msg, mlen, fuzz_rng, &rng, blk, k);
	if (!err && (ncr_rsaes_pkcs1_v15_decode(blk, k, out, k, &olen) ||
		     olen != mlen || memcmp(out, msg, mlen)))
		abort();
	if (err && mlen <= ncr_rsaes_pkcs1_v15_max_msg(k) && k >= 11)
		abort();
	if (!err)
		near_misses(h, blk, k, sel);
	err = ncr_rsaes_oaep_encode(h, NULL, 0, msg, mlen, fuzz_rng, &rng,
				    blk, k);
	if (!err)
		near_misses(h, blk, k, sel);
	err = ncr_rsaes_oaep_encode(h, msg, mlen / 2, msg, mlen, fuzz_rng,
				    &rng, blk, k);
	if (!err && (ncr_rsaes_oaep_decode(h, msg, mlen / 2, blk, k, out, k,
					   &olen) ||
		     olen != mlen || memcmp(out, msg, mlen)))
		abort();
	if (err && mlen <= ncr_rsaes_oaep_max_msg(h, k) &&
	    k >= 2 * h->digest_size + 2)
		abort();
	salt = mlen;
	err = ncr_emsa_pss_encode(h, mh, salt, fuzz_rng, &rng, bits, blk, k);
	if (!err && (ncr_emsa_pss_verify(h, mh, salt, bits, blk, k) ||
		     ncr_emsa_pss_verify(h, mh, NCR_PSS_SALT_AUTO, bits, blk,
					 k)))
		abort();
	err = ncr_emsa_pkcs1_v15_encode(h->id, mh, h->digest_size, blk, k);
	if (!err && ncr_emsa_pkcs1_v15_verify(h->id, mh, h->digest_size, blk,
					      k))
		abort();
	free(blk);
	free(out);
}

/*
 * Input: [hash id][selector][k low][k high?] rest; k is bounded so that
 * runs stay fast; the rest is the block (or the message in round trips).
 */
int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct ncr_hash_ops h;
	u8 mh[NCR_PKCS1_MAX_DIGEST];
	struct ncr_hash_seg s;
	size_t k;
	u8 sel;

	if (size < 3)
		return 0;
	h.id = data[0] % NCR_HASH_COUNT;
	h.digest_size = ncr_pkcs1_hash_size(h.id);
	h.digest = toy_digest;
	h.ctx = &h;
	sel = data[1];
	k = data[2] + 1;
	data += 3;
	size -= 3;
	s.data = data;
	s.len = size;
	toy_digest(&h, &s, 1, mh);
	if (sel & 0x80) {
		if (size <= k)
			fuzz_roundtrip(&h, mh, data, size, k + 1, sel);
		else
			shaped_blocks(&h, data, size, k);
		return 0;
	}
	/* the block: exactly k bytes of input when there are enough */
	if (size < k)
		k = size;
	fuzz_decoders(&h, data, k);
	fuzz_verifiers(&h, mh, data, k, sel);
	return 0;
}
