// SPDX-License-Identifier: GPL-2.0
/*
 * Public-key objects: NCRIO_KEY_GENERATE_PAIR, NCRIO_KEY_DERIVE ("dh") and
 * the import/export formats of RSA, DSA and DH keys (lib/der.h).  The math
 * is in lib/rsa.c, lib/dsa.c and lib/dh.c on LibTomMath.
 *
 * Key IDs: both halves of a generated pair, and an imported key given no
 * NCR_ATTR_KEY_ID, get the SHA-1 of the public key in its export format
 * (SubjectPublicKeyInfo for RSA/DSA, the raw number for DH), as in X.509
 * subjectKeyIdentifier method 1 but over the whole SPKI.
 */
#include <crypto/hash.h>
#include <crypto/sha1.h>
#include <linux/err.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include "pk.h"
#include "algo.h"
#include "attr.h"
#include "key.h"
#include "lib/pk_key.h"
#include "lib/der.h"

/* Flags a derived secret key may carry. */
#define PK_DERIVED_FLAGS (NCR_KEY_FLAG_EXPORTABLE | NCR_KEY_FLAG_WRAPPABLE | \
			  NCR_KEY_FLAG_WRAPPING)
#define PK_DEFAULT_DSA_P_BITS 1024
#define PK_DEFAULT_DSA_Q_BITS 160

void ncr_pk_free(struct ncr_pk *pk)
{
	if (!pk)
		return;
	ncr_pk_key_clear(pk);
	kfree_sensitive(pk);
}

static struct ncr_pk *pk_alloc(void)
{
	return kzalloc(sizeof(struct ncr_pk), GFP_KERNEL);
}

/* DH public values travel as a minimal big-endian number. */
static int pk_dh_public_raw(const struct ncr_pk *pk, u8 *buf, size_t *len)
{
	size_t n = mp_ubin_size(&pk->dh.y), written;

	if (!buf) {
		*len = n;
		return 0;
	}
	if (n > *len)
		return -ERANGE;
	*len = n;
	return ncr_mp_errno(mp_to_ubin(&pk->dh.y, buf, n, &written));
}

/* The public half in its export format; buf NULL: size only. */
static int pk_public_encode(const struct ncr_pk *pk, u8 *buf, size_t *len)
{
	int err;

	if (pk->algo == NCR_PK_DH)
		return pk_dh_public_raw(pk, buf, len);
	err = ncr_der_encode_public(pk, buf, len);
	return err == -ENOSPC ? -ERANGE : err;
}

/* key_id = SHA-1(public key export format). */
static int pk_key_id(const struct ncr_pk *pk, u8 id[SHA1_DIGEST_SIZE])
{
	struct crypto_shash *tfm;
	size_t len;
	u8 *buf;
	int err;

	err = pk_public_encode(pk, NULL, &len);
	if (err)
		return err;
	buf = kvmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	err = pk_public_encode(pk, buf, &len);
	if (err)
		goto out;
	tfm = crypto_alloc_shash("sha1", 0, 0);
	if (IS_ERR(tfm)) {
		err = PTR_ERR(tfm);
		goto out;
	}
	err = crypto_shash_tfm_digest(tfm, buf, len, id);
	crypto_free_shash(tfm);
out:
	kvfree(buf);
	return err;
}

static void pk_set_key_id(struct ncr_key *key, const u8 id[SHA1_DIGEST_SIZE])
{
	BUILD_BUG_ON(MAX_KEY_ID_SIZE < SHA1_DIGEST_SIZE);
	memcpy(key->key_id, id, SHA1_DIGEST_SIZE);
	key->key_id_size = SHA1_DIGEST_SIZE;
}

/* A bare DH public value (no domain parameters). */
static int pk_import_dh_raw(struct ncr_pk *pk, const u8 *data, size_t len)
{
	int err = ncr_pk_key_init(pk, NCR_PK_DH);

	if (err)
		return err;
	if (len > NCR_PK_MAX_BYTES + 1)
		err = -EINVAL;
	if (!err)
		err = ncr_mp_from_be(&pk->dh.y, data, len);
	if (!err)
		err = ncr_dh_check_key(&pk->dh);
	if (err)
		ncr_pk_key_clear(pk);
	return err;
}

int ncr_pk_import(struct ncr_key *key, u32 type, const u8 *data, size_t len)
{
	enum ncr_pk_algo algo = ncr_pk_algo_from_name(key->algo);
	u8 id[SHA1_DIGEST_SIZE];
	struct ncr_pk *pk;
	int err;

	if (algo == NCR_PK_NONE ||
	    (type != NCR_KEY_TYPE_PUBLIC && type != NCR_KEY_TYPE_PRIVATE))
		return -EINVAL;
	pk = pk_alloc();
	if (!pk)
		return -ENOMEM;
	if (type == NCR_KEY_TYPE_PRIVATE)
		err = ncr_der_decode_private(pk, algo, data, len);
	else if (algo == NCR_PK_DH)
		err = pk_import_dh_raw(pk, data, len);
	else
		err = ncr_der_decode_public(pk, algo, data, len);
	if (err) {
		kfree_sensitive(pk);
		return err;
	}
	if (!key->key_id_size) {
		err = pk_key_id(pk, id);
		if (err) {
			ncr_pk_free(pk);
			return err;
		}
		pk_set_key_id(key, id);
	}
	key->pk = pk;
	return 0;
}

int ncr_pk_export(struct ncr_key *key, u8 *buf, size_t *len)
{
	int err;

	if (!key->pk)
		return -EINVAL;
	if (key->type == NCR_KEY_TYPE_PUBLIC)
		return pk_public_encode(key->pk, buf, len);
	if (key->type != NCR_KEY_TYPE_PRIVATE)
		return -EINVAL;
	err = ncr_der_encode_private(key->pk, buf, len);
	return err == -ENOSPC ? -ERANGE : err;
}

static int pk_generate_rsa(struct ncr_pk *pk, struct nlattr *tb[])
{
	u32 bits = ncr_attr_u32(tb, NCR_ATTR_RSA_MODULUS_BITS, 0);
	const struct nlattr *e = tb[NCR_ATTR_RSA_E];

	if (!bits)
		return -EINVAL;
	return ncr_rsa_generate(&pk->rsa, bits, e ? ncr_nla_data(e) : NULL,
				e ? ncr_nla_len(e) : 0);
}

static int pk_generate_dh(struct ncr_pk *pk, struct nlattr *tb[])
{
	const struct nlattr *p = tb[NCR_ATTR_DH_PRIME], *g = tb[NCR_ATTR_DH_BASE];

	if (!p || !g)
		return -EINVAL;
	return ncr_dh_generate(&pk->dh, ncr_nla_data(p), ncr_nla_len(p),
			       ncr_nla_data(g), ncr_nla_len(g));
}

/* Generates into priv and copies the public half into pub. */
static int pk_generate(enum ncr_pk_algo algo, struct nlattr *tb[],
		       struct ncr_pk *priv, struct ncr_pk *pub)
{
	int err;

	err = ncr_pk_key_init(priv, algo);
	if (err)
		return err;
	err = ncr_pk_key_init(pub, algo);
	if (err)
		return err;
	switch (algo) {
	case NCR_PK_RSA:
		err = pk_generate_rsa(priv, tb);
		if (!err)
			err = ncr_rsa_copy_public(&pub->rsa, &priv->rsa);
		break;
	case NCR_PK_DSA:
		err = ncr_dsa_generate(&priv->dsa,
				       ncr_attr_u32(tb, NCR_ATTR_DSA_P_BITS,
						    PK_DEFAULT_DSA_P_BITS),
				       ncr_attr_u32(tb, NCR_ATTR_DSA_Q_BITS,
						    PK_DEFAULT_DSA_Q_BITS));
		if (!err)
			err = ncr_dsa_copy_public(&pub->dsa, &priv->dsa);
		break;
	case NCR_PK_DH:
		err = pk_generate_dh(priv, tb);
		if (!err)
			err = ncr_dh_copy_public(&pub->dh, &priv->dh);
		break;
	default:
		err = -EINVAL;
	}
	priv->is_private = !err;
	return err;
}

/* Fills both (locked, cleared) keys. */
static int pk_fill_pair(struct ncr_key *priv, struct ncr_key *pub,
			struct nlattr *tb[])
{
	const struct ncr_algo *algo = ncr_key_set_algo_flags(priv, tb);
	struct ncr_pk *sk = NULL, *pk = NULL;
	u8 id[SHA1_DIGEST_SIZE];
	int err;

	if (IS_ERR(algo))
		return PTR_ERR(algo);
	if (algo->cls != NCR_ALG_PK && algo->cls != NCR_ALG_DH)
		return -EINVAL;
	sk = pk_alloc();
	pk = pk_alloc();
	err = sk && pk ? 0 : -ENOMEM;
	if (!err)
		err = pk_generate(ncr_pk_algo_from_name(priv->algo), tb, sk, pk);
	if (!err)
		err = pk_key_id(pk, id);
	if (err) {
		ncr_pk_free(sk);
		ncr_pk_free(pk);
		return err;
	}
	priv->type = NCR_KEY_TYPE_PRIVATE;
	priv->pk = sk;
	pk_set_key_id(priv, id);
	pub->type = NCR_KEY_TYPE_PUBLIC;
	pub->pk = pk;
	pub->flags = NCR_KEY_FLAG_EXPORTABLE | NCR_KEY_FLAG_WRAPPABLE;
	strscpy(pub->algo, priv->algo, sizeof(pub->algo));
	pk_set_key_id(pub, id);
	return 0;
}

long ncr_key_generate_pair(struct ncr_ns *ns,
			   const struct ncr_key_generate_pair *gen,
			   struct nlattr *tb[])
{
	struct ncr_key *priv, *pub;
	int err;

	err = ncr_key_dest_begin_two(ns, gen->private_key, gen->public_key,
				     &priv, &pub);
	if (err)
		return err;
	err = pk_fill_pair(priv, pub, tb);
	/* LibTomMath reports the interrupted prime search as a plain error */
	if (err && fatal_signal_pending(current))
		err = -EINTR;
	err = ncr_key_dest_done_two(priv, pub, err);
	return err;
}

/* The DH shared secret of the input key and the peer value in tb. */
static int pk_dh_secret(struct ncr_ns *ns, ncr_key_t handle,
			struct nlattr *tb[], u8 *out, size_t *len)
{
	const struct nlattr *peer = tb[NCR_ATTR_DH_PUBLIC];
	struct ncr_key *key;
	int err = -EINVAL;

	if (!peer)
		return -EINVAL;
	key = ncr_key_get(ns, handle);
	if (IS_ERR(key))
		return PTR_ERR(key);
	down_read(&key->sem);
	if (key->type == NCR_KEY_TYPE_PRIVATE && key->pk &&
	    key->pk->algo == NCR_PK_DH) {
		err = 0;
		if (ncr_dh_prime_bytes(&key->pk->dh) > NCR_SECRET_MAX)
			err = -EOVERFLOW;
		if (!err)
			err = ncr_dh_compute(&key->pk->dh, ncr_nla_data(peer),
					     ncr_nla_len(peer), out, len);
	}
	up_read(&key->sem);
	ncr_key_put(key);
	return err;
}

/* Flags and algorithm of a derived secret key ("dh" unless given). */
static int pk_derived_meta(struct ncr_key *key, struct nlattr *tb[],
			   size_t len)
{
	const struct ncr_algo *algo;

	if (tb[NCR_ATTR_ALGORITHM]) {
		algo = ncr_key_set_algo_flags(key, tb);
		if (IS_ERR(algo))
			return PTR_ERR(algo);
		if ((algo->cls != NCR_ALG_CIPHER && algo->cls != NCR_ALG_MAC) ||
		    !ncr_algo_key_len_ok(algo, len))
			return -EINVAL;
	} else {
		int err = ncr_key_set_flags(key, tb);

		if (err)
			return err;
		strscpy(key->algo, NCR_DERIVE_DH, sizeof(key->algo));
	}
	return key->flags & ~PK_DERIVED_FLAGS ? -EINVAL : 0;
}

long ncr_key_derive(struct ncr_ns *ns, const struct ncr_key_derive *der,
		    struct nlattr *tb[])
{
	const char *alg = ncr_attr_str(tb, NCR_ATTR_DERIVATION_ALGORITHM);
	size_t len = NCR_SECRET_MAX;
	struct ncr_key *key;
	u8 *secret;
	int err;

	if (!alg || strcmp(alg, NCR_DERIVE_DH) || der->input_key == der->new_key)
		return -EINVAL;
	secret = kmalloc(NCR_SECRET_MAX, GFP_KERNEL);
	if (!secret)
		return -ENOMEM;
	/* computed before the new key is locked: no lock-order inversion */
	err = pk_dh_secret(ns, der->input_key, tb, secret, &len);
	if (err)
		goto out;
	key = ncr_key_dest_begin(ns, der->new_key);
	if (IS_ERR(key)) {
		err = PTR_ERR(key);
		goto out;
	}
	err = pk_derived_meta(key, tb, len);
	if (!err) {
		key->type = NCR_KEY_TYPE_SECRET;
		memcpy(key->secret, secret, len);
		key->secret_size = len;
		key->key_id_size = MAX_KEY_ID_SIZE;
		get_random_bytes(key->key_id, key->key_id_size);
	}
	err = ncr_key_dest_done(key, err);
out:
	kfree_sensitive(secret);
	return err;
}

/* Modulus (RSA n, DSA/DH p) size in bits: what a key's strength rests on. */
static unsigned int pk_modulus_bits(const struct ncr_pk *pk)
{
	switch (pk->algo) {
	case NCR_PK_RSA:
		return ncr_rsa_modulus_bits(&pk->rsa);
	case NCR_PK_DSA:
		return mp_count_bits(&pk->dsa.p);
	case NCR_PK_DH:
		return mp_count_bits(&pk->dh.p);
	default:
		return 0;
	}
}

/* Comparable strengths of SP 800-57 part 1, table 2. */
unsigned int ncr_pk_strength_bits(struct ncr_key *key)
{
	unsigned int bits = key->pk ? pk_modulus_bits(key->pk) : 0;

	if (bits >= 15360)
		return 256;
	if (bits >= 7680)
		return 192;
	if (bits >= 3072)
		return 128;
	if (bits >= 2048)
		return 112;
	return 80;
}
