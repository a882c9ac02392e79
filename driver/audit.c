// SPDX-License-Identifier: GPL-2.0
/*
 * Audit records for key life-cycle operations and session creation.
 *
 * Record type: AUDIT_KERNEL_OTHER (1316), which the audit UAPI reserves
 * "for use by 3rd party modules".  A private number in the kernel's
 * 1300-1399 event range could collide with a type upstream adds later and
 * then be misread by auditd/ausearch; KERNEL_OTHER is known to them by
 * name (ausearch -m KERNEL_OTHER).  Every record starts with "ncr_op=" so
 * that ours are told apart from other modules' KERNEL_OTHER records.
 * Records are attached to the current syscall's audit context (same serial
 * as its SYSCALL record) and end with the task's identity.
 */
#include <linux/audit.h>
#include <linux/ctype.h>
#include <linux/string.h>
#include "ncr_audit.h"

static const char *const ncr_audit_op_names[NCR_AUDIT_OP_COUNT] = {
	[NCR_AUDIT_KEY_GENERATE] = "key_generate",
	[NCR_AUDIT_KEY_GENERATE_PAIR] = "key_generate_pair",
	[NCR_AUDIT_KEY_IMPORT] = "key_import",
	[NCR_AUDIT_KEY_EXPORT] = "key_export",
	[NCR_AUDIT_KEY_WRAP] = "key_wrap",
	[NCR_AUDIT_KEY_UNWRAP] = "key_unwrap",
	[NCR_AUDIT_KEY_STORAGE_WRAP] = "key_storage_wrap",
	[NCR_AUDIT_KEY_STORAGE_UNWRAP] = "key_storage_unwrap",
	[NCR_AUDIT_KEY_DERIVE] = "key_derive",
	[NCR_AUDIT_KEY_DEINIT] = "key_deinit",
};

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

static void ncr_audit_one_key(struct audit_buffer *ab, const char *name,
			      ncr_key_t handle, const struct ncr_key *key)
{
	u32 size;

	audit_log_format(ab, " %s=%d", name, handle);
	if (!key)
		return;
	size = min_t(u32, key->key_id_size, MAX_KEY_ID_SIZE);
	if (size)
		audit_log_format(ab, " %s_id=%*phN", name, (int)size,
				 key->key_id);
	else
		audit_log_format(ab, " %s_id=?", name);
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

void ncr_audit_key(enum ncr_audit_op op, u32 ns_id, ncr_key_t handle,
		   const struct ncr_key *key, ncr_key_t peer_handle,
		   const struct ncr_key *peer, long result)
{
	struct audit_buffer *ab;

	if ((unsigned int)op >= NCR_AUDIT_OP_COUNT)
		return;
	ab = ncr_audit_start(ncr_audit_op_names[op], ns_id);
	if (!ab)
		return;
	ncr_audit_one_key(ab, "key", handle, key);
	ncr_audit_algo(ab, key ? key->algo : NULL);
	if (peer)
		ncr_audit_one_key(ab, "peer", peer_handle, peer);
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

void ncr_audit_session_init(u32 ns_id, u32 crypto_op, const char *algo,
			    ncr_key_t handle, struct ncr_key *key,
			    long result)
{
	struct audit_buffer *ab;

	ab = ncr_audit_start("session_init", ns_id);
	if (!ab)
		return;
	audit_log_format(ab, " crypto_op=%s", ncr_audit_crypto_op(crypto_op));
	ncr_audit_algo(ab, algo);
	if (key) {
		down_read(&key->sem);
		ncr_audit_one_key(ab, "key", handle, key);
		up_read(&key->sem);
	} else {
		audit_log_format(ab, " key=%d", handle);
	}
	ncr_audit_end(ab, result);
}
