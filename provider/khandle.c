// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel key handle shared by duplicated contexts: the key is freed when
 * the last reference goes.
 */
#include <stdlib.h>
#include "ncr_prov.h"

struct ncr_khandle *ncr_khandle_new(int key)
{
	struct ncr_khandle *h = malloc(sizeof(*h));

	if (h == NULL)
		return NULL;
	h->key = key;
	h->refs = 1;
	return h;
}

struct ncr_khandle *ncr_khandle_ref(struct ncr_khandle *h)
{
	if (h != NULL)
		__atomic_add_fetch(&h->refs, 1, __ATOMIC_RELAXED);
	return h;
}

void ncr_khandle_unref(struct ncr_khandle *h)
{
	if (h == NULL || __atomic_sub_fetch(&h->refs, 1, __ATOMIC_ACQ_REL))
		return;
	ncrlib_key_free(ncrlib_dev_fd(), h->key);
	free(h);
}
