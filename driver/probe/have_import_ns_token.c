// SPDX-License-Identifier: GPL-2.0
/* MODULE_IMPORT_NS(bare token), 5.4 to 6.12; 6.13 wants a string literal */
#include <linux/module.h>

/*
 * Only the token form can be probed: 6.1 also compiles the string form,
 * but stringifies it again, importing a namespace named "\"NS\"".
 */
MODULE_IMPORT_NS(NCR_PROBE_NS);
MODULE_LICENSE("GPL");
