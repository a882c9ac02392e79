/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A namespace: the keys and sessions of one open() of /dev/crypto.
 *
 * Conventions for every ioctl handler taking a namespace:
 *  - return 0 (or a non-negative ioctl result) or a negative errno;
 *  - structs are the NATIVE UAPI structs: compat.c has already converted a
 *    32-bit caller's struct (pointers via compat_ptr()), so handlers simply
 *    use copy_to_user()/copy_from_user() on the pointers they contain;
 *  - tb[] is indexed by NCR_ATTR_*, NULL when absent; every present attribute
 *    has passed ncr_attr_policy (lib/nlattr.c): U32 attributes are exactly 4
 *    bytes, string attributes contain a NUL; binary ones are unchecked.
 */
#ifndef NCR_NS_H
#define NCR_NS_H

#include <linux/idr.h>
#include <linux/mutex.h>
#include <linux/types.h>

struct ncr_ns {
	struct mutex key_lock;		/* protects keys */
	struct idr keys;		/* ncr_key_t -> struct ncr_key * (1 ref) */
	struct mutex ses_lock;		/* protects sessions */
	struct idr sessions;		/* ncr_session_t -> struct ncr_session * */
	u32 id;				/* unique, for audit */
};

#endif /* NCR_NS_H */
