// SPDX-License-Identifier: GPL-2.0
/*
 * Per-process (thread group) and per-user caps on key and session objects,
 * and a per-user cap on the kernel memory its keys pin.  Namespaces are
 * shared across fork, so the caps follow the creator, not the namespace.
 * An object stays charged to its creator until freed, whoever frees it.
 * Exceeding a count fails with EMFILE ("too many objects open"), like
 * running out of file descriptors; exceeding the bytes with EDQUOT.
 *
 * The user is the one who owns the outermost user namespace the creator
 * runs in (its euid in the initial one), as the kernel's ucounts walk up
 * to the initial namespace: every uid a user maps into namespaces it
 * creates (its subordinate uids) shares that user's one quota.
 */
#include <linux/cred.h>
#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/user_namespace.h>
#include "ncr_limits.h"

static unsigned int max_keys_per_process = 1024;
module_param(max_keys_per_process, uint, 0644);
MODULE_PARM_DESC(max_keys_per_process, "Key objects per process (default 1024)");

static unsigned int max_keys_per_user = 4096;
module_param(max_keys_per_user, uint, 0644);
MODULE_PARM_DESC(max_keys_per_user, "Key objects per user (default 4096)");

static unsigned int max_sessions_per_process = 1024;
module_param(max_sessions_per_process, uint, 0644);
MODULE_PARM_DESC(max_sessions_per_process, "Sessions per process (default 1024)");

static unsigned int max_sessions_per_user = 4096;
module_param(max_sessions_per_user, uint, 0644);
MODULE_PARM_DESC(max_sessions_per_user, "Sessions per user (default 4096)");

static unsigned long max_bytes_per_user = 8UL << 20;
module_param(max_bytes_per_user, ulong, 0644);
MODULE_PARM_DESC(max_bytes_per_user, "Kernel memory the keys of one user may pin, in bytes (default 8 MiB)");

/*
 * One counter set per thread group or per user.  A per-process entry is
 * keyed by the struct pid of the thread group; it exists only while some
 * object charged to it exists, and every such object holds a reference on
 * that struct pid, so the pointer cannot be reused meanwhile.
 */
struct ncr_limit_entry {
	struct hlist_node node;
	struct pid *tgid;		/* NULL for a per-user entry */
	kuid_t user;
	unsigned int count[NCR_LIMIT_KINDS];
	size_t bytes;			/* per-user entries only */
};

static DEFINE_HASHTABLE(ncr_limit_table, 7);
static DEFINE_SPINLOCK(ncr_limit_lock);

static unsigned long ncr_limit_hash(struct pid *tgid, kuid_t user)
{
	return tgid ? (unsigned long)tgid : (unsigned long)__kuid_val(user);
}

static struct ncr_limit_entry *ncr_limit_find(struct pid *tgid, kuid_t user)
{
	struct ncr_limit_entry *e;

	hash_for_each_possible(ncr_limit_table, e, node,
			       ncr_limit_hash(tgid, user)) {
		if (e->tgid == tgid && (tgid || uid_eq(e->user, user)))
			return e;
	}
	return NULL;
}

/* Find or insert (using *spare, which is then consumed). */
static struct ncr_limit_entry *ncr_limit_lookup(struct pid *tgid,
						kuid_t user,
						struct ncr_limit_entry **spare)
{
	struct ncr_limit_entry *e = ncr_limit_find(tgid, user);

	if (e)
		return e;
	e = *spare;
	*spare = NULL;
	e->tgid = tgid;
	e->user = user;
	hash_add(ncr_limit_table, &e->node, ncr_limit_hash(tgid, user));
	return e;
}

static void ncr_limit_drop(struct ncr_limit_entry *e)
{
	unsigned int i;

	for (i = 0; i < NCR_LIMIT_KINDS; i++)
		if (e->count[i])
			return;
	WARN_ON_ONCE(e->bytes);
	hash_del(&e->node);
	kfree(e);
}

static unsigned int ncr_limit_max(enum ncr_limit_kind kind, bool user)
{
	if (kind == NCR_LIMIT_KEY)
		return user ? READ_ONCE(max_keys_per_user) :
			      READ_ONCE(max_keys_per_process);
	return user ? READ_ONCE(max_sessions_per_user) :
		      READ_ONCE(max_sessions_per_process);
}

/* The user a task of cred is charged to (see the top of this file). */
static kuid_t ncr_limit_user(const struct cred *cred)
{
	const struct user_namespace *ns = cred->user_ns;
	kuid_t user = cred->euid;

	for (; ns != &init_user_ns; ns = ns->parent)
		user = ns->owner;
	return user;
}

int ncr_limit_charge(struct ncr_limit_owner *owner, enum ncr_limit_kind kind)
{
	struct ncr_limit_entry *spare[2], *proc, *user;
	int ret = 0;

	spare[0] = kzalloc(sizeof(*spare[0]), GFP_KERNEL);
	spare[1] = kzalloc(sizeof(*spare[1]), GFP_KERNEL);
	if (!spare[0] || !spare[1]) {
		ret = -ENOMEM;
		goto out;
	}
	owner->tgid = get_task_pid(current, PIDTYPE_TGID);
	owner->user = ncr_limit_user(current_cred());
	owner->bytes = 0;

	spin_lock(&ncr_limit_lock);
	proc = ncr_limit_lookup(owner->tgid, owner->user, &spare[0]);
	user = ncr_limit_lookup(NULL, owner->user, &spare[1]);
	if (proc->count[kind] >= ncr_limit_max(kind, false) ||
	    user->count[kind] >= ncr_limit_max(kind, true)) {
		ret = -EMFILE;
		ncr_limit_drop(proc);
		ncr_limit_drop(user);
	} else {
		proc->count[kind]++;
		user->count[kind]++;
	}
	spin_unlock(&ncr_limit_lock);
	if (ret)
		put_pid(owner->tgid);
out:
	kfree(spare[0]);
	kfree(spare[1]);
	return ret;
}

void ncr_limit_release(struct ncr_limit_owner *owner, enum ncr_limit_kind kind)
{
	struct ncr_limit_entry *proc, *user;

	spin_lock(&ncr_limit_lock);
	proc = ncr_limit_find(owner->tgid, owner->user);
	user = ncr_limit_find(NULL, owner->user);
	if (!WARN_ON_ONCE(!proc || !proc->count[kind])) {
		proc->count[kind]--;
		ncr_limit_drop(proc);
	}
	if (!WARN_ON_ONCE(!user || !user->count[kind] ||
			  user->bytes < owner->bytes)) {
		user->bytes -= owner->bytes;
		user->count[kind]--;
		ncr_limit_drop(user);
	}
	spin_unlock(&ncr_limit_lock);
	put_pid(owner->tgid);
	owner->tgid = NULL;
	owner->bytes = 0;
}

int ncr_limit_set_bytes(struct ncr_limit_owner *owner, size_t bytes)
{
	struct ncr_limit_entry *user;
	size_t others;
	int ret = 0;

	spin_lock(&ncr_limit_lock);
	user = ncr_limit_find(NULL, owner->user);
	if (WARN_ON_ONCE(!user || user->bytes < owner->bytes)) {
		ret = -EINVAL;
		goto out;
	}
	others = user->bytes - owner->bytes;
	if (bytes > owner->bytes &&
	    others + bytes > READ_ONCE(max_bytes_per_user)) {
		ret = -EDQUOT;
		goto out;
	}
	user->bytes = others + bytes;
	owner->bytes = bytes;
out:
	spin_unlock(&ncr_limit_lock);
	return ret;
}

void ncr_limits_exit(void)
{
	/* Every object is freed before unload, so the table is empty. */
	WARN_ON(!hash_empty(ncr_limit_table));
}
