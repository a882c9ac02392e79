// SPDX-License-Identifier: GPL-2.0
/*
 * Public-key sessions: RSA, DSA and ECDSA sign/verify (message hashed here
 * across UPDATEs, or a precomputed digest with
 * NCR_ATTR_SIGNATURE_INPUT_IS_DIGEST) and encrypt/decrypt (one operation per
 * UPDATE or FINAL), through the algorithm's struct ncr_pk_ops (lib/rsa.c,
 * lib/dsa.c, lib/ec.c); hashing is the kernel's shash.
 *
 * The key is only referenced by the session: its material may be replaced
 * (KEY_IMPORT, GENERATE_PAIR) while the session lives, so every operation
 * takes key->sem for read and re-checks type, algorithm and flags.
 */
#include <crypto/hash.h>
#include <linux/err.h>
#include <linux/slab.h>
#include "pk.h"
#include "algo.h"
#include "attr.h"
#include "key.h"
#include "session.h"
#include "lib/pk_key.h"
#include "lib/pkcs1.h"

struct pk_session {
	const struct ncr_pk_ops *ops;
	struct ncr_pk_params p;		/* p.hops: &hops when set up */
	bool digest_input;		/* NCR_ATTR_SIGNATURE_INPUT_IS_DIGEST */
	bool have_digest;		/* digest input: the digest arrived */
	struct crypto_shash *tfm;	/* shared: pk_tfm_get() */
	struct shash_desc *desc;	/* message hash (sign/verify) */
	struct ncr_hash_ops hops;	/* tfm for lib/pkcs1.c */
	u8 digest[NCR_PKCS1_MAX_DIGEST];
};

static bool pk_is_sig(u32 op)
{
	return op == NCR_OP_SIGN || op == NCR_OP_VERIFY;
}

/* Does the algorithm implement op (after its setup has accepted it)? */
static bool pk_has_op(const struct ncr_pk_ops *o, u32 op)
{
	const bool has[] = {
		[NCR_OP_ENCRYPT] = o->encrypt, [NCR_OP_DECRYPT] = o->decrypt,
		[NCR_OP_SIGN] = o->sign, [NCR_OP_VERIFY] = o->verify,
	};

	return op < ARRAY_SIZE(has) && has[op];
}

/* ---- hashing ---- */

static int pk_hash_digest(void *ctx, const struct ncr_hash_seg *segs,
			  unsigned int nsegs, u8 *out)
{
	struct crypto_shash *tfm = ctx;
	SHASH_DESC_ON_STACK(desc, tfm);
	unsigned int i;
	int err;

	desc->tfm = tfm;
	err = crypto_shash_init(desc);
	for (i = 0; !err && i < nsegs; i++)
		err = crypto_shash_update(desc, segs[i].data, segs[i].len);
	if (!err)
		err = crypto_shash_final(desc, out);
	shash_desc_zero(desc);
	return err;
}

/*
 * A hash usable in signatures and OAEP: one with a DigestInfo (the SHA-1
 * and SHA-2 family).  Other hashes the module knows are -EOPNOTSUPP,
 * unknown names -EINVAL.
 */
static int pk_hash_lookup(const char *name, enum ncr_hash_id *id)
{
	if (!name)
		return -EINVAL;
	if (!ncr_pkcs1_hash_by_name(name, id))
		return 0;
	return ncr_algo_list_class(name) == NCR_ALG_HASH ? -EOPNOTSUPP :
							    -EINVAL;
}

/*
 * One unkeyed transform per hash, allocated on first use and shared by all
 * sessions (an shash transform without a key is stateless; the state is in
 * each session's desc): allocating one per session costs a lookup of the
 * algorithm by name on every signature.  Freed at module exit.
 */
static struct crypto_shash *pk_tfms[NCR_HASH_COUNT];
static DEFINE_MUTEX(pk_tfms_lock);

static struct crypto_shash *pk_tfm_get(enum ncr_hash_id id)
{
	struct crypto_shash *tfm = smp_load_acquire(&pk_tfms[id]);

	if (tfm)
		return tfm;
	mutex_lock(&pk_tfms_lock);
	tfm = pk_tfms[id];
	if (!tfm) {
		tfm = crypto_alloc_shash(ncr_pkcs1_hash_name(id), 0, 0);
		if (!IS_ERR(tfm) &&
		    crypto_shash_digestsize(tfm) != ncr_pkcs1_hash_size(id)) {
			crypto_free_shash(tfm);
			tfm = ERR_PTR(-EINVAL);
		}
		if (!IS_ERR(tfm))
			smp_store_release(&pk_tfms[id], tfm);
	}
	mutex_unlock(&pk_tfms_lock);
	return tfm;
}

void ncr_pk_session_exit(void)
{
	int i;

	for (i = 0; i < NCR_HASH_COUNT; i++) {
		crypto_free_shash(pk_tfms[i]);
		pk_tfms[i] = NULL;
	}
}

static int pk_hash_setup(struct pk_session *ps, bool stream)
{
	struct crypto_shash *tfm;

	tfm = pk_tfm_get(ps->p.hash);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm) == -ENOENT ? -EOPNOTSUPP : PTR_ERR(tfm);
	ps->tfm = tfm;
	ps->hops.id = ps->p.hash;
	ps->hops.digest_size = crypto_shash_digestsize(tfm);
	ps->hops.digest = pk_hash_digest;
	ps->hops.ctx = tfm;
	ps->p.hops = &ps->hops;
	if (!stream)
		return 0;
	ps->desc = kmalloc(sizeof(*ps->desc) + crypto_shash_descsize(tfm),
			   GFP_KERNEL);
	if (!ps->desc)
		return -ENOMEM;
	ps->desc->tfm = tfm;
	return crypto_shash_init(ps->desc);
}

/* ---- key access ---- */

/*
 * NCR_KEY_FLAG_SIGN / NCR_KEY_FLAG_DECRYPT restrict a key to signatures
 * (sign, verify) or to encryption (decrypt, encrypt) when either is set;
 * with neither set the key serves both.  See CRYPTO(4).
 */
static int pk_check_flags(const struct ncr_key *key, u32 op)
{
	u32 use = key->flags & (NCR_KEY_FLAG_SIGN | NCR_KEY_FLAG_DECRYPT);
	u32 need = pk_is_sig(op) ? NCR_KEY_FLAG_SIGN : NCR_KEY_FLAG_DECRYPT;

	return use && !(use & need) ? -EPERM : 0;
}

/*
 * Takes key->sem for read and returns the checked material.  Private
 * operations use the key's cached blinding pair when no other operation on
 * the key is using it (else a pair of their own): callers hold key->sem for
 * read only, so concurrent signers are possible.
 */
static int pk_key_lock(struct ncr_session *ses, struct ncr_pk **pk)
{
	struct pk_session *ps = ses->priv;
	struct ncr_key *key = ses->key;
	bool priv_op = ses->op == NCR_OP_SIGN || ses->op == NCR_OP_DECRYPT;
	int err = 0;

	down_read(&key->sem);
	if ((key->type != NCR_KEY_TYPE_PUBLIC &&
	     key->type != NCR_KEY_TYPE_PRIVATE) ||
	    !key->pk || key->pk->ops != ps->ops)
		err = -EINVAL;
	else if (priv_op && (key->type != NCR_KEY_TYPE_PRIVATE ||
			     !key->pk->is_private))
		err = -EINVAL;
	else if (key->pk->ops->supports &&
		 !key->pk->ops->supports(key->pk, ses->op))
		err = -EINVAL;	/* an x25519 "ecdsa" key signs nothing */
	else if (key->flags & NCR_KEY_FLAG_WRAPPING)
		err = -EPERM;	/* as for every session (session.c) */
	else
		err = pk_check_flags(key, ses->op);
	if (err) {
		up_read(&key->sem);
		return err;
	}
	*pk = key->pk;
	ps->p.own_cache = priv_op && mutex_trylock(&key->cache_lock);
	return 0;
}

static void pk_key_unlock(struct ncr_session *ses)
{
	struct pk_session *ps = ses->priv;

	if (ps->p.own_cache)
		mutex_unlock(&ses->key->cache_lock);
	ps->p.own_cache = false;
	up_read(&ses->key->sem);
}

/* ---- init / free ---- */

static int pk_init(struct ncr_session *ses, struct nlattr *tb[])
{
	struct pk_session *ps;
	struct ncr_pk *pk;
	bool stream;
	int err;

	ps = kzalloc(sizeof(*ps), GFP_KERNEL);
	if (!ps)
		return -ENOMEM;
	ses->priv = ps;
	ps->ops = ncr_pk_ops_find(ses->algo->name);
	if (!ses->key)
		return -EINVAL;
	ps->digest_input = ncr_attr_u32(tb, NCR_ATTR_SIGNATURE_INPUT_IS_DIGEST,
					0) != 0;
	if (ps->digest_input && !pk_is_sig(ses->op))
		return -EINVAL;
	if (!ps->ops || !ps->ops->setup)
		return -EINVAL;
	err = ps->ops->setup(&ps->p, ses->op, tb, pk_hash_lookup);
	if (err)
		return err;
	if (!pk_has_op(ps->ops, ses->op))
		return -EINVAL;
	/* report an unusable key at INIT already */
	err = pk_key_lock(ses, &pk);
	if (err)
		return err;
	pk_key_unlock(ses);
	stream = pk_is_sig(ses->op) && !ps->digest_input;
	/* a "digest" would be copied into the signed block as it is */
	ses->key_as_data_ok = stream;
	/* PSS (MGF1, H) and OAEP hash in the padding too */
	if (stream || ps->p.pad_hash)
		return pk_hash_setup(ps, stream);
	return 0;
}

static void pk_free(struct ncr_session *ses)
{
	struct pk_session *ps = ses->priv;

	if (!ps)
		return;
	kfree_sensitive(ps->desc);
	kfree_sensitive(ps);
	ses->priv = NULL;
}

/* ---- sign / verify ---- */

/* Feed the message (in chunks; it may be large) to the hash. */
static int pk_hash_input(struct pk_session *ps, const struct ncr_data_in *in)
{
	size_t off, n, bufsize = min_t(size_t, in->size, NCR_CHUNK_SIZE);
	u8 *buf;
	int err = 0;

	if (!in->size)
		return 0;
	buf = kmalloc(bufsize, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (off = 0; !err && off < in->size; off += n) {
		n = min_t(size_t, in->size - off, bufsize);
		err = ncr_data_in_read(in, off, buf, n);
		if (!err)
			err = crypto_shash_update(ps->desc, buf, n);
	}
	kfree_sensitive(buf);
	return err;
}

/* The digest-input mode takes the digest once, exactly its length. */
static int pk_take_digest(struct pk_session *ps, const struct ncr_data_in *in)
{
	int err;

	if (ps->have_digest || in->size != ncr_pkcs1_hash_size(ps->p.hash))
		return -EINVAL;
	err = ncr_data_in_read(in, 0, ps->digest, in->size);
	if (!err)
		ps->have_digest = true;
	return err;
}

static int pk_final_digest(struct pk_session *ps)
{
	if (ps->digest_input)
		return ps->have_digest ? 0 : -EINVAL;
	return crypto_shash_final(ps->desc, ps->digest);
}

static int pk_sign(struct pk_session *ps, struct ncr_pk *pk,
		   struct ncr_data_out *out)
{
	size_t len = pk->ops->max_len(pk);
	u8 *sig;
	int err;

	sig = kmalloc(len, GFP_KERNEL);
	if (!sig)
		return -ENOMEM;
	len = min(len, out->size);
	err = pk->ops->sign(pk, &ps->p, ps->digest, sig, &len);
	if (!err)
		err = ncr_data_out_write(out, 0, sig, len);
	kfree_sensitive(sig);
	return err;
}

static int pk_check_sizes(const struct pk_session *ps,
			  const struct ncr_pk *pk, u32 op, size_t in_len,
			  size_t out_len)
{
	if (!pk->ops->check_sizes)
		return 0;
	return pk->ops->check_sizes(pk, &ps->p, op, in_len, out_len);
}

/* 1 valid, 0 invalid (any malformed signature), -errno. */
static int pk_verify(struct pk_session *ps, const struct ncr_pk *pk,
		     const struct ncr_data_in *sigin)
{
	u8 *sig;
	int err;

	/* longer than any signature for this key: not one */
	if (!sigin->size || sigin->size > pk->ops->max_len(pk))
		return 0;
	err = pk_check_sizes(ps, pk, NCR_OP_VERIFY, sigin->size, 0);
	if (err)
		return err > 0 ? 0 : err;
	sig = kmalloc(sigin->size, GFP_KERNEL);
	if (!sig)
		return -ENOMEM;
	err = ncr_data_in_read(sigin, 0, sig, sigin->size);
	if (!err)
		err = pk->ops->verify(pk, &ps->p, ps->digest, sig, sigin->size);
	kfree(sig);
	return err;
}

static int pk_sig_input(struct pk_session *ps, const struct ncr_data_in *in)
{
	return ps->digest_input ? pk_take_digest(ps, in) : pk_hash_input(ps, in);
}

static int pk_sig_final(struct ncr_session *ses, const struct ncr_data_in *in,
			struct ncr_data_out *out)
{
	struct pk_session *ps = ses->priv;
	struct ncr_pk *pk;
	int err;

	/* SIGN writes the signature (FINAL input: the last data); VERIFY reads it */
	if (ses->op == NCR_OP_SIGN ? !out : !in)
		return -EINVAL;
	if (ses->op == NCR_OP_SIGN && in) {
		err = pk_sig_input(ps, in);
		if (err)
			return err;
	}
	err = pk_final_digest(ps);
	if (err)
		return err;
	err = pk_key_lock(ses, &pk);
	if (err)
		return err;
	err = ses->op == NCR_OP_SIGN ? pk_sign(ps, pk, out) :
	      pk_verify(ps, pk, in);
	pk_key_unlock(ses);
	return err;
}

/* ---- encrypt / decrypt ---- */

/*
 * Sizes are checked before the input is read, which happens only when it
 * can be valid (in the ops: NULL when longer than max_len()).
 */
static int pk_crypt_do(struct pk_session *ps, struct ncr_pk *pk,
		       const struct ncr_data_in *in, struct ncr_data_out *out,
		       u32 op)
{
	size_t max = pk->ops->max_len(pk), len = min(max, out->size);
	u8 *msg = NULL, *res;
	int err;

	err = pk_check_sizes(ps, pk, op, in->size, len);
	if (err)
		return err;
	res = kmalloc(max, GFP_KERNEL);
	err = res ? 0 : -ENOMEM;
	if (!err && in->size <= max) {
		msg = kmalloc(in->size + 1, GFP_KERNEL);
		err = msg ? ncr_data_in_read(in, 0, msg, in->size) : -ENOMEM;
	}
	if (!err)
		err = op == NCR_OP_ENCRYPT ?
		      pk->ops->encrypt(pk, &ps->p, msg, in->size, res, &len) :
		      pk->ops->decrypt(pk, &ps->p, msg, in->size, res, &len);
	if (!err)
		err = ncr_data_out_write(out, 0, res, len);
	kfree_sensitive(msg);
	kfree_sensitive(res);
	return err;
}

static int pk_crypt(struct ncr_session *ses, const struct ncr_data_in *in,
		    struct ncr_data_out *out)
{
	struct ncr_pk *pk;
	int err;

	if (!out || in->kernel)
		return -EINVAL;
	err = pk_key_lock(ses, &pk);
	if (err)
		return err;
	err = pk_crypt_do(ses->priv, pk, in, out, ses->op);
	pk_key_unlock(ses);
	return err;
}

/* ---- the ops ---- */

static int pk_update(struct ncr_session *ses, const struct ncr_data_in *in,
		     struct ncr_data_out *out)
{
	struct pk_session *ps = ses->priv;

	if (!pk_is_sig(ses->op))
		return pk_crypt(ses, in, out);
	return pk_sig_input(ps, in);
}

static int pk_final(struct ncr_session *ses, const struct ncr_data_in *in,
		    struct ncr_data_out *out)
{
	if (pk_is_sig(ses->op))
		return pk_sig_final(ses, in, out);
	/* encryption: FINAL may carry one last operation */
	if (!in)
		return 0;
	return pk_crypt(ses, in, out);
}

const struct ncr_session_ops ncr_pk_session_ops = {
	.init = pk_init,
	.update = pk_update,
	.final = pk_final,
	.free = pk_free,
};
