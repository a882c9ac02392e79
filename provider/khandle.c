// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel key handle shared by duplicated contexts: the key is freed when
 * the last reference goes.
 */
#include <stdlib.h>
#include "ncr_prov.h"

struct ncrp_khandle *ncrp_khandle_new(int key)
{
	struct ncrp_khandle *h = malloc(sizeof(*h));

	if (h == NULL)
		return NULL;
	h->key = key;
	h->refs = 1;
	return h;
}

struct ncrp_khandle *ncrp_khandle_ref(struct ncrp_khandle *h)
{
	if (h != NULL)
		__atomic_add_fetch(&h->refs, 1, __ATOMIC_RELAXED);
	return h;
}

void ncrp_khandle_unref(struct ncrp_khandle *h)
{
	if (h == NULL || __atomic_sub_fetch(&h->refs, 1, __ATOMIC_ACQ_REL))
		return;
	ncrlib_key_free(ncrlib_dev_fd(), h->key);
	free(h);
}
