// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness for the storage blob parser (driver/lib/key_blob.c).
 * Properties: never crashes or reads out of bounds (ASan), and whatever
 * it accepts satisfies the documented limits and re-encodes to exactly
 * the input bytes (the encoding is canonical).
 */
#include "key_blob.h"
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static u8 out[KEY_BLOB_MAX_LEN];
	struct key_blob kb;
	size_t len = 0;

	if (key_blob_decode(data, size, &kb))
		return 0;
	if ((kb.algo_len == 0 && kb.type != KEY_BLOB_TYPE_SECRET) ||
	    kb.algo_len > KEY_BLOB_ALGO_MAX ||
	    kb.key_id_len > KEY_BLOB_KEY_ID_MAX || kb.material_len == 0 ||
	    kb.material_len > KEY_BLOB_MATERIAL_MAX ||
	    (kb.type == KEY_BLOB_TYPE_SECRET &&
	     kb.material_len > KEY_BLOB_SECRET_MAX) ||
	    (kb.material + kb.material_len != data + size))
		abort();
	if (key_blob_encode(&kb, out, sizeof(out), &len) || len != size ||
	    memcmp(out, data, size))
		abort();
	return 0;
}
