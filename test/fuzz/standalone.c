// SPDX-License-Identifier: GPL-2.0
/*
 * main() of a fuzz harness built without libFuzzer (any compiler, under
 * the unit tests' sanitizers): a deterministic run for ctest.
 *
 *	<harness>_standalone [-runs=N] [-max_len=M] [SEED_FILE...]
 *
 * Runs every seed (the files, then those of the harness's ncr_fuzz_seeds())
 * once as it is, then N inputs of at most M bytes: with seeds, one of them
 * mutated (truncated, a byte appended, or a few bytes flipped, the first
 * dozen more often: headers and selectors live there), else random bytes.
 * The options are libFuzzer's, so ctest passes both builds the same ones.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEEDS 64

__attribute__((weak)) size_t ncr_fuzz_seeds(struct ncr_fuzz_seed *seeds,
					    size_t max)
{
	(void)seeds;
	(void)max;
	return 0;
}

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static int read_seed(const char *path, struct ncr_fuzz_seed *s)
{
	FILE *f = fopen(path, "rb");
	long len;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return -1;
	}
	s->size = (size_t)len;
	s->data = malloc(s->size ? s->size : 1);
	if (!s->data || fread(s->data, 1, s->size, f) != s->size) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

/* One input of at most max bytes into buf, from state *st. */
static size_t make_input(uint64_t *st, const struct ncr_fuzz_seed *seeds,
			 size_t nseeds, uint8_t *buf, size_t max)
{
	const struct ncr_fuzz_seed *s;
	size_t len, j, k;

	*st = mix(*st);
	if (!nseeds) {
		len = *st % (max + 1);
		for (j = 0; j < len; j++) {
			*st = mix(*st);
			buf[j] = (uint8_t)*st;
		}
		return len;
	}
	s = &seeds[*st % nseeds];
	len = s->size < max ? s->size : max;
	memcpy(buf, s->data, len);
	*st = mix(*st);
	if (!len)
		return 0;
	switch (*st % 4) {
	case 0:		/* truncate */
		return 1 + mix(*st) % len;
	case 1:		/* append */
		if (len < max)
			buf[len++] = (uint8_t)mix(*st);
		return len;
	default:	/* flip a few bytes, the header more often */
		for (k = 0; k < 1 + *st % 3; k++) {
			*st = mix(*st);
			j = *st & 1 ? *st % 12 : *st % len;
			if (j < len)
				buf[j] ^= (uint8_t)(mix(*st) | 1);
		}
		return len;
	}
}

/* In a buffer of exactly len bytes, so that ASan sees any overread. */
static void run_one(const uint8_t *buf, size_t len)
{
	uint8_t *in = malloc(len ? len : 1);

	if (!in)
		abort();
	memcpy(in, buf, len);
	LLVMFuzzerTestOneInput(in, len);
	free(in);
}

int main(int argc, char **argv)
{
	struct ncr_fuzz_seed seeds[MAX_SEEDS];
	size_t nseeds = 0, max = 4096, len, j;
	long runs = 20000, i;
	uint64_t st = 1;
	uint8_t *buf;
	int a;

	for (a = 1; a < argc; a++) {
		if (!strncmp(argv[a], "-runs=", 6)) {
			runs = atol(argv[a] + 6);
		} else if (!strncmp(argv[a], "-max_len=", 9)) {
			max = (size_t)atol(argv[a] + 9);
		} else if (nseeds == MAX_SEEDS ||
			   read_seed(argv[a], &seeds[nseeds++])) {
			fprintf(stderr, "%s: cannot read seed %s\n", argv[0],
				argv[a]);
			return 2;
		}
	}
	nseeds += ncr_fuzz_seeds(seeds + nseeds, MAX_SEEDS - nseeds);
	buf = malloc(max + 1);
	if (!buf)
		return 2;
	for (j = 0; j < nseeds; j++)
		LLVMFuzzerTestOneInput(seeds[j].data, seeds[j].size);
	for (i = 0; i < runs; i++) {
		st += (uint64_t)i;
		len = make_input(&st, seeds, nseeds, buf, max);
		run_one(buf, len);
	}
	for (j = 0; j < nseeds; j++)
		free(seeds[j].data);
	free(buf);
	printf("%s: %zu seeds, %ld inputs\n", argv[0], nseeds, runs);
	return 0;
}
