// SPDX-License-Identifier: GPL-2.0
/*
 * Public-key hooks.  Placeholder until the PK code lands: an honest
 * -EOPNOTSUPP, never a fake success.
 */
#include "ncr_int.h"

long ncr_key_generate_pair(struct ncr_ns *ns,
			   const struct ncr_key_generate_pair *gen,
			   struct nlattr *tb[])
{
	return -EOPNOTSUPP;
}

long ncr_key_derive(struct ncr_ns *ns, const struct ncr_key_derive *der,
		    struct nlattr *tb[])
{
	return -EOPNOTSUPP;
}

int ncr_pk_import(struct ncr_key *key, u32 type, const u8 *data, size_t len)
{
	return -EOPNOTSUPP;
}

int ncr_pk_export(struct ncr_key *key, u8 *buf, size_t *len)
{
	return -EOPNOTSUPP;
}

void ncr_pk_free(struct ncr_pk *pk)
{
}

const struct ncr_session_ops *ncr_pk_session_ops(const char *algo)
{
	return NULL;
}
