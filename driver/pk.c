// SPDX-License-Identifier: GPL-2.0
/*
 * Public-key operations on key objects: NCRIO_KEY_GENERATE_PAIR and
 * NCRIO_KEY_DERIVE ("dh", "ecdh": the input key's ops name theirs).  The
 * algorithms are reached through their struct ncr_pk_ops (lib/pk_key.h);
 * the material's formats and key IDs are pk_material.c.
 */
#include <linux/err.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include "pk.h"
#include "algo.h"
#include "attr.h"
#include "key.h"
#include "lib/pk_key.h"

/* Flags a derived secret key may carry. */
#define PK_DERIVED_FLAGS (NCR_KEY_FLAG_EXPORTABLE | NCR_KEY_FLAG_WRAPPABLE | \
			  NCR_KEY_FLAG_WRAPPING)
/* Generates into priv and copies the public half into pub. */
static int pk_generate(const struct ncr_pk_ops *ops, struct nlattr *tb[],
		       struct ncr_pk *priv, struct ncr_pk *pub)
{
	int err;

	err = ncr_pk_key_init(priv, ops);
	if (!err)
		err = ncr_pk_key_init(pub, ops);
	if (!err)
		err = ops->generate(priv, tb);
	if (!err)
		err = ops->copy_public(pub, priv);
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
	sk = ncr_pk_alloc();
	pk = ncr_pk_alloc();
	err = sk && pk ? 0 : -ENOMEM;
	if (!err)
		err = pk_generate(ncr_pk_ops_find(priv->algo), tb, sk, pk);
	if (!err)
		err = ncr_pk_key_id(pk, id);
	if (err) {
		ncr_pk_free(sk);
		ncr_pk_free(pk);
		return err;
	}
	priv->type = NCR_KEY_TYPE_PRIVATE;
	priv->pk = sk;
	ncr_pk_set_key_id(priv, id);
	pub->type = NCR_KEY_TYPE_PUBLIC;
	pub->pk = pk;
	pub->flags = NCR_KEY_FLAG_EXPORTABLE | NCR_KEY_FLAG_WRAPPABLE;
	strscpy(pub->algo, priv->algo, sizeof(pub->algo));
	ncr_pk_set_key_id(pub, id);
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

/*
 * The shared secret of the input key and the peer value in tb, by the
 * derivation alg that the key's algorithm names; *ops gets that algorithm.
 */
static int pk_dh_secret(struct ncr_ns *ns, ncr_key_t handle, const char *alg,
			struct nlattr *tb[], u8 *out, size_t *len,
			const struct ncr_pk_ops **ops)
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
	    key->pk->ops->derive && !strcmp(alg, key->pk->ops->derive_name)) {
		*ops = key->pk->ops;
		err = 0;
		if (key->pk->ops->max_len(key->pk) > NCR_SECRET_MAX)
			err = -EOVERFLOW;
		if (!err)
			err = key->pk->ops->derive(key->pk, ncr_nla_data(peer),
						   ncr_nla_len(peer), out, len);
	}
	up_read(&key->sem);
	ncr_key_put(key);
	return err;
}

/* Flags and algorithm of a derived secret key (the derivation's if none). */
static int pk_derived_meta(struct ncr_key *key, struct nlattr *tb[],
			   size_t len, const char *derive_name)
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
		strscpy(key->algo, derive_name, sizeof(key->algo));
	}
	return key->flags & ~PK_DERIVED_FLAGS ? -EINVAL : 0;
}

long ncr_key_derive(struct ncr_ns *ns, const struct ncr_key_derive *der,
		    struct nlattr *tb[])
{
	const char *alg = ncr_attr_str(tb, NCR_ATTR_DERIVATION_ALGORITHM);
	const struct ncr_pk_ops *ops = NULL;
	size_t len = NCR_SECRET_MAX;
	struct ncr_key *key;
	u8 *secret;
	int err;

	/* a name no algorithm derives with fails before the key is looked at */
	if (!alg || (strcmp(alg, NCR_DERIVE_DH) && strcmp(alg, NCR_DERIVE_ECDH)) ||
	    der->input_key == der->new_key)
		return -EINVAL;
	secret = kmalloc(NCR_SECRET_MAX, GFP_KERNEL);
	if (!secret)
		return -ENOMEM;
	/* computed before the new key is locked: no lock-order inversion */
	err = pk_dh_secret(ns, der->input_key, alg, tb, secret, &len, &ops);
	if (err)
		goto out;
	key = ncr_key_dest_begin(ns, der->new_key);
	if (IS_ERR(key)) {
		err = PTR_ERR(key);
		goto out;
	}
	err = pk_derived_meta(key, tb, len, ops->derive_name);
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
