/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Netlink-format attribute parsing and writing for the /dev/crypto ioctl
 * attribute protocol (CRYPTO(4) "OPERATION ATTRIBUTES").  Pure code: no
 * dependency on the kernel's lib/nlattr.c, so that it is unit-tested and
 * fuzzed in user space.  Names carry an ncr_ prefix so they never clash
 * with <net/netlink.h>.
 */
#ifndef NCR_LIB_NLATTR_H
#define NCR_LIB_NLATTR_H

#include "ncr_port.h"

/* What an attribute's payload must look like. */
enum ncr_nla_kind {
	NCR_NLA_IGNORE,		/* not checked (also: unknown attributes) */
	NCR_NLA_U32,		/* exactly 4 bytes, native byte order */
	NCR_NLA_NUL_STRING,	/* NUL inside the payload, string <= max_len */
	NCR_NLA_BINARY,		/* any bytes, <= max_len (0 = unlimited) */
};

struct ncr_nla_policy {
	u8 kind;		/* enum ncr_nla_kind */
	u16 max_len;		/* see enum ncr_nla_kind; 0 = no limit */
};

/*
 * Parse len bytes of attributes at buf into tb[0..maxtype] (pointers into
 * buf; NULL when absent).  Rules: each attribute is a struct nlattr whose
 * nla_len covers header and payload and fits in what is left; the next one
 * starts NLA_ALIGN(nla_len) later (the last one may omit its padding);
 * bytes left over that cannot hold a header are an error.  Types above
 * maxtype and type 0 are ignored; a repeated type: the last one wins.
 * Attributes listed in policy (may be NULL) must match it.
 * Returns 0 or -EINVAL.
 */
int ncr_nla_parse(const struct nlattr **tb, unsigned int maxtype,
		  const void *buf, size_t len,
		  const struct ncr_nla_policy *policy);

static inline const void *ncr_nla_data(const struct nlattr *nla)
{
	return (const u8 *)nla + NLA_HDRLEN;
}

static inline size_t ncr_nla_len(const struct nlattr *nla)
{
	return nla->nla_len - NLA_HDRLEN;
}

/* Only on attributes validated as NCR_NLA_U32. */
static inline u32 ncr_nla_get_u32(const struct nlattr *nla)
{
	u32 v;

	memcpy(&v, ncr_nla_data(nla), sizeof(v));
	return v;
}

/* Only on attributes validated as NCR_NLA_NUL_STRING. */
static inline const char *ncr_nla_get_str(const struct nlattr *nla)
{
	return ncr_nla_data(nla);
}

/* Output attributes, written into a caller-provided buffer. */
struct ncr_nla_out {
	u8 *buf;
	size_t size;
	size_t used;
};

static inline void ncr_nla_out_init(struct ncr_nla_out *out, void *buf,
				    size_t size)
{
	out->buf = buf;
	out->size = size;
	out->used = 0;
}

/*
 * Append one attribute (padding included, zeroed).  Returns 0, -ERANGE when
 * it does not fit (out is then unchanged), -EINVAL when len is too large
 * for nla_len.
 */
int ncr_nla_put(struct ncr_nla_out *out, u16 type, const void *data,
		size_t len);
int ncr_nla_put_u32(struct ncr_nla_out *out, u16 type, u32 value);
/* Writes the string with its terminating NUL. */
int ncr_nla_put_str(struct ncr_nla_out *out, u16 type, const char *str);

/* The policy of the NCR_ATTR_* attributes of <linux/ncr.h>. */
extern const struct ncr_nla_policy ncr_attr_policy[];
/* Longest algorithm name accepted, without the NUL. */
#define NCR_ALGO_NAME_MAX 63
/* Longest "type:description" of a keyring key, without the NUL. */
#define NCR_KEYRING_DESC_MAX 255

#endif /* NCR_LIB_NLATTR_H */
