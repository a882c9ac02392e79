// SPDX-License-Identifier: GPL-2.0
/* An empty module: if it does not compile, KDIR or the compiler is wrong. */
#include <linux/init.h>
#include <linux/module.h>

static int __init probe_init(void)
{
	return 0;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
