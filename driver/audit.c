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
 * shows the newer key ID.  KEY_DEINIT's key is read just before the call,
 * while its handle still names it.
 */
#include <linux/audit.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/string.h>
#include "audit.h"
#include "attr.h"
#include "key.h"
#include "ns.h"

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
	a->found = true;
	a->id_size = min_t(u32, key->key_id_size, MAX_KEY_ID_SIZE);
	memcpy(a->id, key->key_id, a->id_size);
	strscpy(a->algo, key->algo, sizeof(a->algo));
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

static ncr_key_t ncr_audit_handle(const void *s, s8 off)
{
	ncr_key_t h;

	memcpy(&h, (const u8 *)s + off, sizeof(h));
	return h;
}

static void ncr_audit_snap_keys(struct ncr_ns *ns,
				const struct ncr_audit_kind *kind,
				const void *s, struct ncr_audit_snap *snap)
{
	ncr_audit_snap(&snap->key, ns, ncr_audit_handle(s, kind->main));
	if (kind->peer >= 0)
		ncr_audit_snap(&snap->peer, ns, ncr_audit_handle(s, kind->peer));
}

/* handle=, key_id=, algo= of the key, then peer_handle=, peer_key_id=. */
static void ncr_audit_keys(struct audit_buffer *ab,
			   const struct ncr_audit_kind *kind,
			   const struct ncr_audit_snap *snap)
{
	ncr_audit_key_fields(ab, "", &snap->key);
	ncr_audit_algo(ab, snap->key.found ? snap->key.algo : NULL);
	if (kind->peer >= 0)
		ncr_audit_key_fields(ab, "peer_", &snap->peer);
}

static const char *ncr_audit_crypto_op(u32 op)
{
	static const char *const names[] = {
		[NCR_OP_ENCRYPT] = "encrypt", [NCR_OP_DECRYPT] = "decrypt",
		[NCR_OP_SIGN] = "sign", [NCR_OP_VERIFY] = "verify",
	};

	return op < ARRAY_SIZE(names) && names[op] ? names[op] : "?";
}

static void ncr_audit_session(struct audit_buffer *ab, u32 crypto_op,
			      struct nlattr *tb[],
			      const struct ncr_audit_key *a)
{
	audit_log_format(ab, " crypto_op=%s", ncr_audit_crypto_op(crypto_op));
	ncr_audit_algo(ab, tb ? ncr_attr_str(tb, NCR_ATTR_ALGORITHM) : NULL);
	ncr_audit_key_fields(ab, "", a);
}

void ncr_audit_prepare(struct ncr_ns *ns, const struct ncr_audit_kind *kind,
		       const void *s, struct ncr_audit_snap *snap)
{
	if (!kind->op || !kind->before)
		return;
	if (audit_enabled != AUDIT_OFF) {
		ncr_audit_snap_keys(ns, kind, s, snap);
		return;
	}
	/* No lookup, no lock; enough for a record should audit start now. */
	snap->key = (struct ncr_audit_key){
		.handle = ncr_audit_handle(s, kind->main) };
	snap->peer = (struct ncr_audit_key){ .handle = NCR_KEY_INVALID };
}

void ncr_audit_call(struct ncr_ns *ns, const struct ncr_audit_kind *kind,
		    const void *s, struct nlattr *tb[], long result,
		    struct ncr_audit_snap *snap)
{
	struct audit_buffer *ab;

	if (!kind->op || audit_enabled == AUDIT_OFF)
		return;
	if (kind->form == NCR_AUDIT_KEYS && !kind->before)
		ncr_audit_snap_keys(ns, kind, s, snap);
	if (kind->form == NCR_AUDIT_SESSION) {
		snap->key = (struct ncr_audit_key){ .handle = NCR_KEY_INVALID };
		if (tb && tb[NCR_ATTR_KEY])
			ncr_audit_snap(&snap->key, ns,
				       ncr_nla_get_u32(tb[NCR_ATTR_KEY]));
	}
	ab = ncr_audit_start(kind->op, ns->id);
	if (!ab)
		return;
	if (kind->form == NCR_AUDIT_KEYS)
		ncr_audit_keys(ab, kind, snap);
	else if (kind->form == NCR_AUDIT_SESSION)
		ncr_audit_session(ab, ncr_audit_handle(s, kind->main), tb,
				  &snap->key);
	ncr_audit_end(ab, result);
}
