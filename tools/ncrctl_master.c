// SPDX-License-Identifier: GPL-2.0
/*
 * ncrctl master-key: the storage master key, from where it is kept at rest
 * into the kernel.
 *
 *   generate FILE        a new plain key file (root, 0600)
 *   load FILE | --credential NAME [FILE] | --keyring logon:D|encrypted:D
 *   provision [--from FILE] [--backup FILE] [--tpm2-pcrs PCRS] [--force]
 *                        seal a new (or the given) key to this machine's
 *                        TPM2 into NCRCTL_SEALED_PATH and set it
 *   boot                 what ncr-master-key.service runs: the sealed key,
 *                        else the plain file, else (with a TPM) provision
 *
 * A key read here sits in locked memory that is wiped after the ioctl, in
 * a process that cannot be dumped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/ncr.h>
#include "ncrctl.h"
#include "ncrctl_io.h"
#include "ncrctl_master.h"
#include "ncrctl_parse.h"
#include "ncrctl_seal.h"
#include "ncrlib.h"

#define DEVICE		NCRCTL_DEVICE
#define MASTER_KEY_LEN	NCRCTL_MASTER_KEY_LEN

#define die ncrctl_die

const char ncrctl_master_usage[] =
	"master-key generate FILE\n"
	"master-key load FILE\n"
	"master-key load --credential NAME [FILE]\n"
	"master-key load --keyring logon:DESC|encrypted:DESC\n"
	"master-key provision [--from FILE | --backup FILE] "
	"[--tpm2-pcrs PCRS] [--force]\n"
	"master-key boot\n";

static int master_usage(void)
{
	ncrctl_print_usage(stderr, "usage:", ncrctl_master_usage);
	return EXIT_USAGE;
}

/* ---- master-key generate ---- */

int ncrctl_random_key(uint8_t *key, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = getrandom(key + got, len - got, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return die(EXIT_RANDOM, "getrandom: %s", strerror(errno));
		got += r;
	}
	return EXIT_OK;
}

int ncrctl_write_key_file(const char *path, const uint8_t *key, size_t len)
{
	int fd, err;

	/* O_EXCL: never overwrite (nor follow a planted symlink) */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0) {
		err = errno;
		if (err == EEXIST)
			return die(EXIT_EXISTS, "%s: already exists; refusing to "
				   "overwrite a master key file", path);
		return die(EXIT_FILE_IO, "%s: cannot create: %s", path,
			   strerror(err));
	}
	if (fchmod(fd, 0600) || ncrctl_write_all(fd, key, len) || fsync(fd)) {
		err = errno;
		close(fd);
		unlink(path);
		return die(EXIT_FILE_IO, "%s: cannot write: %s", path,
			   strerror(err));
	}
	if (close(fd) || ncrctl_fsync_dir_of(path)) {
		err = errno;
		unlink(path);
		return die(EXIT_FILE_IO, "%s: cannot write: %s", path,
			   strerror(err));
	}
	return EXIT_OK;
}

static int master_key_generate(const char *path)
{
	uint8_t key[MASTER_KEY_LEN];
	int ret;

	ncrctl_protect(key, sizeof(key));
	ret = ncrctl_random_key(key, sizeof(key));
	if (!ret)
		ret = ncrctl_write_key_file(path, key, sizeof(key));
	explicit_bzero(key, sizeof(key));
	if (!ret)
		printf("%s: new %d-bit master key written (mode 0600)\n", path,
		       MASTER_KEY_LEN * 8);
	return ret;
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

int ncrctl_open_device(void)
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
			   "set (ncrctl master-key rotate changes it; else "
			   "only unloading the module clears it)", what);
	default:
		return die(EXIT_KERNEL, "%s: the driver refused the key from %s: "
			   "%s", DEVICE, what, strerror(err));
	}
}

int ncrctl_master_set(const char *path, const uint8_t *key, size_t len)
{
	struct ncr_master_key_set mk = {
		.input_size = 0, .output_size = 0,
		.key = key, .key_size = (uint32_t)len,
	};
	int fd = ncrctl_open_device(), err;

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
 * Reads the key source @name (relative to @dirfd), which messages call
 * @path; @cred applies the credential permission rules.
 */
static int read_key_at(int dirfd, const char *name, const char *path,
		       int cred, int missing_ok,
		       uint8_t key[MASTER_KEY_LEN + 1], ssize_t *n)
{
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
	ret = read_key(fd, path, cred, key, n);
	close(fd);
	return ret;
}

int ncrctl_read_key_file(const char *path, uint8_t key[MASTER_KEY_LEN + 1],
			 ssize_t *len)
{
	return read_key_at(AT_FDCWD, path, path, 0, 0, key, len);
}

/* Sets the master key from the key source read_key_at() reads. */
static int load_key_at(int dirfd, const char *name, const char *path,
		       int cred, int missing_ok)
{
	uint8_t key[MASTER_KEY_LEN + 1];
	ssize_t n = 0;
	int ret;

	ncrctl_protect(key, sizeof(key));
	ret = read_key_at(dirfd, name, path, cred, missing_ok, key, &n);
	if (!ret)
		ret = ncrctl_master_set(path, key, (size_t)n);
	explicit_bzero(key, sizeof(key));
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
	fd = ncrctl_open_device();
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
			master_key_load(argv[0]) : master_usage();
	if (argc - i > 1 || (argc - i == 1 && argv[i][0] == '-'))
		return master_usage();
	return master_key_load_credential(name, argc - i == 1 ? argv[i] : NULL);
}

/* Master key probe: storage-wrap an empty key; ENOKEY means none is set. */
int ncrctl_master_key_probe(int fd)
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


/* ---- sealed to the TPM: provision, boot ---- */

/* 1 if @path is there, 0 if absent, minus an exit code (one line) else. */
static int path_state(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0)
		return 1;
	if (errno == ENOENT)
		return 0;
	return -die(EXIT_FILE_IO, "%s: %s", path, strerror(errno));
}

/* Sets the key sealed at @path. */
static int load_sealed(const char *path)
{
	uint8_t key[MASTER_KEY_LEN + 1];
	int n, ret;

	ncrctl_protect(key, sizeof(key));
	n = ncrctl_unseal(path, key, sizeof(key));
	if (n < 0)
		return -n;
	ret = ncrctl_master_set(path, key, (size_t)n);
	explicit_bzero(key, sizeof(key));
	return ret;
}

/* 1 if the kernel holds a master key, 0 if not, minus an exit code. */
static int kernel_has_key(void)
{
	int fd = ncrctl_open_device(), ret;

	if (fd < 0)
		return -EXIT_NO_DEVICE;
	ret = ncrctl_master_key_probe(fd);
	close(fd);
	/* as status reads it: any other answer than these means "set" */
	if (ret == -ENOKEY)
		return 0;
	if (ret == -EOPNOTSUPP || ret == -ENOTTY)
		return -die(EXIT_KERNEL, "%s: this driver has no storage master "
			    "key", DEVICE);
	return 1;
}

struct provision {
	const char *path;	/* where the sealed key goes */
	const char *from;	/* an existing plain key file, or NULL */
	const char *backup;	/* a new plain copy of a new key, or NULL */
	const char *pcrs;	/* systemd-creds --tpm2-pcrs=, or NULL */
	int force;		/* replace a sealed key already there */
};

/*
 * The key to seal: read from p->from, or new (and backed up if asked;
 * *backed_up says that this call made p->backup).
 */
static int provision_key(const struct provision *p, uint8_t *key,
			 ssize_t *len, int *backed_up)
{
	int has = kernel_has_key(), ret;

	if (has < 0)
		return -has;
	if (p->from) {
		ret = ncrctl_read_key_file(p->from, key, len);
		/* the kernel refuses it (EBUSY) if it holds another key */
		return ret ? ret : has ? ncrctl_master_set(p->from, key, *len) : 0;
	}
	if (has)
		return die(EXIT_KEY_BUSY, "%s: the kernel holds a master key "
			   "already; seal that one (--from ITS_FILE) or rotate "
			   "to a new one (master-key rotate)", DEVICE);
	*len = MASTER_KEY_LEN;
	ret = ncrctl_random_key(key, MASTER_KEY_LEN);
	if (!ret && p->backup) {
		ret = ncrctl_write_key_file(p->backup, key, MASTER_KEY_LEN);
		*backed_up = !ret;
	}
	return ret;
}

/*
 * Seals the key to the TPM at p->path, checks that the TPM gives the same
 * key back, then sets it.
 */
static int master_key_provision(const struct provision *p)
{
	uint8_t key[MASTER_KEY_LEN + 1], back[MASTER_KEY_LEN + 1];
	int there = path_state(p->path), backed_up = 0, n, ret;
	char staged[4096];
	ssize_t len = 0;

	ncrctl_protect(key, sizeof(key));
	ncrctl_protect(back, sizeof(back));
	if (there < 0)
		return -there;
	if (there && !p->force)
		return die(EXIT_EXISTS, "%s: a sealed master key is there "
			   "already and key files need it; --force replaces "
			   "it (e.g. --from BACKUP after a TPM clear)", p->path);
	if (there && !p->from)
		return die(EXIT_EXISTS, "%s: --force replaces a sealed key only "
			   "with --from (a backup of a key); to start over with "
			   "a new key, move the file away first", p->path);
	if (!ncrctl_tpm_present(0))
		return die(EXIT_TPM, "%s: cannot seal a master key: this machine "
			   "has no TPM2 (no %s)", p->path, NCRCTL_TPM_DEVICE);
	if ((size_t)snprintf(staged, sizeof(staged), "%s.provision",
			     p->path) >= sizeof(staged))
		return die(EXIT_USAGE, "%s: path too long", p->path);
	ret = provision_key(p, key, &len, &backed_up);
	/* sealed beside, checked, then renamed over what was there */
	if (!ret)
		ret = ncrctl_seal(staged, key, (size_t)len, p->pcrs);
	if (!ret) {
		n = ncrctl_unseal(staged, back, sizeof(back));
		if (n < 0)
			ret = -n;
		else if (n != len || memcmp(key, back, (size_t)len))
			ret = die(EXIT_TPM, "%s: the TPM gave back another key "
				  "than it sealed", p->path);
	}
	if (!ret && (rename(staged, p->path) || ncrctl_fsync_dir_of(p->path)))
		ret = die(EXIT_FILE_IO, "%s: cannot rename %s to it: %s",
			  p->path, staged, strerror(errno));
	if (ret) {
		unlink(staged);
		/* a backup of a key that was never sealed would mislead */
		if (backed_up)
			unlink(p->backup);
	} else {
		printf("%s: %d-bit master key sealed to this machine's TPM2\n",
		       p->path, (int)len * 8);
		ret = ncrctl_master_set(p->path, key, (size_t)len);
	}
	explicit_bzero(key, sizeof(key));
	explicit_bzero(back, sizeof(back));
	return ret;
}

/* provision [--from FILE | --backup FILE] [--tpm2-pcrs PCRS] [--force] */
static int master_key_provision_cmd(int argc, char **argv)
{
	struct provision p = { .path = NCRCTL_SEALED_PATH };
	int i;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--force")) {
			p.force = 1;
			continue;
		}
		if (!v)
			return master_usage();
		if (!strcmp(a, "--from"))
			p.from = v;
		else if (!strcmp(a, "--backup"))
			p.backup = v;
		else if (!strcmp(a, "--tpm2-pcrs") && strlen(v) < 40)
			p.pcrs = v;
		else if (!strcmp(a, "--sealed"))	/* tests: another path */
			p.path = v;
		else
			return master_usage();
		i++;
	}
	if (p.from && p.backup)
		return die(EXIT_USAGE, "--backup is for a new key; the key of "
			   "--from has its file already");
	return master_key_provision(&p);
}

/*
 * What ncr-master-key.service runs at boot: the sealed key, else the plain
 * key file, else, on a machine with a TPM2, a new key sealed to it (first
 * boot).  A sealed key that does not unseal fails here, with one line; it
 * is never replaced by a new one, so key files made under it keep their
 * meaning.
 */
int ncrctl_store_is_sealed(const char *store)
{
	const char *slash = strrchr(NCRCTL_SEALED_PATH, '/');

	return !strncmp(store, NCRCTL_SEALED_PATH,
			(size_t)(slash - NCRCTL_SEALED_PATH) + 1);
}

int ncrctl_store_read(const char *path, int sealed,
		      uint8_t key[MASTER_KEY_LEN + 1])
{
	ssize_t n = 0;
	int ret;

	if (sealed)
		return ncrctl_unseal(path, key, MASTER_KEY_LEN + 1);
	ret = ncrctl_read_key_file(path, key, &n);
	return ret ? -ret : (int)n;
}

/*
 * An unfinished rotation (STORE.new beside @store, ncrctl_rotate.c): its
 * new key is set beside the old one (BEGIN), so that key files under
 * either open until "master-key rotate" finishes it.
 */
static int resume_rotation(const char *store, int sealed)
{
	uint8_t key[MASTER_KEY_LEN + 1];
	char next[4096];
	int n, fd, err;

	if ((size_t)snprintf(next, sizeof(next), "%s" NCRCTL_NEW_SUFFIX,
			     store) >= sizeof(next) || access(next, F_OK))
		return EXIT_OK;
	ncrctl_protect(key, sizeof(key));
	n = ncrctl_store_read(next, sealed, key);
	if (n < 0) {
		explicit_bzero(key, sizeof(key));
		return -n;
	}
	fd = ncrctl_open_device();
	err = fd < 0 ? 0 : -ncrlib_master_key_rotate(fd, key, (size_t)n,
						   NCR_MASTER_KEY_ROTATE_BEGIN);
	explicit_bzero(key, sizeof(key));
	if (fd < 0)
		return EXIT_NO_DEVICE;
	close(fd);
	if (err)
		return die(err == EBUSY ? EXIT_KEY_BUSY : EXIT_KERNEL, "%s: the "
			   "kernel refused the new key of the unfinished "
			   "rotation: %s", next, strerror(err));
	printf("%s: unfinished rotation: its new key is set beside the old "
	       "one (finish it with ncrctl master-key rotate)\n", next);
	return EXIT_OK;
}

static int master_key_boot(const char *sealed, const char *plain)
{
	static const char *const elsewhere[] = {
		"/run/credstore.encrypted/" NCRCTL_CRED_NAME,
		"/usr/lib/credstore.encrypted/" NCRCTL_CRED_NAME,
	};
	struct provision first = { .path = sealed };
	int ret;
	size_t i;

	ret = path_state(sealed);
	if (ret < 0)
		return -ret;
	if (ret) {
		ret = load_sealed(sealed);
		return ret ? ret : resume_rotation(sealed, 1);
	}
	ret = path_state(plain);
	if (ret < 0)
		return -ret;
	if (ret) {
		ret = master_key_load(plain);
		return ret ? ret : resume_rotation(plain, 0);
	}
	/* where systemd looks for credentials too: never shadow such a key */
	for (i = 0; i < sizeof(elsewhere) / sizeof(elsewhere[0]); i++)
		if (path_state(elsewhere[i]))
			return die(EXIT_EXISTS, "%s: a master key is kept there; "
				   "move it to %s (a new key is made only where "
				   "there is none)", elsewhere[i], sealed);
	if (ncrctl_tpm_present(5000))
		return master_key_provision(&first);
	return die(EXIT_NO_MASTER, "no master key: neither %s nor %s exists, "
		   "and there is no TPM2 to seal a new one to (ncrctl "
		   "master-key generate %s, or see ncrctl(8))", sealed, plain,
		   plain);
}

/* boot [--sealed PATH] [--plain PATH]: other stores, for tests */
static int master_key_boot_cmd(int argc, char **argv)
{
	const char *sealed = NCRCTL_SEALED_PATH, *plain = NCRCTL_PLAIN_PATH;
	int i;

	for (i = 0; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--sealed"))
			sealed = argv[i + 1];
		else if (!strcmp(argv[i], "--plain"))
			plain = argv[i + 1];
		else
			return master_usage();
	}
	return i == argc ? master_key_boot(sealed, plain) : master_usage();
}

/* A store, as status shows it; 1 if it is there. */
static int print_store(const char *path, const char *what)
{
	char next[4096];

	if (access(path, F_OK)) {
		if (errno == ENOENT)
			return 0;
		printf("master key store: %s: %s\n", path, strerror(errno));
		return 1;
	}
	printf("master key store: %s (%s)\n", path, what);
	snprintf(next, sizeof(next), "%s" NCRCTL_NEW_SUFFIX, path);
	if (access(next, F_OK) == 0)
		printf("rotation: unfinished, the new key is in %s "
		       "(ncrctl master-key rotate)\n", next);
	return 1;
}

void ncrctl_master_print_store(void)
{
	if (!print_store(NCRCTL_SEALED_PATH, "sealed to the TPM2") &&
	    !print_store(NCRCTL_PLAIN_PATH, "plain file"))
		printf("master key store: none\n");
	printf("tpm2: %s\n", ncrctl_tpm_present(0) ? NCRCTL_TPM_DEVICE :
	       "none");
}

int ncrctl_master_main(int argc, char **argv)
{
	const char *cmd = argc >= 2 ? argv[1] : "";

	if (!strcmp(cmd, "generate") && argc == 3)
		return master_key_generate(argv[2]);
	if (!strcmp(cmd, "load") && argc >= 3)
		return master_key_load_cmd(argc - 2, argv + 2);
	if (!strcmp(cmd, "provision"))
		return master_key_provision_cmd(argc - 2, argv + 2);
	if (!strcmp(cmd, "boot"))
		return master_key_boot_cmd(argc - 2, argv + 2);
	return master_usage();
}
