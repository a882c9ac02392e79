// SPDX-License-Identifier: GPL-2.0
/*
 * RSA sign/verify throughput through /dev/crypto, for scripts/bench pk.
 * Usage: pk_bench PRIVATE.der PUBLIC.der SECONDS
 * (RSAPrivateKey DER and SubjectPublicKeyInfo DER).  One thread, one
 * NCRIO_SESSION_ONCE per operation (PKCS#1 v1.5, SHA-256 of a 32-byte
 * message hashed in the kernel), like `openssl speed rsa2048` measures one
 * private/public operation per call.  Prints "sign/s N" and "verify/s N".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/ncr.h>

#define ATTR_ROOM 512

struct call {
	union {
		struct ncr_key_import imp;
		struct ncr_session_once once;
		unsigned char raw[sizeof(struct ncr_key_import) + ATTR_ROOM];
	};
	size_t fixed, len;
};

static void put_attr(struct call *c, unsigned short type, const void *p,
		     size_t n)
{
	unsigned short hdr[2] = { (unsigned short)(4 + n), type };
	size_t off = c->fixed + c->len;

	if (off + 4 + n + 3 > sizeof(c->raw)) {
		fprintf(stderr, "pk_bench: attributes too long\n");
		exit(2);
	}
	memcpy(c->raw + off, hdr, 4);
	memcpy(c->raw + off + 4, p, n);
	memset(c->raw + off + 4 + n, 0, (4 - n % 4) % 4);
	c->len += (4 + n + 3) & ~(size_t)3;
}

static void put_u32(struct call *c, unsigned short type, unsigned int v)
{
	put_attr(c, type, &v, sizeof(v));
}

static void put_str(struct call *c, unsigned short type, const char *s)
{
	put_attr(c, type, s, strlen(s) + 1);
}

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
	struct call c = { .fixed = sizeof(struct ncr_key_import) };
	size_t len;
	unsigned char *der = read_file(path, &len);
	int key = ioctl(fd, NCRIO_KEY_INIT);

	if (key < 0) {
		perror("NCRIO_KEY_INIT");
		exit(1);
	}
	c.imp.key = key;
	c.imp.data = der;
	c.imp.data_size = len;
	put_str(&c, NCR_ATTR_ALGORITHM, "rsa");
	put_u32(&c, NCR_ATTR_KEY_TYPE, type);
	c.imp.input_size = c.fixed + c.len;
	if (ioctl(fd, NCRIO_KEY_IMPORT, &c.imp) < 0) {
		perror("NCRIO_KEY_IMPORT");
		exit(1);
	}
	return key;
}

/* SIGN (sig out) or VERIFY (sig in) of msg; returns the ioctl result. */
static int once(int fd, int op, int key, const unsigned char *msg,
		unsigned char *sig, size_t *siglen)
{
	struct call c = { .fixed = sizeof(struct ncr_session_once) };
	struct ncr_session_input_data in = { msg, 32 };
	struct ncr_session_input_data sin = { sig, *siglen };
	struct ncr_session_output_buffer out = { sig, 1024, siglen };

	c.once.op = op;
	put_str(&c, NCR_ATTR_ALGORITHM, "rsa");
	put_u32(&c, NCR_ATTR_KEY, key);
	put_u32(&c, NCR_ATTR_RSA_ENCODING_METHOD, RSA_PKCS1_V1_5);
	put_str(&c, NCR_ATTR_SIGNATURE_HASH_ALGORITHM, "sha256");
	put_attr(&c, NCR_ATTR_UPDATE_INPUT_DATA, &in, sizeof(in));
	if (op == NCR_OP_SIGN)
		put_attr(&c, NCR_ATTR_FINAL_OUTPUT_BUFFER, &out, sizeof(out));
	else
		put_attr(&c, NCR_ATTR_FINAL_INPUT_DATA, &sin, sizeof(sin));
	c.once.input_size = c.fixed + c.len;
	return ioctl(fd, NCRIO_SESSION_ONCE, &c.once);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned char msg[32] = "ncr benchmark message, 32 bytes";
	unsigned char sig[1024];
	size_t siglen = sizeof(sig);
	double secs, t0, t;
	long count;
	int fd, priv, pub;

	if (argc != 4) {
		fprintf(stderr, "usage: pk_bench PRIV.der PUB.der SECONDS\n");
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
	if (once(fd, NCR_OP_SIGN, priv, msg, sig, &siglen) < 0 ||
	    once(fd, NCR_OP_VERIFY, pub, msg, sig, &siglen) != 1) {
		perror("sign/verify self-check");
		return 1;
	}
	t0 = now();
	for (count = 0; (t = now()) - t0 < secs; count++) {
		size_t l = sizeof(sig);

		if (once(fd, NCR_OP_SIGN, priv, msg, sig, &l) < 0) {
			perror("sign");
			return 1;
		}
	}
	printf("sign/s %.1f\n", count / (t - t0));
	t0 = now();
	for (count = 0; (t = now()) - t0 < secs; count++) {
		if (once(fd, NCR_OP_VERIFY, pub, msg, sig, &siglen) != 1) {
			perror("verify");
			return 1;
		}
	}
	printf("verify/s %.1f\n", count / (t - t0));
	close(fd);
	return 0;
}
