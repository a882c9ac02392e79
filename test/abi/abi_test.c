// SPDX-License-Identifier: GPL-2.0
/*
 * ABI test of /dev/crypto: every ioctl of the core and its documented error
 * cases, known answers for AES/SHA/HMAC, limits, fork and a DEINIT race.
 * Built twice (-m64, and -m32 -static for the compat_ioctl path); both must
 * print the same TAP-like log (the first line names the ABI).  Exit status
 * is nonzero on any failure.
 *
 * Operations owned by later work (wrap, storage, public key) are checked to
 * reach their handler and refuse bad input: EOPNOTSUPP while unimplemented,
 * the handler's own error afterwards — never ENOTTY, never success.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/ncr.h>

#include "../fault_window.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static int tests, failures;
static int fd = -1;

static void result(int ok, const char *fmt, ...)
{
	va_list ap;

	tests++;
	if (!ok)
		failures++;
	printf("%sok %d - ", ok ? "" : "not ", tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* Expect an ioctl result: ret >= 0 when err == 0, else -1 with errno err. */
#define EXPECT(call, err, ...) do {					\
	errno = 0;							\
	long __r = (call);						\
	int __e = errno;						\
	int __ok = (err) ? (__r == -1 && __e == (err)) : __r >= 0;	\
	if (!__ok)							\
		printf("# got %ld errno %d (%s)\n", __r, __e,		\
		       strerror(__e));					\
	result(__ok, __VA_ARGS__);					\
} while (0)

/* ---- attribute buffers ---- */

struct attrs {
	size_t len;
	uint32_t buf[4096];	/* 4-aligned */
};

static void a_reset(struct attrs *a)
{
	a->len = 0;
}

static void a_put(struct attrs *a, uint16_t type, const void *data,
		  size_t len)
{
	uint8_t *p = (uint8_t *)a->buf + a->len;
	struct { uint16_t len, type; } h = { (uint16_t)(4 + len), type };

	memcpy(p, &h, 4);
	memcpy(p + 4, data, len);
	memset(p + 4 + len, 0, (4 - len % 4) % 4);
	a->len += (4 + len + 3) & ~(size_t)3;
}

static void a_u32(struct attrs *a, uint16_t type, uint32_t v)
{
	a_put(a, type, &v, 4);
}

static void a_str(struct attrs *a, uint16_t type, const char *s)
{
	a_put(a, type, s, strlen(s) + 1);
}

static void a_in(struct attrs *a, uint16_t type, const void *data, size_t n)
{
	struct ncr_session_input_data d = { data, n };

	a_put(a, type, &d, sizeof(d));
}

static void a_out(struct attrs *a, uint16_t type, void *buf, size_t n,
		  size_t *result)
{
	struct ncr_session_output_buffer o = { buf, n, result };

	a_put(a, type, &o, sizeof(o));
}

/*
 * The call buffer: fixed struct, then the attributes, with room for output
 * attributes.  input_size/output_size are set unless preset (nonzero
 * *_override: used as is; use OVR_ZERO for an explicit 0).
 */
#define OVR_NONE 0xffffffffu
#define OVR_ZERO 0u

/* Per thread: the thread test calls these helpers concurrently. */
static __thread uint8_t callbuf[sizeof(((struct attrs *)0)->buf) + 256]
	__attribute__((aligned(8)));
static __thread uint32_t last_output_size;

static long call_full(unsigned long cmd, void *st, size_t fixed,
		      const struct attrs *a, size_t out_room,
		      uint32_t in_ovr, uint32_t out_ovr)
{
	size_t alen = a ? a->len : 0;
	uint32_t *sizes = st;
	long r;
	int e;

	sizes[0] = in_ovr != OVR_NONE ? in_ovr : (uint32_t)(fixed + alen);
	sizes[1] = out_ovr != OVR_NONE ? out_ovr : (uint32_t)(fixed + out_room);
	memset(callbuf, 0x5a, sizeof(callbuf));
	memcpy(callbuf, st, fixed);
	if (alen)
		memcpy(callbuf + fixed, a->buf, alen);
	r = ioctl(fd, cmd, callbuf);
	e = errno;
	memcpy(st, callbuf, fixed);
	memcpy(&last_output_size, callbuf + 4, 4);
	errno = e;
	return r;
}

static long call(unsigned long cmd, void *st, size_t fixed,
		 const struct attrs *a)
{
	return call_full(cmd, st, fixed, a, 0, OVR_NONE, OVR_NONE);
}

/* ---- key helpers ---- */

static __thread struct attrs A;

static ncr_key_t key_init(void)
{
	return ioctl(fd, NCRIO_KEY_INIT);
}

static int key_deinit(ncr_key_t k)
{
	return ioctl(fd, NCRIO_KEY_DEINIT, &k);
}

static long key_import(ncr_key_t k, const char *algo, uint32_t type,
		       uint32_t flags, const void *data, size_t n)
{
	struct ncr_key_import s = { .key = k, .data = data,
				    .data_size = (uint32_t)n };

	a_reset(&A);
	a_str(&A, NCR_ATTR_ALGORITHM, algo);
	a_u32(&A, NCR_ATTR_KEY_TYPE, type);
	a_u32(&A, NCR_ATTR_KEY_FLAGS, flags);
	return call(NCRIO_KEY_IMPORT, &s, sizeof(s), &A);
}

static ncr_key_t secret_key(const char *algo, const void *data, size_t n,
			    uint32_t flags)
{
	ncr_key_t k = key_init();

	if (k < 0 || key_import(k, algo, NCR_KEY_TYPE_SECRET, flags, data, n)) {
		printf("# secret_key(%s) failed: %s\n", algo, strerror(errno));
		return -1;
	}
	return k;
}

static long key_export(ncr_key_t k, void *buf, int size)
{
	struct ncr_key_export s = { .key = k, .buffer = buf,
				    .buffer_size = size };

	return call(NCRIO_KEY_EXPORT, &s, sizeof(s), NULL);
}

/* ---- session helpers ---- */

/* One-shot operation; returns the ioctl result, *outlen the output size. */
static long once(uint32_t op, const char *algo, ncr_key_t key,
		 const void *iv, size_t ivlen, const void *in, size_t inlen,
		 void *out, size_t outsize, size_t *outlen)
{
	struct ncr_session_once s = { .op = op };

	a_reset(&A);
	a_str(&A, NCR_ATTR_ALGORITHM, algo);
	if (key >= 0)
		a_u32(&A, NCR_ATTR_KEY, (uint32_t)key);
	if (iv)
		a_put(&A, NCR_ATTR_IV, iv, ivlen);
	if (op == NCR_OP_ENCRYPT || op == NCR_OP_DECRYPT) {
		a_in(&A, NCR_ATTR_UPDATE_INPUT_DATA, in, inlen);
		a_out(&A, NCR_ATTR_UPDATE_OUTPUT_BUFFER, out, outsize, outlen);
	} else if (op == NCR_OP_SIGN) {
		a_in(&A, NCR_ATTR_UPDATE_INPUT_DATA, in, inlen);
		a_out(&A, NCR_ATTR_FINAL_OUTPUT_BUFFER, out, outsize, outlen);
	} else {
		/* VERIFY: out is the signature to check */
		a_in(&A, NCR_ATTR_UPDATE_INPUT_DATA, in, inlen);
		a_in(&A, NCR_ATTR_FINAL_INPUT_DATA, out, outsize);
	}
	return call(NCRIO_SESSION_ONCE, &s, sizeof(s), &A);
}

static long ses_init(uint32_t op, const char *algo, ncr_key_t key,
		     const void *iv, size_t ivlen)
{
	struct ncr_session_init s = { .op = op };

	a_reset(&A);
	if (algo)
		a_str(&A, NCR_ATTR_ALGORITHM, algo);
	if (key >= 0)
		a_u32(&A, NCR_ATTR_KEY, (uint32_t)key);
	if (iv)
		a_put(&A, NCR_ATTR_IV, iv, ivlen);
	return call(NCRIO_SESSION_INIT, &s, sizeof(s), &A);
}

static long ses_update(ncr_session_t ses, const void *in, size_t inlen,
		       void *out, size_t outsize, size_t *outlen)
{
	struct ncr_session_update s = { .ses = ses };

	a_reset(&A);
	a_in(&A, NCR_ATTR_UPDATE_INPUT_DATA, in, inlen);
	if (out)
		a_out(&A, NCR_ATTR_UPDATE_OUTPUT_BUFFER, out, outsize, outlen);
	return call(NCRIO_SESSION_UPDATE, &s, sizeof(s), &A);
}

static long ses_final(ncr_session_t ses, void *out, size_t outsize,
		      size_t *outlen)
{
	struct ncr_session_final s = { .ses = ses };

	a_reset(&A);
	if (out)
		a_out(&A, NCR_ATTR_FINAL_OUTPUT_BUFFER, out, outsize, outlen);
	return call(NCRIO_SESSION_FINAL, &s, sizeof(s), &A);
}

static void unhex(const char *h, uint8_t *out)
{
	while (*h) {
		unsigned int v;

		sscanf(h, "%2x", &v);
		*out++ = (uint8_t)v;
		h += 2;
	}
}

/* Deterministic filler. */
static void fill(uint8_t *p, size_t n, uint32_t seed)
{
	while (n--) {
		seed = seed * 1103515245u + 12345u;
		*p++ = (uint8_t)(seed >> 16);
	}
}

/* ======================================================================= */

static void test_layout(void)
{
	/* The structs a 32-bit process uses are smaller: own ioctl numbers. */
	int is64 = sizeof(void *) == 8;

	result(sizeof(struct ncr_key_import) == (is64 ? 32u : 20u),
	       "sizeof(struct ncr_key_import) matches the ABI");
	result(sizeof(struct ncr_key_wrap) == (is64 ? 32u : 24u),
	       "sizeof(struct ncr_key_wrap) matches the ABI");
	result(sizeof(struct ncr_session_output_buffer) == (is64 ? 24u : 12u),
	       "sizeof(struct ncr_session_output_buffer) matches the ABI");
	result(sizeof(struct ncr_session_once) == 12,
	       "sizeof(struct ncr_session_once) is 12 in both ABIs");
}

static void test_key_basics(void)
{
	static const uint8_t k16[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
					 11, 12, 13, 14, 15 };
	uint8_t buf[64];
	ncr_key_t k, k2;

	k = key_init();
	result(k >= 0, "KEY_INIT returns a handle");
	k2 = key_init();
	result(k2 >= 0 && k2 != k, "KEY_INIT returns distinct handles");
	EXPECT(key_deinit(k2), 0, "KEY_DEINIT of a handle");
	EXPECT(key_deinit(k2), EINVAL, "KEY_DEINIT twice: EINVAL");
	EXPECT(key_deinit(123456), EINVAL, "KEY_DEINIT of an unknown handle: EINVAL");
	EXPECT(key_deinit(-1), EINVAL, "KEY_DEINIT of NCR_KEY_INVALID: EINVAL");

	EXPECT(key_import(k, "cbc(aes)", NCR_KEY_TYPE_SECRET,
			  NCR_KEY_FLAG_EXPORTABLE, k16, 16), 0,
	       "KEY_IMPORT of an exportable AES-128 key");
	memset(buf, 0, sizeof(buf));
	EXPECT(key_export(k, buf, sizeof(buf)), 0, "KEY_EXPORT");
	result(key_export(k, buf, sizeof(buf)) == 16 && !memcmp(buf, k16, 16),
	       "KEY_EXPORT returns the size and the material");
	EXPECT(key_export(k, buf, 16), 0, "KEY_EXPORT into an exact buffer");
	EXPECT(key_export(k, buf, 15), ERANGE, "KEY_EXPORT into a short buffer: ERANGE");
	EXPECT(key_export(k, buf, -1), EINVAL, "KEY_EXPORT with negative buffer_size: EINVAL");
	EXPECT(key_export(k, NULL, 16), EFAULT, "KEY_EXPORT to a bad pointer: EFAULT");
	EXPECT(key_export(99999, buf, 16), EINVAL, "KEY_EXPORT of an unknown handle: EINVAL");

	EXPECT(key_import(k, "cbc(aes)", NCR_KEY_TYPE_SECRET, 0, k16, 16), 0,
	       "KEY_IMPORT replaces the material (not exportable now)");
	EXPECT(key_export(k, buf, sizeof(buf)), EPERM,
	       "KEY_EXPORT of a non-exportable key: EPERM");

	k2 = key_init();
	EXPECT(key_export(k2, buf, sizeof(buf)), EINVAL, "KEY_EXPORT of an empty key: EINVAL");
	EXPECT(key_import(99999, "cbc(aes)", NCR_KEY_TYPE_SECRET, 0, k16, 16),
	       EINVAL, "KEY_IMPORT into an unknown handle: EINVAL");
	EXPECT(key_import(k2, "no-such-algo", NCR_KEY_TYPE_SECRET, 0, k16, 16),
	       EINVAL, "KEY_IMPORT with an unknown algorithm: EINVAL");
	EXPECT(key_import(k2, "cbc(aes)", NCR_KEY_TYPE_SECRET, 0, k16, 15),
	       EINVAL, "KEY_IMPORT of a 15-byte AES key: EINVAL");
	EXPECT(key_import(k2, "cbc(aes)", NCR_KEY_TYPE_SECRET, 0x100, k16, 16),
	       EINVAL, "KEY_IMPORT with unknown flag bits: EINVAL");
	EXPECT(key_import(k2, "cbc(aes)", 7, 0, k16, 16),
	       EINVAL, "KEY_IMPORT with an unknown key type: EINVAL");
	EXPECT(key_import(k2, "rsa", NCR_KEY_TYPE_SECRET, 0, k16, 16),
	       EINVAL, "KEY_IMPORT of a secret key for a public-key algorithm: EINVAL");
	EXPECT(key_import(k2, "sha256", NCR_KEY_TYPE_SECRET, 0, k16, 16),
	       0, "KEY_IMPORT of a secret key for a hash (a 2010 program's key to hash)");
	EXPECT(key_import(k2, "cbc(aes)", NCR_KEY_TYPE_PUBLIC, 0, k16, 16),
	       EINVAL, "KEY_IMPORT of a public key for a cipher: EINVAL");
	EXPECT(key_import(k2, "hmac(sha256)", NCR_KEY_TYPE_SECRET,
			  NCR_KEY_FLAG_EXPORTABLE, k16, 5), 0,
	       "KEY_IMPORT of a 5-byte HMAC key");
	EXPECT(key_export(k2, buf, sizeof(buf)), 0, "KEY_EXPORT of the HMAC key");
	{
		struct ncr_key_import s = { .key = k2, .data = k16,
					    .data_size = 16 };
		static uint8_t big[64 * 1024 + 1];

		a_reset(&A);
		a_u32(&A, NCR_ATTR_KEY_TYPE, NCR_KEY_TYPE_SECRET);
		EXPECT(call(NCRIO_KEY_IMPORT, &s, sizeof(s), &A), EINVAL,
		       "KEY_IMPORT without NCR_ATTR_ALGORITHM: EINVAL");
		a_reset(&A);
		a_str(&A, NCR_ATTR_ALGORITHM, "cbc(aes)");
		EXPECT(call(NCRIO_KEY_IMPORT, &s, sizeof(s), &A), EINVAL,
		       "KEY_IMPORT without NCR_ATTR_KEY_TYPE: EINVAL");
		a_u32(&A, NCR_ATTR_KEY_TYPE, NCR_KEY_TYPE_SECRET);
		a_put(&A, NCR_ATTR_KEY_ID, big, MAX_KEY_ID_SIZE + 1);
		EXPECT(call(NCRIO_KEY_IMPORT, &s, sizeof(s), &A), EOVERFLOW,
		       "KEY_IMPORT with a 21-byte key ID: EOVERFLOW");
		a_reset(&A);
		a_str(&A, NCR_ATTR_ALGORITHM, "cbc(aes)");
		a_u32(&A, NCR_ATTR_KEY_TYPE, NCR_KEY_TYPE_SECRET);
		s.data = big;
		s.data_size = sizeof(big);
		EXPECT(call(NCRIO_KEY_IMPORT, &s, sizeof(s), &A), EOVERFLOW,
		       "KEY_IMPORT of 64 KiB + 1 of data: EOVERFLOW");
		s.data = NULL;
		s.data_size = 16;
		EXPECT(call(NCRIO_KEY_IMPORT, &s, sizeof(s), &A), EFAULT,
		       "KEY_IMPORT from a bad pointer: EFAULT");
	}
	key_deinit(k);
	key_deinit(k2);
}

/* Find attribute type in the output of the last call (after fixed). */
static const uint8_t *out_attr(size_t fixed, uint16_t type, uint16_t *len,
			       int *count)
{
	size_t off = fixed, end = last_output_size;
	const uint8_t *found = NULL;

	*count = 0;
	while (off + 4 <= end) {
		uint16_t l, t;

		memcpy(&l, callbuf + off, 2);
		memcpy(&t, callbuf + off + 2, 2);
		if (l < 4 || off + l > end)
			return NULL;
		(*count)++;
		if (t == type) {
			found = callbuf + off + 4;
			*len = l - 4;
		}
		off += (l + 3u) & ~3u;
	}
	return found;
}

static void test_get_info(void)
{
	static const uint8_t k16[16] = { 1 };
	struct ncr_key_get_info s;
	const size_t fixed = sizeof(s);
	uint16_t want[4] = { NCR_ATTR_ALGORITHM, NCR_ATTR_KEY_FLAGS,
			     NCR_ATTR_KEY_TYPE, NCR_ATTR_KEY_ID };
	const uint8_t *p;
	uint16_t len = 0;
	uint32_t v;
	int n;
	ncr_key_t k = key_init(), e = key_init();
	struct ncr_key_import imp = { .key = k, .data = k16, .data_size = 16 };

	a_reset(&A);
	a_str(&A, NCR_ATTR_ALGORITHM, "ctr(aes)");
	a_u32(&A, NCR_ATTR_KEY_TYPE, NCR_KEY_TYPE_SECRET);
	a_u32(&A, NCR_ATTR_KEY_FLAGS, NCR_KEY_FLAG_WRAPPABLE);
	a_put(&A, NCR_ATTR_KEY_ID, "id-42", 5);
	EXPECT(call(NCRIO_KEY_IMPORT, &imp, sizeof(imp), &A), 0,
	       "KEY_IMPORT with flags and key ID");

	s = (struct ncr_key_get_info){ .key = k };
	a_reset(&A);
	a_put(&A, NCR_ATTR_WANTED_ATTRS, want, sizeof(want));
	EXPECT(call_full(NCRIO_KEY_GET_INFO, &s, fixed, &A, 256, OVR_NONE,
			 OVR_NONE), 0, "KEY_GET_INFO of 4 attributes");
	p = out_attr(fixed, NCR_ATTR_ALGORITHM, &len, &n);
	result(n == 4, "KEY_GET_INFO returns exactly the 4 requested attributes");
	result(p && len == 9 && !memcmp(p, "ctr(aes)", 9), "... ALGORITHM");
	p = out_attr(fixed, NCR_ATTR_KEY_FLAGS, &len, &n);
	result(p && len == 4 && (memcpy(&v, p, 4), v == NCR_KEY_FLAG_WRAPPABLE),
	       "... KEY_FLAGS");
	p = out_attr(fixed, NCR_ATTR_KEY_TYPE, &len, &n);
	result(p && len == 4 && (memcpy(&v, p, 4), v == NCR_KEY_TYPE_SECRET),
	       "... KEY_TYPE");
	p = out_attr(fixed, NCR_ATTR_KEY_ID, &len, &n);
	result(p && len == 5 && !memcmp(p, "id-42", 5), "... KEY_ID");
	/* 12 + (4+9+pad=16) + 8 + 8 + (4+5+pad=12) */
	result(last_output_size == fixed + 16 + 8 + 8 + 12,
	       "KEY_GET_INFO sets output_size to the space used");

	a_reset(&A);
	a_put(&A, NCR_ATTR_WANTED_ATTRS, &want[2], 2);
	EXPECT(call_full(NCRIO_KEY_GET_INFO, &s, fixed, &A, 256, OVR_NONE,
			 OVR_NONE), 0, "KEY_GET_INFO of KEY_TYPE only");
	p = out_attr(fixed, NCR_ATTR_KEY_TYPE, &len, &n);
	result(p && n == 1 && last_output_size == fixed + 8,
	       "... exactly one attribute, output_size = struct + 8");

	{
		uint16_t odd[3] = { NCR_ATTR_IV, NCR_ATTR_KEY_TYPE, 999 };

		a_reset(&A);
		a_put(&A, NCR_ATTR_WANTED_ATTRS, odd, sizeof(odd));
		EXPECT(call_full(NCRIO_KEY_GET_INFO, &s, fixed, &A, 256,
				 OVR_NONE, OVR_NONE), 0,
		       "KEY_GET_INFO with unsupported requests");
		out_attr(fixed, NCR_ATTR_KEY_TYPE, &len, &n);
		result(n == 1, "... unsupported requests are ignored");
		a_reset(&A);
		a_put(&A, NCR_ATTR_WANTED_ATTRS, odd, 3);
		EXPECT(call_full(NCRIO_KEY_GET_INFO, &s, fixed, &A, 256,
				 OVR_NONE, OVR_NONE), EINVAL,
		       "KEY_GET_INFO with an odd-length WANTED_ATTRS: EINVAL");
	}

	a_reset(&A);
	a_put(&A, NCR_ATTR_WANTED_ATTRS, want, sizeof(want));
	EXPECT(call_full(NCRIO_KEY_GET_INFO, &s, fixed, &A, 0, OVR_NONE,
			 OVR_ZERO), ERANGE,
	       "KEY_GET_INFO with output_size 0 and wanted attributes: ERANGE");
	EXPECT(call_full(NCRIO_KEY_GET_INFO, &s, fixed, &A, 0, OVR_NONE,
			 (uint32_t)fixed), ERANGE,
	       "KEY_GET_INFO with output_size = struct size: ERANGE");
	EXPECT(call_full(NCRIO_KEY_GET_INFO, &s, fixed, &A, 0, OVR_NONE,
			 (uint32_t)(fixed + 43)), ERANGE,
	       "KEY_GET_INFO one byte short: ERANGE");
	EXPECT(call_full(NCRIO_KEY_GET_INFO, &s, fixed, &A, 0, OVR_NONE,
			 (uint32_t)(fixed + 44)), 0,
	       "KEY_GET_INFO with exactly enough room");
	EXPECT(call_full(NCRIO_KEY_GET_INFO, &s, fixed, &A, 0, OVR_NONE,
			 (uint32_t)(fixed - 1)), EINVAL,
	       "KEY_GET_INFO with 0 < output_size < struct size: EINVAL");
	a_reset(&A);
	EXPECT(call_full(NCRIO_KEY_GET_INFO, &s, fixed, &A, 0, OVR_NONE,
			 OVR_ZERO), 0,
	       "KEY_GET_INFO without WANTED_ATTRS, output_size 0");
	result(last_output_size == 0, "... output_size 0 is left unchanged");
	EXPECT(call_full(NCRIO_KEY_GET_INFO, &s, fixed, NULL, 0, OVR_ZERO,
			 (uint32_t)fixed), 0,
	       "KEY_GET_INFO with input_size 0 (no attributes)");
	result(last_output_size == fixed,
	       "... output_size = struct size when nothing is returned");

	s.key = e;
	a_reset(&A);
	a_put(&A, NCR_ATTR_WANTED_ATTRS, want, sizeof(want));
	EXPECT(call_full(NCRIO_KEY_GET_INFO, &s, fixed, &A, 256, OVR_NONE,
			 OVR_NONE), EINVAL, "KEY_GET_INFO of an empty key: EINVAL");
	s.key = 99999;
	EXPECT(call_full(NCRIO_KEY_GET_INFO, &s, fixed, &A, 256, OVR_NONE,
			 OVR_NONE), EINVAL, "KEY_GET_INFO of an unknown handle: EINVAL");
	key_deinit(k);
	key_deinit(e);
}

static void test_attr_protocol(void)
{
	static const uint8_t k16[16];
	struct ncr_key_import s;
	const size_t fixed = sizeof(s);
	ncr_key_t k = key_init();
	uint8_t bad[8];

#define IMPORT_STRUCT (s = (struct ncr_key_import){ .key = k, .data = k16, \
						    .data_size = 16 })
	a_reset(&A);
	a_str(&A, NCR_ATTR_ALGORITHM, "ecb(aes)");
	a_u32(&A, NCR_ATTR_KEY_TYPE, NCR_KEY_TYPE_SECRET);
	IMPORT_STRUCT;
	EXPECT(call_full(NCRIO_KEY_IMPORT, &s, fixed, &A, 0, (uint32_t)(fixed - 1),
			 OVR_NONE), EINVAL, "input_size below the struct size: EINVAL");
	EXPECT(call_full(NCRIO_KEY_IMPORT, &s, fixed, &A, 0, 4, OVR_NONE),
	       EINVAL, "input_size 4: EINVAL");
	EXPECT(call_full(NCRIO_KEY_IMPORT, &s, fixed, &A, 0,
			 (uint32_t)(fixed + 64 * 1024 + 4), OVR_NONE), EOVERFLOW,
	       "attributes above 64 KiB: EOVERFLOW");
	EXPECT(call_full(NCRIO_KEY_IMPORT, &s, fixed, &A, 0, 0xffffffffu - 1,
			 OVR_NONE), EOVERFLOW, "input_size near 4 GiB: EOVERFLOW");
	EXPECT(call_full(NCRIO_KEY_IMPORT, &s, fixed, &A, 0, OVR_ZERO, OVR_NONE),
	       EINVAL, "input_size 0 means no attributes (ALGORITHM missing): EINVAL");
	EXPECT(call_full(NCRIO_KEY_IMPORT, &s, fixed, &A, 0, (uint32_t)fixed,
			 OVR_NONE), EINVAL, "input_size = struct size: no attributes");
	EXPECT(call_full(NCRIO_KEY_IMPORT, &s, fixed, &A, 0, OVR_NONE, OVR_ZERO),
	       0, "well-formed attributes, output_size 0");
	result(last_output_size == 0, "... output_size stays 0");
	EXPECT(call_full(NCRIO_KEY_IMPORT, &s, fixed, &A, 64, OVR_NONE,
			 OVR_NONE), 0, "output_size with room for attributes");
	result(last_output_size == fixed,
	       "... output_size set to the struct size (no output attributes)");
	EXPECT(call_full(NCRIO_KEY_IMPORT, &s, fixed, &A, 0, OVR_NONE,
			 (uint32_t)(fixed - 4)), EINVAL,
	       "output_size below the struct size: EINVAL");

	/* Malformed attribute streams. */
	EXPECT(call_full(NCRIO_KEY_IMPORT, &s, fixed, &A, 0,
			 (uint32_t)(fixed + A.len - 1), OVR_NONE), EINVAL,
	       "attribute cut short by input_size: EINVAL");
	EXPECT(call_full(NCRIO_KEY_IMPORT, &s, fixed, &A, 0,
			 (uint32_t)(fixed + A.len + 2), OVR_NONE), EINVAL,
	       "2 trailing bytes after the attributes: EINVAL");
	memset(bad, 0, sizeof(bad));
	bad[0] = 2;	/* nla_len 2 < header */
	a_reset(&A);
	memcpy(A.buf, bad, 8);
	A.len = 8;
	EXPECT(call(NCRIO_KEY_IMPORT, &s, fixed, &A), EINVAL,
	       "nla_len below the header size: EINVAL");
	a_reset(&A);
	a_put(&A, NCR_ATTR_ALGORITHM, "ecb(aes)", 8);	/* no NUL */
	a_u32(&A, NCR_ATTR_KEY_TYPE, NCR_KEY_TYPE_SECRET);
	EXPECT(call(NCRIO_KEY_IMPORT, &s, fixed, &A), EINVAL,
	       "string attribute without NUL: EINVAL");
	a_reset(&A);
	a_str(&A, NCR_ATTR_ALGORITHM, "ecb(aes)");
	a_put(&A, NCR_ATTR_KEY_TYPE, "\1\0", 2);	/* u32 of 2 bytes */
	EXPECT(call(NCRIO_KEY_IMPORT, &s, fixed, &A), EINVAL,
	       "u32 attribute of 2 bytes: EINVAL");

	/* Unknown attributes are ignored. */
	a_reset(&A);
	a_put(&A, 0, "zero", 4);
	a_str(&A, NCR_ATTR_ALGORITHM, "ecb(aes)");
	a_put(&A, 999, "x", 1);
	a_put(&A, NCR_ATTR_MAX + 1, "future", 6);
	a_u32(&A, NCR_ATTR_KEY_TYPE, NCR_KEY_TYPE_SECRET);
	a_u32(&A, NCR_ATTR_KEY_FLAGS, NCR_KEY_FLAG_EXPORTABLE);
	EXPECT(call(NCRIO_KEY_IMPORT, &s, fixed, &A), 0,
	       "unknown attributes are ignored");
	/* The last attribute may omit its padding. */
	a_reset(&A);
	a_u32(&A, NCR_ATTR_KEY_TYPE, NCR_KEY_TYPE_SECRET);
	a_str(&A, NCR_ATTR_ALGORITHM, "ecb(aes)");	/* 9 bytes, 3 pad */
	EXPECT(call_full(NCRIO_KEY_IMPORT, &s, fixed, &A, 0,
			 (uint32_t)(fixed + A.len - 3), OVR_NONE), 0,
	       "last attribute without its padding is accepted");
	EXPECT(ioctl(fd, _IOWR('c', 199, struct ncr_key_import), callbuf),
	       ENOTTY, "unknown ioctl: ENOTTY");
	EXPECT(ioctl(fd, NCRIO_KEY_IMPORT, NULL), EFAULT,
	       "NULL ioctl argument: EFAULT");
	key_deinit(k);
#undef IMPORT_STRUCT
}

static long gen(ncr_key_t k, const char *algo, uint32_t bits, uint32_t flags)
{
	struct ncr_key_generate g = { .key = k };

	a_reset(&A);
	if (algo)
		a_str(&A, NCR_ATTR_ALGORITHM, algo);
	if (bits)
		a_u32(&A, NCR_ATTR_SECRET_KEY_BITS, bits);
	a_u32(&A, NCR_ATTR_KEY_FLAGS, flags);
	return call(NCRIO_KEY_GENERATE, &g, sizeof(g), &A);
}

static void test_generate(void)
{
	uint8_t a[64], b[64];
	ncr_key_t k1 = key_init(), k2 = key_init();
	uint16_t want = NCR_ATTR_KEY_ID;
	const uint8_t *id;
	uint16_t len = 0;
	int n;



	EXPECT(gen(k1, "cbc(aes)", 256, NCR_KEY_FLAG_EXPORTABLE), 0,
	       "KEY_GENERATE AES-256");
	result(key_export(k1, a, sizeof(a)) == 32, "generated key has 32 bytes");
	EXPECT(gen(k2, "cbc(aes)", 256, NCR_KEY_FLAG_EXPORTABLE), 0,
	       "KEY_GENERATE another AES-256");
	result(key_export(k2, b, sizeof(b)) == 32 && memcmp(a, b, 32),
	       "two generated keys differ");
	{
		struct ncr_key_get_info s = { .key = k1 };

		a_reset(&A);
		a_put(&A, NCR_ATTR_WANTED_ATTRS, &want, 2);
		call_full(NCRIO_KEY_GET_INFO, &s, sizeof(s), &A, 64, OVR_NONE,
			  OVR_NONE);
		id = out_attr(sizeof(s), NCR_ATTR_KEY_ID, &len, &n);
		result(id && len == MAX_KEY_ID_SIZE,
		       "generated key has a random %d-byte key ID",
		       MAX_KEY_ID_SIZE);
	}
	EXPECT(gen(k1, "hmac(sha256)", 160, 0), 0, "KEY_GENERATE HMAC key");
	EXPECT(key_export(k1, a, sizeof(a)), EPERM,
	       "generated key without EXPORTABLE: EPERM on export");
	EXPECT(gen(k1, NULL, 128, 0), EINVAL, "KEY_GENERATE without ALGORITHM: EINVAL");
	EXPECT(gen(k1, "cbc(aes)", 0, 0), EINVAL,
	       "KEY_GENERATE without SECRET_KEY_BITS: EINVAL");
	EXPECT(gen(k1, "cbc(aes)", 100, 0), EINVAL, "KEY_GENERATE AES-100: EINVAL");
	EXPECT(gen(k1, "hmac(sha1)", 81, 0), EINVAL,
	       "KEY_GENERATE of a non-byte bit count: EINVAL");
	EXPECT(gen(k1, "rsa", 1024, 0), EINVAL,
	       "KEY_GENERATE of a public-key algorithm: EINVAL");
	EXPECT(gen(k1, "whirlpool-9000", 128, 0), EINVAL,
	       "KEY_GENERATE with an unknown algorithm: EINVAL");
	EXPECT(gen(4242, "cbc(aes)", 128, 0), EINVAL,
	       "KEY_GENERATE into an unknown handle: EINVAL");
	key_deinit(k1);
	key_deinit(k2);
}

/* ---- symmetric ciphers ---- */

static void test_aes_kat(void)
{
	uint8_t key[32], iv[16], pt[64], ct[64], out[64];
	size_t olen = 0;
	ncr_key_t k;

	/* FIPS-197 C.1 */
	unhex("000102030405060708090a0b0c0d0e0f", key);
	unhex("00112233445566778899aabbccddeeff", pt);
	unhex("69c4e0d86a7b0430d8cdb78070b4c55a", ct);
	k = secret_key("ecb(aes)", key, 16, 0);
	EXPECT(once(NCR_OP_ENCRYPT, "ecb(aes)", k, NULL, 0, pt, 16, out, 64,
		    &olen), 0, "SESSION_ONCE ecb(aes) encrypt");
	result(olen == 16 && !memcmp(out, ct, 16),
	       "ecb(aes) FIPS-197 C.1 known answer, result_size 16");
	EXPECT(once(NCR_OP_DECRYPT, "ecb(aes)", k, NULL, 0, ct, 16, out, 16,
		    &olen), 0, "SESSION_ONCE ecb(aes) decrypt");
	result(!memcmp(out, pt, 16), "ecb(aes) decrypts the known answer");
	key_deinit(k);

	/* SP 800-38A F.2.1 CBC-AES128.Encrypt, 4 blocks */
	unhex("2b7e151628aed2a6abf7158809cf4f3c", key);
	unhex("000102030405060708090a0b0c0d0e0f", iv);
	unhex("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
	      "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710",
	      pt);
	unhex("7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b2"
	      "73bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7",
	      ct);
	k = secret_key("cbc(aes)", key, 16, 0);
	EXPECT(once(NCR_OP_ENCRYPT, "cbc(aes)", k, iv, 16, pt, 64, out, 64,
		    &olen), 0, "SESSION_ONCE cbc(aes) encrypt");
	result(olen == 64 && !memcmp(out, ct, 64),
	       "cbc(aes) SP 800-38A F.2.1 known answer");
	EXPECT(once(NCR_OP_DECRYPT, "cbc(aes)", k, iv, 16, ct, 64, out, 64,
		    &olen), 0, "SESSION_ONCE cbc(aes) decrypt");
	result(!memcmp(out, pt, 64), "cbc(aes) SP 800-38A F.2.2 known answer");
	{
		long s = ses_init(NCR_OP_ENCRYPT, "cbc(aes)", k, iv, 16);
		int ok = s > 0;

		result(s > 0, "SESSION_INIT cbc(aes) returns a session");
		for (int i = 0; i < 4 && ok; i++)
			ok = ses_update((ncr_session_t)s, pt + 16 * i, 16,
					out + 16 * i, 16, &olen) == 0 &&
			     olen == 16;
		result(ok && !memcmp(out, ct, 64),
		       "cbc(aes) chained over 4 SESSION_UPDATEs");
		EXPECT(ses_final((ncr_session_t)s, NULL, 0, NULL), 0,
		       "SESSION_FINAL of the cipher session");
		EXPECT(ses_final((ncr_session_t)s, NULL, 0, NULL), EINVAL,
		       "SESSION_FINAL twice: EINVAL");
		EXPECT(ses_update((ncr_session_t)s, pt, 16, out, 16, &olen),
		       EINVAL, "SESSION_UPDATE after FINAL: EINVAL");
	}
	key_deinit(k);

	/* SP 800-38A F.5.1 CTR-AES128.Encrypt */
	unhex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff", iv);
	unhex("874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"
	      "5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee",
	      ct);
	k = secret_key("ctr(aes)", key, 16, 0);
	EXPECT(once(NCR_OP_ENCRYPT, "ctr(aes)", k, iv, 16, pt, 64, out, 64,
		    &olen), 0, "SESSION_ONCE ctr(aes) encrypt");
	result(olen == 64 && !memcmp(out, ct, 64),
	       "ctr(aes) SP 800-38A F.5.1 known answer");
	EXPECT(once(NCR_OP_ENCRYPT, "ctr(aes)", k, iv, 16, pt, 23, out, 64,
		    &olen), 0, "ctr(aes) of a partial block");
	result(olen == 23 && !memcmp(out, ct, 23),
	       "ctr(aes) partial block is a prefix of the keystream result");
	{
		long s = ses_init(NCR_OP_ENCRYPT, "ctr(aes)", k, iv, 16);

		EXPECT(ses_update((ncr_session_t)s, pt, 16, out, 16, &olen), 0,
		       "ctr(aes) update of one block");
		EXPECT(ses_update((ncr_session_t)s, pt + 16, 7, out + 16, 7,
				  &olen), 0, "ctr(aes) update of a partial block");
		result(!memcmp(out, ct, 23), "ctr(aes) streamed partial result");
		EXPECT(ses_update((ncr_session_t)s, pt + 23, 16, out, 16, &olen),
		       EINVAL, "ctr(aes) data after a partial block: EINVAL");
		ses_final((ncr_session_t)s, NULL, 0, NULL);
	}
	key_deinit(k);

	/* AES-256 ECB, FIPS-197 C.3 */
	unhex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
	      key);
	unhex("00112233445566778899aabbccddeeff", pt);
	unhex("8ea2b7ca516745bfeafc49904b496089", ct);
	k = secret_key("ecb(aes)", key, 32, 0);
	once(NCR_OP_ENCRYPT, "ecb(aes)", k, NULL, 0, pt, 16, out, 16, &olen);
	result(!memcmp(out, ct, 16), "ecb(aes) AES-256 FIPS-197 C.3 known answer");
	key_deinit(k);
}

static void test_cipher_errors(void)
{
	uint8_t key[16] = { 9 }, iv[16] = { 0 }, buf[64] = { 0 }, out[64];
	size_t olen;
	ncr_key_t k = secret_key("cbc(aes)", key, 16, NCR_KEY_FLAG_EXPORTABLE);

	EXPECT(once(NCR_OP_ENCRYPT, "cbc(aes)", k, iv, 16, buf, 17, out, 64,
		    &olen), EINVAL, "cbc(aes) of 17 bytes: EINVAL");
	EXPECT(once(NCR_OP_ENCRYPT, "ecb(aes)", k, NULL, 0, buf, 8, out, 64,
		    &olen), EINVAL, "ecb(aes) of 8 bytes: EINVAL");
	EXPECT(once(NCR_OP_ENCRYPT, "cbc(aes)", k, iv, 16, buf, 32, out, 31,
		    &olen), ERANGE, "cbc(aes) output buffer too small: ERANGE");
	EXPECT(once(NCR_OP_ENCRYPT, "cbc(aes)", k, NULL, 0, buf, 16, out, 16,
		    &olen), EINVAL, "cbc(aes) without IV: EINVAL");
	EXPECT(once(NCR_OP_ENCRYPT, "cbc(aes)", k, iv, 8, buf, 16, out, 16,
		    &olen), EINVAL, "cbc(aes) with an 8-byte IV: EINVAL");
	EXPECT(once(NCR_OP_ENCRYPT, "cbc(aes)", -1, iv, 16, buf, 16, out, 16,
		    &olen), EINVAL, "cbc(aes) without a key: EINVAL");
	EXPECT(once(NCR_OP_ENCRYPT, "cbc(aes)", 77777, iv, 16, buf, 16, out,
		    16, &olen), EINVAL, "cbc(aes) with an unknown key: EINVAL");
	EXPECT(once(NCR_OP_SIGN, "cbc(aes)", k, iv, 16, buf, 16, out, 16,
		    &olen), EINVAL, "NCR_OP_SIGN with a cipher: EINVAL");
	EXPECT(once(NCR_OP_ENCRYPT, "sha256", k, NULL, 0, buf, 16, out, 16,
		    &olen), EINVAL, "NCR_OP_ENCRYPT with a hash: EINVAL");
	EXPECT(once(0, "cbc(aes)", k, iv, 16, buf, 16, out, 16, &olen), EINVAL,
	       "op 0: EINVAL");
	EXPECT(once(5, "cbc(aes)", k, iv, 16, buf, 16, out, 16, &olen), EINVAL,
	       "op 5: EINVAL");
	EXPECT(once(NCR_OP_ENCRYPT, "cbc(des)", k, iv, 8, buf, 16, out, 16,
		    &olen), EINVAL, "unsupported algorithm: EINVAL");
	EXPECT(once(NCR_OP_ENCRYPT, "cbc(aes)", k, iv, 16, NULL, 16, out, 16,
		    &olen), EFAULT, "input from a bad pointer: EFAULT");
	EXPECT(ses_init(NCR_OP_ENCRYPT, NULL, k, iv, 16), EINVAL,
	       "SESSION_INIT without ALGORITHM: EINVAL");
	EXPECT(ses_update(55555, buf, 16, out, 16, &olen), EINVAL,
	       "SESSION_UPDATE of an unknown session: EINVAL");
	EXPECT(ses_final(55555, NULL, 0, NULL), EINVAL,
	       "SESSION_FINAL of an unknown session: EINVAL");
	{
		long s = ses_init(NCR_OP_ENCRYPT, "cbc(aes)", k, iv, 16);
		struct ncr_session_update u = { .ses = (ncr_session_t)s };

		a_reset(&A);
		EXPECT(call(NCRIO_SESSION_UPDATE, &u, sizeof(u), &A), EINVAL,
		       "SESSION_UPDATE without input: EINVAL");
		a_reset(&A);
		a_u32(&A, NCR_ATTR_UPDATE_INPUT_KEY_AS_DATA, (uint32_t)k);
		a_out(&A, NCR_ATTR_UPDATE_OUTPUT_BUFFER, out, 64, &olen);
		EXPECT(call(NCRIO_SESSION_UPDATE, &u, sizeof(u), &A), EINVAL,
		       "encrypting a key with KEY_AS_DATA: EINVAL");
		a_reset(&A);
		a_put(&A, NCR_ATTR_UPDATE_INPUT_DATA, buf, 5);
		EXPECT(call(NCRIO_SESSION_UPDATE, &u, sizeof(u), &A), EINVAL,
		       "malformed input data attribute: EINVAL");
		EXPECT(ses_update((ncr_session_t)s, buf, 16, NULL, 0, NULL),
		       EINVAL, "cipher update without output buffer: EINVAL");
		ses_final((ncr_session_t)s, NULL, 0, NULL);
	}
	key_deinit(k);
}

/* One-shot result == many small updates, across the 16 KiB chunking. */
static void test_streaming(const char *algo)
{
	enum { N = 40000 };
	static uint8_t pt[N], ct1[N], ct2[N], back[N];
	uint8_t key[16], iv[16];
	size_t olen = 0, off = 0, step = 16;
	ncr_key_t k;
	long s;
	int ok = 1;

	fill(key, 16, 1);
	fill(iv, 16, 2);
	fill(pt, N, 3);
	k = secret_key(algo, key, 16, 0);
	EXPECT(once(NCR_OP_ENCRYPT, algo, k, iv, 16, pt, N, ct1, N, &olen), 0,
	       "%s one-shot of %d bytes", algo, N);
	result(olen == N, "%s result_size of the one-shot", algo);
	s = ses_init(NCR_OP_ENCRYPT, algo, k, iv, 16);
	while (ok && off < N) {
		size_t n = step > N - off ? N - off : step;

		ok = ses_update((ncr_session_t)s, pt + off, n, ct2 + off, n,
				&olen) == 0 && olen == n;
		off += n;
		step = (step * 7) % 20000 / 16 * 16 + 16;
	}
	ses_final((ncr_session_t)s, NULL, 0, NULL);
	result(ok && !memcmp(ct1, ct2, N),
	       "%s: one-shot == uneven updates", algo);
	/* Decrypt in place with FINAL carrying the data. */
	memcpy(back, ct1, N);
	s = ses_init(NCR_OP_DECRYPT, algo, k, iv, 16);
	{
		struct ncr_session_final f = { .ses = (ncr_session_t)s };

		a_reset(&A);
		a_in(&A, NCR_ATTR_UPDATE_INPUT_DATA, back, N);
		a_out(&A, NCR_ATTR_UPDATE_OUTPUT_BUFFER, back, N, &olen);
		EXPECT(call(NCRIO_SESSION_FINAL, &f, sizeof(f), &A), 0,
		       "%s SESSION_FINAL with data, in place", algo);
	}
	result(!memcmp(back, pt, N), "%s decrypts back", algo);
	key_deinit(k);
}

/* ---- hashes ---- */

struct hash_kat {
	const char *algo, *msg, *hex;
};

static void test_hash_kat(void)
{
	static const struct hash_kat kats[] = {
		{ "md5", "abc", "900150983cd24fb0d6963f7d28e17f72" },
		{ "sha1", "abc", "a9993e364706816aba3e25717850c26c9cd0d89d" },
		{ "sha224", "abc",
		  "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7" },
		{ "sha256", "abc",
		  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "sha384", "abc",
		  "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
		  "8086072ba1e7cc2358baeca134c825a7" },
		{ "sha512", "abc",
		  "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
		  "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f" },
		{ "sha256", "",
		  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	};
	uint8_t out[64], want[64];
	size_t olen = 0, i;

	for (i = 0; i < ARRAY_SIZE(kats); i++) {
		size_t n = strlen(kats[i].hex) / 2;

		unhex(kats[i].hex, want);
		EXPECT(once(NCR_OP_SIGN, kats[i].algo, -1, NULL, 0, kats[i].msg,
			    strlen(kats[i].msg), out, sizeof(out), &olen), 0,
		       "%s(\"%s\")", kats[i].algo, kats[i].msg);
		result(olen == n && !memcmp(out, want, n),
		       "%s(\"%s\") known answer", kats[i].algo, kats[i].msg);
	}
	EXPECT(once(NCR_OP_SIGN, "sha256", -1, NULL, 0, "abc", 3, out, 31,
		    &olen), ERANGE, "sha256 into a 31-byte buffer: ERANGE");
	unhex(kats[3].hex, want);
	EXPECT(once(NCR_OP_VERIFY, "sha256", -1, NULL, 0, "abc", 3, want, 32,
		    NULL) == 1 ? 0 : -1, 0, "VERIFY sha256 of the right digest returns 1");
	want[31] ^= 1;
	EXPECT(once(NCR_OP_VERIFY, "sha256", -1, NULL, 0, "abc", 3, want, 32,
		    NULL) == 0 ? 0 : -1, 0, "VERIFY sha256 of a wrong digest returns 0");
	EXPECT(once(NCR_OP_VERIFY, "sha256", -1, NULL, 0, "abc", 3, want, 31,
		    NULL) == 0 ? 0 : -1, 0, "VERIFY of a short digest returns 0");
	{
		struct ncr_session_once s = { .op = NCR_OP_SIGN };

		a_reset(&A);
		a_str(&A, NCR_ATTR_ALGORITHM, "sha1");
		a_in(&A, NCR_ATTR_UPDATE_INPUT_DATA, "abc", 3);
		EXPECT(call(NCRIO_SESSION_ONCE, &s, sizeof(s), &A), EINVAL,
		       "SIGN without an output buffer: EINVAL");
	}
	{
		/* many small updates == one shot */
		static uint8_t msg[70000];
		long s = ses_init(NCR_OP_SIGN, "sha512", -1, NULL, 0);
		size_t off = 0, step = 1;
		int ok = s > 0;

		fill(msg, sizeof(msg), 7);
		once(NCR_OP_SIGN, "sha512", -1, NULL, 0, msg, sizeof(msg), want,
		     64, &olen);
		while (ok && off < sizeof(msg)) {
			size_t n = step > sizeof(msg) - off ? sizeof(msg) - off
							     : step;

			ok = ses_update((ncr_session_t)s, msg + off, n, NULL, 0,
					NULL) == 0;
			off += n;
			step = step * 3 + 1;
		}
		EXPECT(ses_final((ncr_session_t)s, out, 64, &olen), 0,
		       "sha512 SESSION_FINAL");
		result(ok && olen == 64 && !memcmp(out, want, 64),
		       "sha512 of 70000 bytes: updates == one shot");
	}
}

static void test_hmac(void)
{
	/* RFC 4231 test case 2 */
	uint8_t out[64], want[64], kb[64];
	size_t olen = 0;
	ncr_key_t k = secret_key("hmac(sha256)", "Jefe", 4, 0);
	const char *msg = "what do ya want for nothing?";

	unhex("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
	      want);
	EXPECT(once(NCR_OP_SIGN, "hmac(sha256)", k, NULL, 0, msg, strlen(msg),
		    out, 64, &olen), 0, "hmac(sha256) SIGN");
	result(olen == 32 && !memcmp(out, want, 32),
	       "hmac(sha256) RFC 4231 case 2 known answer");
	EXPECT(once(NCR_OP_VERIFY, "hmac(sha256)", k, NULL, 0, msg,
		    strlen(msg), want, 32, NULL) == 1 ? 0 : -1, 0,
	       "hmac(sha256) VERIFY of the right MAC returns 1");
	want[0] ^= 0x80;
	EXPECT(once(NCR_OP_VERIFY, "hmac(sha256)", k, NULL, 0, msg,
		    strlen(msg), want, 32, NULL) == 0 ? 0 : -1, 0,
	       "hmac(sha256) VERIFY of a wrong MAC returns 0");
	EXPECT(once(NCR_OP_SIGN, "hmac(sha256)", -1, NULL, 0, msg, strlen(msg),
		    out, 64, &olen), EINVAL, "hmac without a key: EINVAL");
	key_deinit(k);

	/* RFC 4231 case 1 with hmac(sha512): key 0x0b * 20 */
	memset(kb, 0x0b, 20);
	k = secret_key("hmac(sha512)", kb, 20, 0);
	unhex("87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cde"
	      "daa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854",
	      want);
	once(NCR_OP_SIGN, "hmac(sha512)", k, NULL, 0, "Hi There", 8, out, 64,
	     &olen);
	result(olen == 64 && !memcmp(out, want, 64),
	       "hmac(sha512) RFC 4231 case 1 known answer");
	key_deinit(k);
}

static void test_key_as_data(void)
{
	uint8_t key[32], d1[64], d2[64];
	size_t l1 = 0, l2 = 0;
	ncr_key_t k, kx;
	struct ncr_session_once s = { .op = NCR_OP_SIGN };

	fill(key, 32, 11);
	k = secret_key("cbc(aes)", key, 32, 0);	/* not exportable */
	a_reset(&A);
	a_str(&A, NCR_ATTR_ALGORITHM, "sha256");
	a_u32(&A, NCR_ATTR_UPDATE_INPUT_KEY_AS_DATA, (uint32_t)k);
	a_out(&A, NCR_ATTR_FINAL_OUTPUT_BUFFER, d1, 64, &l1);
	EXPECT(call(NCRIO_SESSION_ONCE, &s, sizeof(s), &A), 0,
	       "sha256 of a non-exportable key with KEY_AS_DATA");
	once(NCR_OP_SIGN, "sha256", -1, NULL, 0, key, 32, d2, 64, &l2);
	result(l1 == 32 && l2 == 32 && !memcmp(d1, d2, 32),
	       "KEY_AS_DATA hashes exactly the key material");
	kx = key_init();
	a_reset(&A);
	a_str(&A, NCR_ATTR_ALGORITHM, "sha256");
	a_u32(&A, NCR_ATTR_UPDATE_INPUT_KEY_AS_DATA, (uint32_t)kx);
	a_out(&A, NCR_ATTR_FINAL_OUTPUT_BUFFER, d1, 64, &l1);
	EXPECT(call(NCRIO_SESSION_ONCE, &s, sizeof(s), &A), EINVAL,
	       "KEY_AS_DATA of an empty key: EINVAL");
	a_reset(&A);
	a_str(&A, NCR_ATTR_ALGORITHM, "sha256");
	a_u32(&A, NCR_ATTR_UPDATE_INPUT_KEY_AS_DATA, 88888);
	a_out(&A, NCR_ATTR_FINAL_OUTPUT_BUFFER, d1, 64, &l1);
	EXPECT(call(NCRIO_SESSION_ONCE, &s, sizeof(s), &A), EINVAL,
	       "KEY_AS_DATA of an unknown key: EINVAL");
	key_deinit(kx);
	key_deinit(k);
}

/* A session keeps its key alive after KEY_DEINIT. */
static void test_deinit_in_use(void)
{
	uint8_t key[16], iv[16], pt[32], ref[32], out[32];
	size_t olen = 0;
	ncr_key_t k;
	long s;

	fill(key, 16, 21);
	fill(iv, 16, 22);
	fill(pt, 32, 23);
	k = secret_key("cbc(aes)", key, 16, 0);
	once(NCR_OP_ENCRYPT, "cbc(aes)", k, iv, 16, pt, 32, ref, 32, &olen);
	s = ses_init(NCR_OP_ENCRYPT, "cbc(aes)", k, iv, 16);
	EXPECT(key_deinit(k), 0, "KEY_DEINIT while a session uses the key");
	EXPECT(ses_update((ncr_session_t)s, pt, 32, out, 32, &olen), 0,
	       "the session still works");
	result(!memcmp(out, ref, 32), "... and gives the right result");
	EXPECT(ses_final((ncr_session_t)s, NULL, 0, NULL), 0,
	       "SESSION_FINAL frees the last reference");
	EXPECT(key_export(k, out, 32), EINVAL, "the handle is gone: EINVAL");
}

struct race {
	volatile int stop;
	ncr_key_t key;
};

static void *race_deiniter(void *p)
{
	struct race *r = p;

	while (!r->stop) {
		ncr_key_t k = r->key;

		if (k > 0)
			key_deinit(k);
	}
	return NULL;
}

/* DEINIT racing operations on the same key from another thread. */
static void test_deinit_race(void)
{
	uint8_t key[16] = { 1 }, iv[16] = { 2 }, buf[4096], out[4096];
	struct race r = { 0, 0 };
	pthread_t t;
	size_t olen;
	int i, bad = 0;

	memset(buf, 0x33, sizeof(buf));
	pthread_create(&t, NULL, race_deiniter, &r);
	for (i = 0; i < 300; i++) {
		ncr_key_t k = key_init();
		long ret;

		r.key = k;
		key_import(k, "cbc(aes)", NCR_KEY_TYPE_SECRET, 0, key, 16);
		ret = once(NCR_OP_ENCRYPT, "cbc(aes)", k, iv, 16, buf,
			   sizeof(buf), out, sizeof(out), &olen);
		if (ret < 0 && errno != EINVAL)
			bad++;
		r.key = 0;
		key_deinit(k);
	}
	r.stop = 1;
	pthread_join(t, NULL);
	result(!bad, "300 operations racing KEY_DEINIT: success or EINVAL only");
}

struct worker {
	pthread_t thread;
	int id, bad;
	uint8_t key[16], iv[16], data[4096], ct[4096], digest[32];
};

static void *worker_run(void *p)
{
	struct worker *w = p;
	uint8_t out[4096];
	size_t olen;
	ncr_key_t k = secret_key("cbc(aes)", w->key, 16, 0);
	int i;

	for (i = 0; i < 40; i++) {
		if (once(NCR_OP_ENCRYPT, "cbc(aes)", k, w->iv, 16, w->data,
			 sizeof(w->data), out, sizeof(out), &olen) ||
		    olen != sizeof(out) || memcmp(out, w->ct, sizeof(out)))
			w->bad++;
		if (once(NCR_OP_SIGN, "sha256", -1, NULL, 0, w->data,
			 sizeof(w->data), out, 32, &olen) ||
		    memcmp(out, w->digest, 32))
			w->bad++;
	}
	key_deinit(k);
	return NULL;
}

/* Threads sharing the namespace, each with its own key and data. */
static void test_threads(void)
{
	static struct worker w[4];
	size_t olen;
	int i, bad = 0;

	for (i = 0; i < 4; i++) {
		ncr_key_t k;

		w[i].id = i;
		fill(w[i].key, 16, 100 + i);
		fill(w[i].iv, 16, 200 + i);
		fill(w[i].data, sizeof(w[i].data), 300 + i);
		k = secret_key("cbc(aes)", w[i].key, 16, 0);
		once(NCR_OP_ENCRYPT, "cbc(aes)", k, w[i].iv, 16, w[i].data,
		     sizeof(w[i].data), w[i].ct, sizeof(w[i].ct), &olen);
		once(NCR_OP_SIGN, "sha256", -1, NULL, 0, w[i].data,
		     sizeof(w[i].data), w[i].digest, 32, &olen);
		key_deinit(k);
	}
	for (i = 0; i < 4; i++)
		pthread_create(&w[i].thread, NULL, worker_run, &w[i]);
	for (i = 0; i < 4; i++) {
		pthread_join(w[i].thread, NULL);
		bad += w[i].bad;
	}
	result(!bad, "4 threads x 40 cipher and hash operations, all correct");
}

static void test_fork(void)
{
	uint8_t key[16], buf[16];
	ncr_key_t k, k2 = -1;
	int st = -1, p[2];
	pid_t pid;

	fill(key, 16, 31);
	k = secret_key("cbc(aes)", key, 16, NCR_KEY_FLAG_EXPORTABLE);
	if (pipe(p)) {
		result(0, "pipe");
		return;
	}
	pid = fork();
	if (pid == 0) {
		int code = 0;

		if (key_export(k, buf, 16) != 16 || memcmp(buf, key, 16))
			code |= 1;
		k2 = secret_key("ecb(aes)", key, 16, NCR_KEY_FLAG_EXPORTABLE);
		if (k2 < 0)
			code |= 2;
		if (write(p[1], &k2, sizeof(k2)) != sizeof(k2))
			code |= 4;
		_exit(code);
	}
	close(p[1]);
	if (read(p[0], &k2, sizeof(k2)) != sizeof(k2))
		k2 = -1;
	close(p[0]);
	waitpid(pid, &st, 0);
	result(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	       "forked child uses the parent's key through the shared namespace");
	result(k2 >= 0 && key_export(k2, buf, 16) == 16 &&
	       !memcmp(buf, key, 16), "parent sees the key the child created");
	EXPECT(key_deinit(k2), 0, "parent deinits the child's key");
	key_deinit(k);
}

/* ---- limits ---- */

static const char *param_path(const char *name)
{
	static char p[128];

	snprintf(p, sizeof(p), "/sys/module/ncr/parameters/%s", name);
	return p;
}

static long param_get(const char *name)
{
	FILE *f = fopen(param_path(name), "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static int param_set(const char *name, long v)
{
	FILE *f = fopen(param_path(name), "w");
	int ok;

	if (!f)
		return -1;
	ok = fprintf(f, "%ld\n", v) > 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* Allocate until failure (max 5000); returns count, handles in h. */
static int fill_keys(int dev, ncr_key_t *h, int max, int *err)
{
	int n = 0;

	for (; n < max; n++) {
		h[n] = ioctl(dev, NCRIO_KEY_INIT);
		if (h[n] < 0) {
			*err = errno;
			return n;
		}
	}
	*err = 0;
	return n;
}

static void test_limits(void)
{
	static ncr_key_t h[5000];
	long kp = param_get("max_keys_per_process");
	long ku = param_get("max_keys_per_user");
	long sp = param_get("max_sessions_per_process");
	long su = param_get("max_sessions_per_user");
	int n, err, fd2, i;
	uint8_t key[16] = { 0 };
	ncr_key_t k;

	if (kp < 0 || param_set("max_keys_per_process", kp)) {
		printf("# limits: module parameters not writable (need root)\n");
		result(0, "limits: module parameters available");
		return;
	}
	param_set("max_keys_per_process", 10);
	n = fill_keys(fd, h, 5000, &err);
	result(n == 10 && err == EMFILE,
	       "per-process key limit 10: 10 keys, then EMFILE");
	fd2 = open("/dev/crypto", O_RDWR);
	EXPECT(ioctl(fd2, NCRIO_KEY_INIT), EMFILE,
	       "the limit is per process, not per namespace: EMFILE");
	key_deinit(h[3]);
	EXPECT(h[3] = ioctl(fd, NCRIO_KEY_INIT), 0,
	       "KEY_DEINIT releases the charge");
	{
		/* Same namespace, other process: its own per-process count. */
		pid_t pid = fork();
		int st = -1;

		if (pid == 0) {
			ncr_key_t c = ioctl(fd, NCRIO_KEY_INIT);

			_exit(c >= 0 && key_deinit(c) == 0 ? 0 : 1);
		}
		waitpid(pid, &st, 0);
		result(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		       "a forked child has its own per-process key count");
	}
	for (i = 0; i < n; i++)
		key_deinit(h[i]);
	n = fill_keys(fd2, h, 5000, &err);
	close(fd2);
	result(n == 10, "keys charged again in another namespace");
	n = fill_keys(fd, h, 5000, &err);
	result(n == 10, "closing a namespace releases its keys' charges");
	for (i = 0; i < n; i++)
		key_deinit(h[i]);

	/* per user: lower than per process */
	param_set("max_keys_per_process", 100);
	param_set("max_keys_per_user", 6);
	n = fill_keys(fd, h, 5000, &err);
	result(n == 6 && err == EMFILE, "per-user key limit 6: EMFILE after 6");
	{
		pid_t pid = fork();
		int st = -1;

		if (pid == 0)
			_exit(ioctl(fd, NCRIO_KEY_INIT) < 0 && errno == EMFILE ?
			      0 : 1);
		waitpid(pid, &st, 0);
		result(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		       "the per-user limit applies to other processes too");
	}
	for (i = 0; i < n; i++)
		key_deinit(h[i]);
	param_set("max_keys_per_user", ku);
	param_set("max_keys_per_process", kp);

	/* sessions */
	k = secret_key("ecb(aes)", key, 16, 0);
	param_set("max_sessions_per_process", 5);
	for (n = 0; n < 100; n++) {
		long s = ses_init(NCR_OP_ENCRYPT, "ecb(aes)", k, NULL, 0);

		if (s < 0) {
			err = errno;
			break;
		}
		h[n] = (ncr_key_t)s;
	}
	result(n == 5 && err == EMFILE,
	       "per-process session limit 5: EMFILE after 5");
	{
		uint8_t out[16];
		size_t olen;

		EXPECT(once(NCR_OP_ENCRYPT, "ecb(aes)", k, NULL, 0, key, 16, out,
			    16, &olen), EMFILE, "SESSION_ONCE counts too: EMFILE");
	}
	ses_final(h[0], NULL, 0, NULL);
	EXPECT(h[0] = (ncr_key_t)ses_init(NCR_OP_ENCRYPT, "ecb(aes)", k, NULL,
					  0), 0, "SESSION_FINAL releases the charge");
	for (i = 0; i < n; i++)
		ses_final(h[i], NULL, 0, NULL);
	param_set("max_sessions_per_process", 100);
	param_set("max_sessions_per_user", 3);
	for (n = 0; n < 100; n++) {
		long s = ses_init(NCR_OP_SIGN, "sha1", -1, NULL, 0);

		if (s < 0) {
			err = errno;
			break;
		}
		h[n] = (ncr_key_t)s;
	}
	result(n == 3 && err == EMFILE,
	       "per-user session limit 3: EMFILE after 3");
	for (i = 0; i < n; i++)
		ses_final(h[i], NULL, 0, NULL);
	param_set("max_sessions_per_user", su);
	param_set("max_sessions_per_process", sp);
	key_deinit(k);
	result(param_get("max_keys_per_process") == kp &&
	       param_get("max_keys_per_user") == ku &&
	       param_get("max_sessions_per_process") == sp &&
	       param_get("max_sessions_per_user") == su,
	       "limits restored");
}

/* ---- operations implemented by later work ---- */

/* ---- EC keys: the curve string, the peer and the session data ---- */

static long ec_pair(ncr_key_t priv, ncr_key_t pub, const char *curve)
{
	struct ncr_key_generate_pair s = { .private_key = priv,
					   .public_key = pub };

	a_reset(&A);
	a_str(&A, NCR_ATTR_ALGORITHM, "ecdsa");
	a_u32(&A, NCR_ATTR_KEY_FLAGS, NCR_KEY_FLAG_EXPORTABLE);
	if (curve)
		a_str(&A, NCR_ATTR_ECC_CURVE, curve);
	return call(NCRIO_KEY_GENERATE_PAIR, &s, sizeof(s), &A);
}

/* ECDH / X25519 of priv with the peer value; the secret's length or -1. */
static long ec_derive(ncr_key_t priv, const uint8_t *peer, size_t n,
		      uint8_t *secret)
{
	ncr_key_t k = key_init();
	struct ncr_key_derive s = { .input_key = priv, .new_key = k };
	long r;

	a_reset(&A);
	a_str(&A, NCR_ATTR_DERIVATION_ALGORITHM, NCR_DERIVE_ECDH);
	a_u32(&A, NCR_ATTR_KEY_FLAGS, NCR_KEY_FLAG_EXPORTABLE);
	a_put(&A, NCR_ATTR_DH_PUBLIC, peer, n);
	r = call(NCRIO_KEY_DERIVE, &s, sizeof(s), &A);
	if (r >= 0)
		r = key_export(k, secret, 64);
	key_deinit(k);
	return r;
}

static long ec_sig_once(uint32_t op, ncr_key_t key, const char *msg,
			uint8_t *sig, size_t size, size_t *outlen)
{
	struct ncr_session_once s = { .op = op };

	a_reset(&A);
	a_str(&A, NCR_ATTR_ALGORITHM, "ecdsa");
	a_u32(&A, NCR_ATTR_KEY, (uint32_t)key);
	a_str(&A, NCR_ATTR_SIGNATURE_HASH_ALGORITHM, "sha256");
	a_in(&A, NCR_ATTR_UPDATE_INPUT_DATA, msg, strlen(msg));
	if (op == NCR_OP_SIGN)
		a_out(&A, NCR_ATTR_FINAL_OUTPUT_BUFFER, sig, size, outlen);
	else
		a_in(&A, NCR_ATTR_FINAL_INPUT_DATA, sig, size);
	return call(NCRIO_SESSION_ONCE, &s, sizeof(s), &A);
}

static void test_ec_curve(const char *curve, size_t spki_len, size_t raw,
			  size_t secret_len)
{
	ncr_key_t a = key_init(), ap = key_init(), b = key_init(),
		  bp = key_init();
	uint8_t spki_a[128], spki_b[128], s1[64], s2[64], sig[128];
	uint16_t want = NCR_ATTR_ECC_CURVE, len = 0;
	size_t siglen = 0;
	const uint8_t *v;
	int n;

	EXPECT(ec_pair(a, ap, curve), 0, "KEY_GENERATE_PAIR ecdsa %s", curve);
	EXPECT(ec_pair(b, bp, curve), 0, "another %s pair", curve);
	result(key_export(ap, spki_a, sizeof(spki_a)) == (long)spki_len &&
	       key_export(bp, spki_b, sizeof(spki_b)) == (long)spki_len,
	       "%s public keys export as %zu-byte SPKIs", curve, spki_len);
	{
		struct ncr_key_get_info s = { .key = a };

		a_reset(&A);
		a_put(&A, NCR_ATTR_WANTED_ATTRS, &want, 2);
		call_full(NCRIO_KEY_GET_INFO, &s, sizeof(s), &A, 64, OVR_NONE,
			  OVR_NONE);
		v = out_attr(sizeof(s), NCR_ATTR_ECC_CURVE, &len, &n);
		result(v && len == strlen(curve) + 1 && !memcmp(v, curve, len),
		       "KEY_GET_INFO returns the curve %s", curve);
	}
	/* the peer as the raw point / u: the end of the other's SPKI */
	result(ec_derive(a, spki_b + spki_len - raw, raw, s1) ==
	       (long)secret_len &&
	       ec_derive(b, spki_a + spki_len - raw, raw, s2) ==
	       (long)secret_len && !memcmp(s1, s2, secret_len),
	       "%s: both sides derive the same %zu-byte secret", curve,
	       secret_len);
	result(ec_derive(a, spki_b, spki_len, s2) == (long)secret_len &&
	       !memcmp(s1, s2, secret_len), "%s: the peer as an SPKI", curve);
	EXPECT(ec_derive(a, spki_b, raw - 1, s2), EINVAL,
	       "%s: a peer of the wrong length: EINVAL", curve);
	if (strcmp(curve, NCR_ECC_CURVE_X25519)) {
		EXPECT(ec_sig_once(NCR_OP_SIGN, a, "abc", sig, sizeof(sig),
				   &siglen), 0, "%s: SESSION_ONCE sign", curve);
		/* no length in the message: it varies, the logs must not */
		result(siglen >= 8 && siglen <= 2 * secret_len + 8 &&
		       sig[0] == 0x30, "%s: a DER signature of at most %zu bytes",
		       curve, 2 * secret_len + 8);
		result(ec_sig_once(NCR_OP_VERIFY, ap, "abc", sig, siglen,
				   NULL) == 1, "%s: the public key verifies it",
		       curve);
		result(ec_sig_once(NCR_OP_VERIFY, ap, "abd", sig, siglen,
				   NULL) == 0, "%s: not for another message",
		       curve);
		EXPECT(ec_sig_once(NCR_OP_SIGN, a, "abc", sig, 8, &siglen),
		       ERANGE, "%s: an 8-byte signature buffer: ERANGE", curve);
	} else {
		EXPECT(ec_sig_once(NCR_OP_SIGN, a, "abc", sig, sizeof(sig),
				   &siglen), EINVAL, "x25519 does not sign");
	}
	key_deinit(a);
	key_deinit(ap);
	key_deinit(b);
	key_deinit(bp);
}

static void test_ec(void)
{
	ncr_key_t a = key_init(), b = key_init();

	test_ec_curve(NCR_ECC_CURVE_P256, 91, 65, 32);
	test_ec_curve(NCR_ECC_CURVE_P384, 120, 97, 48);
	test_ec_curve(NCR_ECC_CURVE_X25519, 44, 32, 32);
	EXPECT(ec_pair(a, b, NULL), EINVAL, "ecdsa without a curve: EINVAL");
	EXPECT(ec_pair(a, b, "P-521"), EINVAL, "an unknown curve: EINVAL");
	key_deinit(a);
	key_deinit(b);
}

static int refused(long r, int e)
{
	if (r >= 0 || e == ENOTTY) {
		printf("# got %ld errno %d (%s)\n", r, e, strerror(e));
		return 0;
	}
	if (e != EOPNOTSUPP)
		printf("# implemented: refused with %s\n", strerror(e));
	return 1;
}

static void test_hooks(void)
{
	uint8_t buf[256] = { 0 };
	ncr_key_t e = key_init();
	long r;

	{
		struct ncr_key_generate_pair s = { .private_key = 77777,
						   .public_key = 77778 };

		a_reset(&A);
		a_str(&A, NCR_ATTR_ALGORITHM, "rsa");
		a_u32(&A, NCR_ATTR_RSA_MODULUS_BITS, 1024);
		r = call(NCRIO_KEY_GENERATE_PAIR, &s, sizeof(s), &A);
		result(refused(r, errno), "KEY_GENERATE_PAIR reaches its handler, refuses bad handles");
	}
	{
		struct ncr_key_derive s = { .input_key = 77777, .new_key = e };

		a_reset(&A);
		a_str(&A, NCR_ATTR_DERIVATION_ALGORITHM, NCR_DERIVE_DH);
		r = call(NCRIO_KEY_DERIVE, &s, sizeof(s), &A);
		result(refused(r, errno), "KEY_DERIVE reaches its handler, refuses bad handles");
	}
	{
		struct ncr_key_wrap s = { .wrapping_key = 77777,
					  .source_key = 77778, .buffer = buf,
					  .buffer_size = sizeof(buf) };

		a_reset(&A);
		a_str(&A, NCR_ATTR_WRAPPING_ALGORITHM, NCR_WALG_AES_RFC3394);
		r = call(NCRIO_KEY_WRAP, &s, sizeof(s), &A);
		result(refused(r, errno), "KEY_WRAP reaches its handler, refuses bad handles");
	}
	{
		struct ncr_key_unwrap s = { .wrapping_key = 77777,
					    .dest_key = e, .data = buf,
					    .data_size = 24 };

		a_reset(&A);
		a_str(&A, NCR_ATTR_WRAPPING_ALGORITHM, NCR_WALG_AES_RFC3394);
		r = call(NCRIO_KEY_UNWRAP, &s, sizeof(s), &A);
		result(refused(r, errno), "KEY_UNWRAP reaches its handler, refuses bad handles");
	}
	{
		struct ncr_master_key_set s = { .key = buf, .key_size = 7 };

		r = call(NCRIO_MASTER_KEY_SET, &s, sizeof(s), NULL);
		result(refused(r, errno), "MASTER_KEY_SET reaches its handler, refuses a 7-byte key");
	}
	{
		struct ncr_key_storage_wrap s = { .key = 77777, .buffer = buf,
						  .buffer_size = sizeof(buf) };

		r = call(NCRIO_KEY_STORAGE_WRAP, &s, sizeof(s), NULL);
		result(refused(r, errno), "KEY_STORAGE_WRAP reaches its handler, refuses a bad handle");
	}
	{
		struct ncr_key_storage_unwrap s = { .key = e, .data = buf,
						    .data_size = 40 };

		r = call(NCRIO_KEY_STORAGE_UNWRAP, &s, sizeof(s), NULL);
		result(refused(r, errno), "KEY_STORAGE_UNWRAP reaches its handler, refuses garbage");
	}
	r = key_import(e, "rsa", NCR_KEY_TYPE_PUBLIC, 0, "garbage", 7);
	result(refused(r, errno), "KEY_IMPORT of an RSA key refuses garbage");
	{
		size_t olen;

		r = once(NCR_OP_SIGN, "rsa", -1, NULL, 0, "abc", 3, buf, 256,
			 &olen);
		result(refused(r, errno), "rsa session without a key is refused");
		r = once(NCR_OP_SIGN, "dh", -1, NULL, 0, "abc", 3, buf, 256,
			 &olen);
		result(r < 0 && errno == EINVAL, "dh session: EINVAL");
	}
	key_deinit(e);
}

int main(void)
{
	printf("# ncr ABI test (%d-bit)\n", (int)(8 * sizeof(void *)));
	fd = open("/dev/crypto", O_RDWR);
	result(fd >= 0, "open /dev/crypto");
	if (fd < 0) {
		printf("# %s\n", strerror(errno));
		return 1;
	}
	test_layout();
	test_key_basics();
	test_get_info();
	test_attr_protocol();
	test_generate();
	test_aes_kat();
	test_cipher_errors();
	test_streaming("cbc(aes)");
	test_streaming("ctr(aes)");
	test_hash_kat();
	test_hmac();
	test_key_as_data();
	test_deinit_in_use();
	test_deinit_race();
	test_threads();
	test_fork();
	test_ec();
	test_limits();
	test_hooks();
	close(fd);
	printf("1..%d\n# %d tests, %d failures\n", tests, tests, failures);
	return failures ? 1 : 0;
}
