// SPDX-License-Identifier: GPL-2.0
/*
 * In-process AES check of the ncr provider against the default provider:
 * every mode and key size, many message sizes cut into random update
 * sizes, EVP_CIPHER_CTX_copy() in the middle of a stream (the copy and
 * the original must both continue correctly and independently), and
 * updates in place (out == in).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/provider.h>
#include <openssl/rand.h>

static int failures;

#define CHECK(c, ...) do { if (!(c)) { fprintf(stderr, "FAIL %s:%d: ", \
	__FILE__, __LINE__); fprintf(stderr, __VA_ARGS__); \
	fputc('\n', stderr); ERR_print_errors_fp(stderr); failures++; \
	goto out; } } while (0)

/* One whole-buffer reference encryption/decryption. */
static int ref_crypt(EVP_CIPHER *c, int enc, const unsigned char *key,
		     const unsigned char *iv, const unsigned char *in,
		     int inl, unsigned char *out, int *outl)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int n = 0, m = 0, ok;

	ok = x && EVP_CipherInit_ex2(x, c, key, iv, enc, NULL) &&
	     EVP_CipherUpdate(x, out, &n, in, inl) &&
	     EVP_CipherFinal_ex(x, out + n, &m);
	*outl = n + m;
	EVP_CIPHER_CTX_free(x);
	return ok;
}

/* Feed in in random pieces; copy the context at byte 'cut'. */
static int chunked(EVP_CIPHER *c, int enc, const unsigned char *key,
		   const unsigned char *iv, const unsigned char *in, int inl,
		   int cut, unsigned char *out, int *outl,
		   unsigned char *out2, int *outl2)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new(), *y = NULL;
	int pos = 0, o = 0, o2 = 0, n, ok = 0;

	if (x == NULL || !EVP_CipherInit_ex2(x, c, key, iv, enc, NULL))
		goto done;
	while (pos < inl) {
		int step = 1 + rand() % 40;

		if (rand() % 4 == 0)
			step = 1 + rand() % 3000;
		if (pos < cut && pos + step > cut)
			step = cut - pos;
		if (step > inl - pos)
			step = inl - pos;
		if (!EVP_CipherUpdate(x, out + o, &n, in + pos, step))
			goto done;
		o += n;
		if (y != NULL) {
			if (!EVP_CipherUpdate(y, out2 + o2, &n, in + pos, step))
				goto done;
			o2 += n;
		}
		pos += step;
		if (pos == cut && y == NULL) {
			y = EVP_CIPHER_CTX_new();
			if (y == NULL || !EVP_CIPHER_CTX_copy(y, x))
				goto done;
			memcpy(out2, out, o);
			o2 = o;
		}
	}
	if (!EVP_CipherFinal_ex(x, out + o, &n))
		goto done;
	o += n;
	if (y != NULL) {
		if (!EVP_CipherFinal_ex(y, out2 + o2, &n))
			goto done;
		o2 += n;
	}
	*outl = o;
	*outl2 = y ? o2 : -1;
	ok = 1;
done:
	EVP_CIPHER_CTX_free(x);
	EVP_CIPHER_CTX_free(y);
	return ok;
}

/*
 * out == in: whole-block updates of a buffer in place (padding off, so
 * no block is held back) must give the reference output.
 */
static int in_place(EVP_CIPHER *c, int enc, const unsigned char *key,
		    const unsigned char *iv, unsigned char *buf, int len)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int pos = 0, n, ok;

	ok = x && EVP_CipherInit_ex2(x, c, key, iv, enc, NULL) &&
	     EVP_CIPHER_CTX_set_padding(x, 0);
	while (ok && pos < len) {
		int step = 16 * (1 + rand() % 300);

		if (step > len - pos)
			step = len - pos;
		ok = EVP_CipherUpdate(x, buf + pos, &n, buf + pos, step) &&
		     n == step;
		pos += step;
	}
	ok = ok && EVP_CipherFinal_ex(x, buf + pos, &n) && n == 0;
	EVP_CIPHER_CTX_free(x);
	return ok;
}

int main(void)
{
	static const char *modes[] = { "ECB", "CBC", "CTR" };
	static const int bits[] = { 128, 192, 256 };
	static const int sizes[] = { 0, 1, 15, 16, 17, 31, 32, 33, 100, 1000,
				     4096, 65536 + 5, 200000 };
	OSSL_PROVIDER *pn, *pd;
	unsigned char key[32], iv[16], *msg, *ref, *got, *got2, *back, *b2;
	int mi, bi, si, round = 0, cases = 0;

	srand(12345);
	pn = OSSL_PROVIDER_load(NULL, "ncr");
	pd = OSSL_PROVIDER_load(NULL, "default");
	if (pn == NULL || pd == NULL) {
		ERR_print_errors_fp(stderr);
		return 2;
	}
	msg = malloc(200000);
	ref = malloc(200032);
	got = malloc(200032);
	got2 = malloc(200032);
	back = malloc(200032);
	b2 = malloc(200032);
	RAND_bytes(msg, 200000);
	for (mi = 0; mi < 3; mi++)
	for (bi = 0; bi < 3; bi++) {
		char name[32];
		EVP_CIPHER *cn, *cd;

		snprintf(name, sizeof(name), "AES-%d-%s", bits[bi], modes[mi]);
		cn = EVP_CIPHER_fetch(NULL, name, "provider=ncr");
		cd = EVP_CIPHER_fetch(NULL, name, "provider=default");
		CHECK(cn && cd, "fetch %s", name);
		for (si = 0; si < (int)(sizeof(sizes) / sizeof(sizes[0])); si++) {
			int n = sizes[si], rl, gl, gl2, bl, bl2;
			int cut = n ? rand() % (n + 1) : 0;

			round++;
			RAND_bytes(key, sizeof(key));
			RAND_bytes(iv, sizeof(iv));
			if (round % 3 == 0)	/* counter carries over bytes */
				memset(iv + 8, 0xff, 8);
			CHECK(ref_crypt(cd, 1, key, iv, msg, n, ref, &rl),
			      "ref %s", name);
			CHECK(chunked(cn, 1, key, iv, msg, n, cut, got, &gl,
				      got2, &gl2), "ncr enc %s size %d", name, n);
			CHECK(gl == rl && !memcmp(got, ref, rl),
			      "%s size %d: ciphertext differs", name, n);
			CHECK(gl2 < 0 || (gl2 == rl && !memcmp(got2, ref, rl)),
			      "%s size %d: copied ctx differs (cut %d)",
			      name, n, cut);
			CHECK(chunked(cn, 0, key, iv, ref, rl, cut ? cut : rl / 2,
				      back, &bl, b2, &bl2),
			      "ncr dec %s size %d", name, n);
			CHECK(bl == n && !memcmp(back, msg, n),
			      "%s size %d: decryption differs", name, n);
			CHECK(bl2 < 0 || (bl2 == n && !memcmp(b2, msg, n)),
			      "%s size %d: copied dec ctx differs", name, n);
			if (n % 16 == 0) {
				memcpy(back, msg, n);
				CHECK(in_place(cn, 1, key, iv, back, n) &&
				      !memcmp(back, ref, n),
				      "%s size %d: in-place encryption", name, n);
				CHECK(in_place(cn, 0, key, iv, back, n) &&
				      !memcmp(back, msg, n),
				      "%s size %d: in-place decryption", name, n);
			}
			cases++;
		}
out:
		EVP_CIPHER_free(cn);
		EVP_CIPHER_free(cd);
	}
	printf("cipher: %d cases, %d failures\n", cases, failures);
	free(msg); free(ref); free(got); free(got2); free(back); free(b2);
	OSSL_PROVIDER_unload(pn);
	OSSL_PROVIDER_unload(pd);
	return failures ? 1 : 0;
}
