// SPDX-License-Identifier: GPL-2.0
/*
 * NCRIO_KEY_WRAP / NCRIO_KEY_UNWRAP: RFC 3394 ("walg-aes-rfc3394", secret
 * keys whose size is a multiple of 8, at least 16 bytes) and RFC 5649
 * ("walg-aes-rfc5649", any key: its material as key_io.c encodes it).
 * The algorithms themselves are lib/aes_kw.c; this file holds the key
 * rules.  Errors: see docs/storage-format.md ("Wrapping rules").
 *
 * AES comes from the single-block crypto_cipher API, not an "ecb(aes)"
 * skcipher: every KW step encrypts one block that depends on the previous
 * one, so a block-at-a-time interface is exactly what is needed, without a
 * scatterlist and a request per block.
 */
#include <linux/err.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "wrap.h"
#include "algo.h"
#include "attr.h"
#include "kcompat.h"
#include "key_io.h"
#include "pk.h"

NCR_IMPORT_NS(CRYPTO_INTERNAL);	/* crypto_cipher_*() */

/* ---- AES glue ---- */

static int ncr_kw_encrypt(void *ctx, u8 *block)
{
	crypto_cipher_encrypt_one(ctx, block, block);
	return 0;
}

static int ncr_kw_decrypt(void *ctx, u8 *block)
{
	crypto_cipher_decrypt_one(ctx, block, block);
	return 0;
}

void ncr_kw_cipher_bind(struct aes_kw_cipher *c, struct crypto_cipher *tfm)
{
	c->encrypt = ncr_kw_encrypt;
	c->decrypt = ncr_kw_decrypt;
	c->ctx = tfm;
}

struct crypto_cipher *ncr_kw_tfm_alloc(const u8 *key, size_t len)
{
	struct crypto_cipher *tfm;
	int ret;

	tfm = crypto_alloc_cipher("aes", 0, 0);
	if (IS_ERR(tfm))
		return tfm;
	if (crypto_cipher_blocksize(tfm) != AES_KW_BLOCK) {
		ret = -EINVAL;
		goto fail;
	}
	ret = crypto_cipher_setkey(tfm, key, len);
	if (ret)
		goto fail;
	return tfm;
fail:
	crypto_free_cipher(tfm);
	return ERR_PTR(ret);
}

/* ---- rules ---- */

enum ncr_walg { NCR_WALG_3394, NCR_WALG_5649 };

static int ncr_walg_parse(struct nlattr *tb[], enum ncr_walg *walg)
{
	const char *name = ncr_attr_str(tb, NCR_ATTR_WRAPPING_ALGORITHM);

	if (!name)
		return -EINVAL;
	if (!strcmp(name, NCR_WALG_AES_RFC3394))
		*walg = NCR_WALG_3394;
	else if (!strcmp(name, NCR_WALG_AES_RFC5649))
		*walg = NCR_WALG_5649;
	else
		return -EINVAL;
	return 0;
}

/*
 * NCR_ATTR_IV: absent or empty means the RFC's default; otherwise exactly
 * the 8-byte IV of RFC 3394 or the 4-byte AIV constant of RFC 5649 (the
 * other half of the RFC 5649 AIV is the length indicator, never chosen).
 */
static int ncr_wrap_iv(struct nlattr *tb[], enum ncr_walg walg,
		       const u8 **iv)
{
	const struct nlattr *nla = tb[NCR_ATTR_IV];
	int want = walg == NCR_WALG_3394 ? AES_KW_IV_LEN : AES_KWP_AIV_LEN;

	*iv = NULL;
	if (!nla || ncr_nla_len(nla) == 0)
		return 0;
	if (ncr_nla_len(nla) != want)
		return -EINVAL;
	*iv = ncr_nla_data(nla);
	return 0;
}

/*
 * A key-encryption key: a secret AES key (an algorithm of the AES family,
 * or none) that carries NCR_KEY_FLAG_WRAPPING, which only CAP_SYS_ADMIN
 * can give: without that rule any process could wrap a non-exportable key
 * under a KEK it knows and unwrap the result itself.
 */
static int ncr_kek_check(struct ncr_key *kek)
{
	const struct ncr_algo *algo = ncr_algo_find(kek->algo);

	if (kek->type != NCR_KEY_TYPE_SECRET || (kek->algo[0] && !algo) ||
	    (algo && !algo->aes_key))
		return -EINVAL;
	if (kek->secret_size != 16 && kek->secret_size != 24 &&
	    kek->secret_size != 32)
		return -EINVAL;
	if (!(kek->flags & NCR_KEY_FLAG_WRAPPING))
		return -EPERM;
	return 0;
}

/*
 * Is the KEK too weak for what a wrap would expose?  Secret keys: their
 * size in bits against the KEK's.  Private keys: their SP 800-57 strength
 * must be below the KEK's, because those figures are estimates and an
 * RSA-3072 key "equal" to AES-128 is still refused under it; only AES-256,
 * the strongest KEK, may wrap a key of equal strength.  Public keys protect
 * nothing.
 */
static bool ncr_kek_too_weak(struct ncr_key *kek, struct ncr_key *key)
{
	unsigned int kek_bits = kek->secret_size * 8;
	unsigned int bits;

	switch (key->type) {
	case NCR_KEY_TYPE_SECRET:
		return min_t(unsigned int, key->secret_size * 8, 256) > kek_bits;
	case NCR_KEY_TYPE_PRIVATE:
		bits = ncr_pk_strength_bits(key);
		return bits > kek_bits || (bits == kek_bits && kek_bits < 256);
	default:
		return false;
	}
}

/* Source rules; both keys are locked for read. */
static int ncr_wrap_check(struct ncr_key *kek, struct ncr_key *src,
			  enum ncr_walg walg)
{
	int ret;

	if (src->type == NCR_KEY_TYPE_INVALID)
		return -EINVAL;
	ret = ncr_kek_check(kek);
	if (ret)
		return ret;
	if (!(src->flags & NCR_KEY_FLAG_WRAPPABLE))
		return -EPERM;
	/*
	 * A KEK never leaves as a wrapping (only as a storage blob, which
	 * keeps its flag): unwrapped without the flag it would be an AES key
	 * any session could use to undo every wrapping under the KEK.
	 */
	if (src->flags & NCR_KEY_FLAG_WRAPPING)
		return -EPERM;
	if (ncr_kek_too_weak(kek, src))
		return -EPERM;
	if (walg == NCR_WALG_3394 && src->type != NCR_KEY_TYPE_SECRET)
		return -EINVAL;
	return 0;
}

static int ncr_wrap_do(struct ncr_key *kek, struct ncr_key *src,
		       enum ncr_walg walg, const u8 *iv, u8 **out,
		       size_t *out_len)
{
	struct crypto_cipher *tfm;
	struct aes_kw_cipher c;
	u8 *data, *buf;
	size_t len;
	int ret;

	ret = ncr_key_material(src, NCR_KEY_MATERIAL_MAX, &data, &len);
	if (ret)
		return ret;
	tfm = ncr_kw_tfm_alloc(kek->secret, kek->secret_size);
	if (IS_ERR(tfm)) {
		ret = PTR_ERR(tfm);
		goto free_data;
	}
	ncr_kw_cipher_bind(&c, tfm);
	*out_len = aes_kwp_wrapped_len(len);
	buf = kvmalloc(*out_len, GFP_KERNEL);
	ret = -ENOMEM;
	if (!buf)
		goto free_tfm;
	if (walg == NCR_WALG_3394)
		ret = aes_kw_wrap(&c, iv, data, len, buf, out_len);
	else
		ret = aes_kwp_wrap(&c, iv, data, len, buf, out_len);
	if (ret)
		kvfree(buf);
	else
		*out = buf;
free_tfm:
	crypto_free_cipher(tfm);
free_data:
	kvfree_sensitive(data, len);
	return ret;
}

long ncr_key_wrap(struct ncr_ns *ns, const struct ncr_key_wrap *wrap,
		  struct nlattr *tb[])
{
	struct ncr_key *kek, *src;
	enum ncr_walg walg;
	const u8 *iv;
	u8 *out = NULL;
	size_t out_len = 0;
	long ret;

	ret = ncr_walg_parse(tb, &walg);
	if (!ret)
		ret = ncr_wrap_iv(tb, walg, &iv);
	if (ret)
		return ret;
	if (wrap->buffer_size < 0)
		return -EINVAL;

	kek = ncr_key_get(ns, wrap->wrapping_key);
	if (IS_ERR(kek))
		return PTR_ERR(kek);
	src = ncr_key_get(ns, wrap->source_key);
	if (IS_ERR(src)) {
		ret = PTR_ERR(src);
		goto put_kek;
	}
	ncr_key_lock_two(kek, false, src, false);
	ret = ncr_wrap_check(kek, src, walg);
	if (!ret)
		ret = ncr_wrap_do(kek, src, walg, iv, &out, &out_len);
	ncr_key_unlock_two(kek, false, src, false);
	if (!ret) {
		ret = ncr_copy_out(wrap->buffer, wrap->buffer_size, out,
				   out_len);
		kvfree(out);
	}
	ncr_key_put(src);
put_kek:
	ncr_key_put(kek);
	return ret;
}

/* Unwraps @data under @kek into a new buffer (*plain, *plain_len bytes). */
static int ncr_unwrap_do(struct ncr_key *kek, enum ncr_walg walg,
			 const u8 *iv, const u8 *data, size_t len, u8 **plain,
			 size_t *plain_len)
{
	struct crypto_cipher *tfm;
	struct aes_kw_cipher c;
	u8 *buf;
	int ret;

	ret = ncr_kek_check(kek);
	if (ret)
		return ret;
	/* structural checks first: no allocation for hopeless input */
	if (len % AES_KW_SEMIBLOCK || len < 2 * AES_KW_SEMIBLOCK)
		return -EINVAL;
	tfm = ncr_kw_tfm_alloc(kek->secret, kek->secret_size);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	ncr_kw_cipher_bind(&c, tfm);
	*plain_len = len;
	buf = kvmalloc(len, GFP_KERNEL);
	ret = -ENOMEM;
	if (!buf)
		goto out;
	if (walg == NCR_WALG_3394)
		ret = aes_kw_unwrap(&c, iv, data, len, buf, plain_len);
	else
		ret = aes_kwp_unwrap(&c, iv, data, len, buf, plain_len);
	if (ret)
		kvfree_sensitive(buf, len);
	else
		*plain = buf;
out:
	crypto_free_cipher(tfm);
	return ret;
}

/*
 * The algorithm and flags of an unwrapped key.  NCR_ATTR_ALGORITHM is
 * optional (CRYPTO(4) of 2010 does not list it): without it the key is a
 * secret key without algorithm, usable by symmetric sessions.
 */
static int ncr_unwrap_algo_flags(struct ncr_key *key, struct nlattr *tb[],
				 const struct ncr_algo **algo)
{
	*algo = NULL;
	if (!tb[NCR_ATTR_ALGORITHM])
		return ncr_key_set_flags(key, tb);
	*algo = ncr_key_set_algo_flags(key, tb);
	return PTR_ERR_OR_ZERO(*algo);
}

/*
 * The destination: NCR_ATTR_ALGORITHM and NCR_ATTR_KEY_TYPE optional
 * (secret), NCR_ATTR_KEY_FLAGS optional (DECRYPT/SIGN/WRAPPING kept),
 * NCR_ATTR_KEY_ID optional; WRAPPABLE is always set, EXPORTABLE cleared.
 */
static int ncr_unwrap_fill(struct ncr_key *key, struct nlattr *tb[],
			   enum ncr_walg walg, const u8 *plain, size_t len)
{
	const struct ncr_algo *algo;
	u32 type = ncr_attr_u32(tb, NCR_ATTR_KEY_TYPE, NCR_KEY_TYPE_SECRET);
	int ret;

	if (walg == NCR_WALG_3394 && type != NCR_KEY_TYPE_SECRET)
		return -EINVAL;
	ret = ncr_unwrap_algo_flags(key, tb, &algo);
	if (ret)
		return ret;
	key->flags = (key->flags | NCR_KEY_FLAG_WRAPPABLE) &
		     ~NCR_KEY_FLAG_EXPORTABLE;
	ret = ncr_key_set_id(key, tb[NCR_ATTR_KEY_ID]);
	return ret ? ret : ncr_key_fill_material(key, algo, type, plain, len);
}

long ncr_key_unwrap(struct ncr_ns *ns, const struct ncr_key_unwrap *unwrap,
		    struct nlattr *tb[])
{
	struct ncr_key *kek, *dest;
	enum ncr_walg walg;
	const u8 *iv;
	u8 *data, *plain = NULL;
	size_t plain_len = 0;
	int ret;

	ret = ncr_walg_parse(tb, &walg);
	if (!ret)
		ret = ncr_wrap_iv(tb, walg, &iv);
	if (ret)
		return ret;
	/* the KEK is read-locked, then the destination write-locked */
	if (unwrap->wrapping_key == unwrap->dest_key)
		return -EINVAL;
	data = ncr_copy_in(unwrap->data, unwrap->data_size);
	if (IS_ERR(data))
		return PTR_ERR(data);

	/* Unwrap into a private buffer first, with only the KEK locked. */
	kek = ncr_key_get(ns, unwrap->wrapping_key);
	ret = PTR_ERR_OR_ZERO(kek);
	if (ret)
		goto free_data;
	down_read(&kek->sem);
	ret = ncr_unwrap_do(kek, walg, iv, data, unwrap->data_size, &plain,
			    &plain_len);
	up_read(&kek->sem);
	ncr_key_put(kek);

	/* The destination is cleared even when the data was bad. */
	dest = ncr_key_dest_begin(ns, unwrap->dest_key);
	if (IS_ERR(dest)) {
		ret = ret ? ret : PTR_ERR(dest);
		goto free_plain;
	}
	if (!ret)
		ret = ncr_unwrap_fill(dest, tb, walg, plain, plain_len);
	ret = ncr_key_dest_done(dest, ret);
free_plain:
	if (plain)
		kvfree_sensitive(plain, unwrap->data_size);
free_data:
	kvfree_sensitive(data, unwrap->data_size ? unwrap->data_size : 1);
	return ret;
}
