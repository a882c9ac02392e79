// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of driver/lib/der.c.  The first input byte picks the decoder
 * (algorithm x public/private, or the DSA signature); the rest is the DER.
 * Whatever is accepted must re-encode to a canonical form that decodes
 * again to the same encoding.  Never reads out of bounds (ASan).
 *
 * Build with -fsanitize=fuzzer, or with -DNCR_FUZZ_STANDALONE for a
 * self-driving run (argv[1] = iterations) mutating valid encodings made by
 * our own key generators.
 */
#include "der.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

static void fail(const char *what)
{
	fprintf(stderr, "fuzz_der: %s\n", what);
	abort();
}

static void check_canonical(const struct ncr_pk *pk, bool priv)
{
	struct ncr_pk again;
	size_t len = 0, len2;
	u8 *a, *b;
	int err;

	err = priv ? ncr_der_encode_private(pk, NULL, &len) :
		     ncr_der_encode_public(pk, NULL, &len);
	if (err)
		fail("accepted key does not encode");
	a = malloc(len);
	b = malloc(len);
	err = priv ? ncr_der_encode_private(pk, a, &len) :
		     ncr_der_encode_public(pk, a, &len);
	if (err)
		fail("encode failed");
	err = priv ? ncr_der_decode_private(&again, pk->ops, a, len) :
		     ncr_der_decode_public(&again, pk->ops, a, len);
	if (err)
		fail("own encoding rejected");
	len2 = len;
	err = priv ? ncr_der_encode_private(&again, b, &len2) :
		     ncr_der_encode_public(&again, b, &len2);
	if (err || len2 != len || memcmp(a, b, len))
		fail("encoding not a fixed point");
	ncr_pk_key_clear(&again);
	free(a);
	free(b);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static const struct ncr_pk_ops *const algos[] = {
		&ncr_pk_rsa, &ncr_pk_dsa, &ncr_pk_dh };
	const struct ncr_pk_ops *algo;
	struct ncr_pk pk;
	bool priv;
	int sel;

	if (size < 1)
		return 0;
	sel = data[0] % 7;
	data++;
	size--;
	if (sel == 6) {
		mp_int r, s;
		u8 out[2 * (NCR_PK_MAX_BYTES + 16)];
		size_t len = sizeof(out);

		if (mp_init_multi(&r, &s, NULL) != MP_OKAY)
			return 0;
		if (!ncr_der_decode_dsa_sig(data, size, &r, &s) &&
		    (ncr_der_encode_dsa_sig(&r, &s, out, &len) || len != size ||
		     memcmp(out, data, size)))
			fail("signature re-encoding differs");
		mp_clear_multi(&r, &s, NULL);
		return 0;
	}
	algo = algos[sel / 2];
	priv = sel & 1;
	if ((priv ? ncr_der_decode_private(&pk, algo, data, size) :
		    ncr_der_decode_public(&pk, algo, data, size)) == 0) {
		if (pk.is_private != priv)
			fail("key kind mismatch");
		check_canonical(&pk, priv);
		ncr_pk_key_clear(&pk);
	}
	return 0;
}

#ifdef NCR_FUZZ_STANDALONE
static u64 mix(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

struct seed {
	u8 *buf;
	size_t len;
};

/* selector byte + encoding */
static struct seed make_seed(int sel, const struct ncr_pk *pk, bool priv)
{
	struct seed s;
	size_t len = 0;

	if (priv ? ncr_der_encode_private(pk, NULL, &len) :
		   ncr_der_encode_public(pk, NULL, &len))
		fail("seed size");
	s.buf = malloc(len + 1);
	s.buf[0] = (u8)sel;
	if (priv ? ncr_der_encode_private(pk, s.buf + 1, &len) :
		   ncr_der_encode_public(pk, s.buf + 1, &len))
		fail("seed encode");
	s.len = len + 1;
	return s;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000, i;
	struct ncr_pk rsa, dsa, dh;
	struct seed seeds[7];
	u8 buf[2048], sig[128];
	size_t siglen = sizeof(sig), len, j, k;
	u64 st = 1;

	if (ncr_pk_key_init(&rsa, &ncr_pk_rsa) ||
	    ncr_rsa_generate(&rsa.rsa, 1024, NULL, 0) ||
	    ncr_pk_key_init(&dsa, &ncr_pk_dsa) ||
	    ncr_dsa_generate(&dsa.dsa, 1024, 160) ||
	    ncr_pk_key_init(&dh, &ncr_pk_dh) ||
	    mp_copy(&dsa.dsa.p, &dh.dh.p) || mp_copy(&dsa.dsa.g, &dh.dh.g) ||
	    mp_copy(&dsa.dsa.x, &dh.dh.x) || mp_copy(&dsa.dsa.y, &dh.dh.y))
		fail("key generation");
	rsa.is_private = dsa.is_private = dh.is_private = true;
	dh.dh.has_private = true;
	seeds[0] = make_seed(0, &rsa, false);
	seeds[1] = make_seed(1, &rsa, true);
	seeds[2] = make_seed(2, &dsa, false);
	seeds[3] = make_seed(3, &dsa, true);
	seeds[4] = make_seed(4, &dh, false);
	seeds[5] = make_seed(5, &dh, true);
	if (ncr_dsa_sign_digest(&dsa.dsa, (const u8 *)"0123456789abcdefghij",
				20, sig, &siglen))
		fail("sign");
	seeds[6].buf = malloc(siglen + 1);
	seeds[6].buf[0] = 6;
	memcpy(seeds[6].buf + 1, sig, siglen);
	seeds[6].len = siglen + 1;
	for (j = 0; j < 7; j++)
		LLVMFuzzerTestOneInput(seeds[j].buf, seeds[j].len);

	for (i = 0; i < n; i++) {
		const struct seed *s;

		st = mix(st + (u64)i);
		s = &seeds[st % 7];
		len = s->len;
		memcpy(buf, s->buf, len);
		st = mix(st);
		switch (st % 4) {
		case 0:		/* truncate */
			len = 1 + (mix(st) % len);
			break;
		case 1:		/* append */
			buf[len++] = (u8)mix(st);
			break;
		default:	/* flip a few bytes, the header more often */
			for (k = 0; k < 1 + st % 3; k++) {
				st = mix(st);
				j = 1 + (st & 1 ? st % 12 : st % (len - 1));
				if (j < len)
					buf[j] ^= (u8)(mix(st) | 1);
			}
		}
		LLVMFuzzerTestOneInput(buf, len);
	}
	for (j = 0; j < 7; j++)
		free(seeds[j].buf);
	ncr_pk_key_clear(&rsa);
	ncr_pk_key_clear(&dsa);
	ncr_pk_key_clear(&dh);
	printf("fuzz_der: %ld inputs\n", n);
	return 0;
}
#endif
