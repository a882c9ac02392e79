// SPDX-License-Identifier: GPL-2.0
/*
 * A program written the way a 2010 program would be: against <linux/ncr.h>
 * exactly as the 2010 patch ("User-space API definition") ships it, which
 * the build extracts from the seed patch into its own include directory;
 * this repository's include/linux/ncr.h is never on the include path.
 * Built for both ABIs (-m64, and -m32 -static for compat_ioctl).
 *
 * Each check prints one line, "PASS <id> <what>" or "FAIL <id> <what>:
 * <why>", and the last line is "SUMMARY <passed> passed <failed> failed";
 * the exit status is 1 when a check failed.  test/vm/test_compat2010.py
 * runs both binaries in the VM and turns each line into a test.
 *
 * Known answers: FIPS 180 ("abc"), RFC 3394 section 4.1, SP 800-67
 * Appendix B, RFC 3713, RFC 5528 #1, IEEE 1619 vector 2; the AES results
 * with the RFC 3394 key (00112233...ff) were computed with OpenSSL.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/*
 * The seed's header is the kernel-internal form: installing it
 * (make headers_install) removed __user, and it expects _IOWR() from
 * <sys/ioctl.h>, included above.
 */
#define __user
#include <linux/ncr.h>

/* The 2010 header has no extensions (this one is in include/linux/ncr.h). */
#ifdef NCR_RSA_PSS_SALT_LENGTH_AUTO
#error "built against this repository's <linux/ncr.h>, not the 2010 one"
#endif

/* Not in the 2010 header: the flag this implementation requires on KEKs. */
#ifndef NCR_KEY_FLAG_WRAPPING
#define NCR_KEY_FLAG_WRAPPING (1 << 4)
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static int fd = -1, passed, failed;

static void check(int ok, const char *id, const char *what,
		  const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		passed++;
		printf("PASS %s %s\n", id, what);
	} else {
		failed++;
		printf("FAIL %s %s: ", id, what);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		putchar('\n');
	}
	fflush(stdout);
}

/* ---- attributes, laid out as a 2010 program would ---- */

struct req {
	union {
		struct ncr_key_import imp;
		struct ncr_key_unwrap unwrap;
		struct ncr_key_wrap wrap;
		struct ncr_key_get_info info;
		struct ncr_session_init init;
		struct ncr_session_update update;
		struct ncr_session_final final;
		struct ncr_session_once once;
	} s;
	size_t fixed, len;
	unsigned char buf[4096] __attribute__((aligned(4)));
};

static void *req_start(struct req *r, size_t fixed)
{
	memset(r, 0, sizeof(*r));
	r->fixed = fixed;
	r->len = fixed;
	return &r->s;
}

static void put(struct req *r, uint16_t type, const void *data, size_t len)
{
	struct { uint16_t len, type; } h = { (uint16_t)(4 + len), type };
	unsigned char *p = r->buf + r->len;

	memcpy(p, &h, 4);
	memcpy(p + 4, data, len);
	memset(p + 4 + len, 0, (4 - len % 4) % 4);
	r->len += (4 + len + 3) & ~(size_t)3;
}

static void put_u32(struct req *r, uint16_t type, uint32_t v)
{
	put(r, type, &v, sizeof(v));
}

static void put_str(struct req *r, uint16_t type, const char *s)
{
	put(r, type, s, strlen(s) + 1);
}

/* Runs the ioctl; the struct's input/output sizes cover the attributes. */
static int call(struct req *r, unsigned long cmd)
{
	uint32_t sizes[2] = { (uint32_t)r->len, sizeof(r->buf) };
	int ret;

	memcpy(r->buf, &r->s, r->fixed);
	memcpy(r->buf, sizes, sizeof(sizes));	/* input_size, output_size */
	ret = ioctl(fd, cmd, r->buf);
	memcpy(&r->s, r->buf, r->fixed);
	return ret;
}

static void put_in(struct req *r, uint16_t type, const void *data,
		   size_t len)
{
	struct ncr_session_input_data in = { .data = data, .data_size = len };

	put(r, type, &in, sizeof(in));
}

static void put_out(struct req *r, uint16_t type, void *buf, size_t len,
		    size_t *result)
{
	struct ncr_session_output_buffer out = {
		.buffer = buf, .buffer_size = len, .result_size_ptr = result,
	};

	put(r, type, &out, sizeof(out));
}

static const char *err(int ret)
{
	static char msg[64];

	if (ret >= 0)
		snprintf(msg, sizeof(msg), "returned %d", ret);
	else
		snprintf(msg, sizeof(msg), "errno %d (%s)", errno,
			 strerror(errno));
	return msg;
}

static void hex(char *dst, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < 64; i++)
		sprintf(dst + 2 * i, "%02x", p[i]);
	dst[2 * i] = 0;
}

static int unhex(unsigned char *dst, const char *s)
{
	int n = 0;

	for (; s[0] && s[1]; s += 2)
		sscanf(s, "%2hhx", &dst[n++]);
	return n;
}

/* ---- key objects ---- */

static ncr_key_t key_new(void)
{
	return ioctl(fd, NCRIO_KEY_INIT, NULL);
}

static void key_free(ncr_key_t k)
{
	if (k >= 0)
		ioctl(fd, NCRIO_KEY_DEINIT, &k);
}

/* A secret key of algorithm algo; < 0 with errno on failure. */
static int key_import(ncr_key_t k, const char *algo, const void *data,
		      size_t len, uint32_t flags)
{
	struct req r;
	struct ncr_key_import *imp = req_start(&r, sizeof(*imp));

	imp->key = k;
	imp->data = data;
	imp->data_size = (uint32_t)len;
	put_str(&r, NCR_ATTR_ALGORITHM, algo);
	put_u32(&r, NCR_ATTR_KEY_TYPE, NCR_KEY_TYPE_SECRET);
	put_u32(&r, NCR_ATTR_KEY_FLAGS, flags);
	return call(&r, NCRIO_KEY_IMPORT);
}

/* ---- session helpers ---- */

/*
 * NCRIO_SESSION_ONCE of a cipher or hash: data in, output (cipher: update
 * output; hash: final output) to out.  key < -1: no NCR_ATTR_KEY at all.
 */
static int once(uint32_t op, const char *algo, ncr_key_t key,
		const void *iv, size_t ivlen, const void *data, size_t len,
		void *out, size_t outlen, size_t *result)
{
	struct req r;
	struct ncr_session_once *so = req_start(&r, sizeof(*so));

	so->op = op;
	put_str(&r, NCR_ATTR_ALGORITHM, algo);
	if (key >= NCR_KEY_INVALID)
		put_u32(&r, NCR_ATTR_KEY, (uint32_t)key);
	if (iv)
		put(&r, NCR_ATTR_IV, iv, ivlen);
	put_in(&r, NCR_ATTR_UPDATE_INPUT_DATA, data, len);
	if (op == NCR_OP_SIGN)
		put_out(&r, NCR_ATTR_FINAL_OUTPUT_BUFFER, out, outlen, result);
	else
		put_out(&r, NCR_ATTR_UPDATE_OUTPUT_BUFFER, out, outlen,
			result);
	return call(&r, NCRIO_SESSION_ONCE);
}

#define NO_KEY (-2)

/* Compare out[0..n) with the hex string want; formats the difference. */
static int same(const unsigned char *out, size_t n, size_t result,
		const char *want, char *why, size_t whylen)
{
	unsigned char w[256];
	char got[132];
	int wn = unhex(w, want);

	if (result == (size_t)wn && n >= (size_t)wn && !memcmp(out, w, wn))
		return 1;
	hex(got, out, result < n ? result : n);
	snprintf(why, whylen, "got %zu bytes %s, want %s", result, got, want);
	return 0;
}

/* ---- (1) unkeyed hashes with NCR_ATTR_KEY = NCR_KEY_INVALID ---- */

static void unkeyed_hash(const char *id, const char *algo, const char *want)
{
	unsigned char out[NCR_HASH_MAX_OUTPUT_SIZE];
	size_t result = 0;
	char what[96], why[300] = "";
	int ret, ok;

	snprintf(what, sizeof(what),
		 "SESSION_ONCE %s(\"abc\") with NCR_ATTR_KEY = NCR_KEY_INVALID",
		 algo);
	ret = once(NCR_OP_SIGN, algo, NCR_KEY_INVALID, NULL, 0, "abc", 3,
		   out, sizeof(out), &result);
	if (ret < 0) {
		check(0, id, what, "%s", err(ret));
		return;
	}
	ok = same(out, sizeof(out), result, want, why, sizeof(why));
	check(ok, id, what, "%s", why);
}

/* ---- (2) a secret "sha1" key hashed with UPDATE_INPUT_KEY_AS_DATA ---- */

static void key_as_data(void)
{
	static const char what_imp[] =
		"KEY_IMPORT of a secret key with NCR_ATTR_ALGORITHM \"sha1\"";
	static const char what_hash[] =
		"sha1 session over it with NCR_ATTR_UPDATE_INPUT_KEY_AS_DATA";
	unsigned char material[16], out[NCR_HASH_MAX_OUTPUT_SIZE];
	size_t result = 0;
	char why[300] = "";
	ncr_key_t k = key_new();
	ncr_session_t s;
	struct req r;
	int ret, i;

	for (i = 0; i < 16; i++)
		material[i] = (unsigned char)i;
	ret = k < 0 ? k : key_import(k, "sha1", material, sizeof(material), 0);
	check(ret >= 0, "hash-key-import", what_imp, "%s", err(ret));
	if (ret < 0) {
		check(0, "hash-key-as-data", what_hash, "no key to hash");
		key_free(k);
		return;
	}
	{
		struct ncr_session_init *si = req_start(&r, sizeof(*si));

		si->op = NCR_OP_SIGN;
		put_str(&r, NCR_ATTR_ALGORITHM, "sha1");
		s = call(&r, NCRIO_SESSION_INIT);
	}
	if (s < 0) {
		check(0, "hash-key-as-data", what_hash, "SESSION_INIT: %s",
		      err(s));
		key_free(k);
		return;
	}
	{
		struct ncr_session_update *su = req_start(&r, sizeof(*su));

		su->ses = s;
		put_u32(&r, NCR_ATTR_UPDATE_INPUT_KEY_AS_DATA, (uint32_t)k);
		ret = call(&r, NCRIO_SESSION_UPDATE);
	}
	{
		struct ncr_session_final *sf = req_start(&r, sizeof(*sf));
		int fret;

		sf->ses = s;
		put_out(&r, NCR_ATTR_FINAL_OUTPUT_BUFFER, out, sizeof(out),
			&result);
		fret = call(&r, NCRIO_SESSION_FINAL);
		if (ret < 0) {
			check(0, "hash-key-as-data", what_hash,
			      "SESSION_UPDATE: %s", err(ret));
		} else if (fret < 0) {
			check(0, "hash-key-as-data", what_hash,
			      "SESSION_FINAL: %s", err(fret));
		} else {
			/* sha1(00 01 .. 0f) */
			int ok = same(out, sizeof(out), result,
				      "56178b86a57fac22899a9964185c2cc96e7da589",
				      why, sizeof(why));
			check(ok, "hash-key-as-data", what_hash, "%s", why);
		}
	}
	key_free(k);
}

/* ---- (3) KEY_UNWRAP with only the wrapping algorithm ---- */

static void unwrap_no_algorithm(void)
{
	static const char kek_hex[] = "000102030405060708090a0b0c0d0e0f";
	static const char wrapped_hex[] =
		"1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5";
	static const char w_kek[] =
		"KEY_IMPORT of the RFC 3394 4.1 KEK (with NCR_KEY_FLAG_WRAPPING)";
	static const char w_unwrap[] =
		"KEY_UNWRAP of RFC 3394 4.1 with only NCR_ATTR_WRAPPING_ALGORITHM";
	static const char w_info[] =
		"the unwrapped key is secret, WRAPPABLE, not EXPORTABLE";
	static const char w_ecb[] = "the unwrapped key in an ecb(aes) session";
	static const char w_cbc[] = "the unwrapped key in a cbc(aes) session";
	static const char w_rewrap[] =
		"KEY_WRAP of the unwrapped key gives the RFC 3394 4.1 ciphertext";
	unsigned char kek_bytes[16], wrapped[24], buf[64], iv[16], pt[32];
	ncr_key_t kek = key_new(), k = key_new();
	size_t result = 0;
	char why[300] = "";
	struct req r;
	int ret, i;

	unhex(kek_bytes, kek_hex);
	unhex(wrapped, wrapped_hex);
	ret = key_import(kek, "ecb(aes)", kek_bytes, 16, NCR_KEY_FLAG_WRAPPING);
	check(ret >= 0, "unwrap-kek-import", w_kek, "%s", err(ret));
	{
		struct ncr_key_unwrap *u = req_start(&r, sizeof(*u));

		u->wrapping_key = kek;
		u->dest_key = k;
		u->data = wrapped;
		u->data_size = sizeof(wrapped);
		put_str(&r, NCR_ATTR_WRAPPING_ALGORITHM, NCR_WALG_AES_RFC3394);
		ret = call(&r, NCRIO_KEY_UNWRAP);
	}
	check(ret >= 0, "unwrap-no-algorithm", w_unwrap, "%s", err(ret));
	if (ret < 0) {
		check(0, "unwrap-key-info", w_info, "nothing unwrapped");
		check(0, "unwrap-use-ecb", w_ecb, "nothing unwrapped");
		check(0, "unwrap-use-cbc", w_cbc, "nothing unwrapped");
		check(0, "unwrap-rewrap", w_rewrap, "nothing unwrapped");
		goto out;
	}
	{
		struct ncr_key_get_info *gi = req_start(&r, sizeof(*gi));
		uint16_t wanted[] = { NCR_ATTR_KEY_TYPE, NCR_ATTR_KEY_FLAGS };
		uint32_t type = 0, flags = 0;
		int seen = 0;
		size_t off;

		gi->key = k;
		put(&r, NCR_ATTR_WANTED_ATTRS, wanted, sizeof(wanted));
		ret = call(&r, NCRIO_KEY_GET_INFO);
		for (off = sizeof(*gi); ret >= 0 && off + 8 <= r.s.info.output_size;) {
			uint16_t len, type_;
			uint32_t v;

			memcpy(&len, r.buf + off, 2);
			memcpy(&type_, r.buf + off + 2, 2);
			if (len < 4)
				break;
			if (len == 8) {
				memcpy(&v, r.buf + off + 4, 4);
				if (type_ == NCR_ATTR_KEY_TYPE)
					type = v, seen |= 1;
				if (type_ == NCR_ATTR_KEY_FLAGS)
					flags = v, seen |= 2;
			}
			off += (len + 3u) & ~3u;
		}
		check(ret >= 0 && seen == 3 && type == NCR_KEY_TYPE_SECRET &&
		      (flags & (NCR_KEY_FLAG_WRAPPABLE |
				NCR_KEY_FLAG_EXPORTABLE)) ==
		      NCR_KEY_FLAG_WRAPPABLE, "unwrap-key-info", w_info,
		      "%s, type %u flags %#x", err(ret), type, flags);
	}
	for (i = 0; i < 32; i++)
		pt[i] = (unsigned char)i;
	ret = once(NCR_OP_ENCRYPT, "ecb(aes)", k, NULL, 0, pt, 16, buf,
		   sizeof(buf), &result);
	if (ret < 0)
		check(0, "unwrap-use-ecb", w_ecb, "%s", err(ret));
	else
		check(same(buf, sizeof(buf), result,
			   "279fb74a7572135e8f9b8ef6d1eee003", why, sizeof(why)),
		      "unwrap-use-ecb", w_ecb, "%s", why);
	for (i = 0; i < 16; i++)
		iv[i] = (unsigned char)(16 + i);
	ret = once(NCR_OP_ENCRYPT, "cbc(aes)", k, iv, 16, pt, 32, buf,
		   sizeof(buf), &result);
	if (ret < 0)
		check(0, "unwrap-use-cbc", w_cbc, "%s", err(ret));
	else
		check(same(buf, sizeof(buf), result,
			   "00657ea140655a44782747705d422fad"
			   "4dbcf04c6e7ee9600f3f249639953df0", why, sizeof(why)),
		      "unwrap-use-cbc", w_cbc, "%s", why);
	{
		struct ncr_key_wrap *w = req_start(&r, sizeof(*w));

		w->wrapping_key = kek;
		w->source_key = k;
		w->buffer = buf;
		w->buffer_size = sizeof(buf);
		put_str(&r, NCR_ATTR_WRAPPING_ALGORITHM, NCR_WALG_AES_RFC3394);
		ret = call(&r, NCRIO_KEY_WRAP);
		if (ret < 0)
			check(0, "unwrap-rewrap", w_rewrap, "%s", err(ret));
		else
			check(same(buf, sizeof(buf), (size_t)ret, wrapped_hex,
				   why, sizeof(why)),
			      "unwrap-rewrap", w_rewrap, "%s", why);
	}
out:
	key_free(k);
	key_free(kek);
}

/* ---- (4) the 2010 cipher table ---- */

static const struct {
	const char *id, *algo, *key, *iv, *pt, *ct, *source;
} ciphers[] = {
	{ "cipher-cbc-des3_ede", "cbc(des3_ede)",
	  "0123456789abcdef23456789abcdef01456789abcdef0123",
	  "0000000000000000",
	  /* "The qufck brown fox jump" chained for a zero-IV CBC */
	  "5468652071756663" "6b2062726f776e20" "666f78206a756d70",
	  NULL, "SP 800-67 B" },
	{ "cipher-ecb-camellia", "ecb(camellia)",
	  "0123456789abcdeffedcba9876543210", NULL,
	  "0123456789abcdeffedcba9876543210",
	  "67673138549669730857065648eabe43", "RFC 3713" },
	{ "cipher-cbc-camellia", "cbc(camellia)",
	  "0123456789abcdeffedcba987654321000112233445566778899aabbccddeeff",
	  "00000000000000000000000000000000",
	  "0123456789abcdeffedcba9876543210",
	  "9acc237dff16d76c20ef7c919e3a7509", "RFC 3713, IV 0" },
	{ "cipher-ctr-camellia", "ctr(camellia)",
	  "ae6852f8121067cc4bf7a5765577f39e",
	  "00000030000000000000000000000001",
	  "53696e676c6520626c6f636b206d7367",
	  "d09dc29a8214619a20877c76db1f0b3f", "RFC 5528 #1" },
	{ "cipher-xts-aes", "xts(aes)",
	  "1111111111111111111111111111111122222222222222222222222222222222",
	  "33333333330000000000000000000000",
	  "4444444444444444444444444444444444444444444444444444444444444444",
	  "c454185e6a16936e39334038acef838bfb186fff7480adc4289382ecd6d394f0",
	  "IEEE 1619 vector 2" },
	{ "cipher-ecb-cipher_null", "ecb(cipher_null)", NULL, NULL,
	  "000102030405060708090a0b0c0d0e0f1011", NULL, "output = input" },
};

static void seed_ciphers(void)
{
	/* 3DES: SP 800-67's ECB example as zero-IV CBC, block by block */
	static const char tdes_ct[] =
		"a826fd8ce53b855f" "cce21c8112256fe6" "68d5c05dd9b6b900";
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ciphers); i++) {
		unsigned char key[64], iv[16], pt[64], ct[64], out[64];
		char what[128], why[300] = "", want[132];
		size_t result = 0;
		int klen = 0, ivlen = 0, n, ret, ok;
		ncr_key_t k = NO_KEY;

		snprintf(what, sizeof(what), "%s known answer (%s)",
			 ciphers[i].algo, ciphers[i].source);
		n = unhex(pt, ciphers[i].pt);
		if (ciphers[i].iv)
			ivlen = unhex(iv, ciphers[i].iv);
		if (!strcmp(ciphers[i].algo, "cbc(des3_ede)")) {
			/* P'_i = P_i ^ C_(i-1), so the CBC output is ECB's */
			unhex(ct, tdes_ct);
			for (ret = 8; ret < n; ret++)
				pt[ret] ^= ct[ret - 8];
			snprintf(want, sizeof(want), "%s", tdes_ct);
		} else {
			/* no ct: cipher_null, whose output is its input */
			snprintf(want, sizeof(want), "%s",
				 ciphers[i].ct ? ciphers[i].ct : ciphers[i].pt);
		}
		if (ciphers[i].key) {
			klen = unhex(key, ciphers[i].key);
			k = key_new();
			ret = k < 0 ? k : key_import(k, ciphers[i].algo, key,
						     klen, 0);
			if (ret < 0) {
				check(0, ciphers[i].id, what, "KEY_IMPORT: %s",
				      err(ret));
				key_free(k);
				continue;
			}
		}
		ret = once(NCR_OP_ENCRYPT, ciphers[i].algo, k,
			   ciphers[i].iv ? iv : NULL, ivlen, pt, n, out,
			   sizeof(out), &result);
		if (ret < 0) {
			check(0, ciphers[i].id, what, "SESSION_ONCE: %s",
			      err(ret));
		} else {
			ok = same(out, sizeof(out), result, want, why,
				  sizeof(why));
			if (ok) {	/* and back */
				ret = once(NCR_OP_DECRYPT, ciphers[i].algo, k,
					   ciphers[i].iv ? iv : NULL, ivlen,
					   out, result, ct, sizeof(ct),
					   &result);
				ok = ret >= 0 && result == (size_t)n &&
				     !memcmp(ct, pt, n);
				snprintf(why, sizeof(why),
					 "decryption: %s, %zu bytes", err(ret),
					 result);
			}
			check(ok, ciphers[i].id, what, "%s", why);
		}
		key_free(k);
	}
}

int main(void)
{
	fd = open("/dev/crypto", O_RDWR);
	if (fd < 0) {
		perror("/dev/crypto");
		return 2;
	}
	printf("# seed_programs, %zu-bit, built against the 2010 <linux/ncr.h>\n",
	       sizeof(void *) * 8);
	unkeyed_hash("unkeyed-sha1", "sha1",
		     "a9993e364706816aba3e25717850c26c9cd0d89d");
	unkeyed_hash("unkeyed-sha256", "sha256",
		     "ba7816bf8f01cfea414140de5dae2223"
		     "b00361a396177a9cb410ff61f20015ad");
	key_as_data();
	unwrap_no_algorithm();
	seed_ciphers();
	printf("SUMMARY %d passed %d failed\n", passed, failed);
	close(fd);
	return failed ? 1 : 0;
}
