// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink-format attribute parser and writer (see nlattr.h for the rules).
 */
#include "nlattr.h"
#include <linux/ncr.h>

static int ncr_nla_validate(const struct nlattr *nla,
			    const struct ncr_nla_policy *pol)
{
	size_t len = ncr_nla_len(nla);
	const u8 *data = ncr_nla_data(nla);
	const u8 *nul;

	switch (pol->kind) {
	case NCR_NLA_U32:
		return len == sizeof(u32) ? 0 : -EINVAL;
	case NCR_NLA_NUL_STRING:
		if (len == 0)
			return -EINVAL;
		nul = memchr(data, '\0', len);
		if (!nul)
			return -EINVAL;
		if (pol->max_len && (size_t)(nul - data) > pol->max_len)
			return -EINVAL;
		return 0;
	case NCR_NLA_BINARY:
		if (pol->max_len && len > pol->max_len)
			return -EINVAL;
		return 0;
	default:
		return 0;
	}
}

int ncr_nla_parse(const struct nlattr **tb, unsigned int maxtype,
		  const void *buf, size_t len,
		  const struct ncr_nla_policy *policy)
{
	const u8 *p = buf;
	unsigned int i;

	for (i = 0; i <= maxtype; i++)
		tb[i] = NULL;

	while (len > 0) {
		const struct nlattr *nla = (const struct nlattr *)p;
		size_t alen, step;
		u16 type;

		if (len < NLA_HDRLEN)
			return -EINVAL;
		alen = nla->nla_len;
		if (alen < NLA_HDRLEN || alen > len)
			return -EINVAL;
		type = nla->nla_type & NLA_TYPE_MASK;
		if (type != 0 && type <= maxtype) {
			if (policy && ncr_nla_validate(nla, &policy[type]))
				return -EINVAL;
			tb[type] = nla;
		}
		step = NLA_ALIGN(alen);
		if (step >= len)
			break;
		p += step;
		len -= step;
	}
	return 0;
}

int ncr_nla_put(struct ncr_nla_out *out, u16 type, const void *data,
		size_t len)
{
	struct nlattr hdr;
	size_t total;

	if (len > 0xffff - NLA_HDRLEN - NLA_ALIGNTO)
		return -EINVAL;
	total = NLA_ALIGN(NLA_HDRLEN + len);
	if (out->used > out->size || out->size - out->used < total)
		return -ERANGE;
	hdr.nla_len = (u16)(NLA_HDRLEN + len);
	hdr.nla_type = type;
	memcpy(out->buf + out->used, &hdr, sizeof(hdr));
	if (len)
		memcpy(out->buf + out->used + NLA_HDRLEN, data, len);
	memset(out->buf + out->used + NLA_HDRLEN + len, 0,
	       total - NLA_HDRLEN - len);
	out->used += total;
	return 0;
}

int ncr_nla_put_u32(struct ncr_nla_out *out, u16 type, u32 value)
{
	return ncr_nla_put(out, type, &value, sizeof(value));
}

int ncr_nla_put_str(struct ncr_nla_out *out, u16 type, const char *str)
{
	return ncr_nla_put(out, type, str, strlen(str) + 1);
}

#define STR(max)	{ NCR_NLA_NUL_STRING, (max) }
#define U32		{ NCR_NLA_U32, 0 }
#define BIN(max)	{ NCR_NLA_BINARY, (max) }

/*
 * Binary attributes holding user-space structs (session input/output) have
 * an ABI-dependent size and are checked where the caller's ABI is known.
 */
const struct ncr_nla_policy ncr_attr_policy[NCR_ATTR_MAX + 1] = {
	[NCR_ATTR_ALGORITHM] = STR(NCR_ALGO_NAME_MAX),
	[NCR_ATTR_DERIVATION_ALGORITHM] = STR(NCR_ALGO_NAME_MAX),
	[NCR_ATTR_SIGNATURE_HASH_ALGORITHM] = STR(NCR_ALGO_NAME_MAX),
	[NCR_ATTR_WRAPPING_ALGORITHM] = STR(NCR_ALGO_NAME_MAX),
	[NCR_ATTR_UPDATE_INPUT_DATA] = BIN(0),
	[NCR_ATTR_UPDATE_OUTPUT_BUFFER] = BIN(0),
	[NCR_ATTR_UPDATE_INPUT_KEY_AS_DATA] = U32,
	[NCR_ATTR_FINAL_INPUT_DATA] = BIN(0),
	[NCR_ATTR_FINAL_OUTPUT_BUFFER] = BIN(0),
	[NCR_ATTR_KEY] = U32,
	[NCR_ATTR_KEY_FLAGS] = U32,
	[NCR_ATTR_KEY_ID] = BIN(0),
	[NCR_ATTR_KEY_TYPE] = U32,
	[NCR_ATTR_IV] = BIN(0),
	[NCR_ATTR_SECRET_KEY_BITS] = U32,
	[NCR_ATTR_RSA_MODULUS_BITS] = U32,
	[NCR_ATTR_RSA_E] = BIN(0),
	[NCR_ATTR_RSA_ENCODING_METHOD] = U32,
	[NCR_ATTR_RSA_OAEP_HASH_ALGORITHM] = STR(NCR_ALGO_NAME_MAX),
	[NCR_ATTR_RSA_PSS_SALT_LENGTH] = U32,
	[NCR_ATTR_DSA_P_BITS] = U32,
	[NCR_ATTR_DSA_Q_BITS] = U32,
	[NCR_ATTR_DH_PRIME] = BIN(0),
	[NCR_ATTR_DH_BASE] = BIN(0),
	[NCR_ATTR_DH_PUBLIC] = BIN(0),
	[NCR_ATTR_WANTED_ATTRS] = BIN(0),
	[NCR_ATTR_SIGNATURE_INPUT_IS_DIGEST] = U32,
	[NCR_ATTR_ECC_CURVE] = STR(NCR_ALGO_NAME_MAX),
	[NCR_ATTR_MASTER_KEY_DESCRIPTION] = STR(NCR_KEYRING_DESC_MAX),
	[NCR_ATTR_MASTER_KEY_ROTATE] = U32,
};
