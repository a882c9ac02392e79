// SPDX-License-Identifier: GPL-2.0
/*
 * Per-process (thread group) and per-user (euid) caps on key and session
 * objects.  Namespaces are shared across fork, so the caps follow the
 * creator, not the namespace.  An object stays charged to its creator until
 * freed, whoever frees it.  Exceeding a cap fails with EMFILE ("too many
 * objects open"), like running out of file descriptors.
 */
#include <linux/cred.h>
#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include "ncr_limits.h"

static unsigned int max_keys_per_process = 1024;
module_param(max_keys_per_process, uint, 0644);
MODULE_PARM_DESC(max_keys_per_process, "Key objects per process (default 1024)");

static unsigned int max_keys_per_user = 4096;
module_param(max_keys_per_user, uint, 0644);
MODULE_PARM_DESC(max_keys_per_user, "Key objects per effective uid (default 4096)");

static unsigned int max_sessions_per_process = 1024;
module_param(max_sessions_per_process, uint, 0644);
MODULE_PARM_DESC(max_sessions_per_process, "Sessions per process (default 1024)");

static unsigned int max_sessions_per_user = 4096;
module_param(max_sessions_per_user, uint, 0644);
MODULE_PARM_DESC(max_sessions_per_user, "Sessions per effective uid (default 4096)");

/*
 * One counter set per thread group or per euid.  A per-process entry is
 * keyed by the struct pid of the thread group; it exists only while some
 * object charged to it exists, and every such object holds a reference on
 * that struct pid, so the pointer cannot be reused meanwhile.
 */
struct ncr_limit_entry {
	struct hlist_node node;
	struct pid *tgid;		/* NULL for a per-user entry */
	kuid_t euid;
	unsigned int count[NCR_LIMIT_KINDS];
};

static DEFINE_HASHTABLE(ncr_limit_table, 7);
static DEFINE_SPINLOCK(ncr_limit_lock);

static unsigned long ncr_limit_hash(struct pid *tgid, kuid_t euid)
{
	return tgid ? (unsigned long)tgid : (unsigned long)__kuid_val(euid);
}

static struct ncr_limit_entry *ncr_limit_find(struct pid *tgid, kuid_t euid)
{
	struct ncr_limit_entry *e;

	hash_for_each_possible(ncr_limit_table, e, node,
			       ncr_limit_hash(tgid, euid)) {
		if (e->tgid == tgid && (tgid || uid_eq(e->euid, euid)))
			return e;
	}
	return NULL;
}

/* Find or insert (using *spare, which is then consumed). */
static struct ncr_limit_entry *ncr_limit_lookup(struct pid *tgid,
						kuid_t euid,
						struct ncr_limit_entry **spare)
{
	struct ncr_limit_entry *e = ncr_limit_find(tgid, euid);

	if (e)
		return e;
	e = *spare;
	*spare = NULL;
	e->tgid = tgid;
	e->euid = euid;
	hash_add(ncr_limit_table, &e->node, ncr_limit_hash(tgid, euid));
	return e;
}

static void ncr_limit_drop(struct ncr_limit_entry *e)
{
	unsigned int i;

	for (i = 0; i < NCR_LIMIT_KINDS; i++)
		if (e->count[i])
			return;
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
	owner->euid = current_euid();

	spin_lock(&ncr_limit_lock);
	proc = ncr_limit_lookup(owner->tgid, owner->euid, &spare[0]);
	user = ncr_limit_lookup(NULL, owner->euid, &spare[1]);
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
	proc = ncr_limit_find(owner->tgid, owner->euid);
	user = ncr_limit_find(NULL, owner->euid);
	if (!WARN_ON_ONCE(!proc || !proc->count[kind])) {
		proc->count[kind]--;
		ncr_limit_drop(proc);
	}
	if (!WARN_ON_ONCE(!user || !user->count[kind])) {
		user->count[kind]--;
		ncr_limit_drop(user);
	}
	spin_unlock(&ncr_limit_lock);
	put_pid(owner->tgid);
	owner->tgid = NULL;
}

int ncr_limits_init(void)
{
	return 0;
}

void ncr_limits_exit(void)
{
	/* Every object is freed before unload, so the table is empty. */
	WARN_ON(!hash_empty(ncr_limit_table));
}
