// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl fuzzer of /dev/crypto: seeded random sequences of every NCRIO_*
 * ioctl with valid, mutated and hostile fixed structs and attributes
 * (sizes, lengths, handles valid/stale/deinit'ed/of another descriptor,
 * NULL and bad pointers), from several threads, a forked child on the same
 * descriptor and a thread that keeps opening and closing descriptors.
 * Meant for the debug kernel (scripts/vm --debug-kernel), which turns any
 * kernel report into a failure; see test/fuzz/README.md.
 *
 *   ioctl_fuzz [-s SEED] [-t SECONDS] [-j THREADS]      fuzz
 *   ioctl_fuzz --kat N          N known-answer rounds: every ioctl that
 *                               succeeds must give the right answer, and
 *                               one that fails must succeed when repeated
 *                               with fault injection off (for runs under
 *                               fault injection)
 *   ioctl_fuzz --limits N       with max_keys_per_process = N: a fresh
 *                               descriptor gets exactly N keys, then EMFILE
 *
 * Prints the seed first and "ops=<n>" at the end; exit status 0, or 1 with
 * "FAIL seed=<seed>" (replay with -s SEED -j 1 for a single thread).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/ncr.h>

#include "../fault_window.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define DEVICE "/dev/crypto"
#define MAX_THREADS 16
#define POOL 64

static unsigned long long seed;
static volatile int stop;
static int fds[2];		/* two descriptors: "another descriptor" */
static volatile int churn_fd = -1;	/* opened and closed by a thread */
static uint8_t *guard;		/* a page followed by a PROT_NONE page */
static long page;

/* Handles seen (valid, deinit'ed, of other descriptors): racy on purpose. */
static volatile int32_t keys[POOL], sessions[POOL];

static unsigned long long ops_total, ops_ok;

static const struct {
	const char *name;
	unsigned long cmd;
	size_t size;
} ioctls[] = {
	{ "KEY_INIT", NCRIO_KEY_INIT, 0 },
	{ "KEY_GENERATE", NCRIO_KEY_GENERATE, sizeof(struct ncr_key_generate) },
	{ "KEY_GENERATE_PAIR", NCRIO_KEY_GENERATE_PAIR, sizeof(struct ncr_key_generate_pair) },
	{ "KEY_DERIVE", NCRIO_KEY_DERIVE, sizeof(struct ncr_key_derive) },
	{ "KEY_GET_INFO", NCRIO_KEY_GET_INFO, sizeof(struct ncr_key_get_info) },
	{ "KEY_EXPORT", NCRIO_KEY_EXPORT, sizeof(struct ncr_key_export) },
	{ "KEY_IMPORT", NCRIO_KEY_IMPORT, sizeof(struct ncr_key_import) },
	{ "KEY_DEINIT", NCRIO_KEY_DEINIT, sizeof(ncr_key_t) },
	{ "KEY_WRAP", NCRIO_KEY_WRAP, sizeof(struct ncr_key_wrap) },
	{ "KEY_UNWRAP", NCRIO_KEY_UNWRAP, sizeof(struct ncr_key_unwrap) },
	{ "MASTER_KEY_SET", NCRIO_MASTER_KEY_SET, sizeof(struct ncr_master_key_set) },
	{ "KEY_STORAGE_WRAP", NCRIO_KEY_STORAGE_WRAP, sizeof(struct ncr_key_storage_wrap) },
	{ "KEY_STORAGE_UNWRAP", NCRIO_KEY_STORAGE_UNWRAP, sizeof(struct ncr_key_storage_wrap) },
	{ "SESSION_INIT", NCRIO_SESSION_INIT, sizeof(struct ncr_session_init) },
	{ "SESSION_UPDATE", NCRIO_SESSION_UPDATE, sizeof(struct ncr_session_update) },
	{ "SESSION_FINAL", NCRIO_SESSION_FINAL, sizeof(struct ncr_session_final) },
	{ "SESSION_ONCE", NCRIO_SESSION_ONCE, sizeof(struct ncr_session_once) },
};
#define N_IOCTLS ARRAY_SIZE(ioctls)
#define I_MASTER_KEY_SET 10

static const char *const algos[] = {
	"cbc(aes)", "ecb(aes)", "ctr(aes)", "xts(aes)", "cbc(des3_ede)",
	"cbc(camellia)", "ecb(camellia)", "ctr(camellia)", "ecb(cipher_null)",
	"sha1", "sha224", "sha256", "sha384", "sha512", "md5", "sha3-256",
	"hmac(sha1)", "hmac(sha256)", "hmac(sha512)", "hmac(md5)", "rsa", "dsa",
	"dh", "ecdsa", NCR_WALG_AES_RFC3394, NCR_WALG_AES_RFC5649, NCR_DERIVE_DH,
	NCR_DERIVE_ECDH, "", "cbc(aes", "aes", "sha256\xff",
};

static const char *const curves[] = {
	NCR_ECC_CURVE_P256, NCR_ECC_CURVE_P384, NCR_ECC_CURVE_X25519,
	"prime256v1", "secp256r1", "secp384r1", "X25519", "P-521", "p-256",
	"",
};

/* Keyring keys that do not exist: the lookup and its errors run. */
static const char *const keyring_keys[] = {
	"logon:ncr:fuzz", "encrypted:ncr-fuzz", "user:ncr:fuzz", "logon:",
	"encrypted:", "ncr:fuzz", "",
};

/* ---- PRNG (per thread / process: xorshift64*) ---- */

struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 2685821657736338717ULL;
}

static uint32_t below(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)(rnd(r) % n) : 0;
}

static int chance(struct rng *r, int percent)
{
	return (int)below(r, 100) < percent;
}

/* ---- hostile values ---- */

static void *bad_ptr(struct rng *r, void *good, size_t goodlen)
{
	switch (below(r, 8)) {
	case 0: return NULL;
	case 1: return (void *)(uintptr_t)1;
	case 2: return (void *)(uintptr_t)(sizeof(void *) == 8 ?
				0xffff880000000000ULL : 0xc0000000UL);
	case 3: return guard + page - (goodlen < (size_t)page ? goodlen / 2 : 1);
	case 4: return guard + page;	/* PROT_NONE */
	case 5: return (void *)(uintptr_t)-1;
	default: return good;
	}
}

static uint32_t size_val(struct rng *r, uint32_t good)
{
	static const uint32_t odd[] = { 0, 1, 3, 4, 7, 8, 15, 16, 17, 31, 32,
		33, 63, 64, 65, 255, 256, 4095, 4096, 65535, 65536, 1u << 20,
		0x7fffffff, 0x80000000, 0xfffffff0, 0xffffffff };

	if (chance(r, 60))
		return good;
	if (chance(r, 30))
		return good + below(r, 9) - 4;
	return odd[below(r, ARRAY_SIZE(odd))];
}

static int32_t handle(struct rng *r, int is_session)
{
	volatile int32_t *pool = is_session ? sessions : keys;

	switch (below(r, 10)) {
	case 0: return -1;
	case 1: return (int32_t)rnd(r);
	case 2: return (int32_t)below(r, 8);
	case 3: return 0x7fffffff;
	default: return pool[below(r, POOL)];
	}
}

static void remember(volatile int32_t *pool, struct rng *r, int32_t h)
{
	if (h >= 0)
		pool[below(r, POOL)] = h;
}

/* ---- call buffer: fixed struct + attributes (+ room for output) ---- */

struct call {
	size_t len;		/* fixed + attributes */
	uint8_t buf[8192] __attribute__((aligned(8)));
};

/* Per-thread data the attributes point at. */
struct tdata {
	struct rng r;
	struct call c;
	uint8_t in[1024], out[1024];
	size_t result;
	int fd;
	int hostile;	/* put_* may corrupt what they write */
};

static void put_attr(struct tdata *t, uint16_t type, const void *data, size_t n)
{
	struct call *c = &t->c;
	uint16_t nla_len = (uint16_t)(4 + n);
	size_t total = (4 + n + 3) & ~(size_t)3;

	if (c->len + total > sizeof(c->buf) - 512)
		return;
	if (t->hostile && chance(&t->r, 3))	/* hostile nla_len */
		nla_len = (uint16_t)size_val(&t->r, nla_len);
	memcpy(c->buf + c->len, &nla_len, 2);
	memcpy(c->buf + c->len + 2, &type, 2);
	memcpy(c->buf + c->len + 4, data, n);
	memset(c->buf + c->len + 4 + n, 0, total - 4 - n);
	c->len += total;
}

static void put_u32(struct tdata *t, uint16_t type, uint32_t v)
{
	put_attr(t, type, &v, t->hostile && chance(&t->r, 3) ? below(&t->r, 8) : 4);
}

static void put_str(struct tdata *t, uint16_t type, const char *s)
{
	size_t n = strlen(s) + 1;

	if (t->hostile && chance(&t->r, 3) && n > 1)
		n--;	/* not NUL-terminated */
	put_attr(t, type, s, n);
}

static void put_in(struct tdata *t, uint16_t type)
{
	size_t n = size_val(&t->r, 16 * below(&t->r, 5));
	struct ncr_session_input_data d = {
		bad_ptr(&t->r, t->in, n), n };

	if (n <= sizeof(t->in) && d.data == t->in)
		for (size_t i = 0; i < n; i++)
			t->in[i] = (uint8_t)rnd(&t->r);
	put_attr(t, type, &d, sizeof(d));
}

static void put_out(struct tdata *t, uint16_t type)
{
	size_t n = size_val(&t->r, sizeof(t->out));
	struct ncr_session_output_buffer o = {
		bad_ptr(&t->r, t->out, n), n,
		bad_ptr(&t->r, &t->result, sizeof(t->result)) };

	put_attr(t, type, &o, sizeof(o));
}

static void put_random_attr(struct tdata *t)
{
	struct rng *r = &t->r;
	uint16_t type = (uint16_t)below(r, NCR_ATTR_END__ + 2);
	uint8_t blob[300];
	size_t n;

	switch (type) {
	case NCR_ATTR_ALGORITHM:
	case NCR_ATTR_DERIVATION_ALGORITHM:
	case NCR_ATTR_SIGNATURE_HASH_ALGORITHM:
	case NCR_ATTR_WRAPPING_ALGORITHM:
	case NCR_ATTR_RSA_OAEP_HASH_ALGORITHM:
		put_str(t, type, algos[below(r, ARRAY_SIZE(algos))]);
		return;
	case NCR_ATTR_ECC_CURVE:
		put_str(t, type, curves[below(r, ARRAY_SIZE(curves))]);
		return;
	case NCR_ATTR_MASTER_KEY_DESCRIPTION:
		put_str(t, type,
			keyring_keys[below(r, ARRAY_SIZE(keyring_keys))]);
		return;
	case NCR_ATTR_MASTER_KEY_ROTATE:
		/* BEGIN, END, 0, 3 and, sometimes, anything */
		put_u32(t, type, chance(r, 80) ? below(r, 4) : (uint32_t)rnd(r));
		return;
	case NCR_ATTR_DH_PUBLIC:
		if (!chance(r, 40))
			break;
		/* an EC peer's length and prefix: the point checks run */
		n = (size_t[]){ 32, 65, 97, 33, 49 }[below(r, 5)];
		for (size_t i = 0; i < n; i++)
			blob[i] = (uint8_t)rnd(r);
		blob[0] = n == 65 || n == 97 ? 4 : blob[0];
		put_attr(t, type, blob, n);
		return;
	case NCR_ATTR_UPDATE_INPUT_DATA:
	case NCR_ATTR_FINAL_INPUT_DATA:
		put_in(t, type);
		return;
	case NCR_ATTR_UPDATE_OUTPUT_BUFFER:
	case NCR_ATTR_FINAL_OUTPUT_BUFFER:
		put_out(t, type);
		return;
	case NCR_ATTR_UPDATE_INPUT_KEY_AS_DATA:
	case NCR_ATTR_KEY:
		put_u32(t, type, (uint32_t)handle(r, 0));
		return;
	case NCR_ATTR_KEY_FLAGS:
		put_u32(t, type, chance(r, 70) ? below(r, 32) : (uint32_t)rnd(r));
		return;
	case NCR_ATTR_KEY_TYPE:
		put_u32(t, type, below(r, 5));
		return;
	case NCR_ATTR_SECRET_KEY_BITS:
		put_u32(t, type, chance(r, 70) ? 64 * below(r, 5) : size_val(r, 128));
		return;
	case NCR_ATTR_RSA_MODULUS_BITS:
	case NCR_ATTR_DSA_P_BITS:
	case NCR_ATTR_DSA_Q_BITS:
		/* generation is slow under emulation: keep valid sizes rare */
		put_u32(t, type, chance(r, 5) ? 512 : size_val(r, 7));
		return;
	case NCR_ATTR_RSA_ENCODING_METHOD:
	case NCR_ATTR_RSA_PSS_SALT_LENGTH:
	case NCR_ATTR_SIGNATURE_INPUT_IS_DIGEST:
		put_u32(t, type, chance(r, 80) ? below(r, 4) : (uint32_t)rnd(r));
		return;
	case NCR_ATTR_WANTED_ATTRS: {
		uint16_t w[8];

		n = below(r, 9);
		for (size_t i = 0; i < n; i++)
			w[i] = (uint16_t)below(r, NCR_ATTR_END__ + 3);
		put_attr(t, type, w, n * 2 + (chance(r, 10) ? 1 : 0));
		return;
	}
	default:	/* IV, KEY_ID, RSA_E, DH_*, unknown types */
		break;
	}
	n = chance(r, 80) ? below(r, 40) : below(r, sizeof(blob));
	for (size_t i = 0; i < n; i++)
		blob[i] = (uint8_t)rnd(r);
	put_attr(t, type, blob, n);
}

/* Fills the fixed struct of ioctl i, then attributes. */
static void build(struct tdata *t, unsigned i, int *is_key_init)
{
	struct rng *r = &t->r;
	struct call *c = &t->c;
	uint32_t *w = (uint32_t *)c->buf;	/* input_size, output_size, ... */
	size_t fixed = ioctls[i].size;
	void *bufp;
	uint32_t bufsz;

	memset(c->buf, 0, 512);
	c->len = fixed;
	*is_key_init = 0;
	switch (ioctls[i].cmd) {
	case NCRIO_KEY_DEINIT:
		w[0] = (uint32_t)handle(r, 0);
		return;
	case NCRIO_KEY_GENERATE:
	case NCRIO_KEY_GET_INFO:
		w[2] = (uint32_t)handle(r, 0);
		break;
	case NCRIO_KEY_GENERATE_PAIR:
	case NCRIO_KEY_DERIVE:
	case NCRIO_KEY_WRAP:
		w[2] = (uint32_t)handle(r, 0);
		w[3] = (uint32_t)handle(r, 0);
		if (ioctls[i].cmd == NCRIO_KEY_WRAP) {
			bufsz = size_val(r, sizeof(t->out));
			bufp = bad_ptr(r, t->out, bufsz);
			memcpy(c->buf + 16, &bufp, sizeof(bufp));
			memcpy(c->buf + 16 + sizeof(bufp), &bufsz, 4);
		}
		break;
	case NCRIO_KEY_EXPORT:
	case NCRIO_KEY_IMPORT:
	case NCRIO_KEY_STORAGE_WRAP:
	case NCRIO_KEY_STORAGE_UNWRAP:
	case NCRIO_KEY_UNWRAP: {
		/* key(s), then a pointer and a size (aligned as the struct) */
		size_t off = 12;

		w[2] = (uint32_t)handle(r, 0);
		if (ioctls[i].cmd == NCRIO_KEY_UNWRAP) {
			w[3] = (uint32_t)handle(r, 0);
			off = 16;
		}
		off = (off + sizeof(void *) - 1) & ~(sizeof(void *) - 1);
		bufsz = size_val(r, chance(r, 50) ? 16 : sizeof(t->in));
		bufp = bad_ptr(r, chance(r, 50) ? t->in : t->out, bufsz);
		for (size_t k = 0; k < sizeof(t->in); k += 8)
			t->in[k] = (uint8_t)rnd(r);
		memcpy(c->buf + off, &bufp, sizeof(bufp));
		memcpy(c->buf + off + sizeof(bufp), &bufsz, 4);
		break;
	}
	case NCRIO_MASTER_KEY_SET: {
		/*
		 * never a valid size (the key would stay for the module's
		 * life); 0 with a NULL pointer reaches the keyring form
		 */
		static const uint32_t sz[] = { 0, 1, 15, 17, 23, 33, 4096, 0xffffffff };
		size_t off = 8;

		bufsz = sz[below(r, ARRAY_SIZE(sz))];
		bufp = bad_ptr(r, t->in, bufsz);
		memcpy(c->buf + off, &bufp, sizeof(bufp));
		memcpy(c->buf + off + sizeof(bufp), &bufsz, 4);
		if (chance(r, 30))
			put_str(t, NCR_ATTR_MASTER_KEY_DESCRIPTION,
				keyring_keys[below(r, ARRAY_SIZE(keyring_keys))]);
		if (chance(r, 50))	/* rotation: BEGIN, END or invalid */
			put_u32(t, NCR_ATTR_MASTER_KEY_ROTATE,
				chance(r, 80) ? below(r, 4) : (uint32_t)rnd(r));
		break;
	}
	case NCRIO_SESSION_INIT:
	case NCRIO_SESSION_ONCE:
		w[2] = chance(r, 90) ? below(r, 6) : (uint32_t)rnd(r);
		break;
	case NCRIO_SESSION_UPDATE:
	case NCRIO_SESSION_FINAL:
		w[2] = (uint32_t)handle(r, 1);
		break;
	case NCRIO_KEY_INIT:
		*is_key_init = 1;
		return;
	}
	/* attributes: a plausible core, then random ones */
	if (chance(r, 70))
		put_str(t, NCR_ATTR_ALGORITHM, algos[below(r, 9 + 14)]);
	if (chance(r, 50))
		put_u32(t, NCR_ATTR_KEY, (uint32_t)handle(r, 0));
	if (chance(r, 40))
		put_in(t, chance(r, 50) ? NCR_ATTR_UPDATE_INPUT_DATA :
		       NCR_ATTR_FINAL_INPUT_DATA);
	if (chance(r, 40))
		put_out(t, chance(r, 50) ? NCR_ATTR_UPDATE_OUTPUT_BUFFER :
			NCR_ATTR_FINAL_OUTPUT_BUFFER);
	if (chance(r, 30)) {
		uint8_t iv[16] = { 0 };

		put_attr(t, NCR_ATTR_IV, iv, chance(r, 80) ? 16 : below(r, 17));
	}
	if (chance(r, 30))
		put_u32(t, NCR_ATTR_SECRET_KEY_BITS, 128);
	if (chance(r, 30))
		put_u32(t, NCR_ATTR_KEY_FLAGS, NCR_KEY_FLAG_EXPORTABLE |
			NCR_KEY_FLAG_WRAPPABLE | (chance(r, 10) ? NCR_KEY_FLAG_WRAPPING : 0));
	for (unsigned n = below(r, 4); n; n--)
		put_random_attr(t);
	/* mutate bytes */
	for (unsigned n = chance(r, 20) ? below(r, 6) : 0; n; n--)
		c->buf[below(r, (uint32_t)c->len)] = (uint8_t)rnd(r);
	w[0] = size_val(r, (uint32_t)c->len);
	w[1] = size_val(r, (uint32_t)c->len + 256);
}

/*
 * Does the driver know cmd now?  It answers ENOTTY from the number alone,
 * before reading the struct (NULL: EFAULT), so an ENOTTY that this does
 * not repeat on fds[0] came from another file holding that descriptor
 * number at the time.
 */
static int known_now(unsigned long cmd)
{
	return ioctl(fds[0], cmd, NULL) != -1 || errno != ENOTTY;
}

/* One random operation on t->fd (or a hostile variant of it). */
static void one_op(struct tdata *t)
{
	struct rng *r = &t->r;
	unsigned i = below(r, N_IOCTLS);
	int is_key_init, fd = t->fd, churned = 0;
	void *arg = t->c.buf;
	long ret;

	build(t, i, &is_key_init);
	if (chance(r, 5))
		fd = fds[below(r, 2)];
	else if (chance(r, 3) && churn_fd >= 0)
		fd = churn_fd, churned = 1;
	if (chance(r, 3))
		arg = bad_ptr(r, t->c.buf, t->c.len);
	if (chance(r, 2))	/* the struct straddles into PROT_NONE */
		arg = guard + page - (ioctls[i].size ? ioctls[i].size / 2 : 2);
	if (is_key_init) {
		ret = ioctl(fd, NCRIO_KEY_INIT);
		remember(keys, r, (int32_t)ret);
	} else {
		ret = ioctl(fd, ioctls[i].cmd, arg);
	}
	/*
	 * A churned descriptor may be closed meanwhile and its number reused
	 * (by fault_window.h's make-it-fail, say): ENOTTY proves nothing.
	 */
	if (ret == -1 && errno == ENOTTY && fd >= 0 && !churned &&
	    !known_now(ioctls[i].cmd)) {
		char msg[160];
		int n = snprintf(msg, sizeof(msg),
				 "ioctl_fuzz: %s returned ENOTTY; FAIL seed=%llu\n",
				 ioctls[i].name, seed);
		if (write(2, msg, (size_t)n) < 0)
			_exit(3);
		_exit(1);
	}
	/* SESSION_INIT returns the new session's handle */
	if (ret >= 0 && ioctls[i].cmd == NCRIO_SESSION_INIT)
		remember(sessions, r, (int32_t)ret);
	__atomic_add_fetch(&ops_total, 1, __ATOMIC_RELAXED);
	if (ret >= 0)
		__atomic_add_fetch(&ops_ok, 1, __ATOMIC_RELAXED);
}

/* A valid sequence: new key, session, update, final, deinit. */
static void valid_sequence(struct tdata *t)
{
	struct rng *r = &t->r;
	uint8_t key[16] = { 1 }, iv[16] = { 2 };
	struct ncr_key_import *imp = (void *)t->c.buf;
	struct ncr_session_init *si = (void *)t->c.buf;
	struct ncr_session_update *su = (void *)t->c.buf;
	int32_t k = ioctl(t->fd, NCRIO_KEY_INIT), s;
	ncr_key_t kk = k;

	if (k < 0)
		return;
	t->hostile = 0;
	remember(keys, r, k);
	memset(&t->c, 0, 512);
	t->c.len = sizeof(*imp);
	imp->key = k;
	imp->data = key;
	imp->data_size = sizeof(key);
	put_str(t, NCR_ATTR_ALGORITHM, "cbc(aes)");
	put_u32(t, NCR_ATTR_KEY_TYPE, NCR_KEY_TYPE_SECRET);
	put_u32(t, NCR_ATTR_KEY_FLAGS, NCR_KEY_FLAG_EXPORTABLE | NCR_KEY_FLAG_WRAPPABLE);
	imp->input_size = (uint32_t)t->c.len;
	imp->output_size = 0;
	if (ioctl(t->fd, NCRIO_KEY_IMPORT, t->c.buf) == 0) {
		memset(&t->c, 0, 512);
		t->c.len = sizeof(*si);
		si->op = NCR_OP_ENCRYPT;
		put_str(t, NCR_ATTR_ALGORITHM, "cbc(aes)");
		put_u32(t, NCR_ATTR_KEY, (uint32_t)k);
		put_attr(t, NCR_ATTR_IV, iv, 16);
		si->input_size = (uint32_t)t->c.len;
		s = ioctl(t->fd, NCRIO_SESSION_INIT, t->c.buf);
		remember(sessions, r, s);
		if (s >= 0) {
			for (unsigned n = below(r, 4); n; n--) {
				memset(&t->c, 0, 512);
				t->c.len = sizeof(*su);
				su->ses = s;
				memset(t->in, 0, sizeof(t->in));
				struct ncr_session_input_data d = { t->in, 32 };
				struct ncr_session_output_buffer o = {
					t->out, sizeof(t->out), &t->result };
				put_attr(t, NCR_ATTR_UPDATE_INPUT_DATA, &d, sizeof(d));
				put_attr(t, NCR_ATTR_UPDATE_OUTPUT_BUFFER, &o, sizeof(o));
				su->input_size = (uint32_t)t->c.len;
				if (ioctl(t->fd, NCRIO_SESSION_UPDATE, t->c.buf) < 0)
					break;
			}
			if (chance(r, 70)) {
				memset(&t->c, 0, 512);
				t->c.len = sizeof(*su);
				su->ses = s;
				su->input_size = (uint32_t)t->c.len;
				(void)ioctl(t->fd, NCRIO_SESSION_FINAL, t->c.buf);
			}
		}
	}
	if (chance(r, 80))
		(void)ioctl(t->fd, NCRIO_KEY_DEINIT, &kk);
	t->hostile = 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *worker(void *p)
{
	struct tdata *t = p;

	while (!stop) {
		if (chance(&t->r, 10))
			valid_sequence(t);
		else
			one_op(t);
	}
	return NULL;
}

/* Opens, uses and closes descriptors while the others run. */
static void *churner(void *p)
{
	struct tdata *t = p;

	while (!stop) {
		int fd = open(DEVICE, O_RDWR);

		if (fd < 0)
			continue;
		churn_fd = fd;
		t->fd = fd;
		for (unsigned n = below(&t->r, 40); n && !stop; n--) {
			if (chance(&t->r, 30))
				valid_sequence(t);
			else
				one_op(t);
		}
		churn_fd = -1;
		close(fd);
	}
	return NULL;
}

static int fuzz(int seconds, int nthreads)
{
	static struct tdata td[MAX_THREADS + 1];
	pthread_t th[MAX_THREADS + 1];
	double t0 = now(), end = t0 + seconds;
	pid_t child;
	int status, fail = 0;

	for (int i = 0; i < 2; i++) {
		fds[i] = open(DEVICE, O_RDWR);
		if (fds[i] < 0) {
			perror(DEVICE);
			return 1;
		}
	}
	for (int i = 0; i < POOL; i++)
		keys[i] = sessions[i] = -1;
	for (int i = 0; i <= nthreads; i++) {
		td[i].r.s = seed * 0x9E3779B97F4A7C15ULL + (uint64_t)i + 1;
		td[i].fd = fds[i % 2];
		td[i].hostile = 1;
		if (pthread_create(&th[i], NULL, i < nthreads ? worker : churner,
				   &td[i])) {
			perror("pthread_create");
			return 1;
		}
	}
	/* A child on the same descriptors, for part of the run. */
	while (now() < t0 + seconds / 3.0)
		usleep(100000);
	child = fork();
	if (child == 0) {
		struct tdata *t = &td[nthreads];	/* a copy, in the child */
		double cend = t0 + 2 * seconds / 3.0;

		t->r.s ^= 0xc0ffee;
		t->fd = fds[0];
		while (now() < cend)
			if (chance(&t->r, 10))
				valid_sequence(t);
			else
				one_op(t);
		_exit(0);
	}
	while (now() < end)
		usleep(100000);
	stop = 1;
	for (int i = 0; i <= nthreads; i++)
		pthread_join(th[i], NULL);
	if (child > 0) {
		if (waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fprintf(stderr, "ioctl_fuzz: forked child failed (status %#x)\n",
				status);
			fail = 1;
		}
	} else {
		perror("fork");
		fail = 1;
	}
	close(fds[0]);
	close(fds[1]);
	printf("ioctl_fuzz: seed=%llu threads=%d seconds=%d ops=%llu succeeded=%llu (parent only)\n",
	       seed, nthreads, seconds, ops_total, ops_ok);
	return fail;
}

/* ---- known answers (for fault injection: no fake success) ---- */

static long ncr_call(int fd, unsigned long cmd, void *st, size_t fixed,
		     struct tdata *t)
{
	memcpy(t->c.buf, st, fixed);
	((uint32_t *)t->c.buf)[0] = (uint32_t)t->c.len;
	((uint32_t *)t->c.buf)[1] = (uint32_t)t->c.len;
	return ioctl(fd, cmd, t->c.buf);
}

static const uint8_t kat_key[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
				     12, 13, 14, 15 };	/* FIPS-197 C.1 */
static const uint8_t kat_pt[16] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55,
	0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff };
static const uint8_t kat_ct[16] = { 0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b,
	0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a };

enum { KAT_OK, KAT_ERR, KAT_WRONG };

static int kat_import(int fd, ncr_key_t key, struct tdata *t)
{
	struct ncr_key_import imp = { .key = key, .data = kat_key,
				      .data_size = 16 };

	t->c.len = sizeof(imp);
	put_str(t, NCR_ATTR_ALGORITHM, "ecb(aes)");
	put_u32(t, NCR_ATTR_KEY_TYPE, NCR_KEY_TYPE_SECRET);
	put_u32(t, NCR_ATTR_KEY_FLAGS, NCR_KEY_FLAG_EXPORTABLE);
	return ncr_call(fd, NCRIO_KEY_IMPORT, &imp, sizeof(imp), t) ?
	       KAT_ERR : KAT_OK;
}

/* Export must give the key back. */
static int kat_export(int fd, ncr_key_t key, struct tdata *t)
{
	uint8_t back[64] = { 0 };
	struct ncr_key_export exp = { .key = key, .buffer = back,
				      .buffer_size = sizeof(back) };
	long r;

	t->c.len = sizeof(exp);
	r = ncr_call(fd, NCRIO_KEY_EXPORT, &exp, sizeof(exp), t);
	if (r < 0)
		return KAT_ERR;
	if (r != 16 || memcmp(back, kat_key, 16)) {
		printf("ioctl_fuzz: KEY_EXPORT succeeded (%ld) with the wrong key\n", r);
		return KAT_WRONG;
	}
	return KAT_OK;
}

/* One-shot encryption must give the known answer. */
static int kat_encrypt(int fd, ncr_key_t key, struct tdata *t)
{
	uint8_t out[32] = { 0 };
	size_t outlen = 0;
	struct ncr_session_input_data in = { kat_pt, 16 };
	struct ncr_session_output_buffer ob = { out, sizeof(out), &outlen };
	struct ncr_session_once once = { .op = NCR_OP_ENCRYPT };

	t->c.len = sizeof(once);
	put_str(t, NCR_ATTR_ALGORITHM, "ecb(aes)");
	put_u32(t, NCR_ATTR_KEY, (uint32_t)key);
	put_attr(t, NCR_ATTR_UPDATE_INPUT_DATA, &in, sizeof(in));
	put_attr(t, NCR_ATTR_UPDATE_OUTPUT_BUFFER, &ob, sizeof(ob));
	if (ncr_call(fd, NCRIO_SESSION_ONCE, &once, sizeof(once), t) < 0)
		return KAT_ERR;
	if (outlen != 16 || memcmp(out, kat_ct, 16)) {
		printf("ioctl_fuzz: SESSION_ONCE succeeded with a wrong result\n");
		return KAT_WRONG;
	}
	return KAT_OK;
}

/*
 * N rounds of open, KEY_INIT, import, export, encrypt.  Every ioctl that
 * succeeds must give the right answer; every one that fails is repeated at
 * once without fault injection (fault_window.h), and must then succeed on
 * the same descriptor and key: a failure leaves its objects usable.
 */
static int kat(int rounds)
{
	static int (*const step[])(int, ncr_key_t, struct tdata *) = {
		kat_import, kat_export, kat_encrypt,
	};
	static const char *const name[] = { "import", "export", "encrypt" };
	static struct tdata t;
	int ok[3] = { 0 }, err[3] = { 0 }, bad = 0, setup_err = 0;

	for (int n = 0; n < rounds; n++) {
		int fd = open(DEVICE, O_RDWR);
		ncr_key_t key = -1;

		if (fd >= 0)
			key = ioctl(fd, NCRIO_KEY_INIT);
		if (fd < 0 || key < 0) {
			setup_err++;
			fw_suspended = 1;
			if (fd < 0)
				fd = open(DEVICE, O_RDWR);
			if (fd >= 0)
				key = ioctl(fd, NCRIO_KEY_INIT);
			fw_suspended = 0;
			if (fd < 0 || key < 0) {
				printf("ioctl_fuzz: open/KEY_INIT still fail without faults: %s\n",
				       strerror(errno));
				bad++;
				goto next;
			}
		}
		for (unsigned int i = 0; i < ARRAY_SIZE(step); i++) {
			int r = step[i](fd, key, &t);

			if (r == KAT_OK) {
				ok[i]++;
				continue;
			}
			if (r == KAT_ERR) {
				err[i]++;
				fw_suspended = 1;
				r = step[i](fd, key, &t);
				fw_suspended = 0;
				if (r == KAT_ERR)
					printf("ioctl_fuzz: %s fails again without faults (%s): "
					       "the failure broke its objects\n",
					       name[i], strerror(errno));
			}
			if (r != KAT_OK)
				bad++;
		}
next:
		if (fd >= 0)
			close(fd);
	}
	printf("ioctl_fuzz: kat rounds=%d setup err=%d, import ok=%d err=%d, "
	       "export ok=%d err=%d, encrypt ok=%d err=%d, wrong successes or "
	       "unusable after a failure=%d\n", rounds, setup_err, ok[0], err[0],
	       ok[1], err[1], ok[2], err[2], bad);
	return bad ? 1 : 0;
}

/* ---- limits are released: a fresh descriptor gets exactly N keys ---- */

static int limits(int n)
{
	int fd = open(DEVICE, O_RDWR), got = 0, e = 0;

	if (fd < 0) {
		perror(DEVICE);
		return 1;
	}
	for (;;) {
		int k = ioctl(fd, NCRIO_KEY_INIT);

		if (k < 0) {
			e = errno;
			break;
		}
		if (++got > n + 10)
			break;
	}
	close(fd);
	printf("ioctl_fuzz: limits: %d keys, then %s (want %d, then EMFILE)\n",
	       got, e ? strerror(e) : "no error", n);
	return got == n && e == EMFILE ? 0 : 1;
}

int main(int argc, char **argv)
{
	int seconds = 30, nthreads = 4;

	seed = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 20);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-s") && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "-t") && i + 1 < argc)
			seconds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-j") && i + 1 < argc)
			nthreads = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--kat") && i + 1 < argc)
			return kat(atoi(argv[++i]));
		else if (!strcmp(argv[i], "--limits") && i + 1 < argc)
			return limits(atoi(argv[++i]));
		else {
			fprintf(stderr, "usage: %s [-s SEED] [-t SECONDS] [-j THREADS] | --kat N | --limits N\n",
				argv[0]);
			return 2;
		}
	}
	if (nthreads < 1 || nthreads > MAX_THREADS || seconds < 1) {
		fprintf(stderr, "ioctl_fuzz: bad -j or -t\n");
		return 2;
	}
	if (!seed)
		seed = 1;
	printf("ioctl_fuzz: seed=%llu (replay: %s -s %llu -t %d -j %d)\n", seed,
	       argv[0], seed, seconds, nthreads);
	fflush(stdout);
	page = sysconf(_SC_PAGESIZE);
	guard = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guard == MAP_FAILED || mprotect(guard + page, (size_t)page, PROT_NONE)) {
		perror("mmap");
		return 1;
	}
	memset(guard, 0x41, (size_t)page);
	signal(SIGPIPE, SIG_IGN);
	if (fuzz(seconds, nthreads)) {
		printf("ioctl_fuzz: FAIL seed=%llu\n", seed);
		return 1;
	}
	printf("ioctl_fuzz: PASS seed=%llu\n", seed);
	return 0;
}
