// SPDX-License-Identifier: GPL-2.0
/*
 * DSA math (driver/lib/dsa.c) against libcrypto: generated domain
 * parameters are sound, signatures verify both ways, OpenSSL keys import
 * and export identically, malformed signatures are rejected.
 */
#include "pk_test_util.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/dsa.h>
#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>

#include "json_min.h"

static BIGNUM *to_bn(const mp_int *v)
{
	size_t n = mp_ubin_size(v), w;
	unsigned char *b = malloc(n);
	BIGNUM *r = NULL;

	if (mp_to_ubin(v, b, n, &w) == MP_OKAY)
		r = BN_bin2bn(b, (int)w, NULL);
	free(b);
	return r;
}

/* p, q prime, q | p - 1, g of order q, y = g^x. */
static void check_domain(const struct ncr_ffc_key *k)
{
	BIGNUM *p = to_bn(&k->p), *q = to_bn(&k->q), *g = to_bn(&k->g);
	BIGNUM *t = BN_new(), *one = BN_new();
	BN_CTX *ctx = BN_CTX_new();

	CHECK(BN_check_prime(p, ctx, NULL) == 1);
	CHECK(BN_check_prime(q, ctx, NULL) == 1);
	BN_one(one);
	CHECK(BN_sub(t, p, one) && BN_mod(t, t, q, ctx) && BN_is_zero(t));
	CHECK(BN_mod_exp(t, g, q, p, ctx) && BN_is_one(t));
	CHECK(!BN_is_one(g));
	BN_free(p);
	BN_free(q);
	BN_free(g);
	BN_free(t);
	BN_free(one);
	BN_CTX_free(ctx);
}

static int ossl_sign(EVP_PKEY *pk, const u8 *dg, size_t dlen, u8 *sig,
		     size_t *slen)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, pk, NULL);
	int ok = c && EVP_PKEY_sign_init(c) > 0 &&
		 EVP_PKEY_sign(c, sig, slen, dg, dlen) > 0;

	EVP_PKEY_CTX_free(c);
	return ok;
}

static int ossl_verify(EVP_PKEY *pk, const u8 *dg, size_t dlen,
		       const u8 *sig, size_t slen)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, pk, NULL);
	int ok = c && EVP_PKEY_verify_init(c) > 0 &&
		 EVP_PKEY_verify(c, sig, slen, dg, dlen) == 1;

	EVP_PKEY_CTX_free(c);
	return ok;
}

/* Signatures both ways, for digest lengths below, at and above q. */
static void interop(const struct ncr_ffc_key *k, EVP_PKEY *opk)
{
	static const size_t dlens[] = { 20, 28, 32, 48, 64 };
	u8 dg[64], sig[200];
	size_t i, slen;

	for (i = 0; i < sizeof(dlens) / sizeof(dlens[0]); i++) {
		CHECK(ncr_random_bytes(dg, sizeof(dg)) == 0);
		slen = sizeof(sig);
		CHECK(slen >= ncr_dsa_sig_max_len(k));
		CHECK(ncr_dsa_sign_digest(k, dg, dlens[i], sig, &slen) == 0);
		CHECK(ossl_verify(opk, dg, dlens[i], sig, slen));
		CHECK(ncr_dsa_verify_digest(k, dg, dlens[i], sig, slen) == 1);
		slen = sizeof(sig);
		CHECK(ossl_sign(opk, dg, dlens[i], sig, &slen));
		CHECK(ncr_dsa_verify_digest(k, dg, dlens[i], sig, slen) == 1);
		/* another digest does not verify */
		dg[0] ^= 1;
		CHECK(ncr_dsa_verify_digest(k, dg, dlens[i], sig, slen) == 0);
	}
	slen = 10;
	CHECK(ncr_dsa_sign_digest(k, dg, 20, sig, &slen) == -ENOSPC);
}

static void check_bad_signatures(const struct ncr_ffc_key *k)
{
	u8 dg[32] = { 1, 2, 3 }, sig[200], bad[210];
	size_t slen = sizeof(sig);
	mp_int r, s;

	CHECK(ncr_dsa_sign_digest(k, dg, sizeof(dg), sig, &slen) == 0);
	/* trailing garbage */
	memcpy(bad, sig, slen);
	bad[slen] = 0;
	CHECK(ncr_dsa_verify_digest(k, dg, sizeof(dg), bad, slen + 1) == -EINVAL);
	/* truncated */
	CHECK(ncr_dsa_verify_digest(k, dg, sizeof(dg), sig, slen - 1) == -EINVAL);
	CHECK(ncr_dsa_verify_digest(k, dg, sizeof(dg), sig, 0) == -EINVAL);
	/* r with a superfluous leading zero: SEQ { 02 len+1 00 r.., s } */
	CHECK(sig[0] == 0x30 && sig[1] < 0x80 && sig[2] == 0x02);
	bad[0] = 0x30;
	bad[1] = (u8)(sig[1] + 1);
	bad[2] = 0x02;
	bad[3] = (u8)(sig[3] + 1);
	bad[4] = 0x00;
	memcpy(bad + 5, sig + 4, slen - 4);
	if (!(sig[4] & 0x80))
		CHECK(ncr_dsa_verify_digest(k, dg, sizeof(dg), bad, slen + 1) ==
		      -EINVAL);
	/* r = 0, s = 1: well-formed, invalid */
	CHECK(mp_init_multi(&r, &s, NULL) == MP_OKAY);
	mp_set(&s, 1);
	slen = sizeof(sig);
	CHECK(ncr_der_encode_dsa_sig(&r, &s, sig, &slen) == 0);
	CHECK(ncr_dsa_verify_digest(k, dg, sizeof(dg), sig, slen) == 0);
	/* r = q: out of range */
	CHECK(mp_copy(&k->q, &r) == MP_OKAY);
	slen = sizeof(sig);
	CHECK(ncr_der_encode_dsa_sig(&r, &s, sig, &slen) == 0);
	CHECK(ncr_dsa_verify_digest(k, dg, sizeof(dg), sig, slen) == 0);
	mp_clear_multi(&r, &s, NULL);
}

static void test_generate(unsigned int pb, unsigned int qb)
{
	struct ncr_pk pk;
	EVP_PKEY *opk;
	double t;

	CHECK(ncr_pk_key_init(&pk, &ncr_pk_dsa) == 0);
	t = now_seconds();
	CHECK(ncr_dsa_generate(&pk.dsa, pb, qb) == 0);
	printf("DSA-%u/%u generation: %.2f s\n", pb, qb, now_seconds() - t);
	pk.is_private = true;
	CHECK(mp_count_bits(&pk.dsa.p) == (int)pb);
	CHECK(mp_count_bits(&pk.dsa.q) == (int)qb);
	CHECK(ncr_dsa_check_key(&pk.dsa) == 0);
	check_domain(&pk.dsa);
	opk = ncr_to_ossl(&pk, 1);
	CHECK(opk != NULL);
	if (opk) {
		interop(&pk.dsa, opk);
		EVP_PKEY_free(opk);
	}
	check_bad_signatures(&pk.dsa);
	ncr_pk_key_clear(&pk);
}

static EVP_PKEY *ossl_dsa_gen(unsigned int pb, unsigned int qb)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "DSA", NULL);
	EVP_PKEY *params = NULL, *key = NULL;

	if (!c || EVP_PKEY_paramgen_init(c) <= 0 ||
	    EVP_PKEY_CTX_set_dsa_paramgen_bits(c, (int)pb) <= 0 ||
	    EVP_PKEY_CTX_set_dsa_paramgen_q_bits(c, (int)qb) <= 0 ||
	    EVP_PKEY_paramgen(c, &params) <= 0)
		goto out;
	EVP_PKEY_CTX_free(c);
	c = EVP_PKEY_CTX_new_from_pkey(NULL, params, NULL);
	if (!c || EVP_PKEY_keygen_init(c) <= 0 || EVP_PKEY_keygen(c, &key) <= 0)
		key = NULL;
out:
	EVP_PKEY_CTX_free(c);
	EVP_PKEY_free(params);
	return key;
}

static void expect_same_der(const struct ncr_pk *pk, EVP_PKEY *opk, int priv)
{
	unsigned char *der;
	size_t dlen, len = 0;
	u8 *buf;

	CHECK(ossl_to_der(opk, priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY,
			  priv ? "type-specific" : "SubjectPublicKeyInfo",
			  &der, &dlen));
	CHECK((priv ? ncr_der_encode_private(pk, NULL, &len) :
		      ncr_der_encode_public(pk, NULL, &len)) == 0);
	buf = malloc(len);
	CHECK((priv ? ncr_der_encode_private(pk, buf, &len) :
		      ncr_der_encode_public(pk, buf, &len)) == 0);
	CHECK(len == dlen && !memcmp(buf, der, len));
	free(buf);
	OPENSSL_free(der);
}

static void composite_q(struct ncr_ffc_key *k)
{
	mp_digit c, rem;
	mp_int m;

	CHECK(mp_init(&m) == MP_OKAY);
	CHECK(mp_sub_d(&k->p, 1, &m) == MP_OKAY);
	CHECK(mp_div(&m, &k->q, &m, NULL) == MP_OKAY);
	for (c = 3; c < 200; c += 2) {
		CHECK(mp_div_d(&m, c, NULL, &rem) == MP_OKAY);
		if (rem == 0)
			break;
	}
	if (c < 200) {
		CHECK(mp_mul_d(&k->q, c, &k->q) == MP_OKAY);
		CHECK(ncr_dsa_check_key(k) == -EINVAL);
	} else {
		printf("composite q: no small factor of (p-1)/q, not tried\n");
	}
	mp_clear(&m);
}

/*
 * Domain parameters that pass every size and divisibility rule but not
 * the group checks: g or y outside the subgroup of order q, q or p
 * composite.  k is a valid public key; it is left unchanged.
 */
static void bad_domains(struct ncr_ffc_key *k)
{
	mp_int save, t;

	CHECK(mp_init_multi(&save, &t, NULL) == MP_OKAY);
	CHECK(ncr_dsa_check_key(k) == 0);
	/* g = p - 1 has order 2 */
	CHECK(mp_copy(&k->g, &save) == MP_OKAY);
	CHECK(mp_sub_d(&k->p, 1, &k->g) == MP_OKAY);
	CHECK(ncr_dsa_check_key(k) == -EINVAL);
	/* g = 2 has (overwhelmingly likely) order above q */
	mp_set(&k->g, 2);
	CHECK(ncr_dsa_check_key(k) == -EINVAL);
	CHECK(mp_copy(&save, &k->g) == MP_OKAY);
	/* y = p - 1 */
	CHECK(mp_copy(&k->y, &save) == MP_OKAY);
	CHECK(mp_sub_d(&k->p, 1, &k->y) == MP_OKAY);
	CHECK(ncr_dsa_check_key(k) == -EINVAL);
	CHECK(mp_copy(&save, &k->y) == MP_OKAY);
	/*
	 * q composite: q' = c * q for a small odd prime c dividing (p-1)/q
	 * still divides p - 1 and g^q' = y^q' = 1; only primality fails.
	 */
	CHECK(mp_copy(&k->q, &save) == MP_OKAY);
	composite_q(k);
	CHECK(mp_copy(&save, &k->q) == MP_OKAY);
	CHECK(ncr_dsa_check_key(k) == 0);
	mp_clear_multi(&save, &t, NULL);
}

static void test_openssl_key(unsigned int pb, unsigned int qb)
{
	EVP_PKEY *opk = ossl_dsa_gen(pb, qb);
	struct ncr_pk pk, p8, pub;

	CHECK(opk != NULL);
	if (!opk)
		return;
	CHECK(ossl_to_ncr(opk, &ncr_pk_dsa, 1, "type-specific", &pk) == 0);
	CHECK(ossl_to_ncr(opk, &ncr_pk_dsa, 1, "PrivateKeyInfo", &p8) == 0);
	CHECK(mp_cmp(&pk.dsa.y, &p8.dsa.y) == MP_EQ && p8.is_private);
	CHECK(ossl_to_ncr(opk, &ncr_pk_dsa, 0, "SubjectPublicKeyInfo", &pub) == 0);
	CHECK(!pub.is_private);
	interop(&pk.dsa, opk);
	expect_same_der(&pk, opk, 1);
	expect_same_der(&p8, opk, 1);
	expect_same_der(&pub, opk, 0);
	bad_domains(&pub.dsa);
	/* x that does not match y is refused */
	CHECK(mp_add_d(&pk.dsa.x, 1, &pk.dsa.x) == MP_OKAY);
	CHECK(ncr_dsa_check_key(&pk.dsa) == -EINVAL);
	ncr_pk_key_clear(&pk);
	ncr_pk_key_clear(&p8);
	ncr_pk_key_clear(&pub);
	EVP_PKEY_free(opk);
}

static size_t unhex(const char *h, u8 *out, size_t cap)
{
	size_t n = strlen(h) / 2, i;
	unsigned int b;

	if (n > cap)
		return (size_t)-1;
	for (i = 0; i < n; i++) {
		if (sscanf(h + 2 * i, "%2x", &b) != 1)
			return (size_t)-1;
		out[i] = (u8)b;
	}
	return n;
}

/* Wycheproof DSA (DER signatures): valid -> 1, invalid -> 0 or -EINVAL;
 * "acceptable" (BER quirks) must be rejected by our strict DER. */
static void wycheproof_file(const char *dir, const char *name)
{
	char path[1024];
	struct jv *root;
	const struct jv *groups;
	size_t gi, ti, len, slen;
	int counts[3] = { 0, 0, 0 };
	static u8 buf[4096], sig[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	root = jv_parse_file(path);
	CHECK(root != NULL);
	if (!root)
		return;
	groups = jv_get(root, "testGroups");
	for (gi = 0; groups && gi < groups->n; gi++) {
		const struct jv *g = groups->items[gi], *tests = jv_get(g, "tests");
		struct ncr_pk pk;

		len = unhex(jv_get_str(g, "publicKeyDer"), buf, sizeof(buf));
		CHECK(ncr_der_decode_public(&pk, &ncr_pk_dsa, buf, len) == 0);
		CHECK(!strcmp(jv_get_str(g, "sha"), "SHA-256"));
		for (ti = 0; tests && ti < tests->n; ti++) {
			const struct jv *t = tests->items[ti];
			const char *res = jv_get_str(t, "result");
			u8 dg[32];
			int r;

			len = unhex(jv_get_str(t, "msg"), buf, sizeof(buf));
			slen = unhex(jv_get_str(t, "sig"), sig, sizeof(sig));
			SHA256(buf, len, dg);
			r = ncr_dsa_verify_digest(&pk.dsa, dg, sizeof(dg), sig,
						  slen);
			if (!strcmp(res, "valid")) {
				CHECK(r == 1);
				counts[0]++;
			} else {
				if (r == 1)
					fprintf(stderr, "%s tcId %d accepted\n",
						name, (int)jv_get_num(t, "tcId", 0));
				CHECK(r == 0 || r == -EINVAL);
				counts[res[0] == 'a' ? 2 : 1]++;
			}
		}
		ncr_pk_key_clear(&pk);
	}
	printf("Wycheproof %s: %d valid, %d invalid, %d acceptable (rejected)\n",
	       name, counts[0], counts[1], counts[2]);
	jv_free(root);
}

static void test_wycheproof(const char *dir)
{
	static const char *const files[] = {
		"dsa_2048_224_sha256_test.json",
		"dsa_2048_256_sha256_test.json",
		"dsa_3072_256_sha256_test.json",
	};
	char probe[1024];
	size_t i;
	FILE *f;

	if (!dir)
		dir = getenv("NCR_WYCHEPROOF_DIR");
	snprintf(probe, sizeof(probe), "%s/%s", dir ? dir : "", files[0]);
	f = dir ? fopen(probe, "r") : NULL;
	if (!f) {
		printf("Wycheproof vectors not found (%s): skipped\n",
		       dir ? dir : "no directory given");
		return;
	}
	fclose(f);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		wycheproof_file(dir, files[i]);
}

int main(int argc, char **argv)
{
	struct ncr_ffc_key k;

	CHECK(ncr_ffc_key_init(&k) == 0);
	CHECK(ncr_dsa_generate(&k, 1024, 256) == -EINVAL);
	CHECK(ncr_dsa_generate(&k, 512, 160) == -EINVAL);
	ncr_ffc_key_clear(&k);

	test_generate(1024, 160);
	test_generate(2048, 224);
	test_generate(2048, 256);
	if (getenv("NCR_SLOW_TESTS"))
		test_generate(3072, 256);
	test_openssl_key(1024, 160);
	test_openssl_key(2048, 256);
	test_wycheproof(argc > 1 ? argv[1] : NULL);
	return unit_report("test_dsa");
}
