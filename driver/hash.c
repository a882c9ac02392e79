// SPDX-License-Identifier: GPL-2.0
/*
 * NCR_OP_SIGN/VERIFY with hashes and keyed hashes (HMAC) of the kernel
 * crypto API (ahash, so hardware drivers are used; every request waits
 * with crypto_wait_req()).  Input, user data or a secret key's material
 * (UPDATE_INPUT_KEY_AS_DATA), is streamed in NCR_CHUNK_SIZE pieces.  SIGN
 * FINAL hashes NCR_ATTR_FINAL_INPUT_DATA, if given, as the last data and
 * writes the digest (ERANGE if the buffer is short); VERIFY FINAL
 * compares its input data with the digest in constant time and returns
 * 1 (match) or 0.
 */
#include <crypto/hash.h>
#include <linux/err.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include "algo.h"
#include "session.h"

struct ncr_hash_state {
	struct crypto_ahash *tfm;
	struct ahash_request *req;
};

static int ncr_hash_wait(struct ncr_hash_state *st,
			 int (*fn)(struct ahash_request *),
			 struct scatterlist *sg, u8 *digest, unsigned int len)
{
	DECLARE_CRYPTO_WAIT(wait);

	ahash_request_set_callback(st->req, CRYPTO_TFM_REQ_MAY_SLEEP |
				   CRYPTO_TFM_REQ_MAY_BACKLOG,
				   crypto_req_done, &wait);
	ahash_request_set_crypt(st->req, sg, digest, len);
	return crypto_wait_req(fn(st->req), &wait);
}

static int ncr_hash_setkey(struct ncr_session *ses, struct ncr_hash_state *st)
{
	const u8 *secret;
	unsigned int len;
	int ret;

	ret = ncr_session_key_lock_secret(ses, &secret, &len);
	if (ret)
		return ret;
	ret = crypto_ahash_setkey(st->tfm, secret, len);
	ncr_session_key_unlock(ses);
	return ret ? -EINVAL : 0;
}

static int ncr_hash_init(struct ncr_session *ses, struct nlattr *tb[])
{
	struct ncr_hash_state *st;
	int ret;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	ses->priv = st;
	ses->key_as_data_ok = true;
	st->tfm = crypto_alloc_ahash(ses->algo->name, 0, 0);
	if (IS_ERR(st->tfm)) {
		ret = PTR_ERR(st->tfm);
		st->tfm = NULL;
		return ret == -ENOENT ? -EOPNOTSUPP : ret;
	}
	if (crypto_ahash_digestsize(st->tfm) > NCR_HASH_MAX_OUTPUT_SIZE)
		return -EOPNOTSUPP;
	/* Unkeyed hashes ignore NCR_ATTR_KEY. */
	if (ses->algo->cls == NCR_ALG_MAC) {
		ret = ncr_hash_setkey(ses, st);
		if (ret)
			return ret;
	}
	st->req = ahash_request_alloc(st->tfm, GFP_KERNEL);
	if (!st->req)
		return -ENOMEM;
	return ncr_hash_wait(st, crypto_ahash_init, NULL, NULL, 0);
}

static int ncr_hash_update(struct ncr_session *ses,
			   const struct ncr_data_in *in,
			   struct ncr_data_out *out)
{
	struct ncr_hash_state *st = ses->priv;
	struct scatterlist sg;
	size_t off, len;
	u8 *buf;
	int ret = 0;

	if (in->size == 0)
		return 0;
	buf = kmalloc(min_t(size_t, in->size, NCR_CHUNK_SIZE), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (off = 0; off < in->size && !ret; off += len) {
		len = min_t(size_t, in->size - off, NCR_CHUNK_SIZE);
		ret = ncr_data_in_read(in, off, buf, len);
		if (ret)
			break;
		sg_init_one(&sg, buf, len);
		ret = ncr_hash_wait(st, crypto_ahash_update, &sg, NULL, len);
		if (!ret)
			ret = ncr_chunk_yield();
	}
	kfree_sensitive(buf);
	return ret;
}

static int ncr_hash_final(struct ncr_session *ses,
			  const struct ncr_data_in *in,
			  struct ncr_data_out *out)
{
	struct ncr_hash_state *st = ses->priv;
	unsigned int ds = crypto_ahash_digestsize(st->tfm);
	u8 digest[NCR_HASH_MAX_OUTPUT_SIZE];
	u8 sig[NCR_HASH_MAX_OUTPUT_SIZE];
	int ret;

	if (ses->op == NCR_OP_SIGN) {
		if (!out)
			return -EINVAL;
		if (out->size < ds)
			return -ERANGE;
		/* the last data (CRYPTO(4)): a MAC that skipped it would lie */
		if (in) {
			ret = ncr_hash_update(ses, in, NULL);
			if (ret)
				return ret;
		}
	} else if (!in) {
		return -EINVAL;
	}
	ret = ncr_hash_wait(st, crypto_ahash_final, NULL, digest, 0);
	if (ret)
		goto out;
	if (ses->op == NCR_OP_SIGN) {
		ret = ncr_data_out_write(out, 0, digest, ds);
		goto out;
	}
	ret = 0;
	if (in->size != ds)
		goto out;
	ret = ncr_data_in_read(in, 0, sig, ds);
	if (!ret)
		ret = !crypto_memneq(sig, digest, ds);
out:
	memzero_explicit(digest, sizeof(digest));
	return ret;
}

static void ncr_hash_free(struct ncr_session *ses)
{
	struct ncr_hash_state *st = ses->priv;

	if (!st)
		return;
	ahash_request_free(st->req);
	crypto_free_ahash(st->tfm);
	kfree(st);
	ses->priv = NULL;
}

const struct ncr_session_ops ncr_hash_ops = {
	.init = ncr_hash_init,
	.update = ncr_hash_update,
	.final = ncr_hash_final,
	.free = ncr_hash_free,
};
