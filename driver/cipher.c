// SPDX-License-Identifier: GPL-2.0
/*
 * NCR_OP_ENCRYPT/DECRYPT with skciphers of the kernel crypto API (async
 * implementations included: every request waits with crypto_wait_req()).
 *
 * Data is streamed through a bounce buffer of at most NCR_CHUNK_SIZE bytes
 * and the IV buffer carries the chaining state across chunks and across
 * updates (the skcipher API leaves the next IV in it), so one big update
 * and many small ones give the same result.  Input length rule: every
 * update must be a multiple of the cipher's block size (ecb, cbc: 16 or,
 * for des3_ede, 8; else EINVAL); for stream modes (ctr, and cipher_null
 * whose block is 1 byte) every update must be a multiple of the chunk
 * size (16 for ctr) except the last one: after a partial block, further
 * data is EINVAL.  The output buffer must hold the input length (ERANGE).
 * Output may be the input buffer itself.
 *
 * xts(aes) is the exception (ncr_algo.one_request): the IV is the tweak of
 * one XTS data unit and the crypto API cannot carry a tweak from one
 * request to the next (generic xts leaves the IV alone, AES-NI leaves its
 * encrypted, advanced form: restarting from either would reuse or garble
 * tweaks).  So a session's input is one data unit, a single update (or the
 * data of FINAL/ONCE) of 16 bytes to NCR_CHUNK_SIZE (ciphertext stealing
 * handles lengths that are not a multiple of 16); data after it is EINVAL.
 *
 * Keys are set with CRYPTO_TFM_REQ_FORBID_WEAK_KEYS, as FIPS mode would:
 * xts keys with two identical halves and 3DES keys with K1 == K2 or
 * K2 == K3 (which degrade to single DES) are EINVAL on every machine, not
 * only in FIPS mode; two-key 3DES (K1 == K3), which FIPS mode refuses but
 * the flag does not, is refused here (SP 800-67 Rev. 2 keeps only three
 * different keys).  The key's size must also be one the session's algorithm
 * takes at import (a key imported for hmac(sha256) cannot bring a 48-byte
 * key to xts(aes)).  ecb(cipher_null) takes no key: the core ignores
 * NCR_ATTR_KEY for it, as for unkeyed hashes.
 */
#include <crypto/algapi.h>
#include <crypto/skcipher.h>
#include <linux/err.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "algo.h"
#include "session.h"

struct ncr_cipher_state {
	struct crypto_skcipher *tfm;
	struct skcipher_request *req;
	unsigned int block;	/* update lengths must be multiples */
	unsigned int chunk;	/* only the last update may be shorter */
	bool ended;		/* a partial chunk was processed */
	u8 iv[NCR_CIPHER_MAX_BLOCK_LEN];
};

/* Two-key 3DES: K1 == K3 (see above). */
static bool ncr_des3_two_key(const struct ncr_algo *algo, const u8 *k,
			     size_t len)
{
	return strstr(algo->name, "(des3_ede)") && len == 24 &&
	       !crypto_memneq(k, k + 16, 8);
}

static int ncr_cipher_setkey(struct ncr_session *ses,
			     struct ncr_cipher_state *st)
{
	const u8 *secret;
	unsigned int len;
	int ret;

	crypto_skcipher_set_flags(st->tfm, CRYPTO_TFM_REQ_FORBID_WEAK_KEYS);
	if (!ses->key) {
		/* only an algorithm without key (cipher_null) has none */
		if (ses->algo->max_key)
			return -EINVAL;
		return crypto_skcipher_setkey(st->tfm, NULL, 0) ? -EINVAL : 0;
	}
	ret = ncr_session_key_lock_secret(ses, &secret, &len);
	if (ret)
		return ret;
	ret = -EINVAL;
	if (ncr_algo_key_len_ok(ses->algo, len) &&
	    !ncr_des3_two_key(ses->algo, secret, len))
		ret = crypto_skcipher_setkey(st->tfm, secret, len);
	ncr_session_key_unlock(ses);
	return ret ? -EINVAL : 0;
}

static int ncr_cipher_init(struct ncr_session *ses, struct nlattr *tb[])
{
	const struct nlattr *iv = tb[NCR_ATTR_IV];
	struct ncr_cipher_state *st;
	unsigned int ivsize;
	int ret;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	ses->priv = st;
	st->tfm = crypto_alloc_skcipher(ses->algo->name, 0, 0);
	if (IS_ERR(st->tfm)) {
		ret = PTR_ERR(st->tfm);
		st->tfm = NULL;
		return ret == -ENOENT ? -EOPNOTSUPP : ret;
	}
	ret = ncr_cipher_setkey(ses, st);
	if (ret)
		return ret;
	ivsize = crypto_skcipher_ivsize(st->tfm);
	if (ivsize > sizeof(st->iv))
		return -EOPNOTSUPP;
	if (ivsize) {
		/* No silent all-zero IV. */
		if (!iv || ncr_nla_len(iv) != ivsize)
			return -EINVAL;
		memcpy(st->iv, ncr_nla_data(iv), ivsize);
	}
	st->block = crypto_skcipher_blocksize(st->tfm);
	st->chunk = crypto_skcipher_chunksize(st->tfm);
	st->req = skcipher_request_alloc(st->tfm, GFP_KERNEL);
	if (!st->req)
		return -ENOMEM;
	return 0;
}

static int ncr_cipher_chunk(struct ncr_session *ses,
			    struct ncr_cipher_state *st, u8 *buf,
			    unsigned int len)
{
	struct scatterlist sg;
	DECLARE_CRYPTO_WAIT(wait);
	int ret;

	sg_init_one(&sg, buf, len);
	skcipher_request_set_callback(st->req, CRYPTO_TFM_REQ_MAY_SLEEP |
				      CRYPTO_TFM_REQ_MAY_BACKLOG,
				      crypto_req_done, &wait);
	skcipher_request_set_crypt(st->req, &sg, &sg, len, st->iv);
	if (ses->op == NCR_OP_ENCRYPT)
		ret = crypto_skcipher_encrypt(st->req);
	else
		ret = crypto_skcipher_decrypt(st->req);
	return crypto_wait_req(ret, &wait);
}

static int ncr_cipher_update(struct ncr_session *ses,
			     const struct ncr_data_in *in,
			     struct ncr_data_out *out)
{
	struct ncr_cipher_state *st = ses->priv;
	size_t n = in->size, off, len;
	u8 *buf;
	int ret = 0;

	if (in->kernel)		/* key material is never encrypted out */
		return -EINVAL;
	if (n == 0)
		return 0;
	if (st->ended || !out)
		return -EINVAL;
	if (ses->algo->one_request ? n < st->block || n > NCR_CHUNK_SIZE :
	    n % st->block)
		return -EINVAL;
	if (out->size < n)
		return -ERANGE;
	buf = kmalloc(min_t(size_t, n, NCR_CHUNK_SIZE), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (off = 0; off < n && !ret; off += len) {
		len = min_t(size_t, n - off, NCR_CHUNK_SIZE);
		ret = ncr_data_in_read(in, off, buf, len);
		if (!ret)
			ret = ncr_cipher_chunk(ses, st, buf, len);
		if (!ret)
			ret = ncr_data_out_write(out, off, buf, len);
		if (!ret)
			ret = ncr_chunk_yield();
	}
	kfree_sensitive(buf);
	if (n % st->chunk || ses->algo->one_request)
		st->ended = true;
	return ret;
}

/* There is nothing to finish; FINAL's own input is one more update. */
static int ncr_cipher_final(struct ncr_session *ses,
			    const struct ncr_data_in *in,
			    struct ncr_data_out *out)
{
	if (in)
		return ncr_cipher_update(ses, in, out);
	return 0;
}

static void ncr_cipher_free(struct ncr_session *ses)
{
	struct ncr_cipher_state *st = ses->priv;

	if (!st)
		return;
	skcipher_request_free(st->req);
	crypto_free_skcipher(st->tfm);
	kfree_sensitive(st);
	ses->priv = NULL;
}

const struct ncr_session_ops ncr_cipher_ops = {
	.init = ncr_cipher_init,
	.update = ncr_cipher_update,
	.final = ncr_cipher_final,
	.free = ncr_cipher_free,
};
