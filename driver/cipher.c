// SPDX-License-Identifier: GPL-2.0
/*
 * NCR_OP_ENCRYPT/DECRYPT with skciphers of the kernel crypto API (async
 * implementations included: every request waits with crypto_wait_req()).
 *
 * Data is streamed in chunks of at most NCR_CHUNK_SIZE bytes and the IV
 * buffer carries the chaining state across chunks and across updates (the
 * skcipher API leaves the next IV in it), so one big update and many small
 * ones give the same result.  A chunk of NCR_CIPHER_DIRECT_MIN bytes or
 * more is encrypted from the caller's pages to the caller's pages, pinned
 * for the request as AF_ALG pins its output (no copy, no bounce buffer to
 * zero); smaller ones, memory that cannot be pinned (the copy then reports
 * EFAULT as before), and an output that overlaps the input without being
 * the input itself go through a bounce buffer.  Pinned output is safe for
 * the modes this path serves (ecb, cbc, ctr: see ncr_cipher_direct()).
 *
 * Input length rule: every update must be a multiple of the cipher's
 * block size (ecb, cbc: 16 or, for des3_ede, 8; else EINVAL); for stream
 * modes (ctr, and cipher_null whose block is 1 byte) every update must be
 * a multiple of the chunk size (16 for ctr) except the last one: after a
 * partial block, further data is EINVAL.  The output buffer must hold
 * the input length (ERANGE).  Output may be the input buffer itself.
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
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/refcount.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "algo.h"
#include "key.h"
#include "session.h"

/*
 * A keyed transform.  The key's sessions of one algorithm share it (the
 * key caches the last one made, key->tfm): a tfm serves concurrent
 * requests as long as its key does not change, and this one is set
 * before anyone else can see it and never again.  The key drops it when
 * its material is cleared; sessions holding it finish with it, as they
 * would with a transform of their own.
 */
struct ncr_key_tfm {
	refcount_t ref;
	const struct ncr_algo *algo;
	struct crypto_skcipher *tfm;
};

/* Chunks from this size on are pinned rather than copied (see above). */
#define NCR_CIPHER_DIRECT_MIN	1024
/* Pages one chunk of user memory can span. */
#define NCR_CHUNK_PAGES		(DIV_ROUND_UP(NCR_CHUNK_SIZE, PAGE_SIZE) + 1)

/* One chunk of user memory, pinned, as a scatterlist. */
struct ncr_user_chunk {
	struct page *pages[NCR_CHUNK_PAGES];
	struct scatterlist sg[NCR_CHUNK_PAGES];
	int n;
};

/* The chunk in flight, input and output (allocated per update). */
struct ncr_cipher_pins {
	struct ncr_user_chunk in, out;
};

struct ncr_cipher_state {
	struct ncr_key_tfm *kt;
	struct skcipher_request *req;
	unsigned int block;	/* update lengths must be multiples */
	unsigned int chunk;	/* only the last update may be shorter */
	bool ended;		/* a partial chunk was processed */
	u8 iv[NCR_CIPHER_MAX_BLOCK_LEN];
};

void ncr_key_tfm_put(struct ncr_key_tfm *kt)
{
	if (!kt || !refcount_dec_and_test(&kt->ref))
		return;
	crypto_free_skcipher(kt->tfm);	/* zeroes the key schedule */
	kfree(kt);
}

static int ncr_key_tfm_new(const struct ncr_algo *algo,
			   struct ncr_key_tfm **ktp)
{
	struct ncr_key_tfm *kt;
	int ret;

	kt = kzalloc(sizeof(*kt), GFP_KERNEL);
	if (!kt)
		return -ENOMEM;
	kt->tfm = crypto_alloc_skcipher(algo->name, 0, 0);
	if (IS_ERR(kt->tfm)) {
		ret = PTR_ERR(kt->tfm);
		kfree(kt);
		return ret == -ENOENT ? -EOPNOTSUPP : ret;
	}
	refcount_set(&kt->ref, 1);
	kt->algo = algo;
	crypto_skcipher_set_flags(kt->tfm, CRYPTO_TFM_REQ_FORBID_WEAK_KEYS);
	*ktp = kt;
	return 0;
}

/* With key->sem held: the key's transform for algo, referenced, or NULL. */
static struct ncr_key_tfm *ncr_key_tfm_find(struct ncr_key *key,
					    const struct ncr_algo *algo)
{
	struct ncr_key_tfm *kt;

	spin_lock(&key->tfm_lock);
	kt = key->tfm;
	if (kt && kt->algo == algo)
		refcount_inc(&kt->ref);
	else
		kt = NULL;
	spin_unlock(&key->tfm_lock);
	return kt;
}

/*
 * With key->sem held for read, so kt's key is the current material: kt
 * becomes the key's transform, replacing another algorithm's (or one a
 * concurrent session made at the same time).
 */
static void ncr_key_tfm_cache(struct ncr_key *key, struct ncr_key_tfm *kt)
{
	struct ncr_key_tfm *old;

	refcount_inc(&kt->ref);
	spin_lock(&key->tfm_lock);
	old = key->tfm;
	key->tfm = kt;
	spin_unlock(&key->tfm_lock);
	ncr_key_tfm_put(old);
}

/* Two-key 3DES: K1 == K3 (see above). */
static bool ncr_des3_two_key(const struct ncr_algo *algo, const u8 *k,
			     size_t len)
{
	return strstr(algo->name, "(des3_ede)") && len == 24 &&
	       !crypto_memneq(k, k + 16, 8);
}

static int ncr_cipher_setkey(struct ncr_session *ses, struct ncr_key_tfm *kt)
{
	const u8 *secret;
	unsigned int len;
	int ret;

	if (!ses->key) {
		/* only an algorithm without key (cipher_null) has none */
		if (ses->algo->max_key)
			return -EINVAL;
		return crypto_skcipher_setkey(kt->tfm, NULL, 0) ? -EINVAL : 0;
	}
	ret = ncr_session_key_lock_secret(ses, &secret, &len);
	if (ret)
		return ret;
	ret = -EINVAL;
	if (ncr_algo_key_len_ok(ses->algo, len) &&
	    !ncr_des3_two_key(ses->algo, secret, len))
		ret = crypto_skcipher_setkey(kt->tfm, secret, len);
	if (!ret)
		ncr_key_tfm_cache(ses->key, kt);
	ncr_session_key_unlock(ses);
	return ret ? -EINVAL : 0;
}

/*
 * The key's transform, when it has one for this algorithm.  Its material
 * passed the checks of ncr_cipher_setkey() when the transform was made
 * and has not changed since (clearing it drops the transform); only the
 * checks of ncr_session_key_lock_secret() are made again.  Any failure
 * leaves the session to the slow path, which reports it.
 */
static struct ncr_key_tfm *ncr_cipher_cached(struct ncr_session *ses)
{
	struct ncr_key_tfm *kt;
	const u8 *secret;
	unsigned int len;

	if (!ses->key || ncr_session_key_lock_secret(ses, &secret, &len))
		return NULL;
	kt = ncr_key_tfm_find(ses->key, ses->algo);
	ncr_session_key_unlock(ses);
	return kt;
}

/*
 * The session's keyed transform: the key's, else a new one (the errors
 * in the order they always had: allocation, then key).
 */
static int ncr_cipher_get_tfm(struct ncr_session *ses,
			      struct ncr_cipher_state *st)
{
	int ret;

	st->kt = ncr_cipher_cached(ses);
	if (st->kt)
		return 0;
	ret = ncr_key_tfm_new(ses->algo, &st->kt);
	if (ret)
		return ret;
	return ncr_cipher_setkey(ses, st->kt);
}

static int ncr_cipher_init(struct ncr_session *ses, struct nlattr *tb[])
{
	const struct nlattr *iv = tb[NCR_ATTR_IV];
	struct ncr_cipher_state *st;
	struct crypto_skcipher *tfm;
	unsigned int ivsize;
	int ret;

	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	ses->priv = st;
	ret = ncr_cipher_get_tfm(ses, st);
	if (ret)
		return ret;
	tfm = st->kt->tfm;
	ivsize = crypto_skcipher_ivsize(tfm);
	if (ivsize > sizeof(st->iv))
		return -EOPNOTSUPP;
	if (ivsize) {
		/* No silent all-zero IV. */
		if (!iv || ncr_nla_len(iv) != ivsize)
			return -EINVAL;
		memcpy(st->iv, ncr_nla_data(iv), ivsize);
	}
	st->block = crypto_skcipher_blocksize(tfm);
	st->chunk = crypto_skcipher_chunksize(tfm);
	st->req = skcipher_request_alloc(tfm, GFP_KERNEL);
	if (!st->req)
		return -ENOMEM;
	return 0;
}

static int ncr_cipher_sg(struct ncr_session *ses, struct ncr_cipher_state *st,
			 struct scatterlist *src, struct scatterlist *dst,
			 unsigned int len)
{
	DECLARE_CRYPTO_WAIT(wait);
	int ret;

	skcipher_request_set_callback(st->req, CRYPTO_TFM_REQ_MAY_SLEEP |
				      CRYPTO_TFM_REQ_MAY_BACKLOG,
				      crypto_req_done, &wait);
	skcipher_request_set_crypt(st->req, src, dst, len, st->iv);
	if (ses->op == NCR_OP_ENCRYPT)
		ret = crypto_skcipher_encrypt(st->req);
	else
		ret = crypto_skcipher_decrypt(st->req);
	return crypto_wait_req(ret, &wait);
}

static int ncr_cipher_chunk(struct ncr_session *ses,
			    struct ncr_cipher_state *st, u8 *buf,
			    unsigned int len)
{
	struct scatterlist sg;

	sg_init_one(&sg, buf, len);
	return ncr_cipher_sg(ses, st, &sg, &sg, len);
}

/*
 * Pins the pages of [uaddr, uaddr + len), len <= NCR_CHUNK_SIZE (writable
 * ones for output), as c's scatterlist.  False when not all of them can be
 * pinned: the caller copies instead, which reports a bad address.
 */
static bool ncr_user_chunk_pin(struct ncr_user_chunk *c, unsigned long uaddr,
			       unsigned int len, bool write)
{
	unsigned int off = offset_in_page(uaddr), seg;
	int i, n = DIV_ROUND_UP(off + len, PAGE_SIZE), got;

	got = pin_user_pages_fast(uaddr - off, n, write ? FOLL_WRITE : 0,
				  c->pages);
	if (got != n) {
		if (got > 0)
			unpin_user_pages(c->pages, got);
		return false;
	}
	c->n = n;
	sg_init_table(c->sg, n);
	for (i = 0; i < n; i++) {
		seg = min_t(unsigned int, len, PAGE_SIZE - off);
		sg_set_page(&c->sg[i], c->pages[i], seg, off);
		len -= seg;
		off = 0;
	}
	return true;
}

/*
 * One chunk from the caller's pages to the caller's pages: 1 when done,
 * 0 when they could not be pinned (nothing done), else an error.  The
 * request only ever writes to dst what the caller can compute from its
 * own input and output (ecb, cbc, ctr: the output itself, or E(counter)
 * and D(c) = p ^ previous c before the XOR), so a thread watching the
 * output buffer learns nothing the finished output does not give it; a
 * thread changing the input meanwhile garbles its own result only.  xts
 * (one_request) never comes here: its intermediate p ^ T would show the
 * encrypted tweak T.
 */
static int ncr_cipher_direct(struct ncr_session *ses,
			     struct ncr_cipher_state *st,
			     struct ncr_cipher_pins *p, const u8 __user *src,
			     u8 __user *dst, unsigned int len)
{
	bool inplace = (const void __user *)src == (void __user *)dst;
	int ret;

	if (!ncr_user_chunk_pin(&p->out, (unsigned long)dst, len, true))
		return 0;
	if (!inplace &&
	    !ncr_user_chunk_pin(&p->in, (unsigned long)src, len, false)) {
		unpin_user_pages(p->out.pages, p->out.n);
		return 0;
	}
	ret = ncr_cipher_sg(ses, st, inplace ? p->out.sg : p->in.sg,
			    p->out.sg, len);
	if (!inplace)
		unpin_user_pages(p->in.pages, p->in.n);
	unpin_user_pages_dirty_lock(p->out.pages, p->out.n, true);
	return ret ? ret : 1;
}

/* Output that overlaps the input without being the input itself. */
static bool ncr_overlap(const void __user *a, const void __user *b, size_t n)
{
	unsigned long x = (unsigned long)a, y = (unsigned long)b;

	return x != y && (x < y ? y - x < n : x - y < n);
}

static int ncr_cipher_update(struct ncr_session *ses,
			     const struct ncr_data_in *in,
			     struct ncr_data_out *out)
{
	struct ncr_cipher_state *st = ses->priv;
	struct ncr_cipher_pins *pins = NULL;
	size_t n = in->size, off, len;
	u8 *buf = NULL;
	bool direct;
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
	direct = n >= NCR_CIPHER_DIRECT_MIN && !ses->algo->one_request &&
		 !ncr_overlap(in->user, out->buf, n);
	if (direct)	/* without it, the bounce buffer */
		pins = kmalloc(sizeof(*pins), GFP_KERNEL);
	for (off = 0; off < n && !ret; off += len) {
		len = min_t(size_t, n - off, NCR_CHUNK_SIZE);
		if (pins && len >= NCR_CIPHER_DIRECT_MIN) {
			ret = ncr_cipher_direct(ses, st, pins, in->user + off,
						out->buf + off, len);
			if (ret > 0) {
				out->written = max(out->written, off + len);
				ret = ncr_chunk_yield();
				continue;
			}
			if (ret < 0)
				break;
		}
		if (!buf) {
			buf = kmalloc(min_t(size_t, n - off, NCR_CHUNK_SIZE),
				      GFP_KERNEL);
			if (!buf) {
				ret = -ENOMEM;
				break;
			}
		}
		ret = ncr_data_in_read(in, off, buf, len);
		if (!ret)
			ret = ncr_cipher_chunk(ses, st, buf, len);
		if (!ret)
			ret = ncr_data_out_write(out, off, buf, len);
		if (!ret)
			ret = ncr_chunk_yield();
	}
	kfree(pins);
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
	ncr_key_tfm_put(st->kt);
	kfree_sensitive(st);
	ses->priv = NULL;
}

const struct ncr_session_ops ncr_cipher_ops = {
	.init = ncr_cipher_init,
	.update = ncr_cipher_update,
	.final = ncr_cipher_final,
	.free = ncr_cipher_free,
};
