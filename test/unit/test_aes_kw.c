// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of driver/lib/aes_kw.c: every Wycheproof aes_wrap and
 * aes_kwp vector, a differential test against OpenSSL's own key wrap
 * ciphers (including non-default IVs), tamper and buffer-size checks, and
 * the "nothing written on failure" guarantee.  AES comes from libcrypto.
 *
 * Usage: test_aes_kw VECTOR_DIR   (exit 77 = skipped: no vectors)
 */
#include "aes_kw.h"
#include "unit.h"
#include "wycheproof_scan.h"

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <sys/stat.h>

#define SENTINEL 0x5a
#define BUF_MAX 2048

/* ---- AES-ECB one-block callbacks from libcrypto ---- */

struct ossl_aes {
	EVP_CIPHER_CTX *enc, *dec;
};

static int ossl_block(EVP_CIPHER_CTX *ctx, u8 *block)
{
	int outl = 0;

	if (!EVP_CipherUpdate(ctx, block, &outl, block, AES_KW_BLOCK) ||
	    outl != AES_KW_BLOCK)
		return -EIO;
	return 0;
}

static int ossl_encrypt(void *ctx, u8 *block)
{
	return ossl_block(((struct ossl_aes *)ctx)->enc, block);
}

static int ossl_decrypt(void *ctx, u8 *block)
{
	return ossl_block(((struct ossl_aes *)ctx)->dec, block);
}

static const EVP_CIPHER *ecb_for(size_t key_len)
{
	switch (key_len) {
	case 16: return EVP_aes_128_ecb();
	case 24: return EVP_aes_192_ecb();
	case 32: return EVP_aes_256_ecb();
	}
	return NULL;
}

static int aes_open(struct ossl_aes *a, struct aes_kw_cipher *c,
		    const u8 *key, size_t key_len)
{
	const EVP_CIPHER *ciph = ecb_for(key_len);

	a->enc = EVP_CIPHER_CTX_new();
	a->dec = EVP_CIPHER_CTX_new();
	if (!ciph || !a->enc || !a->dec ||
	    !EVP_CipherInit_ex(a->enc, ciph, NULL, key, NULL, 1) ||
	    !EVP_CipherInit_ex(a->dec, ciph, NULL, key, NULL, 0))
		return -1;
	EVP_CIPHER_CTX_set_padding(a->enc, 0);
	EVP_CIPHER_CTX_set_padding(a->dec, 0);
	c->encrypt = ossl_encrypt;
	c->decrypt = ossl_decrypt;
	c->ctx = a;
	return 0;
}

static void aes_close(struct ossl_aes *a)
{
	EVP_CIPHER_CTX_free(a->enc);
	EVP_CIPHER_CTX_free(a->dec);
}

/* ---- helpers ---- */

typedef int (*kw_fn)(const struct aes_kw_cipher *, const u8 *, const u8 *,
		     size_t, u8 *, size_t *);

struct mode {
	const char *name;
	kw_fn wrap, unwrap;
};

static const struct mode kw = { "KW", aes_kw_wrap, aes_kw_unwrap };
static const struct mode kwp = { "KWP", aes_kwp_wrap, aes_kwp_unwrap };

static int untouched(const u8 *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i] != SENTINEL)
			return 0;
	return 1;
}

/*
 * Unwrap that must fail: returns the error; checks the destination and
 * out_len are untouched.
 */
static int unwrap_must_fail(const struct mode *m, const struct aes_kw_cipher *c,
			    const u8 *iv, const u8 *ct, size_t ct_len,
			    const char *what)
{
	u8 out[BUF_MAX];
	size_t out_len = sizeof(out);
	int ret;

	memset(out, SENTINEL, sizeof(out));
	ret = m->unwrap(c, iv, ct, ct_len, out, &out_len);
	if (ret == 0)
		FAIL("%s %s: unwrap accepted", m->name, what);
	else if (ret != -EBADMSG && ret != -EINVAL)
		FAIL("%s %s: unwrap error %d, want EBADMSG/EINVAL", m->name,
		     what, ret);
	if (!untouched(out, sizeof(out)) || out_len != sizeof(out))
		FAIL("%s %s: failed unwrap wrote to the destination", m->name,
		     what);
	return ret;
}

/* ---- Wycheproof ---- */

struct wp_stats {
	const struct mode *m;
	int valid, valid_ok, invalid, invalid_ok, acceptable,
	    acceptable_rejected, acceptable_ok;
};

static void check_valid(const struct mode *m, const struct aes_kw_cipher *c,
			int id, const u8 *msg, size_t msg_len, const u8 *ct,
			size_t ct_len, int *ok)
{
	u8 out[BUF_MAX];
	size_t out_len = sizeof(out);
	int ret, good = 1;

	ret = m->wrap(c, NULL, msg, msg_len, out, &out_len);
	if (ret || out_len != ct_len || memcmp(out, ct, ct_len)) {
		FAIL("%s tcId %d: wrap ret %d, mismatch", m->name, id, ret);
		good = 0;
	}
	/* exactly-sized buffer works, one byte less is ERANGE, untouched */
	memset(out, SENTINEL, sizeof(out));
	out_len = msg_len - 1;
	ret = m->unwrap(c, NULL, ct, ct_len, out, &out_len);
	if (ret != -ERANGE || !untouched(out, sizeof(out))) {
		FAIL("%s tcId %d: short unwrap buffer ret %d", m->name, id, ret);
		good = 0;
	}
	out_len = msg_len;
	ret = m->unwrap(c, NULL, ct, ct_len, out, &out_len);
	if (ret || out_len != msg_len || memcmp(out, msg, msg_len) ||
	    out[msg_len] != SENTINEL) {
		FAIL("%s tcId %d: unwrap ret %d, mismatch", m->name, id, ret);
		good = 0;
	}
	*ok += good;
}

/* Invalid: unwrap(ct) is rejected; wrap(msg) fails or gives another ct. */
static void check_invalid(const struct mode *m, const struct aes_kw_cipher *c,
			  int id, const u8 *msg, size_t msg_len, const u8 *ct,
			  size_t ct_len, int *ok)
{
	u8 out[BUF_MAX];
	size_t out_len = sizeof(out);
	char what[32];
	int f0 = unit_failures;

	snprintf(what, sizeof(what), "tcId %d", id);
	unwrap_must_fail(m, c, NULL, ct, ct_len, what);
	if (m->wrap(c, NULL, msg, msg_len, out, &out_len) == 0 &&
	    out_len == ct_len && !memcmp(out, ct, ct_len))
		FAIL("%s tcId %d: wrap reproduced an invalid ciphertext",
		     m->name, id);
	*ok += unit_failures == f0;
}

static int wp_cb(const struct wp_test *t, void *arg)
{
	struct wp_stats *st = arg;
	const char *res = wp_get(t, "result");
	u8 *key = NULL, *msg = NULL, *ct = NULL;
	size_t key_len, msg_len, ct_len;
	struct aes_kw_cipher c;
	struct ossl_aes a;

	if (!res || !wp_get(t, "key") || !wp_get(t, "msg") || !wp_get(t, "ct")) {
		FAIL("%s tcId %d: malformed vector", st->m->name, t->tc_id);
		return 0;
	}
	key = wp_unhex(wp_get(t, "key"), &key_len);
	msg = wp_unhex(wp_get(t, "msg"), &msg_len);
	ct = wp_unhex(wp_get(t, "ct"), &ct_len);
	if (!key || !msg || !ct || aes_open(&a, &c, key, key_len)) {
		FAIL("%s tcId %d: bad hex or key", st->m->name, t->tc_id);
		goto out;
	}
	if (!strcmp(res, "valid")) {
		st->valid++;
		check_valid(st->m, &c, t->tc_id, msg, msg_len, ct, ct_len,
			    &st->valid_ok);
	} else if (!strcmp(res, "invalid")) {
		st->invalid++;
		check_invalid(st->m, &c, t->tc_id, msg, msg_len, ct, ct_len,
			      &st->invalid_ok);
	} else {
		/*
		 * "acceptable" = KW of an 8-byte key, which RFC 3394 2.2.1
		 * (n >= 2) and SP 800-38F exclude: our policy rejects it.
		 */
		u8 out[BUF_MAX];
		size_t out_len = sizeof(out);

		st->acceptable++;
		if (st->m->wrap(&c, NULL, msg, msg_len, out, &out_len) ==
		    -EINVAL &&
		    unwrap_must_fail(st->m, &c, NULL, ct, ct_len, "acceptable"))
			st->acceptable_rejected++;
		else
			FAIL("%s tcId %d: acceptable vector not handled by policy",
			     st->m->name, t->tc_id);
	}
	aes_close(&a);
out:
	free(key);
	free(msg);
	free(ct);
	return 0;
}

static int run_file(const char *dir, const char *file, const struct mode *m)
{
	char path[4096];
	struct wp_stats st = { .m = m };
	int n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	n = wp_scan_file(path, wp_cb, &st);
	if (n < 0) {
		FAIL("%s: cannot read or parse", path);
		return -1;
	}
	printf("%s: %d vectors: valid %d/%d passed, invalid %d/%d rejected, "
	       "acceptable %d (rejected by policy: %d)\n", file, n,
	       st.valid_ok, st.valid, st.invalid_ok, st.invalid,
	       st.acceptable, st.acceptable_rejected);
	if (n == 0 || st.valid == 0)
		FAIL("%s: no vectors found", file);
	return n;
}

/* ---- differential test against OpenSSL's wrap ciphers ---- */

static const EVP_CIPHER *ossl_wrap_for(const struct mode *m, size_t key_len)
{
	if (m == &kw)
		return key_len == 16 ? EVP_aes_128_wrap() :
		       key_len == 24 ? EVP_aes_192_wrap() : EVP_aes_256_wrap();
	return key_len == 16 ? EVP_aes_128_wrap_pad() :
	       key_len == 24 ? EVP_aes_192_wrap_pad() : EVP_aes_256_wrap_pad();
}

static int ossl_wrap(const struct mode *m, const u8 *key, size_t key_len,
		     const u8 *iv, const u8 *in, size_t in_len, u8 *out)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int l1 = 0, l2 = 0;

	EVP_CIPHER_CTX_set_flags(ctx, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
	if (!EVP_EncryptInit_ex(ctx, ossl_wrap_for(m, key_len), NULL, key, iv) ||
	    !EVP_EncryptUpdate(ctx, out, &l1, in, (int)in_len) ||
	    !EVP_EncryptFinal_ex(ctx, out + l1, &l2))
		l1 = -1, l2 = 0;
	EVP_CIPHER_CTX_free(ctx);
	return l1 + l2;
}

static void differential(const struct mode *m, int use_iv, int *count)
{
	static const size_t key_lens[] = { 16, 24, 32 };
	u8 key[32], iv[8], in[600], ours[BUF_MAX], theirs[BUF_MAX], back[BUF_MAX];
	size_t len, k;

	for (k = 0; k < 3; k++) {
		size_t step = m == &kw ? 8 : 1, first = m == &kw ? 16 : 1;

		for (len = first; len <= 520; len += step) {
			struct aes_kw_cipher c;
			struct ossl_aes a;
			size_t ol = sizeof(ours), bl = sizeof(back);
			int tl;

			RAND_bytes(key, (int)key_lens[k]);
			RAND_bytes(iv, sizeof(iv));
			RAND_bytes(in, (int)len);
			if (aes_open(&a, &c, key, key_lens[k]))
				FAIL("aes_open");
			tl = ossl_wrap(m, key, key_lens[k], use_iv ? iv : NULL,
				       in, len, theirs);
			if (m->wrap(&c, use_iv ? iv : NULL, in, len, ours, &ol) ||
			    tl < 0 || (size_t)tl != ol || memcmp(ours, theirs, ol))
				FAIL("%s diff len %zu key %zu iv %d: differs from "
				     "OpenSSL", m->name, len, key_lens[k], use_iv);
			if (m->unwrap(&c, use_iv ? iv : NULL, ours, ol, back,
				      &bl) || bl != len || memcmp(back, in, len))
				FAIL("%s diff len %zu: round trip", m->name, len);
			/* under another IV the same ciphertext is rejected */
			if (use_iv)
				unwrap_must_fail(m, &c, NULL, ours, ol, "other iv");
			aes_close(&a);
			(*count)++;
		}
	}
}

/* ---- tampering, sizes, aliasing, callback errors ---- */

static void tamper(const struct mode *m, size_t len, int *count)
{
	u8 key[16], in[64], ct[BUF_MAX], bad[BUF_MAX];
	struct aes_kw_cipher c;
	struct ossl_aes a;
	size_t cl = sizeof(ct), bit;

	RAND_bytes(key, sizeof(key));
	RAND_bytes(in, sizeof(in));
	aes_open(&a, &c, key, sizeof(key));
	if (m->wrap(&c, NULL, in, len, ct, &cl))
		FAIL("%s tamper wrap %zu", m->name, len);
	for (bit = 0; bit < cl * 8; bit++) {
		memcpy(bad, ct, cl);
		bad[bit / 8] ^= 1 << (bit % 8);
		if (unwrap_must_fail(m, &c, NULL, bad, cl, "bit flip") !=
		    -EBADMSG)
			FAIL("%s bit flip %zu: not EBADMSG", m->name, bit);
		(*count)++;
	}
	/* truncation by one semiblock (still well-formed) and extension */
	if (cl > 16)
		unwrap_must_fail(m, &c, NULL, ct, cl - 8, "truncated");
	memcpy(bad, ct, cl);
	memset(bad + cl, 0, 8);
	unwrap_must_fail(m, &c, NULL, bad, cl + 8, "extended");
	unwrap_must_fail(m, &c, NULL, ct, cl - 1, "odd length");
	(*count) += 3;
	aes_close(&a);
}

static int failing_cipher(void *ctx, u8 *block)
{
	(void)ctx;
	(void)block;
	return -EIO;
}

static void misc(int *count)
{
	u8 key[16] = { 1 }, buf[BUF_MAX], ref[BUF_MAX], in[40];
	struct aes_kw_cipher c, broken = { failing_cipher, failing_cipher, NULL };
	struct ossl_aes a;
	size_t l, rl;

	RAND_bytes(in, sizeof(in));
	aes_open(&a, &c, key, sizeof(key));

	/* in-place wrap (out == in) gives the same result */
	rl = sizeof(ref);
	aes_kwp_wrap(&c, NULL, in, 37, ref, &rl);
	memcpy(buf, in, 37);
	l = sizeof(buf);
	if (aes_kwp_wrap(&c, NULL, buf, 37, buf, &l) || l != rl ||
	    memcmp(buf, ref, rl))
		FAIL("KWP in-place wrap");
	rl = sizeof(ref);
	aes_kw_wrap(&c, NULL, in, 32, ref, &rl);
	memcpy(buf, in, 32);
	l = sizeof(buf);
	if (aes_kw_wrap(&c, NULL, buf, 32, buf, &l) || l != rl ||
	    memcmp(buf, ref, rl))
		FAIL("KW in-place wrap");

	/* wrap: output too small -> ERANGE, nothing written */
	memset(buf, SENTINEL, sizeof(buf));
	l = 39;
	if (aes_kw_wrap(&c, NULL, in, 32, buf, &l) != -ERANGE ||
	    !untouched(buf, sizeof(buf)) || l != 39)
		FAIL("KW short output");
	l = 15;
	if (aes_kwp_wrap(&c, NULL, in, 1, buf, &l) != -ERANGE ||
	    !untouched(buf, sizeof(buf)))
		FAIL("KWP short output");

	/* lengths */
	l = sizeof(buf);
	if (aes_kw_wrap(&c, NULL, in, 8, buf, &l) != -EINVAL ||
	    aes_kw_wrap(&c, NULL, in, 0, buf, &l) != -EINVAL ||
	    aes_kw_wrap(&c, NULL, in, 20, buf, &l) != -EINVAL ||
	    aes_kwp_wrap(&c, NULL, in, 0, buf, &l) != -EINVAL)
		FAIL("wrap length checks");
	if (aes_kw_unwrap(&c, NULL, in, 16, buf, &l) != -EINVAL ||
	    aes_kwp_unwrap(&c, NULL, in, 8, buf, &l) != -EINVAL ||
	    aes_kwp_unwrap(&c, NULL, in, 0, buf, &l) != -EINVAL)
		FAIL("unwrap length checks");
	if (aes_kwp_wrapped_len(1) != 16 || aes_kwp_wrapped_len(8) != 16 ||
	    aes_kwp_wrapped_len(9) != 24 || aes_kw_wrapped_len(16) != 24)
		FAIL("wrapped_len");

	/* cipher errors propagate; failed unwrap writes nothing */
	l = sizeof(buf);
	if (aes_kw_wrap(&broken, NULL, in, 16, buf, &l) != -EIO ||
	    aes_kwp_wrap(&broken, NULL, in, 3, buf, &l) != -EIO)
		FAIL("wrap cipher error not propagated");
	memset(buf, SENTINEL, sizeof(buf));
	l = sizeof(buf);
	if (aes_kwp_unwrap(&broken, NULL, ref, 16, buf, &l) != -EIO ||
	    aes_kw_unwrap(&broken, NULL, ref, 24, buf, &l) != -EIO ||
	    !untouched(buf, sizeof(buf)))
		FAIL("unwrap cipher error");
	aes_close(&a);
	*count += 8;
}

int main(int argc, char **argv)
{
	struct stat sb;
	int n_diff = 0, n_tamper = 0, n_misc = 0;
	size_t len;

	if (argc < 2 || stat(argv[1], &sb) || !S_ISDIR(sb.st_mode))
		return unit_skip("Wycheproof vector directory %s not found",
				 argc > 1 ? argv[1] : "(none given)");
	run_file(argv[1], "aes_wrap_test.json", &kw);
	run_file(argv[1], "aes_kwp_test.json", &kwp);

	differential(&kw, 0, &n_diff);
	differential(&kw, 1, &n_diff);
	differential(&kwp, 0, &n_diff);
	differential(&kwp, 1, &n_diff);
	for (len = 1; len <= 17; len++)
		tamper(&kwp, len, &n_tamper);
	tamper(&kw, 16, &n_tamper);
	tamper(&kw, 40, &n_tamper);
	misc(&n_misc);
	printf("differential vs OpenSSL: %d cases; tamper: %d cases; misc: %d\n",
	       n_diff, n_tamper, n_misc);
	return unit_report("test_aes_kw");
}
