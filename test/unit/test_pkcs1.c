// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of driver/lib/pkcs1.c in user space.  libcrypto supplies the
 * hashes and the raw RSA math (RSA_NO_PADDING), so the padding code is
 * tested independently of LibTomMath:
 *  - Wycheproof RSA PKCS#1 v1.5 / PSS signature and OAEP / PKCS#1 v1.5
 *    decryption vectors (argv[1], else $NCR_WYCHEPROOF_DIR, else
 *    $NCR_ROOT/../shared/vectors/wycheproof);
 *  - interop: our encodings verified/decrypted by OpenSSL and vice versa;
 *  - negative cases and error contracts (-EBADMSG uniform, -ERANGE, ...).
 * Usage: test_pkcs1 [wycheproof-dir]; exit 77 (skipped) if the vectors
 * are absent and everything else passed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>

#include "pkcs1.h"
#include "json_min.h"
#include "unit.h"

/* ---- libcrypto glue: hash ops, RNG, raw RSA ---- */

static const EVP_MD *md_of(enum ncr_hash_id id)
{
	switch (id) {
	case NCR_HASH_SHA1: return EVP_sha1();
	case NCR_HASH_SHA224: return EVP_sha224();
	case NCR_HASH_SHA256: return EVP_sha256();
	case NCR_HASH_SHA384: return EVP_sha384();
	case NCR_HASH_SHA512: return EVP_sha512();
	default: return NULL;
	}
}

static int evp_digest(void *ctx, const struct ncr_hash_seg *segs,
		      unsigned int nsegs, u8 *out)
{
	const EVP_MD *md = ctx;
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	unsigned int i;
	int ok;

	ok = c && EVP_DigestInit_ex(c, md, NULL);
	for (i = 0; ok && i < nsegs; i++)
		ok = EVP_DigestUpdate(c, segs[i].data, segs[i].len);
	ok = ok && EVP_DigestFinal_ex(c, out, NULL);
	EVP_MD_CTX_free(c);
	return ok ? 0 : -EIO;
}

static struct ncr_hash_ops hash_ops(enum ncr_hash_id id)
{
	struct ncr_hash_ops h = {
		.id = id,
		.digest_size = ncr_pkcs1_hash_size(id),
		.digest = evp_digest,
		.ctx = (void *)md_of(id),
	};
	return h;
}

static int ossl_rng(void *ctx, u8 *buf, size_t len)
{
	(void)ctx;
	return RAND_bytes(buf, (int)len) == 1 ? 0 : -EIO;
}

static void digest(enum ncr_hash_id id, const u8 *m, size_t len, u8 *out)
{
	struct ncr_hash_ops h = hash_ops(id);
	struct ncr_hash_seg s = { m, len };

	if (h.digest(h.ctx, &s, 1, out))
		abort();
}

/* in must be k bytes; returns 0, or -1 if OpenSSL refuses (e.g. in >= n). */
static int raw_rsa(EVP_PKEY *pk, int priv, const u8 *in, size_t k, u8 *out)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(pk, NULL);
	size_t olen = k;
	int ok;

	if (priv)
		ok = c && EVP_PKEY_decrypt_init(c) > 0 &&
		     EVP_PKEY_CTX_set_rsa_padding(c, RSA_NO_PADDING) > 0 &&
		     EVP_PKEY_decrypt(c, out, &olen, in, k) > 0;
	else
		ok = c && EVP_PKEY_encrypt_init(c) > 0 &&
		     EVP_PKEY_CTX_set_rsa_padding(c, RSA_NO_PADDING) > 0 &&
		     EVP_PKEY_encrypt(c, out, &olen, in, k) > 0;
	EVP_PKEY_CTX_free(c);
	ERR_clear_error();
	return ok && olen == k ? 0 : -1;
}

static size_t key_bytes(EVP_PKEY *pk)
{
	return (size_t)EVP_PKEY_get_size(pk);
}

static size_t key_bits(EVP_PKEY *pk)
{
	return (size_t)EVP_PKEY_get_bits(pk);
}

/* ---- hex and key helpers ---- */

static u8 *unhex(const char *s, size_t *len)
{
	size_t n = strlen(s), i;
	u8 *b;

	if (n % 2)
		return NULL;
	b = malloc(n / 2 + 1);
	for (i = 0; i < n / 2; i++) {
		unsigned int v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1) {
			free(b);
			return NULL;
		}
		b[i] = (u8)v;
	}
	*len = n / 2;
	return b;
}

/* Builds an RSA key from the hex fields of a Wycheproof key object. */
static EVP_PKEY *key_from_hex(const struct jv *key, int priv)
{
	static const char *const fields[][2] = {
		{ "modulus", OSSL_PKEY_PARAM_RSA_N },
		{ "publicExponent", OSSL_PKEY_PARAM_RSA_E },
		{ "privateExponent", OSSL_PKEY_PARAM_RSA_D },
		{ "prime1", OSSL_PKEY_PARAM_RSA_FACTOR1 },
		{ "prime2", OSSL_PKEY_PARAM_RSA_FACTOR2 },
		{ "exponent1", OSSL_PKEY_PARAM_RSA_EXPONENT1 },
		{ "exponent2", OSSL_PKEY_PARAM_RSA_EXPONENT2 },
		{ "coefficient", OSSL_PKEY_PARAM_RSA_COEFFICIENT1 },
	};
	size_t i, nf = priv ? 8 : 2;
	BIGNUM *bn[8] = { NULL };
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
	EVP_PKEY *pk = NULL;
	int ok = bld && c;

	for (i = 0; ok && i < nf; i++) {
		const char *hex = jv_get_str(key, fields[i][0]);

		ok = hex && BN_hex2bn(&bn[i], hex) &&
		     OSSL_PARAM_BLD_push_BN(bld, fields[i][1], bn[i]);
	}
	if (ok)
		params = OSSL_PARAM_BLD_to_param(bld);
	if (params && EVP_PKEY_fromdata_init(c) > 0)
		EVP_PKEY_fromdata(c, &pk, priv ? EVP_PKEY_KEYPAIR :
				  EVP_PKEY_PUBLIC_KEY, params);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	EVP_PKEY_CTX_free(c);
	for (i = 0; i < nf; i++)
		BN_clear_free(bn[i]);
	return pk;
}

static EVP_PKEY *gen_rsa(unsigned int bits)
{
	EVP_PKEY *pk = NULL;
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);

	if (!c || EVP_PKEY_keygen_init(c) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_keygen_bits(c, bits) <= 0 ||
	    EVP_PKEY_keygen(c, &pk) <= 0)
		pk = NULL;
	EVP_PKEY_CTX_free(c);
	return pk;
}

static int hash_from_wycheproof(const char *name, enum ncr_hash_id *id)
{
	static const char *const names[NCR_HASH_COUNT] = {
		"SHA-1", "SHA-224", "SHA-256", "SHA-384", "SHA-512" };
	int i;

	for (i = 0; name && i < NCR_HASH_COUNT; i++) {
		if (!strcmp(name, names[i])) {
			*id = i;
			return 0;
		}
	}
	return -1;
}

/* ---- Wycheproof ---- */

struct counts {
	int valid_ok, invalid_ok, acceptable, acceptable_accepted, skipped;
	int wrong;
};

/* Records the outcome of one vector against its expected result. */
static void judge(struct counts *c, const char *file, const struct jv *t,
		  int accepted)
{
	const char *res = jv_get_str(t, "result");
	int id = (int)jv_get_num(t, "tcId", -1);

	unit_checks++;
	if (!strcmp(res, "acceptable")) {
		c->acceptable++;
		c->acceptable_accepted += accepted;
	} else if (!strcmp(res, "valid") && accepted) {
		c->valid_ok++;
	} else if (!strcmp(res, "invalid") && !accepted) {
		c->invalid_ok++;
	} else {
		c->wrong++;
		FAIL("%s tcId %d: expected %s, got %s", file, id, res,
		     accepted ? "accept" : "reject");
	}
}

/* RSASSA-PKCS1-v1_5 and RSASSA-PSS verification of one test. */
static int sig_accepted(EVP_PKEY *pk, enum ncr_hash_id hid, int pss,
			size_t slen, const struct jv *t)
{
	struct ncr_hash_ops h = hash_ops(hid);
	u8 mh[NCR_PKCS1_MAX_DIGEST];
	size_t mlen, slen_b, k = key_bytes(pk);
	u8 *msg = unhex(jv_get_str(t, "msg"), &mlen);
	u8 *sig = unhex(jv_get_str(t, "sig"), &slen_b);
	u8 *block = malloc(k);
	int ok = 0;

	if (!msg || !sig) {
		fprintf(stderr, "bad hex in vector\n");
		exit(2);
	}
	digest(hid, msg, mlen, mh);
	/* RSAVP1 input must be exactly k bytes and < n */
	if (slen_b == k && raw_rsa(pk, 0, sig, k, block) == 0) {
		if (pss)
			ok = ncr_emsa_pss_verify(&h, mh, slen, key_bits(pk),
						 block, k) == 0;
		else
			ok = ncr_emsa_pkcs1_v15_verify(hid, mh, h.digest_size,
						       block, k) == 0;
	}
	free(msg);
	free(sig);
	free(block);
	return ok;
}

static int decrypt_accepted(EVP_PKEY *pk, enum ncr_hash_id hid, int oaep,
			    const struct jv *t)
{
	struct ncr_hash_ops h = hash_ops(hid);
	size_t k = key_bytes(pk), mlen, clen, llen = 0, olen = 0;
	u8 *msg = unhex(jv_get_str(t, "msg"), &mlen);
	u8 *ct = unhex(jv_get_str(t, "ct"), &clen);
	const char *lhex = jv_get_str(t, "label");
	u8 *label = lhex ? unhex(lhex, &llen) : NULL;
	u8 *block = malloc(k), *out = malloc(k);
	int ok = 0, err;

	if (!msg || !ct || (lhex && !label)) {
		fprintf(stderr, "bad hex in vector\n");
		exit(2);
	}
	if (clen == k && raw_rsa(pk, 1, ct, k, block) == 0) {
		if (oaep)
			err = ncr_rsaes_oaep_decode(&h, label, llen, block, k,
						    out, k, &olen);
		else
			err = ncr_rsaes_pkcs1_v15_decode(block, k, out, k,
							 &olen);
		CHECKF(err == 0 || err == -EBADMSG, "decode error %d", err);
		ok = err == 0;
		/* an accepted ciphertext must yield the vector's message */
		if (ok && (olen != mlen || memcmp(out, msg, mlen)))
			ok = 0;
	}
	free(msg);
	free(ct);
	free(label);
	free(block);
	free(out);
	return ok;
}

enum wp_kind { WP_PKCS1_SIG, WP_PSS, WP_OAEP, WP_PKCS1_ENC };

static void run_file(const char *dir, const char *name, enum wp_kind kind)
{
	char path[4096];
	struct counts c = { 0 };
	struct jv *root;
	const struct jv *groups;
	size_t gi, ti;
	int auto_ok = 0, auto_n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	root = jv_parse_file(path);
	if (!root) {
		FAIL("%s: cannot read or parse", path);
		return;
	}
	groups = jv_get(root, "testGroups");
	for (gi = 0; groups && gi < groups->n; gi++) {
		const struct jv *g = groups->items[gi];
		const struct jv *tests = jv_get(g, "tests");
		enum ncr_hash_id hid = NCR_HASH_SHA1, mgf;
		int applicable = 1;
		size_t slen = 0;
		EVP_PKEY *pk;

		if (kind != WP_PKCS1_ENC &&
		    hash_from_wycheproof(jv_get_str(g, "sha"), &hid))
			applicable = 0;
		if (kind == WP_PSS || kind == WP_OAEP) {
			/* our encodings use MGF1 with the same hash */
			if (hash_from_wycheproof(jv_get_str(g, "mgfSha"), &mgf) ||
			    mgf != hid)
				applicable = 0;
			slen = (size_t)jv_get_num(g, "sLen", 0);
		}
		if (kind == WP_PKCS1_SIG || kind == WP_PSS)
			pk = key_from_hex(jv_get(g, "publicKey"), 0);
		else
			pk = key_from_hex(jv_get(g, "privateKey"), 1);
		if (!pk) {
			FAIL("%s: group %zu: key not loadable", name, gi);
			continue;
		}
		for (ti = 0; tests && ti < tests->n; ti++) {
			const struct jv *t = tests->items[ti];
			int acc;

			if (!applicable) {
				c.skipped++;
				continue;
			}
			switch (kind) {
			case WP_PKCS1_SIG:
				acc = sig_accepted(pk, hid, 0, 0, t);
				break;
			case WP_PSS:
				acc = sig_accepted(pk, hid, 1, slen, t);
				/* salt length recovery accepts every valid one */
				if (!strcmp(jv_get_str(t, "result"), "valid")) {
					auto_n++;
					auto_ok += sig_accepted(pk, hid, 1,
						NCR_PSS_SALT_AUTO, t);
				}
				break;
			case WP_OAEP:
				acc = decrypt_accepted(pk, hid, 1, t);
				break;
			default:
				acc = decrypt_accepted(pk, hid, 0, t);
				break;
			}
			judge(&c, name, t, acc);
		}
		EVP_PKEY_free(pk);
	}
	printf("%-46s valid %3d/ok, invalid %3d/rejected, acceptable %d (%d accepted), not applicable %d, WRONG %d",
	       name, c.valid_ok, c.invalid_ok, c.acceptable,
	       c.acceptable_accepted, c.skipped, c.wrong);
	if (kind == WP_PSS) {
		printf(", salt-auto %d/%d", auto_ok, auto_n);
		CHECKF(auto_ok == auto_n, "%s: salt length auto", name);
	}
	printf("\n");
	CHECKF(c.valid_ok + c.invalid_ok > 0, "%s: no vector ran", name);
	jv_free(root);
}

/* Returns 0 if the vectors ran, -1 if the directory is absent. */
static int run_wycheproof(const char *dir)
{
	static const struct {
		const char *file;
		enum wp_kind kind;
	} files[] = {
		{ "rsa_signature_2048_sha256_test.json", WP_PKCS1_SIG },
		{ "rsa_signature_3072_sha256_test.json", WP_PKCS1_SIG },
		{ "rsa_signature_4096_sha512_test.json", WP_PKCS1_SIG },
		{ "rsa_pss_2048_sha256_mgf1_0_test.json", WP_PSS },
		{ "rsa_pss_2048_sha256_mgf1_0_params_test.json", WP_PSS },
		{ "rsa_pss_2048_sha256_mgf1_32_test.json", WP_PSS },
		{ "rsa_pss_2048_sha256_mgf1_32_params_test.json", WP_PSS },
		{ "rsa_pss_3072_sha256_mgf1_32_test.json", WP_PSS },
		{ "rsa_pss_3072_sha256_mgf1_32_params_test.json", WP_PSS },
		{ "rsa_oaep_2048_sha1_mgf1sha1_test.json", WP_OAEP },
		{ "rsa_oaep_2048_sha256_mgf1sha256_test.json", WP_OAEP },
		{ "rsa_pkcs1_2048_test.json", WP_PKCS1_ENC },
	};
	char probe[4200];
	FILE *f;
	size_t i;

	snprintf(probe, sizeof(probe), "%s/%s", dir, files[0].file);
	f = fopen(probe, "r");
	if (!f) {
		printf("SKIP Wycheproof: %s not found\n", probe);
		return -1;
	}
	fclose(f);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		run_file(dir, files[i].file, files[i].kind);
	return 0;
}

static const char *vector_dir(int argc, char **argv)
{
	static char buf[4096];
	const char *root;

	if (argc > 1)
		return argv[1];
	if (getenv("NCR_WYCHEPROOF_DIR") && *getenv("NCR_WYCHEPROOF_DIR"))
		return getenv("NCR_WYCHEPROOF_DIR");
	root = getenv("NCR_ROOT") ? getenv("NCR_ROOT") : ".";
	snprintf(buf, sizeof(buf), "%s/../shared/vectors/wycheproof", root);
	return buf;
}

/* ---- interop with OpenSSL's own padding ---- */

static int ossl_verify(EVP_PKEY *pk, enum ncr_hash_id hid, int pad, int slen,
		       const u8 *mh, const u8 *sig, size_t siglen)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(pk, NULL);
	int ok = c && EVP_PKEY_verify_init(c) > 0 &&
		 EVP_PKEY_CTX_set_rsa_padding(c, pad) > 0 &&
		 EVP_PKEY_CTX_set_signature_md(c, md_of(hid)) > 0 &&
		 (pad != RSA_PKCS1_PSS_PADDING ||
		  EVP_PKEY_CTX_set_rsa_pss_saltlen(c, slen) > 0) &&
		 EVP_PKEY_verify(c, sig, siglen, mh,
				 ncr_pkcs1_hash_size(hid)) == 1;

	EVP_PKEY_CTX_free(c);
	ERR_clear_error();
	return ok;
}

static size_t ossl_sign(EVP_PKEY *pk, enum ncr_hash_id hid, int pad, int slen,
			const u8 *mh, u8 *sig)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(pk, NULL);
	size_t siglen = key_bytes(pk);
	int ok = c && EVP_PKEY_sign_init(c) > 0 &&
		 EVP_PKEY_CTX_set_rsa_padding(c, pad) > 0 &&
		 EVP_PKEY_CTX_set_signature_md(c, md_of(hid)) > 0 &&
		 (pad != RSA_PKCS1_PSS_PADDING ||
		  EVP_PKEY_CTX_set_rsa_pss_saltlen(c, slen) > 0) &&
		 EVP_PKEY_sign(c, sig, &siglen, mh,
			       ncr_pkcs1_hash_size(hid)) > 0;

	EVP_PKEY_CTX_free(c);
	return ok ? siglen : 0;
}

static void interop_sign(EVP_PKEY *pk, enum ncr_hash_id hid)
{
	struct ncr_hash_ops h = hash_ops(hid);
	size_t k = key_bytes(pk), bits = key_bits(pk), hl = h.digest_size;
	size_t max_salt = (bits - 1 + 7) / 8 - hl - 2;
	size_t salts[3] = { 0, hl, max_salt };
	u8 *block = malloc(k), *sig = malloc(k);
	u8 mh[NCR_PKCS1_MAX_DIGEST];
	size_t i, siglen;
	int err;

	digest(hid, (const u8 *)"interop", 7, mh);

	/* PKCS#1 v1.5: ours -> OpenSSL, OpenSSL -> ours */
	err = ncr_emsa_pkcs1_v15_encode(hid, mh, hl, block, k);
	CHECKF(!err && !raw_rsa(pk, 1, block, k, sig), "v15 sign");
	CHECKF(ossl_verify(pk, hid, RSA_PKCS1_PADDING, 0, mh, sig, k),
	       "OpenSSL rejects our v1.5 signature (%s, %zu bits)",
	       ncr_pkcs1_hash_name(hid), bits);
	siglen = ossl_sign(pk, hid, RSA_PKCS1_PADDING, 0, mh, sig);
	CHECKF(siglen == k && !raw_rsa(pk, 0, sig, k, block) &&
	       !ncr_emsa_pkcs1_v15_verify(hid, mh, hl, block, k),
	       "we reject OpenSSL's v1.5 signature");
	block[k - 1] ^= 1;
	CHECKF(ncr_emsa_pkcs1_v15_verify(hid, mh, hl, block, k) == -EBADMSG,
	       "v1.5 verify accepts a modified block");

	/* PSS with salt 0, hLen and the maximum */
	for (i = 0; i < 3; i++) {
		if (max_salt > k) /* key too small for this hash */
			break;
		err = ncr_emsa_pss_encode(&h, mh, salts[i], ossl_rng, NULL,
					  bits, block, k);
		CHECKF(!err && !raw_rsa(pk, 1, block, k, sig),
		       "pss encode %d", err);
		CHECKF(ossl_verify(pk, hid, RSA_PKCS1_PSS_PADDING,
				   (int)salts[i], mh, sig, k),
		       "OpenSSL rejects our PSS signature (%s, %zu bits, salt %zu)",
		       ncr_pkcs1_hash_name(hid), bits, salts[i]);
		siglen = ossl_sign(pk, hid, RSA_PKCS1_PSS_PADDING,
				   (int)salts[i], mh, sig);
		CHECKF(siglen == k && !raw_rsa(pk, 0, sig, k, block),
		       "OpenSSL PSS sign");
		CHECKF(!ncr_emsa_pss_verify(&h, mh, salts[i], bits, block, k),
		       "we reject OpenSSL's PSS signature (salt %zu)", salts[i]);
		CHECKF(!ncr_emsa_pss_verify(&h, mh, NCR_PSS_SALT_AUTO, bits,
					    block, k), "salt auto");
		if (salts[i] != hl)
			CHECKF(ncr_emsa_pss_verify(&h, mh, hl, bits, block, k) ==
			       -EBADMSG, "PSS verify ignores the salt length");
		mh[0] ^= 1;
		CHECKF(ncr_emsa_pss_verify(&h, mh, NCR_PSS_SALT_AUTO, bits,
					   block, k) == -EBADMSG,
		       "PSS verify accepts another digest");
		mh[0] ^= 1;
	}
	CHECKF(ncr_emsa_pss_encode(&h, mh, max_salt + 1, ossl_rng, NULL, bits,
				   block, k) == -EINVAL, "oversized salt");
	free(block);
	free(sig);
}

static void interop_encrypt(EVP_PKEY *pk, enum ncr_hash_id hid, int oaep)
{
	struct ncr_hash_ops h = hash_ops(hid);
	size_t k = key_bytes(pk), max, lens[4], i, olen;
	u8 *block = malloc(k), *ct = malloc(k), *out = malloc(k);
	u8 msg[512];
	int err;

	max = oaep ? ncr_rsaes_oaep_max_msg(&h, k) : ncr_rsaes_pkcs1_v15_max_msg(k);
	lens[0] = 0;
	lens[1] = 1;
	lens[2] = max / 2;
	lens[3] = max;
	RAND_bytes(msg, sizeof(msg));
	for (i = 0; i < 4; i++) {
		EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(pk, NULL);
		int pad = oaep ? RSA_PKCS1_OAEP_PADDING : RSA_PKCS1_PADDING;
		int ok;

		/* ours -> OpenSSL */
		err = oaep ? ncr_rsaes_oaep_encode(&h, NULL, 0, msg, lens[i],
						   ossl_rng, NULL, block, k) :
			     ncr_rsaes_pkcs1_v15_encode(msg, lens[i], ossl_rng,
							NULL, block, k);
		CHECKF(!err && !raw_rsa(pk, 0, block, k, ct), "encode %d", err);
		olen = k;
		ok = c && EVP_PKEY_decrypt_init(c) > 0 &&
		     EVP_PKEY_CTX_set_rsa_padding(c, pad) > 0 &&
		     (!oaep || (EVP_PKEY_CTX_set_rsa_oaep_md(c, md_of(hid)) > 0 &&
				EVP_PKEY_CTX_set_rsa_mgf1_md(c, md_of(hid)) > 0)) &&
		     EVP_PKEY_decrypt(c, out, &olen, ct, k) > 0;
		CHECKF(ok && olen == lens[i] && !memcmp(out, msg, olen),
		       "OpenSSL cannot decrypt our %s (%s, len %zu)",
		       oaep ? "OAEP" : "v1.5", ncr_pkcs1_hash_name(hid),
		       lens[i]);
		/* OpenSSL -> ours */
		olen = k;
		ok = EVP_PKEY_encrypt_init(c) > 0 &&
		     EVP_PKEY_CTX_set_rsa_padding(c, pad) > 0 &&
		     (!oaep || (EVP_PKEY_CTX_set_rsa_oaep_md(c, md_of(hid)) > 0 &&
				EVP_PKEY_CTX_set_rsa_mgf1_md(c, md_of(hid)) > 0)) &&
		     EVP_PKEY_encrypt(c, ct, &olen, msg, lens[i]) > 0;
		CHECKF(ok && olen == k && !raw_rsa(pk, 1, ct, k, block),
		       "OpenSSL encrypt");
		olen = 0;
		err = oaep ? ncr_rsaes_oaep_decode(&h, NULL, 0, block, k, out,
						   k, &olen) :
			     ncr_rsaes_pkcs1_v15_decode(block, k, out, k, &olen);
		CHECKF(!err && olen == lens[i] && !memcmp(out, msg, olen),
		       "we cannot decrypt OpenSSL's %s (len %zu): %d",
		       oaep ? "OAEP" : "v1.5", lens[i], err);
		/* the smallest accepted output buffer is the maximum length */
		err = oaep ? ncr_rsaes_oaep_decode(&h, NULL, 0, block, k, out,
						   max - 1, &olen) :
			     ncr_rsaes_pkcs1_v15_decode(block, k, out, max - 1,
							&olen);
		CHECKF(err == -ERANGE, "short output buffer: %d", err);
		if (oaep) {
			/* wrong label */
			err = ncr_rsaes_oaep_decode(&h, (const u8 *)"x", 1,
						    block, k, out, k, &olen);
			CHECKF(err == -EBADMSG, "OAEP label ignored");
		}
		EVP_PKEY_CTX_free(c);
		ERR_clear_error();
	}
	err = oaep ? ncr_rsaes_oaep_encode(&h, NULL, 0, msg, max + 1, ossl_rng,
					   NULL, block, k) :
		     ncr_rsaes_pkcs1_v15_encode(msg, max + 1, ossl_rng, NULL,
						block, k);
	CHECKF(err == -EMSGSIZE, "message too long: %d", err);
	free(block);
	free(ct);
	free(out);
}

/* ---- decoder error contract ---- */

/* Every malformed v1.5 block gives -EBADMSG and an all-zero output. */
static void v15_decode_errors(void)
{
	enum { K = 128 };
	u8 block[K], out[K];
	size_t olen, i;
	int err, v;

	for (v = 0; v < 8; v++) {
		memset(block, 0x5a, K);
		block[0] = 0;
		block[1] = 2;
		block[K - 5] = 0;	/* valid: 4-byte message */
		switch (v) {
		case 0: block[0] = 1; break;
		case 1: block[1] = 1; break;
		case 2: block[K - 5] = 0x5a; break;	/* no separator */
		case 3: block[9] = 0; break;		/* PS of 7 bytes */
		case 4: block[2] = 0; break;		/* PS empty */
		case 5: block[1] = 0; break;
		case 6: block[0] = 0xff; block[1] = 0xff; break;
		case 7: break;				/* valid */
		}
		memset(out, 0xee, K);
		olen = 12345;
		err = ncr_rsaes_pkcs1_v15_decode(block, K, out, K, &olen);
		if (v == 7) {
			CHECKF(!err && olen == 4 && !memcmp(out, block + K - 4, 4),
			       "valid v1.5 block rejected");
			continue;
		}
		CHECKF(err == -EBADMSG, "variant %d: %d", v, err);
		for (i = 0; i < K - 11; i++)
			if (out[i])
				break;
		CHECKF(i == K - 11, "variant %d: output not cleared", v);
	}
	/* separator exactly at index 10 is the shortest valid PS */
	memset(block, 0x11, K);
	block[0] = 0;
	block[1] = 2;
	block[10] = 0;
	err = ncr_rsaes_pkcs1_v15_decode(block, K, out, K, &olen);
	CHECKF(!err && olen == K - 11, "PS of 8 bytes");
	/* empty message: separator last */
	memset(block, 0x11, K);
	block[0] = 0;
	block[1] = 2;
	block[K - 1] = 0;
	err = ncr_rsaes_pkcs1_v15_decode(block, K, out, K, &olen);
	CHECKF(!err && olen == 0, "empty message");
	CHECKF(ncr_rsaes_pkcs1_v15_decode(block, 10, out, K, &olen) == -EINVAL,
	       "tiny key");
}

static void misc_api(void)
{
	enum ncr_hash_id id;
	struct ncr_hash_ops h = hash_ops(NCR_HASH_SHA256);
	u8 block[64], mh[32] = { 0 };

	CHECKF(!ncr_pkcs1_hash_by_name("sha384", &id) && id == NCR_HASH_SHA384,
	       "hash by name");
	CHECKF(ncr_pkcs1_hash_by_name("md5", &id) == -EINVAL, "md5 refused");
	CHECKF(ncr_pkcs1_hash_size(NCR_HASH_SHA224) == 28, "sha224 size");
	/* 512-bit modulus is too small for a SHA-512 DigestInfo */
	CHECKF(ncr_emsa_pkcs1_v15_encode(NCR_HASH_SHA512, block, 64, block,
					 64) == -EINVAL, "too small key");
	CHECKF(ncr_emsa_pkcs1_v15_encode(NCR_HASH_SHA256, block, 20, block,
					 64) == -EINVAL, "digest length");
	/* mod_bits inconsistent with k */
	CHECKF(ncr_emsa_pss_encode(&h, mh, 0, ossl_rng, NULL, 600, block,
				   64) == -EINVAL, "pss k/bits");
	h.digest_size = 20;	/* lies about its size */
	CHECKF(ncr_emsa_pss_encode(&h, mh, 0, ossl_rng, NULL, 512, block,
				   64) == -EINVAL, "hash ops size check");
}

int main(int argc, char **argv)
{
	static const unsigned int sizes[] = { 1025, 2048, 2056 };
	size_t i;
	int hid, have_vectors;

	misc_api();
	v15_decode_errors();
	have_vectors = run_wycheproof(vector_dir(argc, argv)) == 0;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		EVP_PKEY *pk = gen_rsa(sizes[i]);

		CHECKF(pk, "keygen %u", sizes[i]);
		if (!pk)
			continue;
		for (hid = 0; hid < NCR_HASH_COUNT; hid++) {
			/* SHA-512 PSS/OAEP do not fit a 1025-bit key */
			if (sizes[i] > 1025 || hid < NCR_HASH_SHA512)
				interop_sign(pk, hid);
			if (sizes[i] > 1025 || hid < NCR_HASH_SHA384)
				interop_encrypt(pk, hid, 1);
		}
		interop_encrypt(pk, NCR_HASH_SHA1, 0);
		EVP_PKEY_free(pk);
	}
	if (unit_report("test_pkcs1"))
		return 1;
	return have_vectors ? 0 : 77;
}
