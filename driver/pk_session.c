// SPDX-License-Identifier: GPL-2.0
/*
 * Public-key sessions: RSA and DSA sign/verify (message hashed here across
 * UPDATEs, or a precomputed digest with NCR_ATTR_SIGNATURE_INPUT_IS_DIGEST)
 * and RSA encrypt/decrypt (one operation per UPDATE or FINAL).  Padding is
 * lib/pkcs1.c, the math lib/rsa.c and lib/dsa.c; hashing is the kernel's
 * shash.
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
	enum ncr_pk_algo algo;
	u32 method;			/* ncr_rsa_type_t (RSA) */
	enum ncr_hash_id hash;		/* signature hash or OAEP hash */
	bool uses_hash;
	bool digest_input;		/* NCR_ATTR_SIGNATURE_INPUT_IS_DIGEST */
	bool have_digest;		/* digest input: the digest arrived */
	size_t salt_len;		/* PSS; NCR_PSS_SALT_AUTO on verify */
	struct crypto_shash *tfm;	/* shared: pk_tfm_get() */
	struct shash_desc *desc;	/* message hash (sign/verify) */
	struct ncr_hash_ops hops;	/* tfm for lib/pkcs1.c */
	u8 digest[NCR_PKCS1_MAX_DIGEST];
};

static bool pk_is_sig(u32 op)
{
	return op == NCR_OP_SIGN || op == NCR_OP_VERIFY;
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

static int pk_rng(void *ctx, u8 *buf, size_t len)
{
	return ncr_random_bytes(buf, len);
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

	tfm = pk_tfm_get(ps->hash);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm) == -ENOENT ? -EOPNOTSUPP : PTR_ERR(tfm);
	ps->tfm = tfm;
	ps->hops.id = ps->hash;
	ps->hops.digest_size = crypto_shash_digestsize(tfm);
	ps->hops.digest = pk_hash_digest;
	ps->hops.ctx = tfm;
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

/* Takes key->sem for read and returns the checked material. */
static int pk_key_lock(struct ncr_session *ses, struct ncr_pk **pk)
{
	struct pk_session *ps = ses->priv;
	struct ncr_key *key = ses->key;
	bool priv_op = ses->op == NCR_OP_SIGN || ses->op == NCR_OP_DECRYPT;
	int err = 0;

	down_read(&key->sem);
	if ((key->type != NCR_KEY_TYPE_PUBLIC &&
	     key->type != NCR_KEY_TYPE_PRIVATE) ||
	    !key->pk || key->pk->algo != ps->algo)
		err = -EINVAL;
	else if (priv_op && (key->type != NCR_KEY_TYPE_PRIVATE ||
			     !key->pk->is_private))
		err = -EINVAL;
	else if (key->flags & NCR_KEY_FLAG_WRAPPING)
		err = -EPERM;	/* as for every session (session.c) */
	else
		err = pk_check_flags(key, ses->op);
	if (err) {
		up_read(&key->sem);
		return err;
	}
	*pk = key->pk;
	return 0;
}

static void pk_key_unlock(struct ncr_session *ses)
{
	up_read(&ses->key->sem);
}

/* ---- init / free ---- */

static int pk_init_rsa(struct ncr_session *ses, struct pk_session *ps,
		       struct nlattr *tb[])
{
	u32 salt;
	int err;

	/* mandatory for RSA (CRYPTO(4)) */
	ps->method = ncr_attr_u32(tb, NCR_ATTR_RSA_ENCODING_METHOD, U32_MAX);
	if (pk_is_sig(ses->op)) {
		if (ps->method != RSA_PKCS1_V1_5 && ps->method != RSA_PKCS1_PSS)
			return -EINVAL;
		err = pk_hash_lookup(ncr_attr_str(tb,
				NCR_ATTR_SIGNATURE_HASH_ALGORITHM), &ps->hash);
		if (err)
			return err;
		ps->uses_hash = true;
		salt = ncr_attr_u32(tb, NCR_ATTR_RSA_PSS_SALT_LENGTH, 0);
		if (salt == NCR_RSA_PSS_SALT_LENGTH_AUTO) {
			if (ses->op != NCR_OP_VERIFY)
				return -EINVAL;
			ps->salt_len = NCR_PSS_SALT_AUTO;
		} else {
			ps->salt_len = salt;
		}
		return 0;
	}
	if (ps->method == RSA_PKCS1_OAEP) {
		err = pk_hash_lookup(ncr_attr_str(tb,
				NCR_ATTR_RSA_OAEP_HASH_ALGORITHM), &ps->hash);
		if (err)
			return err;
		ps->uses_hash = true;
		return 0;
	}
	return ps->method == RSA_PKCS1_V1_5 ? 0 : -EINVAL;
}

static int pk_init_dsa(struct ncr_session *ses, struct pk_session *ps,
		       struct nlattr *tb[])
{
	int err;

	if (!pk_is_sig(ses->op))
		return -EINVAL;
	err = pk_hash_lookup(ncr_attr_str(tb,
			NCR_ATTR_SIGNATURE_HASH_ALGORITHM), &ps->hash);
	if (err)
		return err;
	ps->uses_hash = true;
	return 0;
}

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
	ps->algo = ncr_pk_algo_from_name(ses->algo->name);
	if (!ses->key)
		return -EINVAL;
	ps->digest_input = ncr_attr_u32(tb, NCR_ATTR_SIGNATURE_INPUT_IS_DIGEST,
					0) != 0;
	if (ps->digest_input && !pk_is_sig(ses->op))
		return -EINVAL;
	if (ps->algo == NCR_PK_RSA)
		err = pk_init_rsa(ses, ps, tb);
	else if (ps->algo == NCR_PK_DSA)
		err = pk_init_dsa(ses, ps, tb);
	else
		err = -EINVAL;
	if (err)
		return err;
	/* report an unusable key at INIT already */
	err = pk_key_lock(ses, &pk);
	if (err)
		return err;
	pk_key_unlock(ses);
	stream = pk_is_sig(ses->op) && !ps->digest_input;
	/* a "digest" would be copied into the signed block as it is */
	ses->key_as_data_ok = stream;
	/* PSS (MGF1, H) and OAEP hash in the padding too; v1.5 and DSA not */
	if (stream || (ps->algo == NCR_PK_RSA && ps->uses_hash &&
		       ps->method != RSA_PKCS1_V1_5))
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

	if (ps->have_digest || in->size != ncr_pkcs1_hash_size(ps->hash))
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

/*
 * The private operation, with the key's cached blinding pair when no other
 * operation on the key is using it (else with a pair of its own): callers
 * hold key->sem for read only, so concurrent signers are possible.
 */
static int pk_rsa_private(struct ncr_key *key, struct ncr_rsa_key *rsa,
			  const u8 *in, u8 *out, size_t k)
{
	int err;

	if (!mutex_trylock(&key->cache_lock))
		return ncr_rsa_private(rsa, NULL, in, k, out, k);
	err = ncr_rsa_private(rsa, &rsa->blind, in, k, out, k);
	mutex_unlock(&key->cache_lock);
	return err;
}

static int pk_rsa_sign(struct pk_session *ps, struct ncr_key *key,
		       struct ncr_rsa_key *rsa, struct ncr_data_out *out)
{
	size_t k = ncr_rsa_modulus_bytes(rsa);
	size_t bits = ncr_rsa_modulus_bits(rsa);
	size_t hlen = ncr_pkcs1_hash_size(ps->hash);
	u8 *block, *sig;
	int err;

	if (out->size < k)
		return -ERANGE;
	block = kmalloc(k, GFP_KERNEL);
	sig = kmalloc(k, GFP_KERNEL);
	err = -ENOMEM;
	if (!block || !sig)
		goto out;
	if (ps->method == RSA_PKCS1_PSS)
		err = ncr_emsa_pss_encode(&ps->hops, ps->digest, ps->salt_len,
					  pk_rng, NULL, bits, block, k);
	else
		err = ncr_emsa_pkcs1_v15_encode(ps->hash, ps->digest, hlen,
						block, k);
	if (!err)
		err = pk_rsa_private(key, rsa, block, sig, k);
	if (!err)
		err = ncr_data_out_write(out, 0, sig, k);
out:
	kfree_sensitive(block);
	kfree_sensitive(sig);
	return err;
}

/* 1 valid, 0 invalid (any malformed signature), -errno. */
static int pk_rsa_verify(struct pk_session *ps, const struct ncr_rsa_key *rsa,
			 const struct ncr_data_in *sigin)
{
	size_t k = ncr_rsa_modulus_bytes(rsa);
	size_t bits = ncr_rsa_modulus_bits(rsa);
	size_t hlen = ncr_pkcs1_hash_size(ps->hash);
	u8 *block = NULL, *sig = NULL;
	int err;

	if (sigin->size != k)
		return 0;	/* RFC 8017 8.2.2 step 1 */
	block = kmalloc(k, GFP_KERNEL);
	sig = kmalloc(k, GFP_KERNEL);
	err = -ENOMEM;
	if (!block || !sig)
		goto out;
	err = ncr_data_in_read(sigin, 0, sig, k);
	if (err)
		goto out;
	err = ncr_rsa_public(rsa, sig, k, block, k);
	if (err == -EINVAL) {	/* s >= n */
		err = 0;
		goto out;
	}
	if (err)
		goto out;
	if (ps->method == RSA_PKCS1_PSS)
		err = ncr_emsa_pss_verify(&ps->hops, ps->digest, ps->salt_len,
					  bits, block, k);
	else
		err = ncr_emsa_pkcs1_v15_verify(ps->hash, ps->digest, hlen,
						block, k);
	if (err == -EBADMSG)
		err = 0;
	else if (!err)
		err = 1;
out:
	kfree(block);
	kfree(sig);
	return err;
}

static int pk_dsa_sign(struct pk_session *ps, const struct ncr_dsa_key *dsa,
		       struct ncr_data_out *out)
{
	size_t len = ncr_dsa_sig_max_len(dsa);
	u8 *sig;
	int err;

	sig = kmalloc(len, GFP_KERNEL);
	if (!sig)
		return -ENOMEM;
	err = ncr_dsa_sign_digest(dsa, ps->digest,
				  ncr_pkcs1_hash_size(ps->hash), sig, &len);
	if (!err)
		err = ncr_data_out_write(out, 0, sig, len);
	kfree(sig);
	return err;
}

static int pk_dsa_verify(struct pk_session *ps, const struct ncr_dsa_key *dsa,
			 const struct ncr_data_in *sigin)
{
	u8 *sig;
	int err;

	/* longer than any DER signature for this key: not one */
	if (!sigin->size || sigin->size > ncr_dsa_sig_max_len(dsa))
		return 0;
	sig = kmalloc(sigin->size, GFP_KERNEL);
	if (!sig)
		return -ENOMEM;
	err = ncr_data_in_read(sigin, 0, sig, sigin->size);
	if (!err)
		err = ncr_dsa_verify_digest(dsa, ps->digest,
					    ncr_pkcs1_hash_size(ps->hash),
					    sig, sigin->size);
	if (err == -EINVAL)	/* not strict DER: an invalid signature */
		err = 0;
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
	if (ps->algo == NCR_PK_RSA)
		err = ses->op == NCR_OP_SIGN ?
		      pk_rsa_sign(ps, ses->key, &pk->rsa, out) :
		      pk_rsa_verify(ps, &pk->rsa, in);
	else
		err = ses->op == NCR_OP_SIGN ? pk_dsa_sign(ps, &pk->dsa, out) :
		      pk_dsa_verify(ps, &pk->dsa, in);
	pk_key_unlock(ses);
	return err;
}

/* ---- encrypt / decrypt ---- */

static int pk_rsa_encrypt(struct pk_session *ps, const struct ncr_rsa_key *rsa,
			  const struct ncr_data_in *in, struct ncr_data_out *out)
{
	size_t k = ncr_rsa_modulus_bytes(rsa);
	u8 *msg = NULL, *block = NULL, *ct = NULL;
	int err;

	if (out->size < k)
		return -ERANGE;
	if (in->size > k)
		return -EMSGSIZE;
	msg = kmalloc(in->size + 1, GFP_KERNEL);
	block = kmalloc(k, GFP_KERNEL);
	ct = kmalloc(k, GFP_KERNEL);
	err = -ENOMEM;
	if (!msg || !block || !ct)
		goto out;
	err = ncr_data_in_read(in, 0, msg, in->size);
	if (err)
		goto out;
	if (ps->method == RSA_PKCS1_OAEP)
		err = ncr_rsaes_oaep_encode(&ps->hops, NULL, 0, msg, in->size,
					    pk_rng, NULL, block, k);
	else
		err = ncr_rsaes_pkcs1_v15_encode(msg, in->size, pk_rng, NULL,
						 block, k);
	if (!err)
		err = ncr_rsa_public(rsa, block, k, ct, k);
	if (!err)
		err = ncr_data_out_write(out, 0, ct, k);
out:
	kfree_sensitive(msg);
	kfree_sensitive(block);
	kfree(ct);
	return err;
}

/*
 * Every undecryptable ciphertext of the right length gives -EBADMSG, and
 * the output buffer must hold the longest possible message before any
 * private-key work: no padding oracle (Bleichenbacher, Manger).
 */
static int pk_rsa_decrypt(struct pk_session *ps, struct ncr_key *key,
			  struct ncr_rsa_key *rsa, const struct ncr_data_in *in,
			  struct ncr_data_out *out)
{
	size_t k = ncr_rsa_modulus_bytes(rsa), max, mlen = 0;
	bool oaep = ps->method == RSA_PKCS1_OAEP;
	u8 *ct = NULL, *block = NULL, *msg = NULL;
	int err;

	if (in->size != k)
		return -EINVAL;
	max = oaep ? ncr_rsaes_oaep_max_msg(&ps->hops, k) :
		     ncr_rsaes_pkcs1_v15_max_msg(k);
	if (!max)
		return -EINVAL;	/* key too small for the encoding */
	if (out->size < max)
		return -ERANGE;
	ct = kmalloc(k, GFP_KERNEL);
	block = kmalloc(k, GFP_KERNEL);
	msg = kmalloc(k, GFP_KERNEL);
	err = -ENOMEM;
	if (!ct || !block || !msg)
		goto out;
	err = ncr_data_in_read(in, 0, ct, k);
	if (err)
		goto out;
	err = pk_rsa_private(key, rsa, ct, block, k);
	if (err == -EINVAL)	/* c >= n */
		err = -EBADMSG;
	if (err)
		goto out;
	if (oaep)
		err = ncr_rsaes_oaep_decode(&ps->hops, NULL, 0, block, k, msg,
					    k, &mlen);
	else
		err = ncr_rsaes_pkcs1_v15_decode(block, k, msg, k, &mlen);
	if (err)
		err = -EBADMSG;
	else
		err = ncr_data_out_write(out, 0, msg, mlen);
out:
	kfree(ct);
	kfree_sensitive(block);
	kfree_sensitive(msg);
	return err;
}

static int pk_crypt(struct ncr_session *ses, const struct ncr_data_in *in,
		    struct ncr_data_out *out)
{
	struct pk_session *ps = ses->priv;
	struct ncr_pk *pk;
	int err;

	if (!out || in->kernel)
		return -EINVAL;
	err = pk_key_lock(ses, &pk);
	if (err)
		return err;
	if (ses->op == NCR_OP_ENCRYPT)
		err = pk_rsa_encrypt(ps, &pk->rsa, in, out);
	else
		err = pk_rsa_decrypt(ps, ses->key, &pk->rsa, in, out);
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
