// SPDX-License-Identifier: GPL-2.0
/* Life cycle of struct ncr_pk. */
#include "pk_key.h"

int ncr_pk_key_init(struct ncr_pk *pk, enum ncr_pk_algo algo)
{
	int err;

	memset(pk, 0, sizeof(*pk));
	switch (algo) {
	case NCR_PK_RSA:
		err = ncr_rsa_key_init(&pk->rsa);
		break;
	case NCR_PK_DSA:
		err = ncr_dsa_key_init(&pk->dsa);
		break;
	case NCR_PK_DH:
		err = ncr_dh_key_init(&pk->dh);
		break;
	default:
		return -EINVAL;
	}
	if (!err)
		pk->algo = algo;
	return err;
}

void ncr_pk_key_clear(struct ncr_pk *pk)
{
	switch (pk->algo) {
	case NCR_PK_RSA:
		ncr_rsa_key_clear(&pk->rsa);
		break;
	case NCR_PK_DSA:
		ncr_dsa_key_clear(&pk->dsa);
		break;
	case NCR_PK_DH:
		ncr_dh_key_clear(&pk->dh);
		break;
	default:
		break;
	}
	pk->algo = NCR_PK_NONE;
	pk->is_private = false;
}

enum ncr_pk_algo ncr_pk_algo_from_name(const char *name)
{
	if (!strcmp(name, "rsa"))
		return NCR_PK_RSA;
	if (!strcmp(name, "dsa"))
		return NCR_PK_DSA;
	if (!strcmp(name, "dh"))
		return NCR_PK_DH;
	return NCR_PK_NONE;
}
