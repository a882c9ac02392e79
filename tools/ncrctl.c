// SPDX-License-Identifier: GPL-2.0
/*
 * ncrctl: administration of the ncr /dev/crypto driver.
 *
 *   ncrctl master-key generate FILE   new AES-256 master key file (0600)
 *   ncrctl master-key load FILE       set the storage master key from FILE
 *   ncrctl master-key load --credential NAME [FILE]
 *                                     ... from the systemd credential NAME
 *   ncrctl master-key load --keyring logon:DESC|encrypted:DESC
 *                                     ... from a kernel keyring key, which
 *                                     the kernel reads itself
 *   ncrctl key import|info ...        see ncrctl_key.c
 *   ncrctl status                     module, device, master key, limits,
 *                                     algorithms
 *
 * Every failure prints one line naming the file or device and the problem,
 * and exits with a code of its own class (ncrctl.h, ncrctl(8)).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/ncr.h>
#include "algo_list.h"
#include "ncrctl.h"
#include "ncrlib.h"
#include "ncrctl_parse.h"

#define DEVICE		NCRCTL_DEVICE
#define SYSFS_MODULE	"/sys/module/ncr"
#define MASTER_KEY_LEN	32

static const char *prog = NCRCTL_NAME;

#define die ncrctl_die

static int usage(FILE *f, int code)
{
	fprintf(f,
		"usage: %s master-key generate FILE\n"
		"       %s master-key load FILE\n"
		"       %s master-key load --credential NAME [FILE]\n"
		"       %s master-key load --keyring logon:DESC|encrypted:DESC\n"
		"       %s key import [--usage sign,decrypt,derive] "
		"[--passin ARG] [--force] IN OUT\n"
		"       %s key info FILE\n"
		"       %s status\n", prog, prog, prog, prog, prog, prog, prog);
	return code;
}

/* ---- master-key generate ---- */

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= w;
	}
	return 0;
}

static int master_key_generate(const char *path)
{
	uint8_t key[MASTER_KEY_LEN];
	size_t got = 0;
	int fd, err;

	while (got < sizeof(key)) {
		ssize_t r = getrandom(key + got, sizeof(key) - got, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return die(EXIT_RANDOM, "getrandom: %s", strerror(errno));
		got += r;
	}
	/* O_EXCL: never overwrite (nor follow a planted symlink) */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0) {
		err = errno;
		explicit_bzero(key, sizeof(key));
		if (err == EEXIST)
			return die(EXIT_EXISTS, "%s: already exists; refusing to "
				   "overwrite a master key file", path);
		return die(EXIT_FILE_IO, "%s: cannot create: %s", path,
			   strerror(err));
	}
	if (fchmod(fd, 0600) || write_all(fd, key, sizeof(key)) ||
	    fsync(fd)) {
		err = errno;
		explicit_bzero(key, sizeof(key));
		close(fd);
		unlink(path);
		return die(EXIT_FILE_IO, "%s: cannot write: %s", path,
			   strerror(err));
	}
	explicit_bzero(key, sizeof(key));
	if (close(fd)) {
		err = errno;
		unlink(path);
		return die(EXIT_FILE_IO, "%s: cannot write: %s", path,
			   strerror(err));
	}
	printf("%s: new %d-bit master key written (mode 0600)\n", path,
	       MASTER_KEY_LEN * 8);
	return EXIT_OK;
}

/* ---- master-key load ---- */

/* Refuses a key source that ncrctl_check_key_perm() does not accept. */
static int check_key_file(const char *path, const struct stat *st, int cred)
{
	const char *what = cred ? "credential" : "master key file";

	switch (ncrctl_check_key_perm(st->st_mode, st->st_uid, cred)) {
	case NCRCTL_PERM_OK:
		return EXIT_OK;
	case NCRCTL_PERM_NOT_REGULAR:
		return die(EXIT_INSECURE, "%s: not a regular file", path);
	case NCRCTL_PERM_OWNER:
		return die(EXIT_INSECURE, "%s: owned by uid %u; a %s must be "
			   "owned by root (uid 0)", path,
			   (unsigned int)st->st_uid, what);
	}
	if (cred)
		return die(EXIT_INSECURE, "%s: mode %04o; a credential must "
			   "have mode 0400 or 0600 (systemd makes it 0400)",
			   path, (unsigned int)(st->st_mode & 07777));
	return die(EXIT_INSECURE, "%s: mode %04o; a master key file "
		   "must have mode 0600 (chmod 600 %s)", path,
		   (unsigned int)(st->st_mode & 07777), path);
}

static int open_device(void)
{
	int fd = open(DEVICE, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		if (errno == ENOENT || errno == ENXIO || errno == ENODEV)
			die(EXIT_NO_DEVICE, "%s: %s; is the ncr module loaded? "
			    "(modprobe ncr)", DEVICE, strerror(errno));
		else
			die(EXIT_NO_DEVICE, "%s: cannot open: %s", DEVICE,
			    strerror(errno));
	}
	return fd;
}

/* One line for the outcome of setting the master key from @what. */
static int master_key_result(const char *what, int err)
{
	switch (err) {
	case 0:
		printf("%s: master key set\n", what);
		return EXIT_OK;
	case EPERM:
		return die(EXIT_DENIED, "%s: setting the master key needs EUID 0 "
			   "and CAP_SYS_ADMIN (%s)", DEVICE, strerror(err));
	case EBUSY:
		return die(EXIT_KEY_BUSY, "%s: a different master key is already "
			   "set; it can only be replaced after unloading the "
			   "module (or rebooting)", what);
	default:
		return die(EXIT_KERNEL, "%s: the driver refused the key from %s: "
			   "%s", DEVICE, what, strerror(err));
	}
}

static int set_master_key(const char *path, const uint8_t *key, size_t len)
{
	struct ncr_master_key_set mk = {
		.input_size = 0, .output_size = 0,
		.key = key, .key_size = (uint32_t)len,
	};
	int fd = open_device(), err;

	if (fd < 0)
		return EXIT_NO_DEVICE;
	err = ioctl(fd, NCRIO_MASTER_KEY_SET, &mk) == 0 ? 0 : errno;
	close(fd);
	return master_key_result(path, err);
}

/* Checks the open key source @fd and reads its 16, 24 or 32 bytes. */
static int read_key(int fd, const char *path, int cred,
		    uint8_t key[MASTER_KEY_LEN + 1], ssize_t *len)
{
	struct stat st;
	ssize_t n;
	int ret;

	if (fstat(fd, &st))
		return die(EXIT_FILE_IO, "%s: cannot stat: %s", path,
			   strerror(errno));
	ret = check_key_file(path, &st, cred);
	if (ret)
		return ret;
	do {
		n = read(fd, key, MASTER_KEY_LEN + 1);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return die(EXIT_FILE_IO, "%s: cannot read: %s", path,
			   strerror(errno));
	if (n != 16 && n != 24 && n != 32)
		return die(EXIT_BAD_SIZE, "%s: %s%zd bytes; a master key file "
			   "holds exactly 16, 24 or 32 bytes (AES-128/192/256)",
			   path, n > MASTER_KEY_LEN ? "more than " : "",
			   n > MASTER_KEY_LEN ? (ssize_t)MASTER_KEY_LEN : n);
	*len = n;
	return EXIT_OK;
}

#define LOAD_MISSING (-1)	/* load_key_at(): absent and @missing_ok */

/*
 * Sets the master key from @name (relative to @dirfd), which messages call
 * @path; @cred applies the credential permission rules.
 */
static int load_key_at(int dirfd, const char *name, const char *path,
		       int cred, int missing_ok)
{
	uint8_t key[MASTER_KEY_LEN + 1];
	ssize_t n = 0;
	int fd, ret;

	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
		    O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT && missing_ok)
			return LOAD_MISSING;
		if (errno == ELOOP)
			return die(EXIT_INSECURE, "%s: is a symbolic link; give "
				   "the key file itself", path);
		return die(EXIT_FILE_IO, "%s: cannot open: %s", path,
			   strerror(errno));
	}
	ret = read_key(fd, path, cred, key, &n);
	if (!ret)
		ret = set_master_key(path, key, (size_t)n);
	explicit_bzero(key, sizeof(key));
	close(fd);
	return ret;
}

static int master_key_load(const char *path)
{
	return load_key_at(AT_FDCWD, path, path, 0, 0);
}

/* $CREDENTIALS_DIRECTORY, opened after checking who may write to it. */
static int open_cred_dir(const char *dir, int *ret)
{
	struct stat st;
	int fd;

	*ret = EXIT_INSECURE;
	if (dir[0] != '/') {
		die(EXIT_INSECURE, "%s: $CREDENTIALS_DIRECTORY is not an "
		    "absolute path", dir);
		return -1;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		*ret = errno == ENOTDIR || errno == ELOOP ? EXIT_INSECURE :
			EXIT_FILE_IO;
		die(*ret, "%s: cannot open the credentials directory: %s",
		    dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (ncrctl_check_cred_dir(st.st_mode, st.st_uid) == NCRCTL_PERM_OK)
		return fd;
	close(fd);
	die(EXIT_INSECURE, "%s: the credentials directory must be owned by "
	    "root and writable by nobody else (uid %u, mode %04o)", dir,
	    (unsigned int)st.st_uid, (unsigned int)(st.st_mode & 07777));
	return -1;
}

/*
 * The credential @name that systemd passed in $CREDENTIALS_DIRECTORY
 * (LoadCredential= / LoadCredentialEncrypted=); @fallback (may be NULL) is
 * loaded instead when there is no such credential.
 */
static int master_key_load_credential(const char *name, const char *fallback)
{
	const char *dir = secure_getenv("CREDENTIALS_DIRECTORY");
	char path[4096];
	int dfd, ret;

	if (!ncrctl_credential_name_valid(name))
		return die(EXIT_USAGE, "%s: not a valid credential name", name);
	if (!dir || !*dir) {
		if (fallback)
			return master_key_load(fallback);
		return die(EXIT_FILE_IO, "credential %s: $CREDENTIALS_DIRECTORY "
			   "is not set (run from a unit with "
			   "LoadCredentialEncrypted=%s, or give a FILE too)",
			   name, name);
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path))
		return die(EXIT_USAGE, "%s: $CREDENTIALS_DIRECTORY is too long",
			   dir);
	dfd = open_cred_dir(dir, &ret);
	if (dfd < 0)
		return ret;
	ret = load_key_at(dfd, name, path, 1, fallback != NULL);
	close(dfd);
	return ret == LOAD_MISSING ? master_key_load(fallback) : ret;
}

/*
 * The key named @spec in the caller's keyrings, which the kernel reads
 * itself: its bytes never pass through this process.
 */
static int master_key_load_keyring(const char *spec)
{
	int fd, err;

	if (strncmp(spec, "logon:", 6) && strncmp(spec, "encrypted:", 10))
		return die(EXIT_USAGE, "%s: give logon:DESCRIPTION or "
			   "encrypted:DESCRIPTION (a user key is readable by "
			   "user space and is not accepted)", spec);
	fd = open_device();
	if (fd < 0)
		return EXIT_NO_DEVICE;
	err = -ncrlib_master_key_from_keyring(fd, spec);
	close(fd);
	switch (err) {
	case ENOKEY:
		return die(EXIT_NO_MASTER, "%s: no such key in this process's "
			   "thread, process or session keyrings (keyctl show "
			   "@s)", spec);
	case EKEYREVOKED:
	case EKEYEXPIRED:
	case EACCES:
		return die(EXIT_NO_MASTER, "%s: %s", spec, strerror(err));
	case EOPNOTSUPP:
		return die(EXIT_KERNEL, "%s: this kernel has no such key type "
			   "(CONFIG_KEYS, CONFIG_ENCRYPTED_KEYS)", spec);
	case EINVAL:
		return die(EXIT_BAD_SIZE, "%s: not a master key: the payload "
			   "must be 16, 24 or 32 bytes (or ncr.ko predates "
			   "--keyring)", spec);
	}
	return master_key_result(spec, err);
}

/*
 * master-key load FILE | --credential NAME [FILE] | --credential=NAME ...
 * | --keyring SPEC
 */
static int master_key_load_cmd(int argc, char **argv)
{
	const char *name = NULL;
	int i = 0;

	if (argc == 2 && !strcmp(argv[0], "--keyring"))
		return master_key_load_keyring(argv[1]);

	if (argc >= 1 && !strncmp(argv[0], "--credential=", 13)) {
		name = argv[0] + 13;
		i = 1;
	} else if (argc >= 2 && !strcmp(argv[0], "--credential")) {
		name = argv[1];
		i = 2;
	}
	if (!name)
		return argc == 1 && argv[0][0] != '-' ?
			master_key_load(argv[0]) : usage(stderr, EXIT_USAGE);
	if (argc - i > 1 || (argc - i == 1 && argv[i][0] == '-'))
		return usage(stderr, EXIT_USAGE);
	return master_key_load_credential(name, argc - i == 1 ? argv[i] : NULL);
}

/* ---- status ---- */

/* Master key probe: storage-wrap an empty key; ENOKEY means none is set. */
static int probe_master_key(int fd)
{
	uint8_t out[64];
	int k = ncrlib_key_new(fd);
	long ret;

	if (k < 0)
		return k;
	ret = ncrlib_key_storage_wrap(fd, k, out, sizeof(out));
	ncrlib_key_free(fd, k);
	return ret < 0 ? (int)ret : 0;
}

/* Secret-key algorithms: generate a key of @bits. */
static int probe_secret(int fd, const char *algo, uint32_t bits,
			uint32_t flags, int *keep)
{
	int k = ncrlib_key_new(fd);
	int ret;

	if (k < 0)
		return k;
	ret = ncrlib_key_generate(fd, k, algo, bits, flags);
	if (ret < 0 || !keep)
		ncrlib_key_free(fd, k);
	else
		*keep = k;
	return ret < 0 ? ret : 0;
}

/* Public-key algorithms: import junk; EOPNOTSUPP means "not supported". */
static int probe_pk(int fd, const char *algo)
{
	static const uint8_t junk[2] = { 0x30, 0x00 };
	int k = ncrlib_key_new(fd);
	int ret;

	if (k < 0)
		return k;
	ret = ncrlib_key_import(fd, k, algo, NCR_KEY_TYPE_PUBLIC, 0, junk,
				sizeof(junk));
	ncrlib_key_free(fd, k);
	return ret == -EOPNOTSUPP ? ret : 0;
}

/* Hashes: digest the empty message in one SESSION_ONCE. */
static int probe_hash(int fd, const char *algo)
{
	uint8_t digest[NCR_HASH_MAX_OUTPUT_SIZE];
	struct ncrlib_sess_params p;
	struct ncrlib_io io = {
		.fin_out = digest, .fin_out_cap = sizeof(digest) };
	long ret;

	ncrlib_sess_params_init(&p, NCR_OP_SIGN, algo);
	ret = ncrlib_session_once(fd, &p, &io);
	return ret < 0 ? (int)ret : 0;
}

/* Wrap algorithms: wrap an AES-128 key under a KEK. */
static int probe_walg(int fd, int kek, int k, const char *walg)
{
	uint8_t out[64];

	return ncrlib_key_wrap(fd, kek, k, walg, out, sizeof(out)) < 0;
}

/* A KEK needs CAP_SYS_ADMIN: without it, say so instead of probing. */
static void print_walgs(int fd, int aes)
{
	int kek = -1;

	printf("\nkey wrapping:");
	if (aes < 0)
		return;
	if (probe_secret(fd, "ecb(aes)", 128, NCR_KEY_FLAG_WRAPPING, &kek)) {
		printf(" (a KEK needs CAP_SYS_ADMIN to probe)");
		return;
	}
	if (!probe_walg(fd, kek, aes, NCR_WALG_AES_RFC3394))
		printf(" " NCR_WALG_AES_RFC3394);
	if (!probe_walg(fd, kek, aes, NCR_WALG_AES_RFC5649))
		printf(" " NCR_WALG_AES_RFC5649);
	ncrlib_key_free(fd, kek);
}

/* The driver's algorithms, from the list its own table is built from. */
struct algo_entry {
	const char *name;
	enum ncr_algo_class cls;
	uint32_t min_key;		/* bytes */
	bool aes_key;
};

#define ALGO_ENTRY(n, c, min, max, step, aes, one) { n, c, min, aes },
static const struct algo_entry algos[] = { NCR_ALGO_LIST(ALGO_ENTRY) };
#define N_ALGOS (sizeof(algos) / sizeof(algos[0]))

/* The key size a probe generates: the smallest, 256 bits for an HMAC. */
static uint32_t probe_bits(const struct algo_entry *a)
{
	return a->cls == NCR_ALG_MAC ? 256 : a->min_key * 8;
}

static void print_algos(int fd)
{
	int aes = -1;
	size_t i;

	printf("algorithms:");
	for (i = 0; i < N_ALGOS; i++) {
		int *keep = algos[i].aes_key && aes < 0 ? &aes : NULL;

		if ((algos[i].cls == NCR_ALG_CIPHER ||
		     algos[i].cls == NCR_ALG_MAC) &&
		    !probe_secret(fd, algos[i].name, probe_bits(&algos[i]),
				  NCR_KEY_FLAG_WRAPPABLE, keep))
			printf(" %s", algos[i].name);
	}
	for (i = 0; i < N_ALGOS; i++)
		if ((algos[i].cls == NCR_ALG_PK || algos[i].cls == NCR_ALG_DH) &&
		    !probe_pk(fd, algos[i].name))
			printf(" %s", algos[i].name);
	printf("\nhashes:");
	for (i = 0; i < N_ALGOS; i++)
		if (algos[i].cls == NCR_ALG_HASH &&
		    !probe_hash(fd, algos[i].name))
			printf(" %s", algos[i].name);
	print_walgs(fd, aes);
	ncrlib_key_free(fd, aes);
	printf("\n");
}

static void print_limits(void)
{
	char path[512], val[64];
	struct dirent *de;
	DIR *d = opendir(SYSFS_MODULE "/parameters");

	if (!d) {
		printf("limits: (no %s/parameters)\n", SYSFS_MODULE);
		return;
	}
	printf("limits:\n");
	while ((de = readdir(d))) {
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/parameters/%s", SYSFS_MODULE,
			 de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(val, sizeof(val), f)) {
			val[strcspn(val, "\n")] = 0;
			printf("  %s = %s\n", de->d_name, val);
		}
		fclose(f);
	}
	closedir(d);
}

static int status(void)
{
	struct stat st;
	int fd, mk, ret = EXIT_OK;

	if (stat(SYSFS_MODULE, &st)) {
		printf("module: not loaded\n");
		return die(EXIT_NO_DEVICE, "module ncr is not loaded "
			   "(modprobe ncr)");
	}
	printf("module: loaded\n");
	if (stat(DEVICE, &st) || !S_ISCHR(st.st_mode)) {
		printf("device: %s missing\n", DEVICE);
		return die(EXIT_NO_DEVICE, "%s: missing or not a character "
			   "device", DEVICE);
	}
	fd = open_device();
	if (fd < 0)
		return EXIT_NO_DEVICE;
	printf("device: %s (%u:%u)\n", DEVICE, major(st.st_rdev),
	       minor(st.st_rdev));
	mk = probe_master_key(fd);
	if (mk == -ENOKEY) {
		printf("master key: not set\n");
		ret = EXIT_NO_MASTER;
	} else if (mk == -EOPNOTSUPP) {
		printf("master key: not supported by this driver\n");
		ret = EXIT_NO_MASTER;
	} else {
		printf("master key: set\n");
	}
	print_limits();
	print_algos(fd);
	close(fd);
	return ret;
}

#ifndef NCRCTL_WITH_KEYS
/* A build without libcrypto (the static 32-bit one) has no key commands. */
int ncrctl_key_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return die(EXIT_USAGE, "key commands are not built into this ncrctl");
}
#endif

int main(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
			  !strcmp(argv[1], "help")))
		return usage(stdout, EXIT_OK);
	if (argc == 2 && !strcmp(argv[1], "status"))
		return status();
	if (argc == 4 && !strcmp(argv[1], "master-key") &&
	    !strcmp(argv[2], "generate"))
		return master_key_generate(argv[3]);
	if (argc >= 4 && !strcmp(argv[1], "master-key") &&
	    !strcmp(argv[2], "load"))
		return master_key_load_cmd(argc - 3, argv + 3);
	if (argc >= 2 && !strcmp(argv[1], "key"))
		return ncrctl_key_main(argc - 1, argv + 1);
	return usage(stderr, EXIT_USAGE);
}
