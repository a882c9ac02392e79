// SPDX-License-Identifier: GPL-2.0
/*
 * RSA math (driver/lib/rsa.c) against libcrypto: generated keys pass
 * OpenSSL's key check and interoperate as raw RSA both ways; OpenSSL keys
 * imported through DER give OpenSSL's results; bad inputs are refused.
 */
#include "pk_test_util.h"

#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>
#include <stdlib.h>
#include <string.h>

/* OpenSSL raw RSA (no padding): public encrypt or private decrypt. */
static int ossl_raw(EVP_PKEY *pk, int priv, const u8 *in, size_t len,
		    u8 *out, size_t *olen)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, pk, NULL);
	int ok;

	ok = c && (priv ? EVP_PKEY_decrypt_init(c) : EVP_PKEY_encrypt_init(c)) > 0 &&
	     EVP_PKEY_CTX_set_rsa_padding(c, RSA_NO_PADDING) > 0 &&
	     (priv ? EVP_PKEY_decrypt(c, out, olen, in, len) :
		     EVP_PKEY_encrypt(c, out, olen, in, len)) > 0;
	EVP_PKEY_CTX_free(c);
	return ok;
}

static void random_below_n(const struct ncr_rsa_key *k, u8 *m, size_t len)
{
	CHECK(ncr_random_bytes(m, len) == 0);
	m[0] &= 0x3f;	/* < n since n has its top bit in byte 0 */
	if (ncr_rsa_modulus_bits(k) % 8 != 0)
		m[0] = 0;
}

/* Raw RSA both ways between our key and the same key inside OpenSSL. */
static void interop(struct ncr_pk *pk, EVP_PKEY *opk)
{
	size_t k = ncr_rsa_modulus_bytes(&pk->rsa), olen;
	u8 *m = malloc(k), *c = malloc(k), *o = malloc(k);
	int i;

	for (i = 0; i < 4; i++) {
		random_below_n(&pk->rsa, m, k);
		/* ours encrypts, OpenSSL decrypts */
		CHECK(ncr_rsa_public(&pk->rsa, m, k, c, k) == 0);
		olen = k;
		CHECK(ossl_raw(opk, 1, c, k, o, &olen) && olen == k &&
		      !memcmp(o, m, k));
		/* OpenSSL encrypts, ours decrypts */
		olen = k;
		CHECK(ossl_raw(opk, 0, m, k, c, &olen) && olen == k);
		CHECK(ncr_rsa_private(&pk->rsa, NULL, c, k, o, k) == 0 &&
		      !memcmp(o, m, k));
	}
	/*
	 * The cached blinding pair: drawn, squared, drawn again after
	 * NCR_RSA_BLINDING_USES uses; every result is OpenSSL's.
	 */
	for (i = 0; i < 2 * NCR_RSA_BLINDING_USES + 3; i++) {
		random_below_n(&pk->rsa, m, k);
		olen = k;
		CHECK(ossl_raw(opk, 0, m, k, c, &olen) && olen == k);
		CHECK(ncr_rsa_private(&pk->rsa, &pk->rsa.blind, c, k, o, k) == 0 &&
		      !memcmp(o, m, k));
		CHECK(pk->rsa.blind.uses == (unsigned int)i % NCR_RSA_BLINDING_USES + 1);
	}
	/* a pair that is not r^e, r^-1 gives a wrong result: caught, -EIO */
	mp_set_u32(&pk->rsa.blind.a, 2);
	CHECK(ncr_rsa_private(&pk->rsa, &pk->rsa.blind, c, k, o, k) == -EIO);
	/* ... and the pair is dropped: the next call draws a good one */
	CHECK(pk->rsa.blind.uses == 0);
	CHECK(ncr_rsa_private(&pk->rsa, &pk->rsa.blind, c, k, o, k) == 0 &&
	      pk->rsa.blind.uses == 1);
	/* a short input (leading zeros stripped) is the same number */
	CHECK(ncr_rsa_public(&pk->rsa, m + 1, k - 1, c, k) == 0 ||
	      m[0] != 0);
	free(m);
	free(c);
	free(o);
}

static void check_rejections(struct ncr_pk *pk)
{
	size_t k = ncr_rsa_modulus_bytes(&pk->rsa), nlen;
	u8 *n = malloc(k), *o = malloc(k);
	struct ncr_rsa_key pub;

	nlen = k;
	CHECK(ncr_mp_to_fixed(&pk->rsa.n, n, nlen) == 0);
	/* input == n and > n */
	CHECK(ncr_rsa_public(&pk->rsa, n, k, o, k) == -EINVAL);
	CHECK(ncr_rsa_private(&pk->rsa, NULL, n, k, o, k) == -EINVAL);
	memset(n, 0xff, k);
	CHECK(ncr_rsa_private(&pk->rsa, NULL, n, k, o, k) == -EINVAL);
	/* wrong output length */
	n[0] = 0;
	CHECK(ncr_rsa_public(&pk->rsa, n, k, o, k - 1) == -EINVAL);
	/* private op without private material */
	CHECK(ncr_rsa_key_init(&pub) == 0);
	CHECK(ncr_rsa_copy_public(&pub, &pk->rsa) == 0);
	CHECK(ncr_rsa_private(&pub, NULL, n, k, o, k) == -EINVAL);
	ncr_rsa_key_clear(&pub);
	free(n);
	free(o);
}

static void test_generate(unsigned int bits, const u8 *e, size_t elen,
			  unsigned long want_e)
{
	struct ncr_pk pk;
	EVP_PKEY *opk;
	EVP_PKEY_CTX *c;
	double t;

	CHECK(ncr_pk_key_init(&pk, &ncr_pk_rsa) == 0);
	t = now_seconds();
	CHECK(ncr_rsa_generate(&pk.rsa, bits, e, elen) == 0);
	printf("RSA-%u generation: %.2f s\n", bits, now_seconds() - t);
	pk.is_private = true;
	CHECK(ncr_rsa_modulus_bits(&pk.rsa) == bits);
	CHECK(mp_get_ul(&pk.rsa.e) == want_e);
	CHECK(ncr_rsa_check_key(&pk.rsa) == 0);
	CHECK(mp_cmp(&pk.rsa.p, &pk.rsa.q) != MP_EQ);
	opk = ncr_to_ossl(&pk, 1);
	CHECK(opk != NULL);
	if (opk) {
		c = EVP_PKEY_CTX_new_from_pkey(NULL, opk, NULL);
		CHECK(c && EVP_PKEY_check(c) == 1);
		EVP_PKEY_CTX_free(c);
		CHECK(EVP_PKEY_get_bits(opk) == (int)bits);
		interop(&pk, opk);
	}
	check_rejections(&pk);
	EVP_PKEY_free(opk);
	ncr_pk_key_clear(&pk);
}

/* OpenSSL-generated keys: DER import (PKCS#1, PKCS#8, SPKI), identical
 * export, same raw results. */
static void test_openssl_key(unsigned int bits)
{
	EVP_PKEY *opk = EVP_RSA_gen(bits);
	struct ncr_pk pk, pub, p8;
	unsigned char *der;
	size_t dlen, len;
	u8 *buf;

	CHECK(opk != NULL);
	if (!opk)
		return;
	CHECK(ossl_to_ncr(opk, &ncr_pk_rsa, 1, "type-specific", &pk) == 0);
	CHECK(pk.is_private);
	CHECK(ossl_to_ncr(opk, &ncr_pk_rsa, 1, "PrivateKeyInfo", &p8) == 0);
	CHECK(mp_cmp(&pk.rsa.d, &p8.rsa.d) == MP_EQ);
	CHECK(ossl_to_ncr(opk, &ncr_pk_rsa, 0, "SubjectPublicKeyInfo", &pub) == 0);
	CHECK(!pub.is_private && mp_cmp(&pub.rsa.n, &pk.rsa.n) == MP_EQ);
	/* PKCS#1 RSAPublicKey is accepted too */
	ncr_pk_key_clear(&pub);
	CHECK(ossl_to_ncr(opk, &ncr_pk_rsa, 0, "type-specific", &pub) == 0);
	interop(&pk, opk);

	/* export is byte-identical to OpenSSL's */
	CHECK(ossl_to_der(opk, EVP_PKEY_KEYPAIR, "type-specific", &der, &dlen));
	CHECK(ncr_der_encode_private(&pk, NULL, &len) == 0 && len == dlen);
	buf = malloc(len);
	CHECK(ncr_der_encode_private(&pk, buf, &len) == 0 && len == dlen &&
	      !memcmp(buf, der, len));
	len--;
	CHECK(ncr_der_encode_private(&pk, buf, &len) == -ENOSPC);
	free(buf);
	OPENSSL_free(der);
	CHECK(ossl_to_der(opk, EVP_PKEY_PUBLIC_KEY, "SubjectPublicKeyInfo",
			  &der, &dlen));
	CHECK(ncr_der_encode_public(&pk, NULL, &len) == 0 && len == dlen);
	buf = malloc(len);
	CHECK(ncr_der_encode_public(&pub, buf, &len) == 0 && len == dlen &&
	      !memcmp(buf, der, len));
	free(buf);
	OPENSSL_free(der);
	CHECK(ncr_der_encode_private(&pub, NULL, &len) == -EINVAL);

	/* an inconsistent private key is refused on import */
	CHECK(mp_add_d(&pk.rsa.dp, 2, &pk.rsa.dp) == MP_OKAY);
	CHECK(ncr_rsa_check_key(&pk.rsa) == -EINVAL);
	ncr_pk_key_clear(&pk);
	ncr_pk_key_clear(&p8);
	ncr_pk_key_clear(&pub);
	EVP_PKEY_free(opk);
}

static void test_bad_params(void)
{
	struct ncr_rsa_key k;
	const u8 even[] = { 0x01, 0x00, 0x00 }, one[] = { 0x01 };

	CHECK(ncr_rsa_key_init(&k) == 0);
	CHECK(ncr_rsa_generate(&k, 512, NULL, 0) == -EINVAL);
	CHECK(ncr_rsa_generate(&k, NCR_PK_MAX_BITS + 1, NULL, 0) == -EINVAL);
	CHECK(ncr_rsa_generate(&k, 1024, even, sizeof(even)) == -EINVAL);
	CHECK(ncr_rsa_generate(&k, 1024, one, sizeof(one)) == -EINVAL);
	ncr_rsa_key_clear(&k);
}

/*
 * ncr_mp_from_be against LibTomMath's own mp_from_ubin, and ncr_mp_to_fixed
 * back to the same bytes: every length from 0
 * to past a 4096-bit number (each digit boundary), leading zero bytes,
 * and a reused destination that held a larger number.
 */
/*
 * The Montgomery products of the blinding pair (tommath_port.c): a R then
 * a R * b / R = a b mod m; operands not below m, negative, or an even m
 * are refused.
 */
static void test_mont_products(void)
{
	mp_int m, a, b, r, want;

	CHECK(mp_init_multi(&m, &a, &b, &r, &want, NULL) == MP_OKAY);
	mp_set_u64(&m, 0xfffffffffffffc5ULL);	/* odd */
	CHECK(mp_mul(&m, &m, &m) == MP_OKAY && mp_add_d(&m, 2, &m) == MP_OKAY);
	mp_set_u64(&a, 0x123456789abcdefULL);
	mp_set_u64(&b, 0xfedcba987654321ULL);
	CHECK(mp_mulmod(&a, &b, &m, &want) == MP_OKAY);
	CHECK(ncr_mp_mont_to(&a, &m, &r) == 0 &&
	      ncr_mp_mont_mul(&r, &b, &m, &r) == 0 &&
	      mp_cmp(&r, &want) == MP_EQ);
	CHECK(ncr_mp_mont_mul(&m, &b, &m, &r) == -EINVAL);	/* a = m */
	CHECK(ncr_mp_mont_mul(&a, &m, &m, &r) == -EINVAL);	/* b = m */
	CHECK(mp_neg(&a, &r) == MP_OKAY);
	CHECK(ncr_mp_mont_to(&r, &m, &r) == -EINVAL);		/* negative */
	CHECK(mp_add_d(&m, 1, &m) == MP_OKAY);
	CHECK(ncr_mp_mont_to(&a, &m, &r) == -EINVAL);		/* even m */
	mp_clear_multi(&m, &a, &b, &r, &want, NULL);
}

static void test_from_be(void)
{
	u8 buf[600], back[608];
	mp_int a, b;
	size_t len, i, n;

	CHECK(mp_init_multi(&a, &b, NULL) == MP_OKAY);
	for (len = 0; len <= sizeof(buf); len++) {
		CHECK(ncr_random_bytes(buf, len) == 0);
		for (i = 0; i < len && i < len % 3; i++)
			buf[i] = 0;
		CHECK(ncr_mp_from_be(&a, buf, len) == 0);
		CHECK(mp_from_ubin(&b, buf, len) == MP_OKAY);
		CHECK(mp_cmp(&a, &b) == MP_EQ && a.used == b.used &&
		      a.sign == MP_ZPOS);
		n = mp_ubin_size(&a);
		CHECK(mp_iszero(&a) || (n <= len &&
		      mp_to_ubin(&a, back, n, NULL) == MP_OKAY &&
		      memcmp(back, buf + (len - n), n) == 0));
		/* and back: ncr_mp_to_fixed gives the bytes, zeros included */
		memset(back, 0xa5, sizeof(back));
		CHECK(ncr_mp_to_fixed(&a, back, len) == 0 &&
		      memcmp(back, buf, len) == 0);
		CHECK(mp_iszero(&a) || ncr_mp_to_fixed(&a, back, n - 1) == -EINVAL);
		CHECK(ncr_mp_to_fixed(&a, back, len + 7) == 0 &&
		      memcmp(back + 7, buf, len) == 0 &&
		      !memcmp(back, "\0\0\0\0\0\0\0", 7));
	}
	mp_clear_multi(&a, &b, NULL);
}

/*
 * Factors of 256 and 768 bits: the input fits twice the large factor's
 * limbs (reduced by lib/mont.c) but not the small one's (mp_mod first).
 */
static void test_unbalanced_key(void)
{
	BIGNUM *p = BN_new(), *q = BN_new(), *n = BN_new(), *e = BN_new();
	BIGNUM *d = BN_new(), *phi = BN_new(), *t = BN_new();
	BIGNUM *dp = BN_new(), *dq = BN_new(), *qinv = BN_new();
	BN_CTX *bc = BN_CTX_new();
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *kc = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	EVP_PKEY *opk = NULL;
	struct ncr_pk pk;

	BN_set_word(e, 65537);
	CHECK(BN_generate_prime_ex(p, 768, 0, NULL, NULL, NULL) &&
	      BN_generate_prime_ex(q, 256, 0, NULL, NULL, NULL));
	CHECK(BN_mul(n, p, q, bc) && BN_sub(phi, p, BN_value_one()) &&
	      BN_sub(t, q, BN_value_one()) && BN_mul(phi, phi, t, bc) &&
	      BN_mod_inverse(d, e, phi, bc) != NULL);
	CHECK(BN_sub(t, p, BN_value_one()) && BN_mod(dp, d, t, bc) &&
	      BN_sub(t, q, BN_value_one()) && BN_mod(dq, d, t, bc) &&
	      BN_mod_inverse(qinv, q, p, bc) != NULL);
	CHECK(OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_N, n) &&
	      OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_E, e) &&
	      OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_D, d) &&
	      OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_FACTOR1, p) &&
	      OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_FACTOR2, q) &&
	      OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_EXPONENT1, dp) &&
	      OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_EXPONENT2, dq) &&
	      OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
				     qinv) &&
	      (params = OSSL_PARAM_BLD_to_param(b)) != NULL);
	CHECK(kc && EVP_PKEY_fromdata_init(kc) > 0 &&
	      EVP_PKEY_fromdata(kc, &opk, EVP_PKEY_KEYPAIR, params) > 0);
	if (opk && ossl_to_ncr(opk, &ncr_pk_rsa, 1, "type-specific", &pk) == 0) {
		interop(&pk, opk);
		ncr_pk_key_clear(&pk);
	} else {
		FAIL("unbalanced key not imported");
	}
	EVP_PKEY_free(opk);
	EVP_PKEY_CTX_free(kc);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(b);
	BN_CTX_free(bc);
	BN_free(p);
	BN_free(q);
	BN_free(n);
	BN_free(e);
	BN_free(d);
	BN_free(phi);
	BN_free(t);
	BN_free(dp);
	BN_free(dq);
	BN_free(qinv);
}

int main(void)
{
	const u8 e3[] = { 0x03 }, e_big[] = { 0x01, 0x00, 0x00, 0x00, 0x01 };

	test_from_be();
	test_bad_params();
	test_mont_products();
	test_generate(1024, NULL, 0, 65537);
	test_generate(2048, NULL, 0, 65537);
	test_generate(1030, e3, sizeof(e3), 3);		/* not a multiple of 8 */
	test_generate(1031, e_big, sizeof(e_big), 0x100000001UL);
	if (getenv("NCR_SLOW_TESTS")) {
		test_generate(3072, NULL, 0, 65537);
		test_generate(4096, NULL, 0, 65537);
	}
	test_openssl_key(2048);
	test_openssl_key(1024);
	test_unbalanced_key();
	return unit_report("test_rsa");
}
