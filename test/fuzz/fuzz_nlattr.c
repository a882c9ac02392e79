// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness of driver/lib/nlattr.c: parse arbitrary bytes with the
 * NCR policy, check every attribute returned lies inside the input and
 * satisfies its policy, then re-encode what was found and parse it again
 * (the writer's output must always be accepted and give the same values).
 */
#include <assert.h>
#include <stdlib.h>
#include "nlattr.h"
#include "fuzz.h"
#include <linux/ncr.h>

static void check_attr(const struct nlattr *nla, const u8 *buf, size_t len,
		       int type)
{
	const u8 *p = (const u8 *)nla;
	size_t n = ncr_nla_len(nla);

	assert(p >= buf && p + NLA_HDRLEN + n <= buf + len);
	switch (ncr_attr_policy[type].kind) {
	case NCR_NLA_U32:
		assert(n == 4);
		(void)ncr_nla_get_u32(nla);
		break;
	case NCR_NLA_NUL_STRING:
		assert(n > 0 && memchr(ncr_nla_data(nla), 0, n));
		assert(strlen(ncr_nla_get_str(nla)) <=
		       ncr_attr_policy[type].max_len);
		break;
	default:
		break;
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	const struct nlattr *tb[NCR_ATTR_MAX + 1], *tb2[NCR_ATTR_MAX + 1];
	struct ncr_nla_out out;
	u8 *buf, *obuf;
	size_t osize = size + 4 * (NCR_ATTR_MAX + 1);
	int type;

	/* The kernel parses a kmalloc()ed, hence aligned, copy. */
	buf = malloc(size ? size : 1);
	obuf = malloc(osize);
	assert(buf && obuf);
	memcpy(buf, data, size);
	if (ncr_nla_parse(tb, NCR_ATTR_MAX, buf, size, ncr_attr_policy) == 0) {
		ncr_nla_out_init(&out, obuf, osize);
		for (type = 1; type <= NCR_ATTR_MAX; type++) {
			if (!tb[type])
				continue;
			check_attr(tb[type], buf, size, type);
			assert(ncr_nla_put(&out, type, ncr_nla_data(tb[type]),
					   ncr_nla_len(tb[type])) == 0);
		}
		assert(ncr_nla_parse(tb2, NCR_ATTR_MAX, obuf, out.used,
				     ncr_attr_policy) == 0);
		for (type = 1; type <= NCR_ATTR_MAX; type++) {
			assert(!tb[type] == !tb2[type]);
			if (tb[type])
				assert(ncr_nla_len(tb[type]) ==
				       ncr_nla_len(tb2[type]) &&
				       !memcmp(ncr_nla_data(tb[type]),
					       ncr_nla_data(tb2[type]),
					       ncr_nla_len(tb[type])));
		}
	}
	free(obuf);
	free(buf);
	return 0;
}
