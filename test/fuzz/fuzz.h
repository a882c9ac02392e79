/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a harness of test/fuzz provides: the libFuzzer entry point, and
 * optionally seeds made at run time for the standalone driver
 * (standalone.c), for inputs that seed files cannot hold, e.g. encodings
 * of freshly generated keys.
 */
#ifndef NCR_TEST_FUZZ_H
#define NCR_TEST_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct ncr_fuzz_seed {
	uint8_t *data;		/* malloc()ed; the driver frees it */
	size_t size;
};

/* Fills up to max seeds, returns how many; the driver's default has none. */
size_t ncr_fuzz_seeds(struct ncr_fuzz_seed *seeds, size_t max);

#endif
