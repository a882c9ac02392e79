// SPDX-License-Identifier: GPL-2.0
/*
 * Constant-time check of the RSA decryption decoders (driver/lib/pkcs1.c),
 * run under valgrind memcheck: the decrypted block is marked undefined
 * ("secret"), so memcheck reports any branch or memory address that depends
 * on it inside the decoder (the ctgrind technique).  The verdict is made
 * defined only after the call, where the caller may branch on it.  The
 * blocks cover valid encodings and each kind of defect; the verdicts are
 * checked too.  Without valgrind the test reports "skipped" (77).
 * The hash is a branch-free stand-in (the kernel's SHA code is constant
 * time; libcrypto's assembly would only confuse memcheck).
 */
#include <stdio.h>
#include <stdlib.h>
#include <valgrind/memcheck.h>

#include "pkcs1.h"
#include "toy_hash.h"
#include "unit.h"

static u64 rng_state = 42;

static int test_rng(void *ctx, u8 *buf, size_t len)
{
	(void)ctx;
	while (len--) {
		rng_state = rng_state * 6364136223846793005ULL + 1;
		*buf++ = (u8)(rng_state >> 33);
	}
	return 0;
}

/* Runs one decoder with block marked secret; checks the verdict. */
static void run(const struct ncr_hash_ops *h, const u8 *src, size_t k,
		int want, const char *what)
{
	u8 *block = malloc(k), *out = malloc(k);
	size_t olen = 0;
	int err;

	memcpy(block, src, k);
	VALGRIND_MAKE_MEM_UNDEFINED(block, k);
	if (h)
		err = ncr_rsaes_oaep_decode(h, NULL, 0, block, k, out, k,
					    &olen);
	else
		err = ncr_rsaes_pkcs1_v15_decode(block, k, out, k, &olen);
	/* declassify the verdict (the caller returns it) */
	VALGRIND_MAKE_MEM_DEFINED(&err, sizeof(err));
	if (err != want)
		FAIL("%s (k=%zu): got %d, want %d", what, k, err, want);
	free(block);
	free(out);
}

static void v15_cases(size_t k)
{
	u8 *ok = malloc(k), *b = malloc(k);
	static const u8 msg[4] = "MSG!";

	if (ncr_rsaes_pkcs1_v15_encode(msg, sizeof(msg), test_rng, NULL, ok,
				       k))
		abort();
	run(NULL, ok, k, 0, "v1.5 valid");
	memcpy(b, ok, k);
	b[0] = 1;
	run(NULL, b, k, -EBADMSG, "v1.5 first byte");
	memcpy(b, ok, k);
	b[1] = 1;
	run(NULL, b, k, -EBADMSG, "v1.5 block type");
	memcpy(b, ok, k);
	b[k - 5] = 0x5a;
	run(NULL, b, k, -EBADMSG, "v1.5 no separator");
	memcpy(b, ok, k);
	b[9] = 0;
	run(NULL, b, k, -EBADMSG, "v1.5 short PS");
	memcpy(b, ok, k);
	b[10] = 0;
	run(NULL, b, k, 0, "v1.5 PS of 8");
	memcpy(b, ok, k);
	b[k - 1] = 0;
	b[k - 5] = 0x11;
	run(NULL, b, k, 0, "v1.5 empty message");
	free(ok);
	free(b);
}

static void oaep_cases(const struct ncr_hash_ops *h, size_t k)
{
	u8 *ok = malloc(k), *b = malloc(k);
	size_t i;

	if (ncr_rsaes_oaep_encode(h, NULL, 0, (const u8 *)"M", 1, test_rng,
				  NULL, ok, k))
		abort();
	run(h, ok, k, 0, "oaep valid");
	for (i = 0; i < k; i += k / 7) {
		memcpy(b, ok, k);
		b[i] ^= 0x40;
		run(h, b, k, -EBADMSG, "oaep modified");
	}
	memset(b, 0, k);
	run(h, b, k, -EBADMSG, "oaep zeros");
	free(ok);
	free(b);
}

int main(void)
{
	static const size_t sizes[] = { 64, 128, 256, 257, 512 };
	struct ncr_hash_ops h = {
		.digest = toy_digest,
	};
	size_t i;
	int id;

	if (!RUNNING_ON_VALGRIND)
		return unit_skip("run under valgrind (memcheck) to check timing");
	h.ctx = &h;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		v15_cases(sizes[i]);
		for (id = 0; id < NCR_HASH_COUNT; id++) {
			h.id = id;
			h.digest_size = ncr_pkcs1_hash_size(id);
			if (sizes[i] >= 2 * h.digest_size + 2)
				oaep_cases(&h, sizes[i]);
		}
	}
	printf("(memcheck reports secret-dependent branches and addresses itself)\n");
	return unit_report("test_pkcs1_ct");
}
