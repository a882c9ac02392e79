// SPDX-License-Identifier: GPL-2.0
/*
 * Symmetric throughput of the two raw kernel interfaces, for scripts/bench:
 * /dev/crypto (NCR, this module) and AF_ALG (the kernel's socket interface),
 * no OpenSSL in between.
 * Usage: sym_bench SECONDS SIZE...
 * Prints tab-separated lines  R  ALGORITHM  SIZE  SIDE  OPS_PER_S  where
 *   aes-128-cbc, aes-256-ctr  encrypt SIZE-byte buffers one after another
 *       in one stream: raw-ncr one NCRIO_SESSION_UPDATE per buffer on one
 *       session; raw-afalg one sendmsg + read per buffer (64 KiB pieces)
 *       on one accepted socket, the IV chained by the kernel.
 *   sha256  the digest of one SIZE-byte message per operation (as `openssl
 *       speed sha256`): raw-ncr one NCRIO_SESSION_ONCE, raw-afalg send +
 *       read on one accepted socket.
 *   roundtrip 16  the smallest complete operation, one AES-128-CBC block
 *       with its own IV and a key already in the kernel: raw-ncr one
 *       NCRIO_SESSION_ONCE (the interface's single-shot call); raw-afalg
 *       one sendmsg (op, IV, data) + read on an accepted socket.  Also
 *       raw-ncr-update (one SESSION_UPDATE on an open session, no IV) and
 *       raw-afalg-accept (accept + sendmsg + read + close per block).
 * Each operation is timed for SECONDS (and at least MIN_OPS operations), in
 * turns with the other interface's (bench_rates: SLICES turns).
 * Every output is checked once against the other interface's before it is
 * timed (same key, IV and input, so the same ciphertext or digest).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/if_alg.h>
#include <linux/ncr.h>

#include "ncrlib.h"
#include "bench_time.h"

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

#define MIN_OPS 3
#define SLICES 4
#define PIECE (64 * 1024)
#define MAX_SIZE (16 * 1024 * 1024)

static const unsigned char KEY[32] = "0123456789abcdef0123456789abcdef";
static const unsigned char IV[16] = "fedcba9876543210";

static void die(const char *what)
{
	fprintf(stderr, "sym_bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* ---- /dev/crypto ---- */

static int ncr_fd;

/* die() with the error of a libncr call (-errno). */
static void die_ncr(const char *what, long r)
{
	errno = (int)-r;
	die(what);
}

static int ncr_key(const char *algo, size_t keylen)
{
	int key = ncrlib_key_new(ncr_fd);
	int r;

	if (key < 0)
		die_ncr("NCRIO_KEY_INIT", key);
	r = ncrlib_key_import(ncr_fd, key, algo, NCR_KEY_TYPE_SECRET, 0, KEY,
			      keylen);
	if (r < 0)
		die_ncr("NCRIO_KEY_IMPORT", r);
	return key;
}

static int ncr_session(const char *algo, int key)
{
	struct ncrlib_sess_params p;
	int ses;

	ncrlib_sess_params_init(&p, NCR_OP_ENCRYPT, algo);
	p.key = key;
	p.iv = IV;
	p.iv_len = sizeof(IV);
	ses = ncrlib_session_new(ncr_fd, &p);
	if (ses < 0)
		die_ncr("NCRIO_SESSION_INIT", ses);
	return ses;
}

static int ncr_update(int ses, const void *in, void *out, size_t n)
{
	struct ncrlib_io io = { .in = in, .in_len = n, .out = out,
				.out_cap = n };

	if (ncrlib_session_update(ncr_fd, ses, &io) < 0 || io.out_len != n)
		return -1;
	return 0;
}

static void ncr_end(int ses)
{
	ncrlib_session_abort(ncr_fd, ses);
}

/* Encryption (key >= 0, with IV) or hash (key < 0) in one call. */
static int ncr_once(const char *algo, int key, const void *in, size_t n,
		    void *out, size_t outcap)
{
	struct ncrlib_sess_params p;
	struct ncrlib_io io = { .in = in, .in_len = n };

	if (key >= 0) {
		ncrlib_sess_params_init(&p, NCR_OP_ENCRYPT, algo);
		p.key = key;
		p.iv = IV;
		p.iv_len = sizeof(IV);
		io.out = out;
		io.out_cap = outcap;
	} else {
		ncrlib_sess_params_init(&p, NCR_OP_SIGN, algo);
		io.fin_out = out;
		io.fin_out_cap = outcap;
	}
	if (ncrlib_session_once(ncr_fd, &p, &io) < 0 ||
	    (key >= 0 ? io.out_len != n : io.fin_out_len != outcap))
		return -1;
	return 0;
}

/* ---- AF_ALG ---- */

static int alg_tfm(const char *type, const char *name, size_t keylen)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	int s = socket(AF_ALG, SOCK_SEQPACKET, 0);

	if (s < 0)
		die("socket(AF_ALG)");
	strncpy((char *)sa.salg_type, type, sizeof(sa.salg_type) - 1);
	strncpy((char *)sa.salg_name, name, sizeof(sa.salg_name) - 1);
	if (bind(s, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		die(name);
	if (keylen && setsockopt(s, SOL_ALG, ALG_SET_KEY, KEY, keylen) < 0)
		die("ALG_SET_KEY");
	return s;
}

static int alg_op(int tfm)
{
	int s = accept(tfm, NULL, 0);

	if (s < 0)
		die("accept(AF_ALG)");
	return s;
}

/* sendmsg of data, with the op and IV when iv != NULL. */
static int alg_send(int op, const void *data, size_t n, int iv, int more)
{
	char cbuf[CMSG_SPACE(sizeof(int)) +
		  CMSG_SPACE(sizeof(struct af_alg_iv) + 16)] = { 0 };
	struct iovec io = { (void *)data, n };
	struct msghdr m = { .msg_iov = &io, .msg_iovlen = 1 };

	if (iv) {
		struct cmsghdr *c;
		struct af_alg_iv *a;

		m.msg_control = cbuf;
		m.msg_controllen = sizeof(cbuf);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_OP;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		*(int *)(void *)CMSG_DATA(c) = ALG_OP_ENCRYPT;
		c = CMSG_NXTHDR(&m, c);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_IV;
		c->cmsg_len = CMSG_LEN(sizeof(*a) + 16);
		a = (struct af_alg_iv *)(void *)CMSG_DATA(c);
		a->ivlen = 16;
		memcpy(a->iv, IV, 16);
	}
	return sendmsg(op, &m, more ? MSG_MORE : 0) == (ssize_t)n ? 0 : -1;
}

static int read_all(int fd, void *out, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)out + got, n - got);

		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

/* Encrypts n bytes on op socket s in PIECE pieces (IV set on the first). */
static int alg_encrypt(int s, const unsigned char *in, unsigned char *out,
		       size_t n)
{
	size_t off;

	for (off = 0; off < n; off += PIECE) {
		size_t k = n - off < PIECE ? n - off : PIECE;

		if (alg_send(s, in + off, k, off == 0, off + k < n) ||
		    read_all(s, out + off, k))
			return -1;
	}
	return 0;
}

static int alg_hash(int s, const unsigned char *in, size_t n,
		    unsigned char out[32])
{
	size_t off = 0;

	do {
		size_t k = n - off < PIECE ? n - off : PIECE;

		if (send(s, in + off, k, off + k < n ? MSG_MORE : 0) !=
		    (ssize_t)k)
			return -1;
		off += k;
	} while (off < n);
	return read_all(s, out, 32);
}

/* ---- timing ---- */

enum kind { STREAM_NCR, STREAM_ALG, HASH_NCR, HASH_ALG, ONCE_NCR, ONCE_ALG,
	    ALG_ACCEPT };

struct job {
	enum kind kind;
	const char *ncr_algo;
	int key, ses, tfm, op;
	const unsigned char *in;
	unsigned char *out;
	size_t n;
};

static int step(void *arg)
{
	struct job *j = arg;

	switch (j->kind) {
	case STREAM_NCR:
		return ncr_update(j->ses, j->in, j->out, j->n);
	case STREAM_ALG:
		return alg_encrypt(j->op, j->in, j->out, j->n);
	case HASH_NCR:
		return ncr_once("sha256", -1, j->in, j->n, j->out, 32);
	case HASH_ALG:
		return alg_hash(j->op, j->in, j->n, j->out);
	case ONCE_NCR:
		return ncr_once(j->ncr_algo, j->key, j->in, j->n, j->out, j->n);
	case ONCE_ALG:
		return alg_send(j->op, j->in, j->n, 1, 0) ||
		       read_all(j->op, j->out, j->n);
	case ALG_ACCEPT: {
		int s = alg_op(j->tfm), r;

		r = alg_send(s, j->in, j->n, 1, 0) ||
		    read_all(s, j->out, j->n);
		close(s);
		return r;
	}
	}
	return -1;
}

static double secs;

/* The jobs measured in turns (bench_rates), one line each. */
static void report(const char *algo, size_t size, int n,
		   const char *const side[], struct job *const j[])
{
	int (*op[4])(void *) = { step, step, step, step };
	void *arg[4];
	double rate[4];
	int i, bad;

	for (i = 0; i < n; i++)
		arg[i] = j[i];
	bad = bench_rates(op, arg, n, secs, SLICES, MIN_OPS, rate);

	if (bad) {
		fprintf(stderr, "sym_bench: %s %zu %s: %s\n", algo, size,
			side[bad - 1], strerror(errno));
		exit(1);
	}
	for (i = 0; i < n; i++)
		printf("R\t%s\t%zu\t%s\t%.2f\n", algo, size, side[i],
		       rate[i]);
	fflush(stdout);
}

static const char *const BOTH[] = { "raw-ncr", "raw-afalg" };

static void check_same(const char *what, const void *a, const void *b,
		       size_t n)
{
	if (memcmp(a, b, n) != 0) {
		fprintf(stderr, "sym_bench: %s: /dev/crypto and AF_ALG "
			"disagree\n", what);
		exit(1);
	}
}

static void bench_cipher(const char *name, const char *kname, size_t keylen,
			 const size_t *sizes, int nsizes,
			 unsigned char *in, unsigned char *o1,
			 unsigned char *o2)
{
	int key = ncr_key(kname, keylen);
	int tfm = alg_tfm("skcipher", kname, keylen);
	int i;

	for (i = 0; i < nsizes; i++) {
		size_t n = sizes[i];
		struct job a = { .kind = STREAM_NCR, .in = in, .out = o1,
				 .n = n };
		struct job b = { .kind = STREAM_ALG, .in = in, .out = o2,
				 .n = n };

		/* fresh streams at the same IV: same first output */
		a.ses = ncr_session(kname, key);
		b.op = alg_op(tfm);
		if (step(&a) || step(&b))
			die(name);
		check_same(name, o1, o2, n);
		report(name, n, 2, BOTH, (struct job *[]){ &a, &b });
		ncr_end(a.ses);
		close(b.op);
	}
	close(tfm);
}

int main(int argc, char **argv)
{
	size_t sizes[16];
	int nsizes = 0, i;
	unsigned char *in, *o1, *o2;

	if (argc < 3 || argc > 2 + 16) {
		fprintf(stderr, "usage: sym_bench SECONDS SIZE...\n");
		return 2;
	}
	secs = atof(argv[1]);
	for (i = 2; i < argc; i++) {
		sizes[nsizes] = strtoul(argv[i], NULL, 0);
		if (sizes[nsizes] == 0 || sizes[nsizes] % 16 ||
		    sizes[nsizes] > MAX_SIZE) {
			fprintf(stderr, "sym_bench: bad size %s\n", argv[i]);
			return 2;
		}
		nsizes++;
	}
	in = malloc(MAX_SIZE);
	o1 = malloc(MAX_SIZE);
	o2 = malloc(MAX_SIZE);
	if (!in || !o1 || !o2)
		die("malloc");
	for (i = 0; i < MAX_SIZE; i++)
		in[i] = (unsigned char)(i * 131 + 7);
	ncr_fd = open("/dev/crypto", O_RDWR);
	if (ncr_fd < 0)
		die("/dev/crypto");

	bench_cipher("aes-128-cbc", "cbc(aes)", 16, sizes, nsizes, in, o1, o2);
	bench_cipher("aes-256-ctr", "ctr(aes)", 32, sizes, nsizes, in, o1, o2);

	{
		int tfm = alg_tfm("hash", "sha256", 0);
		int op = alg_op(tfm);

		for (i = 0; i < nsizes; i++) {
			struct job a = { .kind = HASH_NCR, .in = in, .out = o1,
					 .n = sizes[i] };
			struct job b = { .kind = HASH_ALG, .in = in, .out = o2,
					 .n = sizes[i], .op = op };

			if (step(&a) || step(&b))
				die("sha256");
			check_same("sha256", o1, o2, 32);
			report("sha256", sizes[i], 2, BOTH,
			       (struct job *[]){ &a, &b });
		}
		close(op);
		close(tfm);
	}

	{
		int key = ncr_key("cbc(aes)", 16);
		int tfm = alg_tfm("skcipher", "cbc(aes)", 16);
		struct job a = { .kind = ONCE_NCR, .ncr_algo = "cbc(aes)",
				 .key = key, .in = in, .out = o1, .n = 16 };
		struct job b = { .kind = ONCE_ALG, .op = alg_op(tfm),
				 .in = in, .out = o2, .n = 16 };
		struct job c = { .kind = STREAM_NCR, .in = in, .out = o1,
				 .n = 16 };
		struct job d = { .kind = ALG_ACCEPT, .tfm = tfm, .in = in,
				 .out = o2, .n = 16 };

		if (step(&a) || step(&b))
			die("roundtrip");
		check_same("roundtrip", o1, o2, 16);
		c.ses = ncr_session("cbc(aes)", key);
		report("roundtrip", 16, 4, (const char *const[]){
			"raw-ncr", "raw-afalg", "raw-ncr-update",
			"raw-afalg-accept" },
		       (struct job *[]){ &a, &b, &c, &d });
		ncr_end(c.ses);
		close(b.op);
		close(tfm);
	}
	close(ncr_fd);
	return 0;
}
