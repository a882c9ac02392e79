// SPDX-License-Identifier: GPL-2.0
/*
 * Audit records for key life-cycle operations, the master key and session
 * creation.
 *
 * Record type: AUDIT_KERNEL_OTHER (1316), which the audit UAPI reserves
 * "for use by 3rd party modules".  A private number in the kernel's
 * 1300-1399 event range could collide with a type upstream adds later and
 * then be misread by auditd/ausearch; KERNEL_OTHER is known to them by
 * name (ausearch -m KERNEL_OTHER).  Every record starts with "ncr_op=" so
 * that ours are told apart from other modules' KERNEL_OTHER records.
 * Records join the current syscall's audit context (same serial as its
 * SYSCALL record) and end with the task's identity.
 *
 * The hook runs after the handler returned, with no lock held: the keys
 * named by the call are then looked up and read under their own lock one
 * at a time (never two at once: no lock-order issue).  A concurrent
 * replacement between the two is possible and harmless: the record then
 * shows the newer key ID.
 */
#include <linux/audit.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/string.h>
#include "audit.h"
#include "attr.h"
#include "key.h"
#include "ns.h"

/* What a record says about a key, copied under the key's lock. */
struct ncr_audit_key {
	ncr_key_t handle;
	bool found;
	u32 id_size;
	u8 id[MAX_KEY_ID_SIZE];
	char algo[NCR_ALGO_NAME_MAX + 1];
};

static void ncr_audit_snap_locked(struct ncr_audit_key *a,
				  const struct ncr_key *key)
{
	a->found = true;
	a->id_size = min_t(u32, key->key_id_size, MAX_KEY_ID_SIZE);
	memcpy(a->id, key->key_id, a->id_size);
	strscpy(a->algo, key->algo, sizeof(a->algo));
}

static void ncr_audit_snap(struct ncr_audit_key *a, struct ncr_ns *ns,
			   ncr_key_t handle)
{
	struct ncr_key *key;

	memset(a, 0, sizeof(*a));
	a->handle = handle;
	key = ncr_key_get(ns, handle);
	if (IS_ERR(key))
		return;
	down_read(&key->sem);
	ncr_audit_snap_locked(a, key);
	up_read(&key->sem);
	ncr_key_put(key);
}

static struct audit_buffer *ncr_audit_start(const char *op, u32 ns_id)
{
	struct audit_buffer *ab;

	if (audit_enabled == AUDIT_OFF)
		return NULL;
	ab = audit_log_start(audit_context(), GFP_KERNEL, AUDIT_KERNEL_OTHER);
	if (ab)
		audit_log_format(ab, "ncr_op=%s ns=%u", op, ns_id);
	return ab;
}

/*
 * Algorithm names may come from the caller (a failed SESSION_INIT): quote
 * them only when they look like crypto API names, else log them in hex,
 * the audit convention for untrusted strings.
 */
static void ncr_audit_algo(struct audit_buffer *ab, const char *algo)
{
	size_t i, n;

	if (!algo || !*algo) {
		audit_log_format(ab, " algo=?");
		return;
	}
	n = strnlen(algo, NCR_ALGO_NAME_MAX + 1);
	for (i = 0; i < n; i++)
		if (!isalnum(algo[i]) && !strchr("()-_,", algo[i]))
			break;
	if (i == n && n <= NCR_ALGO_NAME_MAX)
		audit_log_format(ab, " algo=\"%.*s\"", (int)n, algo);
	else
		audit_log_format(ab, " algo=%*phN", (int)min_t(size_t, n, 64),
				 algo);
}

/*
 * "<prefix>handle=" and "<prefix>key_id=": not "key=", which is the audit
 * rule key field that ausearch -k matches.
 */
static void ncr_audit_key_fields(struct audit_buffer *ab, const char *prefix,
				 const struct ncr_audit_key *a)
{
	audit_log_format(ab, " %shandle=%d", prefix, a->handle);
	if (!a->found)
		return;
	if (a->id_size)
		audit_log_format(ab, " %skey_id=%*phN", prefix,
				 (int)a->id_size, a->id);
	else
		audit_log_format(ab, " %skey_id=?", prefix);
}

static void ncr_audit_end(struct audit_buffer *ab, long result)
{
	if (result >= 0)
		audit_log_format(ab, " res=1");
	else
		audit_log_format(ab, " res=0 errno=%ld", -result);
	audit_log_task_info(ab);
	audit_log_end(ab);
}

/* handle=, key_id=, algo= of the key, then peer_handle=, peer_key_id=. */
static void ncr_audit_keys(struct ncr_ns *ns, const char *op, ncr_key_t main,
			   const ncr_key_t *peer, long result)
{
	struct ncr_audit_key a, b;
	struct audit_buffer *ab;

	if (audit_enabled == AUDIT_OFF)
		return;
	ncr_audit_snap(&a, ns, main);
	if (peer)
		ncr_audit_snap(&b, ns, *peer);
	ab = ncr_audit_start(op, ns->id);
	if (!ab)
		return;
	ncr_audit_key_fields(ab, "", &a);
	ncr_audit_algo(ab, a.found ? a.algo : NULL);
	if (peer)
		ncr_audit_key_fields(ab, "peer_", &b);
	ncr_audit_end(ab, result);
}

static const char *ncr_audit_crypto_op(u32 op)
{
	switch (op) {
	case NCR_OP_ENCRYPT:
		return "encrypt";
	case NCR_OP_DECRYPT:
		return "decrypt";
	case NCR_OP_SIGN:
		return "sign";
	case NCR_OP_VERIFY:
		return "verify";
	default:
		return "?";
	}
}

static void ncr_audit_session(struct ncr_ns *ns, u32 crypto_op,
			      struct nlattr *tb[], long result)
{
	struct ncr_audit_key a = { .handle = NCR_KEY_INVALID };
	struct audit_buffer *ab;

	if (audit_enabled == AUDIT_OFF)
		return;
	if (tb && tb[NCR_ATTR_KEY])
		ncr_audit_snap(&a, ns, ncr_nla_get_u32(tb[NCR_ATTR_KEY]));
	ab = ncr_audit_start("session_init", ns->id);
	if (!ab)
		return;
	audit_log_format(ab, " crypto_op=%s", ncr_audit_crypto_op(crypto_op));
	ncr_audit_algo(ab, tb ? ncr_attr_str(tb, NCR_ATTR_ALGORITHM) : NULL);
	ncr_audit_key_fields(ab, "", &a);
	ncr_audit_end(ab, result);
}

static void ncr_audit_master_key(struct ncr_ns *ns, long result)
{
	struct audit_buffer *ab = ncr_audit_start("master_key_set", ns->id);

	if (ab)
		ncr_audit_end(ab, result);
}

void ncr_audit_call(struct ncr_ns *ns, enum ncr_call_op op, const void *s,
		    struct nlattr *tb[], long result)
{
	const struct ncr_key_generate_pair *gp = s;
	const struct ncr_key_derive *der = s;
	const struct ncr_key_wrap *wr = s;
	const struct ncr_key_unwrap *uw = s;

	switch (op) {
	case NCR_CALL_KEY_GENERATE:
		ncr_audit_keys(ns, "key_generate",
			       ((const struct ncr_key_generate *)s)->key, NULL,
			       result);
		break;
	case NCR_CALL_KEY_GENERATE_PAIR:
		ncr_audit_keys(ns, "key_generate_pair", gp->private_key,
			       &gp->public_key, result);
		break;
	case NCR_CALL_KEY_DERIVE:
		ncr_audit_keys(ns, "key_derive", der->new_key, &der->input_key,
			       result);
		break;
	case NCR_CALL_KEY_IMPORT:
		ncr_audit_keys(ns, "key_import",
			       ((const struct ncr_key_import *)s)->key, NULL,
			       result);
		break;
	case NCR_CALL_KEY_EXPORT:
		ncr_audit_keys(ns, "key_export",
			       ((const struct ncr_key_export *)s)->key, NULL,
			       result);
		break;
	case NCR_CALL_KEY_WRAP:
		ncr_audit_keys(ns, "key_wrap", wr->source_key,
			       &wr->wrapping_key, result);
		break;
	case NCR_CALL_KEY_UNWRAP:
		ncr_audit_keys(ns, "key_unwrap", uw->dest_key,
			       &uw->wrapping_key, result);
		break;
	case NCR_CALL_STORAGE_WRAP:
		ncr_audit_keys(ns, "key_storage_wrap",
			       ((const struct ncr_key_storage_wrap *)s)->key,
			       NULL, result);
		break;
	case NCR_CALL_STORAGE_UNWRAP:
		ncr_audit_keys(ns, "key_storage_unwrap",
			       ((const struct ncr_key_storage_unwrap *)s)->key,
			       NULL, result);
		break;
	case NCR_CALL_MASTER_KEY_SET:
		ncr_audit_master_key(ns, result);
		break;
	case NCR_CALL_SESSION_INIT:
		ncr_audit_session(ns, ((const struct ncr_session_init *)s)->op,
				  tb, result);
		break;
	case NCR_CALL_SESSION_ONCE:
		ncr_audit_session(ns, ((const struct ncr_session_once *)s)->op,
				  tb, result);
		break;
	default:
		break;	/* GET_INFO, UPDATE, FINAL: not life-cycle events */
	}
}

void ncr_audit_key_deinit(struct ncr_ns *ns, ncr_key_t handle,
			  struct ncr_key *key, long result)
{
	struct ncr_audit_key a = { .handle = handle };
	struct audit_buffer *ab;

	if (audit_enabled == AUDIT_OFF)
		return;
	if (key) {
		down_read(&key->sem);
		ncr_audit_snap_locked(&a, key);
		up_read(&key->sem);
	}
	ab = ncr_audit_start("key_deinit", ns->id);
	if (!ab)
		return;
	ncr_audit_key_fields(ab, "", &a);
	ncr_audit_algo(ab, a.found ? a.algo : NULL);
	ncr_audit_end(ab, result);
}
