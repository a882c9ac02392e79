// SPDX-License-Identifier: GPL-2.0
/*
 * RSA throughput through raw /dev/crypto, for scripts/bench.
 * Usage: pk_bench PRIVATE.der PUBLIC.der SECONDS [LABEL]
 * (RSAPrivateKey DER and SubjectPublicKeyInfo DER; LABEL defaults to
 * "rsa").  One thread, one NCRIO_SESSION_ONCE per operation, the keys
 * imported once.  Each operation is timed for SECONDS (and at least
 * MIN_OPS operations) and printed as a tab-separated line
 *	R  LABEL  OP  SIDE  OPS_PER_S
 * with OP one of sign-pkcs1, sign-pss, verify-pkcs1, verify-pss (SHA-256;
 * PSS with a 32-byte salt) and decrypt-oaep (OAEP SHA-256 of 32 bytes), and
 * SIDE "raw-khash" (the kernel hashes the 32-byte message) or "raw-digest"
 * (the caller hands it the SHA-256 digest, NCR_ATTR_SIGNATURE_INPUT_IS_DIGEST,
 * as the provider and TLS do); decryption has no hash and is "raw".
 * The two last lines, "sign/s N" and "verify/s N", repeat PKCS#1 v1.5
 * raw-khash (the summary test/vm/test_pk_sessions.py checks for).
 * Every kind of operation is self-checked once before it is timed.
 * No libcrypto (only libncr): it builds -m32 as well, for the compat_ioctl
 * test.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/ncr.h>

#include "ncrlib.h"
#include "bench_time.h"

#define MIN_OPS 3
#define SIG_MAX 1024

static unsigned char *read_file(const char *path, size_t *len)
{
	static unsigned char buf[2][8192];
	static int which;
	FILE *f = fopen(path, "rb");
	unsigned char *b = buf[which++ % 2];

	if (!f) {
		perror(path);
		exit(2);
	}
	*len = fread(b, 1, sizeof(buf[0]), f);
	fclose(f);
	return b;
}

static int import_key(int fd, const char *path, int type)
{
	size_t len;
	unsigned char *der = read_file(path, &len);
	int key = ncrlib_key_new(fd);

	if (key < 0 ||
	    ncrlib_key_import(fd, key, "rsa", type, 0, der, len) < 0) {
		fprintf(stderr, "pk_bench: importing %s failed\n", path);
		exit(1);
	}
	return key;
}

enum pad { PKCS1, PSS };

/* One operation: what it is, and its input and output buffers. */
struct op {
	int fd, op, key;
	enum pad pad;
	int digest;			/* input is the SHA-256 digest */
	const unsigned char *in;	/* message, digest or ciphertext */
	size_t inlen;
	unsigned char *sig;		/* signature out (sign), in (verify) */
	size_t siglen;
	unsigned char out[SIG_MAX];	/* decrypt output */
	size_t outlen;
};

/* Returns the ioctl's result: >= 0 for sign/decrypt, 1 for a good verify. */
static int run_op(struct op *o)
{
	struct ncrlib_sess_params p;
	struct ncrlib_io io = { .in = o->in, .in_len = o->inlen };
	long r;

	ncrlib_sess_params_init(&p, o->op, "rsa");
	p.key = o->key;
	if (o->op == NCR_OP_DECRYPT || o->op == NCR_OP_ENCRYPT) {
		p.rsa_method = RSA_PKCS1_OAEP;
		p.oaep_hash = "sha256";
		io.out = o->out;
		io.out_cap = SIG_MAX;
	} else {
		p.rsa_method = o->pad == PSS ? RSA_PKCS1_PSS : RSA_PKCS1_V1_5;
		if (o->pad == PSS)
			p.pss_salt = 32;
		p.sig_hash = "sha256";
		p.input_is_digest = o->digest;
		if (o->op == NCR_OP_SIGN) {
			io.fin_out = o->sig;
			io.fin_out_cap = SIG_MAX;
		} else {
			io.fin_in = o->sig;
			io.fin_in_len = o->siglen;
		}
	}
	r = ncrlib_session_once(o->fd, &p, &io);
	if (r < 0)
		errno = (int)-r;	/* the callers report strerror(errno) */
	if (io.out != NULL)
		o->outlen = io.out_len;
	if (io.fin_out != NULL)
		o->siglen = io.fin_out_len;
	return (int)r;
}

/* SHA-256 of msg in the kernel (an unkeyed hash session). */
static void sha256(int fd, const unsigned char *msg, size_t len,
		   unsigned char out[32])
{
	struct ncrlib_sess_params p;
	struct ncrlib_io io = { .in = msg, .in_len = len, .fin_out = out,
				.fin_out_cap = 32 };

	ncrlib_sess_params_init(&p, NCR_OP_SIGN, "sha256");
	if (ncrlib_session_once(fd, &p, &io) < 0 || io.fin_out_len != 32) {
		fprintf(stderr, "pk_bench: sha256 in the kernel failed\n");
		exit(1);
	}
}

static int one_op(void *arg)
{
	struct op *o = arg;
	int r;

	if (o->op == NCR_OP_SIGN)
		o->siglen = SIG_MAX;
	r = run_op(o);
	return r < 0 || (o->op == NCR_OP_VERIFY && r != 1);
}

/* ops/s of o over secs (at least MIN_OPS operations); exits on a failure. */
static double measure(struct op *o, double secs, const char *what)
{
	double r = bench_rate(one_op, o, secs, MIN_OPS);

	if (r < 0) {
		fprintf(stderr, "pk_bench: %s failed: %s\n", what,
			strerror(errno));
		exit(1);
	}
	return r;
}

int main(int argc, char **argv)
{
	unsigned char msg[32] = "ncr benchmark message, 32 bytes";
	unsigned char dgst[32], sig[2][SIG_MAX], ct[SIG_MAX];
	size_t siglen[2];
	const char *label = argc > 4 ? argv[4] : "rsa";
	double secs, pkcs1_sign = 0, pkcs1_verify = 0;
	int fd, priv, pub, digest, pad;

	if (argc != 4 && argc != 5) {
		fprintf(stderr,
			"usage: pk_bench PRIV.der PUB.der SECONDS [LABEL]\n");
		return 2;
	}
	secs = atof(argv[3]);
	fd = open("/dev/crypto", O_RDWR);
	if (fd < 0) {
		perror("/dev/crypto");
		return 1;
	}
	priv = import_key(fd, argv[1], NCR_KEY_TYPE_PRIVATE);
	pub = import_key(fd, argv[2], NCR_KEY_TYPE_PUBLIC);
	sha256(fd, msg, sizeof(msg), dgst);

	/*
	 * One signature per padding, made and checked once in each input
	 * mode (both modes sign the same thing, so each verifies the
	 * other's), then timed.
	 */
	for (pad = PKCS1; pad <= PSS; pad++) {
		const char *pname = pad == PSS ? "pss" : "pkcs1";

		for (digest = 0; digest <= 1; digest++) {
			struct op s = { .fd = fd, .op = NCR_OP_SIGN,
					.key = priv, .pad = pad,
					.digest = digest,
					.in = digest ? dgst : msg, .inlen = 32,
					.sig = sig[pad] };
			struct op v = s;
			const char *side = digest ? "raw-digest" : "raw-khash";
			char what[64];
			double rs, rv;

			v.op = NCR_OP_VERIFY;
			v.key = pub;
			s.siglen = SIG_MAX;
			if (run_op(&s) < 0) {
				fprintf(stderr, "pk_bench: sign-%s %s: %s\n",
					pname, side, strerror(errno));
				return 1;
			}
			siglen[pad] = s.siglen;
			v.siglen = siglen[pad];
			if (run_op(&v) != 1) {
				fprintf(stderr, "pk_bench: verify-%s %s of "
					"its own signature failed\n", pname,
					side);
				return 1;
			}
			snprintf(what, sizeof(what), "sign-%s %s", pname, side);
			rs = measure(&s, secs, what);
			/* measure() left its last signature in sig[pad] */
			v.siglen = s.siglen;
			snprintf(what, sizeof(what), "verify-%s %s", pname,
				 side);
			rv = measure(&v, secs, what);
			printf("R\t%s\tsign-%s\t%s\t%.2f\n", label, pname,
			       side, rs);
			printf("R\t%s\tverify-%s\t%s\t%.2f\n", label, pname,
			       side, rv);
			fflush(stdout);
			if (pad == PKCS1 && !digest) {
				pkcs1_sign = rs;
				pkcs1_verify = rv;
			}
		}
	}

	{
		struct op e = { .fd = fd, .op = NCR_OP_ENCRYPT, .key = pub,
				.in = msg, .inlen = 32 };
		struct op d = { .fd = fd, .op = NCR_OP_DECRYPT, .key = priv,
				.in = ct };

		if (run_op(&e) < 0) {
			perror("pk_bench: OAEP encrypt");
			return 1;
		}
		memcpy(ct, e.out, e.outlen);
		d.inlen = e.outlen;
		if (run_op(&d) < 0 || d.outlen != 32 ||
		    memcmp(d.out, msg, 32) != 0) {
			fprintf(stderr, "pk_bench: OAEP decrypt self-check "
				"failed\n");
			return 1;
		}
		printf("R\t%s\tdecrypt-oaep\traw\t%.2f\n", label,
		       measure(&d, secs, "decrypt-oaep"));
	}
	printf("sign/s %.1f\n", pkcs1_sign);
	printf("verify/s %.1f\n", pkcs1_verify);
	close(fd);
	return 0;
}
