/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NCR_MASTER_KEYRING_H
#define NCR_MASTER_KEYRING_H

#include <linux/errno.h>
#include <linux/kconfig.h>
#include <linux/types.h>

/*
 * Copies the payload of the keyring key @spec ("logon:DESC" or
 * "encrypted:DESC"), 16, 24 or 32 bytes, to @out (32 bytes of room).
 * -EINVAL: another type or size; -ENOKEY, -EKEYREVOKED, -EKEYEXPIRED,
 * -EACCES: request_key()'s errors; -EOPNOTSUPP: a kernel without keys
 * (or without encrypted keys, for "encrypted:").
 */
#if IS_ENABLED(CONFIG_KEYS)
int ncr_master_key_from_keyring(const char *spec, u8 *out, u32 *size);
#else
static inline int ncr_master_key_from_keyring(const char *spec, u8 *out,
					      u32 *size)
{
	return -EOPNOTSUPP;
}
#endif

#endif /* NCR_MASTER_KEYRING_H */
