// SPDX-License-Identifier: GPL-2.0
/* Life cycle of struct ncr_pk and the list of public-key algorithms. */
#include "pk_key.h"

static const struct ncr_pk_ops *const ncr_pk_algos[] = {
	&ncr_pk_rsa, &ncr_pk_dsa, &ncr_pk_dh, &ncr_pk_ec,
};

int ncr_pk_key_init(struct ncr_pk *pk, const struct ncr_pk_ops *ops)
{
	int err;

	memset(pk, 0, sizeof(*pk));
	if (!ops)
		return -EINVAL;
	err = ops->init(pk);
	if (!err)
		pk->ops = ops;
	return err;
}

void ncr_pk_key_clear(struct ncr_pk *pk)
{
	if (pk->ops)
		pk->ops->clear(pk);
	pk->ops = NULL;
	pk->is_private = false;
}

struct ncr_pk *ncr_pk_alloc(void)
{
	struct ncr_pk *pk = ncr_malloc(sizeof(*pk));

	if (pk)
		memset(pk, 0, sizeof(*pk));
	return pk;
}

void ncr_pk_free(struct ncr_pk *pk)
{
	if (!pk)
		return;
	ncr_pk_key_clear(pk);
	ncr_free_sensitive(pk, sizeof(*pk));
}

size_t ncr_pk_mem(const struct ncr_pk *pk)
{
	size_t size = sizeof(*pk);

	if (pk && pk->ops)
		size += pk->ops->bits(pk);
	return size;
}

const struct ncr_pk_ops *ncr_pk_ops_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(ncr_pk_algos) / sizeof(ncr_pk_algos[0]); i++)
		if (!strcmp(name, ncr_pk_algos[i]->name))
			return ncr_pk_algos[i];
	return NULL;
}
