/* SPDX-License-Identifier: GPL-2.0 */
/* Attribute accessors and user-buffer helpers (attr.c). */
#ifndef NCR_ATTR_H
#define NCR_ATTR_H

#include <linux/types.h>
#include "lib/nlattr.h"

/* Upper limit of NCRIO_KEY_IMPORT data (EOVERFLOW above it). */
#define NCR_IMPORT_MAX		(64 * 1024)

/* u32 attribute value or def when absent. */
u32 ncr_attr_u32(struct nlattr *tb[], int type, u32 def);
/* NUL-terminated string attribute, or NULL when absent. */
const char *ncr_attr_str(struct nlattr *tb[], int type);

/*
 * Copy len bytes of kernel data to a user buffer of buf_size bytes:
 * -ERANGE when len > buf_size (nothing written), -EFAULT, else len.
 * (KEY_EXPORT / KEY_WRAP / STORAGE_WRAP semantics; buf_size < 0 is
 * -EINVAL.)
 */
long ncr_copy_out(void __user *buf, int buf_size, const void *data,
		  size_t len);

/*
 * Copy a user buffer of len bytes (NCRIO_KEY_IMPORT, KEY_UNWRAP...) into a
 * new kernel buffer freed with kvfree_sensitive(p, len): ERR_PTR(-EOVERFLOW)
 * above NCR_IMPORT_MAX, -ENOMEM, -EFAULT.
 */
void *ncr_copy_in(const void __user *data, u32 len);

#endif /* NCR_ATTR_H */
