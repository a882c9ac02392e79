// SPDX-License-Identifier: GPL-2.0
/*
 * DH math (driver/lib/dh.c) against libcrypto: shared secrets equal
 * OpenSSL's in both directions, peer values outside [2, p-2] or outside the
 * subgroup of order (p-1)/2 are refused, composite p and g of order 2q too,
 * PKCS#8 / SPKI import and export match OpenSSL.
 */
#include "pk_test_util.h"

#include <openssl/core_names.h>
#include <openssl/dh.h>
#include <stdlib.h>
#include <string.h>

static EVP_PKEY *ossl_dh_group(const char *group)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "DH", NULL);
	OSSL_PARAM params[2];
	EVP_PKEY *key = NULL;

	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME,
						     (char *)group, 0);
	params[1] = OSSL_PARAM_construct_end();
	if (!c || EVP_PKEY_keygen_init(c) <= 0 ||
	    EVP_PKEY_CTX_set_params(c, params) <= 0 ||
	    EVP_PKEY_keygen(c, &key) <= 0)
		key = NULL;
	EVP_PKEY_CTX_free(c);
	return key;
}

static int ossl_derive(EVP_PKEY *mine, EVP_PKEY *peer, u8 *out, size_t *len)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_pkey(NULL, mine, NULL);
	int ok = c && EVP_PKEY_derive_init(c) > 0 &&
		 EVP_PKEY_CTX_set_dh_pad(c, 1) > 0 &&
		 EVP_PKEY_derive_set_peer(c, peer) > 0 &&
		 EVP_PKEY_derive(c, out, len) > 0;

	EVP_PKEY_CTX_free(c);
	return ok;
}

static size_t mp_bytes(const mp_int *v, u8 *out, size_t cap)
{
	size_t w = 0;

	return mp_to_ubin(v, out, cap, &w) == MP_OKAY ? w : 0;
}

/*
 * A composite p is refused at generation: p + 4 is odd and, since a safe
 * prime p > 7 is 2 mod 3, divisible by 3.
 */
static void composite_p(const u8 *p, size_t plen, const u8 *g, size_t glen)
{
	struct ncr_pk k;
	u8 q[NCR_PK_MAX_BYTES];
	size_t i;
	int carry = 4;

	memcpy(q, p, plen);
	for (i = plen; i-- > 0 && carry;) {
		int v = q[i] + carry;

		q[i] = (u8)v;
		carry = v >> 8;
	}
	CHECK(ncr_pk_key_init(&k, &ncr_pk_dh) == 0);
	CHECK(ncr_dh_generate(&k.dh, q, plen, g, glen) == -EINVAL);
	ncr_pk_key_clear(&k);
}

static void test_group(const char *group)
{
	EVP_PKEY *opk = ossl_dh_group(group), *ours_o;
	struct ncr_pk params, pk, opub;
	u8 p[1024], g[1024], s1[1024], s2[1024], y[1024];
	size_t plen, glen, l1 = sizeof(s1), l2 = sizeof(s2), ylen;
	double t;

	CHECK(opk != NULL);
	if (!opk)
		return;
	/* OpenSSL's key as ours (PKCS#8) gives us the group */
	CHECK(ossl_to_ncr(opk, &ncr_pk_dh, 1, "PrivateKeyInfo", &params) == 0);
	CHECK(ossl_to_ncr(opk, &ncr_pk_dh, 0, "SubjectPublicKeyInfo", &opub) == 0);
	plen = mp_bytes(&params.dh.p, p, sizeof(p));
	glen = mp_bytes(&params.dh.g, g, sizeof(g));
	CHECK(ncr_pk_key_init(&pk, &ncr_pk_dh) == 0);
	t = now_seconds();
	CHECK(ncr_dh_generate(&pk.dh, p, plen, g, glen) == 0);
	printf("DH %s key generation: %.3f s\n", group, now_seconds() - t);
	pk.is_private = true;
	CHECK(ncr_dh_check_key(&pk.dh) == 0);
	CHECK(mp_count_bits(&pk.dh.x) >= 256);

	/* ours with OpenSSL's public value == OpenSSL with ours */
	ylen = mp_bytes(&opub.dh.y, y, sizeof(y));
	CHECK(ncr_dh_compute(&pk.dh, y, ylen, s1, &l1) == 0);
	CHECK(l1 == ncr_dh_prime_bytes(&pk.dh));
	ours_o = ncr_to_ossl(&pk, 0);
	CHECK(ours_o != NULL);
	CHECK(ossl_derive(opk, ours_o, s2, &l2));
	CHECK(l1 == l2 && !memcmp(s1, s2, l1));
	/* and OpenSSL can use our private key (PKCS#8 export) */
	EVP_PKEY_free(ours_o);
	ours_o = ncr_to_ossl(&pk, 1);
	CHECK(ours_o != NULL);
	l2 = sizeof(s2);
	CHECK(ours_o && ossl_derive(ours_o, opk, s2, &l2));
	CHECK(l1 == l2 && !memcmp(s1, s2, l1));
	EVP_PKEY_free(ours_o);
	/* OpenSSL's own private key imported computes the same thing */
	ylen = mp_bytes(&pk.dh.y, y, sizeof(y));
	l2 = sizeof(s2);
	CHECK(ncr_dh_compute(&params.dh, y, ylen, s2, &l2) == 0);
	CHECK(l1 == l2 && !memcmp(s1, s2, l1));

	/* peer values outside [2, p-2] */
	y[0] = 0;
	CHECK(ncr_dh_compute(&pk.dh, y, 1, s1, &l1) == -EINVAL);
	y[0] = 1;
	CHECK(ncr_dh_compute(&pk.dh, y, 1, s1, &l1) == -EINVAL);
	CHECK(ncr_dh_compute(&pk.dh, y, 0, s1, &l1) == -EINVAL);
	memcpy(y, p, plen);
	CHECK(ncr_dh_compute(&pk.dh, y, plen, s1, &l1) == -EINVAL);	/* p */
	y[plen - 1] -= 1;
	CHECK(ncr_dh_compute(&pk.dh, y, plen, s1, &l1) == -EINVAL);	/* p-1 */
	y[plen - 1] -= 1;
	/* p-2 = -2 is no square mod these p (p = 7 mod 8): order 2q */
	l1 = sizeof(s1);
	CHECK(ncr_dh_compute(&pk.dh, y, plen, s1, &l1) == -EINVAL);
	/* 4 = 2^2 lies in the subgroup of order q */
	y[0] = 4;
	l1 = sizeof(s1);
	CHECK(ncr_dh_compute(&pk.dh, y, 1, s1, &l1) == 0);
	/* p-4 = -4: no square either (order 2q) */
	memcpy(y, p, plen);
	y[plen - 1] -= 4;
	l1 = sizeof(s1);
	CHECK(ncr_dh_compute(&pk.dh, y, plen, s1, &l1) == -EINVAL);
	y[0] = 4;
	l1 = plen - 1;
	CHECK(ncr_dh_compute(&pk.dh, y, 1, s1, &l1) == -ENOSPC);

	/* bad parameters */
	CHECK(ncr_dh_generate(&pk.dh, p, plen, (const u8 *)"\x01", 1) == -EINVAL);
	/* g = p-2 has order 2q */
	memcpy(y, p, plen);
	y[plen - 1] -= 2;
	CHECK(ncr_dh_generate(&pk.dh, p, plen, y, plen) == -EINVAL);
	composite_p(p, plen, g, glen);
	CHECK(ncr_dh_generate(&pk.dh, p, 32, g, glen) == -EINVAL);	/* small */
	ncr_pk_key_clear(&pk);
	ncr_pk_key_clear(&params);
	ncr_pk_key_clear(&opub);
	EVP_PKEY_free(opk);
}

int main(void)
{
	test_group("ffdhe2048");
	test_group("ffdhe3072");
	test_group("modp_1536");
	return unit_report("test_dh");
}
