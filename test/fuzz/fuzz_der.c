// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness of driver/lib/der.c.  The first input byte picks the decoder
 * (algorithm x public/private, or the DSA signature; EC after it, so the
 * older selectors keep their meaning); the rest is the DER.
 * Whatever is accepted must re-encode to a canonical form that decodes
 * again to the same encoding.  Never reads out of bounds (ASan).
 *
 * Its seeds for the standalone driver are valid encodings made by our own
 * key generators (ncr_fuzz_seeds()).
 */
#include "der.h"
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>

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
		&ncr_pk_rsa, &ncr_pk_dsa, &ncr_pk_dh, NULL, &ncr_pk_ec };
	const struct ncr_pk_ops *algo;
	struct ncr_pk pk;
	bool priv;
	int sel;

	if (size < 1)
		return 0;
	sel = data[0] % 9;
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
	if (sel > 6)
		sel++;		/* 7, 8 -> EC public, private */
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

/* selector byte + encoding */
static struct ncr_fuzz_seed make_seed(int sel, const struct ncr_pk *pk,
				      bool priv)
{
	struct ncr_fuzz_seed s;
	size_t len = 0;

	if (priv ? ncr_der_encode_private(pk, NULL, &len) :
		   ncr_der_encode_public(pk, NULL, &len))
		fail("seed size");
	s.data = malloc(len + 1);
	s.data[0] = (u8)sel;
	if (priv ? ncr_der_encode_private(pk, s.data + 1, &len) :
		   ncr_der_encode_public(pk, s.data + 1, &len))
		fail("seed encode");
	s.size = len + 1;
	return s;
}

/* An EC key of curve through ops.generate (tb with NCR_ATTR_ECC_CURVE). */
static int ec_seed_key(struct ncr_pk *pk, const char *curve)
{
	static u8 buf[32] __attribute__((aligned(4)));
	struct nlattr *tb[NCR_ATTR_MAX + 1] = { 0 };
	struct nlattr *a = (struct nlattr *)buf;
	int err;

	a->nla_type = NCR_ATTR_ECC_CURVE;
	a->nla_len = (u16)(NLA_HDRLEN + strlen(curve) + 1);
	memcpy(buf + NLA_HDRLEN, curve, strlen(curve) + 1);
	tb[NCR_ATTR_ECC_CURVE] = a;
	err = ncr_pk_key_init(pk, &ncr_pk_ec);
	if (!err)
		err = ncr_pk_ec.generate(pk, tb);
	pk->is_private = !err;
	return err;
}

size_t ncr_fuzz_seeds(struct ncr_fuzz_seed *seeds, size_t max)
{
	struct ncr_pk rsa, dsa, dh, ec, x;
	u8 sig[128];
	size_t siglen = sizeof(sig);

	if (max < 11)
		fail("room for 11 seeds");
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
	seeds[6].data = malloc(siglen + 1);
	seeds[6].data[0] = 6;
	memcpy(seeds[6].data + 1, sig, siglen);
	seeds[6].size = siglen + 1;
	if (ec_seed_key(&ec, "P-256") || ec_seed_key(&x, "x25519"))
		fail("EC key generation");
	seeds[7] = make_seed(7, &ec, false);
	seeds[8] = make_seed(8, &ec, true);
	seeds[9] = make_seed(7, &x, false);
	seeds[10] = make_seed(8, &x, true);
	ncr_pk_key_clear(&rsa);
	ncr_pk_key_clear(&dsa);
	ncr_pk_key_clear(&dh);
	ncr_pk_key_clear(&ec);
	ncr_pk_key_clear(&x);
	return 11;
}
