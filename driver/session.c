// SPDX-License-Identifier: GPL-2.0
/*
 * Session objects and SESSION_INIT/UPDATE/FINAL/ONCE.  The algorithm table
 * (algo.c) gives the session ops (cipher.c, hash.c, or the PK code) and the
 * NCR_OP_*s they serve; the core handles handles, limits, locking, the key
 * reference and the session data attributes (session_io.c).
 */
#include <linux/err.h>
#include <linux/slab.h>
#include "session.h"
#include "algo.h"
#include "attr.h"
#include "key.h"
#include "ncr_limits.h"
#include "ns.h"

static void ncr_session_put(struct ncr_session *ses)
{
	if (!refcount_dec_and_test(&ses->ref))
		return;
	if (!ses->done)
		ses->ops->free(ses);
	if (ses->key)
		ncr_key_put(ses->key);
	ncr_limit_release(&ses->owner, NCR_LIMIT_SESSION);
	kfree(ses);
}

static struct ncr_session *ncr_session_new(struct ncr_ns *ns, u32 op,
					   struct nlattr *tb[])
{
	const struct ncr_session_ops *ops;
	const struct ncr_algo *algo;
	struct ncr_session *ses;
	int ret;

	if (op < NCR_OP_ENCRYPT || op > NCR_OP_VERIFY)
		return ERR_PTR(-EINVAL);
	algo = ncr_algo_find(ncr_attr_str(tb, NCR_ATTR_ALGORITHM));
	if (!algo)
		return ERR_PTR(-EINVAL);
	if (!(algo->session_ops & BIT(op)))
		return ERR_PTR(-EINVAL);
	ops = algo->session;

	ses = kzalloc(sizeof(*ses), GFP_KERNEL);
	if (!ses)
		return ERR_PTR(-ENOMEM);
	ret = ncr_limit_charge(&ses->owner, NCR_LIMIT_SESSION);
	if (ret) {
		kfree(ses);
		return ERR_PTR(ret);
	}
	mutex_init(&ses->lock);
	refcount_set(&ses->ref, 1);
	ses->op = op;
	ses->algo = algo;
	ses->ops = ops;
	/* Algorithms without key ignore NCR_ATTR_KEY (2010 programs pass -1). */
	if (tb[NCR_ATTR_KEY] && ncr_algo_takes_key(algo)) {
		ses->key = ncr_key_get(ns, ncr_nla_get_u32(tb[NCR_ATTR_KEY]));
		if (IS_ERR(ses->key)) {
			ret = PTR_ERR(ses->key);
			ses->key = NULL;
			goto fail;
		}
	}
	ret = ops->init(ses, tb);
	if (ret)
		goto fail;
	return ses;
fail:
	ncr_session_put(ses);
	return ERR_PTR(ret);
}

int ncr_session_init(struct ncr_ns *ns, const struct ncr_session_init *si,
		     struct nlattr *tb[])
{
	struct ncr_session *ses = ncr_session_new(ns, si->op, tb);
	int ret;

	if (IS_ERR(ses))
		return PTR_ERR(ses);
	mutex_lock(&ns->ses_lock);
	ret = idr_alloc_cyclic(&ns->sessions, ses, 1, 0, GFP_KERNEL);
	if (ret > 0)
		ses->handle = ret;
	mutex_unlock(&ns->ses_lock);
	if (ret < 0)
		ncr_session_put(ses);
	return ret;
}

/* The input of an update: user data, or a secret key's material. */
static int ncr_session_update_input(struct ncr_ns *ns, struct ncr_session *ses,
				    struct nlattr *tb[], struct ncr_data_in *in,
				    struct ncr_key **key)
{
	*key = NULL;
	if (tb[NCR_ATTR_UPDATE_INPUT_DATA])
		return ncr_attr_input_data(tb[NCR_ATTR_UPDATE_INPUT_DATA], in);
	if (!tb[NCR_ATTR_UPDATE_INPUT_KEY_AS_DATA])
		return -EINVAL;
	/*
	 * Hashing a key reveals nothing; encrypting it, or signing it as a
	 * "digest", would put the material itself into the output.
	 */
	if (!ses->key_as_data_ok)
		return -EINVAL;
	*key = ncr_key_get(ns, ncr_nla_get_u32(tb[NCR_ATTR_UPDATE_INPUT_KEY_AS_DATA]));
	if (IS_ERR(*key)) {
		int ret = PTR_ERR(*key);

		*key = NULL;
		return ret;
	}
	down_read(&(*key)->sem);
	if ((*key)->type != NCR_KEY_TYPE_SECRET)
		return -EINVAL;
	if ((*key)->flags & NCR_KEY_FLAG_WRAPPING)
		return -EPERM;	/* a KEK serves KEY_WRAP/UNWRAP only */
	in->user = NULL;
	in->kernel = (*key)->secret;
	in->size = (*key)->secret_size;
	return 0;
}

/* Called with ses->lock held. */
static int ncr_session_do_update(struct ncr_ns *ns, struct ncr_session *ses,
				 struct nlattr *tb[])
{
	struct ncr_data_out out, *outp = NULL;
	void __user *result_size_ptr = NULL;
	struct ncr_data_in in;
	struct ncr_key *key;
	int ret;

	if (tb[NCR_ATTR_UPDATE_OUTPUT_BUFFER]) {
		ret = ncr_attr_output_buffer(tb[NCR_ATTR_UPDATE_OUTPUT_BUFFER],
					     &out, &result_size_ptr);
		if (ret)
			return ret;
		outp = &out;
	}
	ret = ncr_session_update_input(ns, ses, tb, &in, &key);
	if (!ret)
		ret = ses->ops->update(ses, &in, outp);
	if (key) {
		up_read(&key->sem);
		ncr_key_put(key);
	}
	if (!ret && outp)
		ret = ncr_put_result_size(result_size_ptr, out.written);
	return ret;
}

/* Optional update, then finish.  Called with ses->lock held. */
static int ncr_session_do_final(struct ncr_ns *ns, struct ncr_session *ses,
				struct nlattr *tb[])
{
	struct ncr_data_out out, *outp = NULL;
	void __user *result_size_ptr = NULL;
	struct ncr_data_in in, *inp = NULL;
	int ret, err;

	if (tb[NCR_ATTR_UPDATE_INPUT_DATA] ||
	    tb[NCR_ATTR_UPDATE_INPUT_KEY_AS_DATA]) {
		ret = ncr_session_do_update(ns, ses, tb);
		if (ret)
			return ret;
	}
	if (tb[NCR_ATTR_FINAL_INPUT_DATA]) {
		ret = ncr_attr_input_data(tb[NCR_ATTR_FINAL_INPUT_DATA], &in);
		if (ret)
			return ret;
		inp = &in;
	}
	if (tb[NCR_ATTR_FINAL_OUTPUT_BUFFER]) {
		ret = ncr_attr_output_buffer(tb[NCR_ATTR_FINAL_OUTPUT_BUFFER],
					     &out, &result_size_ptr);
		if (ret)
			return ret;
		outp = &out;
	}
	ret = ses->ops->final(ses, inp, outp);
	if (ret >= 0 && outp) {
		err = ncr_put_result_size(result_size_ptr, out.written);
		if (err)
			ret = err;
	}
	return ret;
}

static struct ncr_session *ncr_session_get(struct ncr_ns *ns,
					   ncr_session_t handle, bool remove)
{
	struct ncr_session *ses;

	mutex_lock(&ns->ses_lock);
	if (remove) {
		ses = idr_remove(&ns->sessions, handle);
	} else {
		ses = idr_find(&ns->sessions, handle);
		if (ses)
			refcount_inc(&ses->ref);
	}
	mutex_unlock(&ns->ses_lock);
	return ses ? ses : ERR_PTR(-EINVAL);
}

int ncr_session_update(struct ncr_ns *ns, const struct ncr_session_update *su,
		       struct nlattr *tb[])
{
	struct ncr_session *ses = ncr_session_get(ns, su->ses, false);
	int ret;

	if (IS_ERR(ses))
		return PTR_ERR(ses);
	mutex_lock(&ses->lock);
	if (ses->done)
		ret = -EINVAL;
	else
		ret = ncr_session_do_update(ns, ses, tb);
	mutex_unlock(&ses->lock);
	ncr_session_put(ses);
	return ret;
}

/* The session is gone afterwards, even when FINAL fails (CRYPTO(4)). */
static int ncr_session_finish(struct ncr_ns *ns, struct ncr_session *ses,
			      struct nlattr *tb[])
{
	int ret;

	mutex_lock(&ses->lock);
	if (ses->done) {
		ret = -EINVAL;
	} else {
		ret = ncr_session_do_final(ns, ses, tb);
		ses->ops->free(ses);
		ses->done = true;
	}
	mutex_unlock(&ses->lock);
	ncr_session_put(ses);
	return ret;
}

int ncr_session_final(struct ncr_ns *ns, const struct ncr_session_final *sf,
		      struct nlattr *tb[])
{
	struct ncr_session *ses = ncr_session_get(ns, sf->ses, true);

	if (IS_ERR(ses))
		return PTR_ERR(ses);
	return ncr_session_finish(ns, ses, tb);
}

int ncr_session_once(struct ncr_ns *ns, const struct ncr_session_once *so,
		     struct nlattr *tb[])
{
	struct ncr_session *ses = ncr_session_new(ns, so->op, tb);

	if (IS_ERR(ses))
		return PTR_ERR(ses);
	return ncr_session_finish(ns, ses, tb);
}

static int ncr_session_destroy_one(int id, void *p, void *unused)
{
	ncr_session_put(p);
	return 0;
}

void ncr_sessions_destroy(struct ncr_ns *ns)
{
	idr_for_each(&ns->sessions, ncr_session_destroy_one, NULL);
	idr_destroy(&ns->sessions);
}
