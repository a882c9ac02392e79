// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/crypto: the misc device.  Each open() is a namespace of keys and
 * sessions; the last close of the open file description destroys them.
 */
#include <linux/atomic.h>
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/slab.h>
#include "ioctl.h"
#include "key.h"
#include "lib/ec_math.h"
#include "ncr_limits.h"
#include "ns.h"
#include "pk.h"
#include "session.h"
#include "storage.h"

static atomic_t ncr_ns_ids = ATOMIC_INIT(0);

static int ncr_open(struct inode *inode, struct file *file)
{
	struct ncr_ns *ns;

	ns = kzalloc(sizeof(*ns), GFP_KERNEL);
	if (!ns)
		return -ENOMEM;
	mutex_init(&ns->key_lock);
	idr_init(&ns->keys);
	mutex_init(&ns->ses_lock);
	idr_init(&ns->sessions);
	ns->id = atomic_inc_return(&ncr_ns_ids);
	file->private_data = ns;
	return 0;
}

static int ncr_release(struct inode *inode, struct file *file)
{
	struct ncr_ns *ns = file->private_data;

	/* Sessions first: they hold references on keys. */
	ncr_sessions_destroy(ns);
	ncr_keys_destroy(ns);
	kfree(ns);
	return 0;
}

static long ncr_unlocked_ioctl(struct file *file, unsigned int cmd,
			       unsigned long arg)
{
	return ncr_ioctl(file->private_data, cmd, (void __user *)arg, false);
}

#ifdef CONFIG_COMPAT
static long ncr_compat_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	return ncr_ioctl(file->private_data, cmd, compat_ptr(arg), true);
}
#endif

static const struct file_operations ncr_fops = {
	.owner = THIS_MODULE,
	.open = ncr_open,
	.release = ncr_release,
	.unlocked_ioctl = ncr_unlocked_ioctl,
#ifdef CONFIG_COMPAT
	.compat_ioctl = ncr_compat_ioctl,
#endif
	.llseek = noop_llseek,
};

static struct miscdevice ncr_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "crypto",
	.fops = &ncr_fops,
	.mode = 0666,
};

static int __init ncr_init(void)
{
	int err = ncr_ec_math_init();

	return err ? err : misc_register(&ncr_misc);
}

static void __exit ncr_exit(void)
{
	misc_deregister(&ncr_misc);
	ncr_pk_session_exit();
	ncr_master_key_exit();
	ncr_limits_exit();
}

module_init(ncr_init);
module_exit(ncr_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("/dev/crypto NCR interface: kernel-held keys and crypto sessions");
