// SPDX-License-Identifier: GPL-2.0
/*
 * Strict DER (driver/lib/der.c): round trips of every format, and the
 * rejection of truncation, trailing data, non-minimal lengths and integers,
 * negative integers, indefinite lengths, wrong OIDs/parameters, absurd
 * sizes; byte-flip sweeps must never crash (ASan) or accept garbage silently.
 */
#include "pk_test_util.h"

#include <openssl/core_names.h>
#include <openssl/rsa.h>
#include <stdlib.h>
#include <string.h>

typedef int (*decode_fn)(struct ncr_pk *, const struct ncr_pk_ops *,
			 const u8 *, size_t);

static int dec(decode_fn f, const struct ncr_pk_ops *a, const u8 *d, size_t n)
{
	struct ncr_pk pk;
	int err = f(&pk, a, d, n);

	if (!err)
		ncr_pk_key_clear(&pk);
	return err;
}

/* Encoding -> decode -> encode is the identity; mutations are refused. */
static void sweep(decode_fn f, const struct ncr_pk_ops *a, const u8 *d,
		  size_t n, int priv)
{
	u8 *m = malloc(n + 8), *out = malloc(n + 8);
	struct ncr_pk pk;
	size_t i, len;
	int accepted = 0, err;

	CHECK(f(&pk, a, d, n) == 0);
	len = n + 8;
	CHECK((priv ? ncr_der_encode_private(&pk, out, &len) :
		      ncr_der_encode_public(&pk, out, &len)) == 0);
	CHECK(len == n && !memcmp(out, d, n));
	ncr_pk_key_clear(&pk);

	/* every strict prefix, and one trailing byte */
	for (i = 0; i < n; i++)
		if (dec(f, a, d, i) != -EINVAL) {
			CHECK(!"prefix accepted");
			break;
		}
	memcpy(m, d, n);
	m[n] = 0;
	CHECK(dec(f, a, m, n + 1) == -EINVAL);
	/* flips in the header area must be refused; elsewhere no crash */
	for (i = 0; i < n; i++) {
		memcpy(m, d, n);
		m[i] ^= 0x80;
		err = dec(f, a, m, n);
		CHECK(err == 0 || err == -EINVAL);
		if (i < 8)
			CHECK(err == -EINVAL);
		accepted += err == 0;
	}
	/* flipping the top bit of a modulus byte can still give a "valid"
	 * public key; RSA/DSA private keys' consistency checks catch all of
	 * them (a DH private key has no redundancy to check) */
	if (priv && a != &ncr_pk_dh)
		CHECK(accepted == 0);
	free(m);
	free(out);
}

static u8 *ossl_der(EVP_PKEY *k, int priv, const char *structure, size_t *n)
{
	unsigned char *d;

	if (!ossl_to_der(k, priv ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY,
			 structure, &d, n))
		return NULL;
	return d;
}

static void test_rsa_formats(void)
{
	EVP_PKEY *k = EVP_RSA_gen(1024);
	u8 *d;
	size_t n;

	CHECK(k != NULL);
	d = ossl_der(k, 0, "SubjectPublicKeyInfo", &n);
	CHECK(d != NULL);
	sweep(ncr_der_decode_public, &ncr_pk_rsa, d, n, 0);
	/* the same bytes are not a DSA or DH key */
	CHECK(dec(ncr_der_decode_public, &ncr_pk_dsa, d, n) == -EINVAL);
	CHECK(dec(ncr_der_decode_public, &ncr_pk_dh, d, n) == -EINVAL);
	CHECK(dec(ncr_der_decode_private, &ncr_pk_rsa, d, n) == -EINVAL);
	OPENSSL_free(d);
	d = ossl_der(k, 1, "type-specific", &n);
	sweep(ncr_der_decode_private, &ncr_pk_rsa, d, n, 1);
	CHECK(dec(ncr_der_decode_public, &ncr_pk_rsa, d, n) == -EINVAL);
	OPENSSL_free(d);
	EVP_PKEY_free(k);
}

/* Hand-made RSAPublicKey / SPKI variants around a valid small key. */
static void test_rsa_handmade(void)
{
	/* 512-bit n (top bit set, so its INTEGER has a 0x00 prefix), e = 65537 */
	static const u8 n512[64] = {
		0xc7, 0x1f, 0x0a, 0x6e, 0x5a, 0x35, 0x90, 0x3d, 0xb4, 0x5b,
		0x4c, 0x1e, 0x7f, 0x67, 0x3c, 0x6d, 0x29, 0xe1, 0x1a, 0x08,
		0x95, 0x37, 0x2e, 0x8c, 0xab, 0xe1, 0x4a, 0x27, 0x74, 0x3e,
		0x6b, 0x06, 0x3e, 0x16, 0x2d, 0xe9, 0x0f, 0x5b, 0x7a, 0x24,
		0x5d, 0xa3, 0x2f, 0x7e, 0x8c, 0x1f, 0x3d, 0x16, 0x44, 0x53,
		0x33, 0x1e, 0x4d, 0x65, 0x43, 0x2a, 0x0b, 0x54, 0x72, 0x1a,
		0x26, 0x10, 0x1f, 0x81 };
	u8 b[200];
	size_t o;

#define PUT_N(lead) do {						\
		b[o++] = 0x02; b[o++] = (u8)(64 + (lead));		\
		if (lead) b[o++] = 0x00;				\
		memcpy(b + o, n512, 64); o += 64;			\
	} while (0)

	/* valid PKCS#1 RSAPublicKey */
	o = 0;
	b[o++] = 0x30; b[o++] = 0x48;
	PUT_N(1);
	memcpy(b + o, "\x02\x03\x01\x00\x01", 5); o += 5;
	CHECK(o == 0x4a);
	CHECK(dec(ncr_der_decode_public, &ncr_pk_rsa, b, o) == 0);
	/* long-form length where short form fits */
	memmove(b + 3, b + 2, o - 2);
	b[1] = 0x81; b[2] = 0x48;
	CHECK(dec(ncr_der_decode_public, &ncr_pk_rsa, b, o + 1) == -EINVAL);
	/* long form with a leading zero length byte */
	memmove(b + 4, b + 3, o - 2);
	b[1] = 0x82; b[2] = 0x00; b[3] = 0x48;
	CHECK(dec(ncr_der_decode_public, &ncr_pk_rsa, b, o + 2) == -EINVAL);
	/* indefinite length */
	o = 0;
	b[o++] = 0x30; b[o++] = 0x80;
	PUT_N(1);
	memcpy(b + o, "\x02\x03\x01\x00\x01\x00\x00", 7); o += 7;
	CHECK(dec(ncr_der_decode_public, &ncr_pk_rsa, b, o) == -EINVAL);
	/* negative modulus (no 0x00 prefix) */
	o = 0;
	b[o++] = 0x30; b[o++] = 0x47;
	PUT_N(0);
	memcpy(b + o, "\x02\x03\x01\x00\x01", 5); o += 5;
	CHECK(dec(ncr_der_decode_public, &ncr_pk_rsa, b, o) == -EINVAL);
	/* non-minimal exponent */
	o = 0;
	b[o++] = 0x30; b[o++] = 0x49;
	PUT_N(1);
	memcpy(b + o, "\x02\x04\x00\x01\x00\x01", 6); o += 6;
	CHECK(dec(ncr_der_decode_public, &ncr_pk_rsa, b, o) == -EINVAL);
	/* even exponent, exponent 1, empty INTEGER */
	o = 0;
	b[o++] = 0x30; b[o++] = 0x48;
	PUT_N(1);
	memcpy(b + o, "\x02\x03\x01\x00\x02", 5); o += 5;
	CHECK(dec(ncr_der_decode_public, &ncr_pk_rsa, b, o) == -EINVAL);
	o = 0;
	b[o++] = 0x30; b[o++] = 0x46;
	PUT_N(1);
	memcpy(b + o, "\x02\x01\x01", 3); o += 3;
	CHECK(dec(ncr_der_decode_public, &ncr_pk_rsa, b, o) == -EINVAL);
	o = 0;
	b[o++] = 0x30; b[o++] = 0x45;
	PUT_N(1);
	memcpy(b + o, "\x02\x00", 2); o += 2;
	CHECK(dec(ncr_der_decode_public, &ncr_pk_rsa, b, o) == -EINVAL);
#undef PUT_N
}

static void test_absurd_sizes(void)
{
	/* SEQ { INTEGER of 2100 bytes (16800 bits), INTEGER 3 } */
	size_t ilen = 2100, n = 4 + 4 + ilen + 3;
	u8 *b = calloc(1, n);

	b[0] = 0x30; b[1] = 0x82;
	b[2] = (u8)((n - 4) >> 8); b[3] = (u8)(n - 4);
	b[4] = 0x02; b[5] = 0x82; b[6] = (u8)(ilen >> 8); b[7] = (u8)ilen;
	b[8] = 0x40;
	b[8 + ilen - 1] = 0x01;
	memcpy(b + 8 + ilen, "\x02\x01\x03", 3);
	CHECK(dec(ncr_der_decode_public, &ncr_pk_rsa, b, n) == -EINVAL);
	/* a 4-byte length field (>= 16 MiB) is refused before any reading */
	b[1] = 0x84;
	CHECK(dec(ncr_der_decode_public, &ncr_pk_rsa, b, n) == -EINVAL);
	/* a length beyond the buffer */
	b[1] = 0x82; b[2] = 0xff; b[3] = 0xff;
	CHECK(dec(ncr_der_decode_public, &ncr_pk_rsa, b, n) == -EINVAL);
	free(b);
	CHECK(dec(ncr_der_decode_public, &ncr_pk_rsa, (const u8 *)"", 0) == -EINVAL);
	CHECK(dec(ncr_der_decode_private, &ncr_pk_dh, (const u8 *)"\x30", 1) ==
	      -EINVAL);
}

static void test_dsa_formats(void)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "DSA", NULL);
	EVP_PKEY *params = NULL, *k = NULL;
	u8 *d;
	size_t n;

	CHECK(c && EVP_PKEY_paramgen_init(c) > 0 &&
	      EVP_PKEY_paramgen(c, &params) > 0);
	EVP_PKEY_CTX_free(c);
	c = EVP_PKEY_CTX_new_from_pkey(NULL, params, NULL);
	CHECK(c && EVP_PKEY_keygen_init(c) > 0 && EVP_PKEY_keygen(c, &k) > 0);
	EVP_PKEY_CTX_free(c);
	d = ossl_der(k, 0, "SubjectPublicKeyInfo", &n);
	sweep(ncr_der_decode_public, &ncr_pk_dsa, d, n, 0);
	CHECK(dec(ncr_der_decode_public, &ncr_pk_rsa, d, n) == -EINVAL);
	OPENSSL_free(d);
	d = ossl_der(k, 1, "type-specific", &n);
	sweep(ncr_der_decode_private, &ncr_pk_dsa, d, n, 1);
	OPENSSL_free(d);
	d = ossl_der(k, 1, "PrivateKeyInfo", &n);
	CHECK(dec(ncr_der_decode_private, &ncr_pk_dsa, d, n) == 0);
	CHECK(dec(ncr_der_decode_private, &ncr_pk_rsa, d, n) == -EINVAL);
	OPENSSL_free(d);
	EVP_PKEY_free(k);
	EVP_PKEY_free(params);
}

static void test_dh_formats(void)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "DH", NULL);
	OSSL_PARAM params[2];
	EVP_PKEY *k = NULL;
	u8 *d;
	size_t n;

	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME,
						     (char *)"ffdhe2048", 0);
	params[1] = OSSL_PARAM_construct_end();
	if (c && EVP_PKEY_keygen_init(c) > 0 &&
	    EVP_PKEY_CTX_set_params(c, params) > 0)
		EVP_PKEY_keygen(c, &k);
	EVP_PKEY_CTX_free(c);

	CHECK(k != NULL);
	if (!k)
		return;
	d = ossl_der(k, 0, "SubjectPublicKeyInfo", &n);
	sweep(ncr_der_decode_public, &ncr_pk_dh, d, n, 0);
	OPENSSL_free(d);
	d = ossl_der(k, 1, "PrivateKeyInfo", &n);
	sweep(ncr_der_decode_private, &ncr_pk_dh, d, n, 1);
	OPENSSL_free(d);
	EVP_PKEY_free(k);
}

static void test_dsa_sig(void)
{
	mp_int r, s;
	u8 out[16];
	size_t len = sizeof(out);

	CHECK(mp_init_multi(&r, &s, NULL) == MP_OKAY);
	CHECK(ncr_der_decode_dsa_sig((const u8 *)"\x30\x06\x02\x01\x05\x02\x01\x07",
				     8, &r, &s) == 0);
	CHECK(mp_get_u32(&r) == 5 && mp_get_u32(&s) == 7);
	CHECK(ncr_der_encode_dsa_sig(&r, &s, out, &len) == 0 && len == 8 &&
	      !memcmp(out, "\x30\x06\x02\x01\x05\x02\x01\x07", 8));
	CHECK(ncr_der_decode_dsa_sig((const u8 *)"\x30\x07\x02\x02\x00\x05\x02\x01\x07",
				     9, &r, &s) == -EINVAL);
	CHECK(ncr_der_decode_dsa_sig((const u8 *)"\x30\x06\x02\x01\x85\x02\x01\x07",
				     8, &r, &s) == -EINVAL);
	CHECK(ncr_der_decode_dsa_sig((const u8 *)"\x30\x03\x02\x01\x05",
				     5, &r, &s) == -EINVAL);
	CHECK(ncr_der_decode_dsa_sig((const u8 *)"\x30\x09\x02\x01\x05\x02\x01\x07\x02\x01\x01",
				     11, &r, &s) == -EINVAL);
	CHECK(ncr_der_decode_dsa_sig((const u8 *)"\x31\x06\x02\x01\x05\x02\x01\x07",
				     8, &r, &s) == -EINVAL);
	len = 7;
	CHECK(ncr_der_encode_dsa_sig(&r, &s, out, &len) == -ENOSPC);
	mp_clear_multi(&r, &s, NULL);
}

int main(void)
{
	test_rsa_formats();
	test_rsa_handmade();
	test_absurd_sizes();
	test_dsa_formats();
	test_dh_formats();
	test_dsa_sig();
	return unit_report("test_der");
}
