// SPDX-License-Identifier: GPL-2.0
/*
 * ncrctl key import [--usage LIST] [--passin ARG] [--force] IN OUT
 *     Brings an existing private key under the kernel: imports it
 *     non-exportable (wrappable, with the given usage), storage-wraps it
 *     under the master key and writes the ncr key file the provider reads
 *     (OUT, mode 0600, atomically; never replaced without --force).
 * ncrctl key info FILE
 *     Algorithm, size, usage, key ID, public key SHA-256 of a key file, and
 *     whether the master key set now opens it.
 *
 * Kernel calls go through libncr, as the provider's do, and
 * the file through its encoder (keyfile.c), so the output is exactly what
 * `openssl genpkey -provider ncr` writes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <openssl/crypto.h>
#include "keyfile.h"
#include "ncrlib.h"
#include "ncrctl.h"
#include "ncrctl_io.h"
#include "ncrctl_parse.h"
#include "ncrctl_pkey.h"

#define INPUT_MAX	(1024 * 1024)	/* key files are a few KiB */
#define PASS_MAX	1024		/* openssl's APP_PASS_LEN */

#define die ncrctl_die

static int key_usage(int code)
{
	fprintf(code ? stderr : stdout,
		"usage: ncrctl key import [--usage sign,decrypt,derive] "
		"[--passin ARG] [--force] IN OUT\n"
		"       ncrctl key info FILE\n");
	return code;
}

/* ---- reading files (wiped when freed: they may hold a plain key) ---- */

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static void buf_wipe(struct buf *b)
{
	OPENSSL_clear_free(b->p, b->cap);
	memset(b, 0, sizeof(*b));
}

/* Reads @fd to EOF, at most @max bytes; 0 or an errno. */
static int read_fd(int fd, size_t max, struct buf *b)
{
	ssize_t n;

	for (;;) {
		if (b->len == b->cap) {
			size_t cap = b->cap ? b->cap * 2 : 4096;
			unsigned char *p;

			if (b->cap > max)
				return EFBIG;
			p = OPENSSL_clear_realloc(b->p, b->cap, cap);
			if (p == NULL)
				return ENOMEM;
			b->p = p;
			b->cap = cap;
		}
		n = read(fd, b->p + b->len, b->cap - b->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (n == 0)
			return b->len > max ? EFBIG : 0;
		b->len += (size_t)n;
	}
}

static int read_file(const char *path, struct buf *b)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	memset(b, 0, sizeof(*b));
	if (fd < 0)
		return die(EXIT_FILE_IO, "%s: cannot open: %s", path,
			   strerror(errno));
	err = read_fd(fd, INPUT_MAX, b);
	close(fd);
	if (err) {
		buf_wipe(b);
		return die(EXIT_FILE_IO, "%s: cannot read: %s", path,
			   err == EFBIG ? "larger than 1 MiB" : strerror(err));
	}
	return EXIT_OK;
}

/* ---- the passphrase (openssl's -passin conventions) ---- */

struct passbuf {
	char p[PASS_MAX + 1];
	size_t len;
};

/* The first line of @fd (file:, fd:, stdin), as openssl reads it. */
static int read_pass_line(int fd, const char *what, struct passbuf *pb)
{
	ssize_t n;

	pb->len = 0;
	while (pb->len < PASS_MAX && !memchr(pb->p, '\n', pb->len)) {
		n = read(fd, pb->p + pb->len, PASS_MAX - pb->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return die(EXIT_FILE_IO, "%s: cannot read the "
				   "passphrase: %s", what, strerror(errno));
		if (n == 0)
			break;
		pb->len += (size_t)n;
	}
	pb->len = ncrctl_first_line(pb->p, pb->len);
	return EXIT_OK;
}

static int pass_literal(const char *s, const char *what, struct passbuf *pb)
{
	size_t n = strlen(s);

	if (n > PASS_MAX)
		return die(EXIT_USAGE, "%s: passphrase longer than %d bytes",
			   what, PASS_MAX);
	memcpy(pb->p, s, n);
	pb->len = n;
	return EXIT_OK;
}

static int read_passphrase(const char *arg, struct passbuf *pb)
{
	struct ncrctl_passin pi;
	const char *v;
	int fd, ret;

	if (ncrctl_parse_passin(arg, &pi))
		return die(EXIT_USAGE, "--passin: use pass:PASSWORD, env:VAR, "
			   "file:PATH, fd:N or stdin");
	switch (pi.kind) {
	case NCRCTL_PASS_LITERAL:
		return pass_literal(pi.arg, "--passin pass:", pb);
	case NCRCTL_PASS_ENV:
		v = getenv(pi.arg);
		if (v == NULL)
			return die(EXIT_USAGE, "--passin env:%s: the variable "
				   "is not set", pi.arg);
		return pass_literal(v, "--passin env:", pb);
	case NCRCTL_PASS_FILE:
		fd = open(pi.arg, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return die(EXIT_FILE_IO, "%s: cannot open the "
				   "passphrase file: %s", pi.arg,
				   strerror(errno));
		ret = read_pass_line(fd, pi.arg, pb);
		close(fd);
		return ret;
	default:	/* fd:N, stdin */
		return read_pass_line(pi.fd, pi.kind == NCRCTL_PASS_STDIN ?
				      "stdin" : arg, pb);
	}
}

/* ---- the kernel ---- */

static int device_check(void)
{
	int err = ncrlib_dev_status();

	if (!err)
		return EXIT_OK;
	if (err == ENOENT || err == ENXIO || err == ENODEV)
		return die(EXIT_NO_DEVICE, "%s: %s; is the ncr module loaded? "
			   "(modprobe ncr)", NCRCTL_DEVICE, strerror(err));
	return die(EXIT_NO_DEVICE, "%s: cannot open: %s", NCRCTL_DEVICE,
		   strerror(err));
}

static int no_master_key(void)
{
	return die(EXIT_NO_MASTER, "%s: no storage master key is set; load "
		   "it first (ncrctl master-key load)", NCRCTL_DEVICE);
}

/* NCRIO_KEY_STORAGE_WRAP of @key into a malloc'ed blob. */
static int storage_wrap(int key, const char *in, struct buf *blob)
{
	size_t cap = 8192;
	long n;

	memset(blob, 0, sizeof(*blob));
	for (;;) {
		blob->p = malloc(cap);
		if (blob->p == NULL)
			return die(EXIT_KERNEL, "out of memory");
		n = ncrlib_key_storage_wrap(ncrlib_dev_fd(), key, blob->p, cap);
		if (n != -ERANGE || cap >= 65536)
			break;
		free(blob->p);
		cap *= 2;
	}
	if (n >= 0) {
		blob->len = (size_t)n;
		return EXIT_OK;
	}
	free(blob->p);
	memset(blob, 0, sizeof(*blob));
	if (n == -ENOKEY)
		return no_master_key();
	return die(EXIT_KERNEL, "%s: storage-wrapping the kernel key failed: "
		   "%s", in, strerror((int)-n));
}

static int import_failed(const char *in, const char *name, int err)
{
	if (err == EOPNOTSUPP)
		return die(EXIT_UNSUPPORTED, "%s: %s key: algorithm not "
			   "supported by the kernel driver", in, name);
	if (err == EINVAL)
		return die(EXIT_KERNEL, "%s: the kernel driver refused the %s "
			   "key (Invalid argument: e.g. multi-prime RSA or "
			   "parameters out of its range)", in, name);
	return die(EXIT_KERNEL, "%s: importing the key into the kernel "
		   "failed: %s", in, strerror(err));
}

/* The provider refuses a file whose key ID is not the public key's. */
static int check_key_id(int key, const char *in,
			const struct ncrctl_pubinfo *pub)
{
	struct ncrlib_key_info info;
	int r = ncrlib_key_info(ncrlib_dev_fd(), key, &info);

	if (r < 0)
		return die(EXIT_KERNEL, "%s: reading the kernel key's info "
			   "failed: %s", in, strerror(-r));
	if (info.id_len != NCRCTL_KEY_ID_LEN ||
	    memcmp(info.id, pub->key_id, NCRCTL_KEY_ID_LEN))
		return die(EXIT_KERNEL, "%s: the kernel's key ID is not the "
			   "public key's; not writing a key file the provider "
			   "would refuse", in);
	return EXIT_OK;
}

/*
 * Import (non-exportable), check, storage-wrap; the handle is dropped.  The
 * plain PKCS#8 is wiped as soon as the kernel has it.
 */
static int kernel_wrap(struct ncrctl_plainkey *k, uint32_t flags,
		       const char *in, struct buf *blob)
{
	int key, r, ret;

	ret = device_check();
	if (ret)
		return ret;
	key = ncrlib_key_new(ncrlib_dev_fd());
	if (key < 0)
		return die(EXIT_KERNEL, "%s: cannot allocate a kernel key: %s",
			   NCRCTL_DEVICE, strerror(-key));
	r = ncrlib_key_import(ncrlib_dev_fd(), key,
			      ncrctl_alg_kernel(k->pub.alg),
			      NCR_KEY_TYPE_PRIVATE, flags, k->pkcs8,
			      k->pkcs8_len);
	OPENSSL_clear_free(k->pkcs8, k->pkcs8_len);
	k->pkcs8 = NULL;
	k->pkcs8_len = 0;
	if (r < 0)
		ret = import_failed(in, k->pub.name, -r);
	else
		ret = check_key_id(key, in, &k->pub);
	if (!ret)
		ret = storage_wrap(key, in, blob);
	ncrlib_key_free(ncrlib_dev_fd(), key);
	return ret;
}

/* ---- writing OUT ---- */

/* "dir/.base.XXXXXX" beside @out, created 0600; the fd or -1. */
static int make_temp(const char *out, char *tmp, size_t len)
{
	const char *slash = strrchr(out, '/');
	int n;

	if (slash)
		n = snprintf(tmp, len, "%.*s/.%s.XXXXXX", (int)(slash - out),
			     out, slash + 1);
	else
		n = snprintf(tmp, len, ".%s.XXXXXX", out);
	if (n < 0 || (size_t)n >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return mkostemp(tmp, O_CLOEXEC);
}

/* Moves @tmp to @out; without @force only if @out does not exist. */
static int put_in_place(const char *tmp, const char *out, int force)
{
	if (force)
		return rename(tmp, out);
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, out, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	/* no RENAME_NOREPLACE on this file system: link() never replaces */
	if (link(tmp, out))
		return -1;
	unlink(tmp);
	return 0;
}

static int write_out(const char *out, int force, const char *pem,
		     size_t len)
{
	char tmp[PATH_MAX];
	int fd = make_temp(out, tmp, sizeof(tmp)), err;

	if (fd < 0)
		return die(EXIT_FILE_IO, "%s: cannot create a file beside it: "
			   "%s", out, strerror(errno));
	if (fchmod(fd, 0600) || ncrctl_write_all(fd, pem, len) || fsync(fd)) {
		err = errno;
		close(fd);
		unlink(tmp);
		return die(EXIT_FILE_IO, "%s: cannot write: %s", tmp,
			   strerror(err));
	}
	if (close(fd) || put_in_place(tmp, out, force)) {
		err = errno;
		unlink(tmp);
		if (err == EEXIST)
			return die(EXIT_EXISTS, "%s: already exists; refusing "
				   "to overwrite it (--force replaces it)", out);
		return die(EXIT_FILE_IO, "%s: cannot write: %s", out,
			   strerror(err));
	}
	return EXIT_OK;
}

/* The ncr key file: SPKI in clear + the blob, PEM "NCR KEY BLOB". */
static int write_keyfile(const char *out, int force,
			 const struct ncrctl_plainkey *k,
			 const struct buf *blob)
{
	unsigned char *der = NULL;
	size_t der_len = 0, pem_len = 0;
	char *pem = NULL;
	int ret;

	if (!ncrp_keyfile_encode(k->spki, k->spki_len, blob->p, blob->len,
				 &der, &der_len) ||
	    !ncrctl_keyfile_pem(der, der_len, &pem, &pem_len))
		ret = die(EXIT_FILE_IO, "%s: out of memory", out);
	else
		ret = write_out(out, force, pem, pem_len);
	free(der);
	OPENSSL_free(pem);
	return ret;
}

/* ---- key import ---- */

struct import_opts {
	const char *usage;	/* NULL: what the algorithm can do */
	const char *passin;	/* NULL: no passphrase */
	int force;
	const char *in, *out;
};

static int parse_import(int argc, char **argv, struct import_opts *o)
{
	static const struct option opts[] = {
		{ "usage", required_argument, NULL, 'u' },
		{ "passin", required_argument, NULL, 'p' },
		{ "force", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'u')
			o->usage = optarg;
		else if (c == 'p')
			o->passin = optarg;
		else if (c == 'f')
			o->force = 1;
		else
			return key_usage(EXIT_USAGE);
	}
	if (argc - optind != 2)
		return key_usage(EXIT_USAGE);
	o->in = argv[optind];
	o->out = argv[optind + 1];
	return EXIT_OK;
}

/*
 * The requested uses, checked against what the algorithm can do and what
 * the kernel cannot take away from it (ECDH: no flag restricts it).
 */
static int choose_uses(const struct import_opts *o, int alg,
		       const char *name, unsigned int *uses)
{
	unsigned int can = ncrctl_alg_uses(alg);
	unsigned int fixed = ncrctl_alg_fixed_uses(alg);
	char bad[64], cs[32];

	if (o->usage == NULL) {
		*uses = can;
		return EXIT_OK;
	}
	if (ncrctl_parse_usage(o->usage, uses, bad, sizeof(bad)))
		return die(EXIT_USAGE, "--usage: %s is not sign, decrypt or "
			   "derive", bad);
	if (*uses & ~can) {
		ncrctl_uses_str(can, cs, sizeof(cs));
		return die(EXIT_USAGE, "--usage %s: %s keys can only %s",
			   o->usage, name, cs);
	}
	if ((*uses & fixed) != fixed) {
		ncrctl_uses_str(fixed, cs, sizeof(cs));
		return die(EXIT_USAGE, "--usage %s: %s keys always %s (no "
			   "kernel flag restricts it); list it too", o->usage,
			   name, cs);
	}
	return EXIT_OK;
}

/* Parses IN (with its passphrase, if any) into @k. */
static int load_input(const struct import_opts *o, struct ncrctl_plainkey *k)
{
	struct passbuf pb;
	struct ncrctl_pass pw = { NULL, 0 };
	struct buf in;
	int ret = EXIT_OK;

	if (o->passin) {
		ret = read_passphrase(o->passin, &pb);
		pw.pass = pb.p;
		pw.len = pb.len;
	}
	if (!ret)
		ret = read_file(o->in, &in);
	if (!ret) {
		ret = ncrctl_pkey_parse(o->in, in.p, in.len, &pw, k);
		buf_wipe(&in);
	}
	OPENSSL_cleanse(&pb, sizeof(pb));
	return ret;
}

static void import_report(const struct import_opts *o,
			  const struct ncrctl_plainkey *k, unsigned int uses)
{
	char us[32];

	ncrctl_uses_str(uses, us, sizeof(us));
	printf("%s: %s key imported into the kernel (not exportable, "
	       "usage %s), storage-wrapped under the master key (mode 0600)\n",
	       o->out, k->pub.desc, us);
	printf("%s still holds the private key in clear: once %s works, "
	       "destroy it (e.g. shred -u %s)\n", o->in, o->out, o->in);
}

static int key_import(int argc, char **argv)
{
	struct import_opts o;
	struct ncrctl_plainkey k;
	struct buf blob = { NULL, 0, 0 };
	struct stat st;
	unsigned int uses = 0;
	int ret = parse_import(argc, argv, &o);

	if (ret)
		return ret;
	if (!o.force && lstat(o.out, &st) == 0)
		return die(EXIT_EXISTS, "%s: already exists; refusing to "
			   "overwrite it (--force replaces it)", o.out);
	ret = load_input(&o, &k);
	if (ret)
		return ret;
	ret = choose_uses(&o, k.pub.alg, k.pub.name, &uses);
	if (!ret)
		ret = kernel_wrap(&k, ncrctl_uses_flags(k.pub.alg, uses), o.in,
				  &blob);
	if (!ret)
		ret = write_keyfile(o.out, o.force, &k, &blob);
	if (!ret)
		import_report(&o, &k, uses);
	ncrctl_plainkey_clear(&k);
	free(blob.p);
	return ret;
}

/* ---- key info ---- */

static void print_hex(const char *label, const unsigned char *p, size_t n)
{
	size_t i;

	printf("%s: ", label);
	for (i = 0; i < n; i++)
		printf("%02x", p[i]);
	printf("\n");
}

/* Storage-unwraps @blob into a fresh kernel key, reads its info, drops it. */
static int unwrap_info(const unsigned char *blob, size_t len,
		       struct ncrlib_key_info *info)
{
	int key = ncrlib_key_new(ncrlib_dev_fd()), r;

	if (key < 0)
		return key;
	r = ncrlib_key_storage_unwrap(ncrlib_dev_fd(), key, blob, len);
	if (!r)
		r = ncrlib_key_info(ncrlib_dev_fd(), key, info);
	ncrlib_key_free(ncrlib_dev_fd(), key);
	return r;
}

#define USAGE_UNKNOWN "usage: unknown (kept inside the wrapped blob)\n"

/* Whether the blob opens under the master key set now; the exit code. */
static int try_unwrap(const struct ncrctl_pubinfo *pub,
		      const unsigned char *blob, size_t len)
{
	struct ncrlib_key_info info;
	char us[32];
	int r;

	if (ncrlib_dev_status()) {
		printf("loads: unknown (%s cannot be opened)\n", NCRCTL_DEVICE);
		return device_check();
	}
	r = unwrap_info(blob, len, &info);
	if (r == -ENOKEY) {
		printf("loads: no (no master key is set: ncrctl master-key "
		       "load)\n" USAGE_UNKNOWN);
		return EXIT_NO_MASTER;
	}
	if (r == -EBADMSG || r == -EINVAL) {
		printf("loads: no (the master key set now does not open the "
		       "blob: it was made under another master key, or the "
		       "file is damaged)\n" USAGE_UNKNOWN);
		return EXIT_REJECTED;
	}
	if (r < 0) {
		printf("loads: unknown (%s)\n", strerror(-r));
		return EXIT_KERNEL;
	}
	if (info.type != NCR_KEY_TYPE_PRIVATE ||
	    strcmp(info.algo, ncrctl_alg_kernel(pub->alg)) ||
	    (info.id_len == NCRCTL_KEY_ID_LEN &&
	     memcmp(info.id, pub->key_id, NCRCTL_KEY_ID_LEN))) {
		printf("loads: no (the blob holds another key than the public "
		       "key in the file: the provider refuses it)\n");
		return EXIT_REJECTED;
	}
	ncrctl_uses_str(ncrctl_flags_uses(pub->alg, info.flags), us,
			sizeof(us));
	printf("loads: yes (under the master key set now)\nusage: %s\n"
	       "exportable: %s\n", us,
	       info.flags & NCR_KEY_FLAG_EXPORTABLE ? "yes" : "no");
	return EXIT_OK;
}

static int info_of(const char *path, const unsigned char *der, size_t len)
{
	const unsigned char *spki, *blob;
	size_t spki_len, blob_len;
	struct ncrctl_pubinfo pub;

	if (!ncrp_keyfile_decode(der, len, &spki, &spki_len, &blob, &blob_len))
		return die(EXIT_NOT_KEY, "%s: malformed %s body", path,
			   NCR_KEYFILE_PEM_LABEL);
	if (!ncrctl_spki_info(spki, spki_len, &pub))
		return die(EXIT_NOT_KEY, "%s: the public key is not a valid "
			   "SubjectPublicKeyInfo", path);
	if (pub.alg == 0)
		return die(EXIT_NOT_KEY, "%s: holds a %s public key; ncr key "
			   "files hold " NCRCTL_ALGS_HELD, path, pub.name);
	printf("file: %s\nalgorithm: %s\n", path, pub.name);
	if (pub.curve[0])
		printf("curve: %s\n", pub.curve);
	printf("size: %d bits\n", pub.bits);
	print_hex("key id", pub.key_id, sizeof(pub.key_id));
	print_hex("public key sha256", pub.sha256, sizeof(pub.sha256));
	return try_unwrap(&pub, blob, blob_len);
}

static int key_info(int argc, char **argv)
{
	unsigned char *der = NULL;
	size_t der_len = 0;
	struct buf b;
	int ret;

	if (argc != 2 || argv[1][0] == '-')
		return key_usage(EXIT_USAGE);
	ret = read_file(argv[1], &b);
	if (ret)
		return ret;
	if (!ncrctl_keyfile_unpem(b.p, b.len, &der, &der_len))
		ret = die(EXIT_NOT_KEY, "%s: not an ncr key file (no %s PEM "
			  "block)", argv[1], NCR_KEYFILE_PEM_LABEL);
	else
		ret = info_of(argv[1], der, der_len);
	OPENSSL_free(der);
	buf_wipe(&b);
	return ret;
}

int ncrctl_key_main(int argc, char **argv)
{
	if (argc < 2)
		return key_usage(EXIT_USAGE);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return key_usage(EXIT_OK);
	/* no core dump may hold the plain key */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if (!ncrctl_pkey_init())
		return die(EXIT_KERNEL, "cannot initialise libcrypto");
	if (!strcmp(argv[1], "import"))
		return key_import(argc - 1, argv + 1);
	if (!strcmp(argv[1], "info"))
		return key_info(argc - 1, argv + 1);
	return key_usage(EXIT_USAGE);
}
