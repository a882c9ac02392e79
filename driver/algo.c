// SPDX-License-Identifier: GPL-2.0
/*
 * The algorithms the driver supports, by name.  A fixed table rather than
 * "whatever the crypto API can instantiate": key and session validation
 * then give the same answer on every machine, secret-key sizes are checked
 * at import/generate time (and again when a session uses the key), and
 * nothing the driver has no use for (AEADs, compression, rng) is
 * reachable.  The crypto API still picks the implementation (AES-NI,
 * hardware drivers) when a session starts.
 *
 * Besides AES, the table has the ciphers of the 2010 implementation:
 * cbc(des3_ede) (three-key 3DES, 24-byte keys), Camellia in ecb/cbc/ctr
 * (16/24/32-byte keys), ecb(cipher_null) (no key: a secret key, if one is
 * given, has 0 bytes) and xts(aes) (two AES keys of equal size: 32 or 64
 * bytes, as IEEE 1619 and SP 800-38E define XTS-AES; the crypto API would
 * also take 48).
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include "ncr_int.h"

#define CIPHER_AES(n)	{ n, NCR_ALG_CIPHER, 16, 32, 8, true, false }
#define CIPHER(n, min, max, step) { n, NCR_ALG_CIPHER, min, max, step, false, false }
#define HASH(n)		{ n, NCR_ALG_HASH, 0, 0, 0, false, false }
#define HMAC(n)		{ n, NCR_ALG_MAC, 1, NCR_SECRET_MAX, 0, false, false }

static const struct ncr_algo ncr_algos[] = {
	CIPHER_AES("ecb(aes)"),
	CIPHER_AES("cbc(aes)"),
	CIPHER_AES("ctr(aes)"),
	/* One XTS data unit per session: see cipher.c. */
	{ "xts(aes)", NCR_ALG_CIPHER, 32, 64, 32, false, true },
	CIPHER("cbc(des3_ede)", 24, 24, 0),
	CIPHER("ecb(camellia)", 16, 32, 8),
	CIPHER("cbc(camellia)", 16, 32, 8),
	CIPHER("ctr(camellia)", 16, 32, 8),
	CIPHER("ecb(cipher_null)", 0, 0, 0),
	HASH("md5"),
	HASH("sha1"),
	HASH("sha224"),
	HASH("sha256"),
	HASH("sha384"),
	HASH("sha512"),
	HASH("sha3-224"),
	HASH("sha3-256"),
	HASH("sha3-384"),
	HASH("sha3-512"),
	HMAC("hmac(md5)"),
	HMAC("hmac(sha1)"),
	HMAC("hmac(sha224)"),
	HMAC("hmac(sha256)"),
	HMAC("hmac(sha384)"),
	HMAC("hmac(sha512)"),
	{ "rsa", NCR_ALG_PK, 0, 0, 0, false, false },
	{ "dsa", NCR_ALG_PK, 0, 0, 0, false, false },
	{ "dh", NCR_ALG_DH, 0, 0, 0, false, false },
};

const struct ncr_algo *ncr_algo_find(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(ncr_algos); i++)
		if (!strcmp(ncr_algos[i].name, name))
			return &ncr_algos[i];
	return NULL;
}

bool ncr_algo_key_len_ok(const struct ncr_algo *algo, size_t len)
{
	if (algo->cls != NCR_ALG_CIPHER && algo->cls != NCR_ALG_MAC)
		return false;
	if (len < algo->min_key || len > algo->max_key)
		return false;
	return !algo->key_step || (len - algo->min_key) % algo->key_step == 0;
}

bool ncr_algo_takes_key(const struct ncr_algo *algo)
{
	return algo->cls != NCR_ALG_HASH &&
	       !(algo->cls == NCR_ALG_CIPHER && !algo->max_key);
}
