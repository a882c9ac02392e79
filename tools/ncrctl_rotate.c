// SPDX-License-Identifier: GPL-2.0
/*
 * ncrctl master-key rotate [--store PATH] [--backup FILE] [--tpm2-pcrs PCRS]
 *                          FILE|DIR...
 *
 * Replaces the storage master key and re-wraps every key file under the
 * new one, so that no step loses a key if the process is killed:
 *
 *  1. The kernel must hold a master key, the one kept in the store
 *     (NCRCTL_SEALED_PATH if it exists, else NCRCTL_PLAIN_PATH, or
 *     --store; a store outside the sealed store's directory is a plain
 *     file).  A store with STORE.new beside it is an unfinished rotation,
 *     which is resumed with the key in STORE.new (the kernel must hold
 *     one of the two).  Otherwise a new 32-byte key is drawn in locked
 *     memory and written to STORE.new (sealed, or a 0600 file), synced
 *     and read back, and to the --backup file if asked, before the kernel
 *     hears of it.
 *  2. NCR_MASTER_KEY_ROTATE_BEGIN with the new key: the kernel wraps under
 *     it and still unwraps under the old one.
 *  3. Each key file (a DIR: its regular files holding an NCR KEY BLOB PEM
 *     block) is unwrapped, wrapped again, written to a temporary file
 *     beside it with the same owner and mode, synced, read back and
 *     checked to unwrap to the same key, renamed over the file, and the
 *     directory synced.  Only the PEM block changes; the rest of the file
 *     is kept byte for byte.  A file that fails is named in one line and
 *     left as it is, and the rotation does not finish.
 *  4. When every file succeeded: STORE.new is renamed over STORE (directory
 *     synced), then NCR_MASTER_KEY_ROTATE_END forgets the old key.
 *
 * Killed anywhere, a file holds its old blob (which the old key, still in
 * STORE, opens) or its new one (STORE.new); a rerun resumes.  After a
 * reboot, the boot unit loads STORE and then STORE.new with BEGIN.  Killed
 * between 4's rename and END, a rerun finds no STORE.new: it ENDs the
 * finished rotation and starts another.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/ncr.h>
#include <openssl/crypto.h>
#include "keyfile.h"
#include "ncrctl.h"
#include "ncrctl_io.h"
#include "ncrctl_master.h"
#include "ncrctl_pkey.h"
#include "ncrctl_rotate.h"
#include "ncrctl_seal.h"
#include "ncrlib.h"

#define die ncrctl_die
#define DEVICE		NCRCTL_DEVICE
#define KEY_BUF		(NCRCTL_MASTER_KEY_LEN + 1)
#define KEYFILE_MAX	(1 << 20)	/* a larger file is no key file */
#define TMP_SUFFIX	".ncr-rotate"	/* ".NAME.ncr-rotate" beside NAME */

static const char pem_begin[] = "-----BEGIN " NCR_KEYFILE_PEM_LABEL "-----";
static const char pem_end[] = "-----END " NCR_KEYFILE_PEM_LABEL "-----";

struct rotation {
	int fd;				/* /dev/crypto */
	unsigned int rewrapped, current, failed;
	int first_error;		/* exit code of the first failure */
};

struct buf {
	unsigned char *p;
	size_t len;
};

/* A key file's content and, in it, the NCR KEY BLOB block. */
struct keyfile {
	struct buf data;
	size_t start, end;		/* the block, its END line's \n too */
	unsigned char *der;		/* the block's DER (OPENSSL_free) */
	size_t der_len;
	const unsigned char *spki, *blob;	/* into der */
	size_t spki_len, blob_len;
};

static int rotate_usage(void)
{
	ncrctl_print_usage(stderr, "usage:", NCRCTL_ROTATE_USAGE);
	return EXIT_USAGE;
}

static void failed(struct rotation *r, int code)
{
	r->failed++;
	if (!r->first_error)
		r->first_error = code;
}

/* ---- files ---- */

static void buf_free(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = 0;
}

static void keyfile_free(struct keyfile *kf)
{
	buf_free(&kf->data);
	OPENSSL_free(kf->der);
	memset(kf, 0, sizeof(*kf));
}

/* All of @fd, up to KEYFILE_MAX bytes: 0, -EFBIG or -errno. */
static int read_all(int fd, struct buf *b)
{
	size_t cap = 4096;
	unsigned char *q;
	ssize_t n;

	b->len = 0;
	b->p = malloc(cap);
	if (!b->p)
		return -ENOMEM;
	for (;;) {
		if (b->len == cap) {
			if (cap > KEYFILE_MAX)
				break;
			q = realloc(b->p, cap * 2);
			if (!q)
				break;
			b->p = q;
			cap *= 2;
		}
		n = read(fd, b->p + b->len, cap - b->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			buf_free(b);
			return (int)n;
		}
		if (n == 0)
			return b->len > KEYFILE_MAX ? (buf_free(b), -EFBIG) : 0;
		b->len += (size_t)n;
	}
	n = cap > KEYFILE_MAX ? -EFBIG : -ENOMEM;
	buf_free(b);
	return (int)n;
}

/* The first NCR KEY BLOB block of kf->data, at the start of a line. */
static int find_block(struct keyfile *kf)
{
	const unsigned char *p = kf->data.p, *e = p + kf->data.len, *s, *t;

	for (s = memmem(p, kf->data.len, pem_begin, strlen(pem_begin)); s;
	     s = memmem(s + 1, (size_t)(e - s - 1), pem_begin,
			strlen(pem_begin)))
		if (s == p || s[-1] == '\n')
			break;
	if (!s)
		return 0;
	t = memmem(s, (size_t)(e - s), pem_end, strlen(pem_end));
	if (!t)
		return 0;
	t += strlen(pem_end);
	if (t < e && *t == '\r')
		t++;
	if (t < e && *t == '\n')
		t++;
	kf->start = (size_t)(s - p);
	kf->end = (size_t)(t - p);
	return 1;
}

/*
 * Finds and decodes the key file block in kf->data: 1, 0 when there is no
 * such block, or minus an exit code after one line.
 */
static int parse_keyfile(const char *path, struct keyfile *kf)
{
	if (!find_block(kf))
		return 0;
	if (!ncrctl_keyfile_unpem(kf->data.p + kf->start, kf->end - kf->start,
				  &kf->der, &kf->der_len))
		return -die(EXIT_NOT_KEY, "%s: its %s PEM block does not decode "
			    "(damaged?)", path, NCR_KEYFILE_PEM_LABEL);
	if (!ncrp_keyfile_decode(kf->der, kf->der_len, &kf->spki,
				 &kf->spki_len, &kf->blob, &kf->blob_len))
		return -die(EXIT_NOT_KEY, "%s: malformed %s body (damaged?)",
			    path, NCR_KEYFILE_PEM_LABEL);
	return 1;
}

/* ---- the kernel ---- */

/* STORAGE_UNWRAP into a new key object: its handle or minus an exit code. */
static int unwrap(struct rotation *r, const char *path,
		  const unsigned char *blob, size_t len, const char *what)
{
	int k = ncrlib_key_new(r->fd), ret;

	if (k < 0)
		return -die(EXIT_KERNEL, "%s: cannot make a key object: %s",
			    DEVICE, strerror(-k));
	ret = ncrlib_key_storage_unwrap(r->fd, k, blob, len);
	if (!ret)
		return k;
	ncrlib_key_free(r->fd, k);
	if (ret == -EBADMSG)
		return -die(EXIT_REJECTED, "%s: %s opens under neither the old "
			    "nor the new master key (another machine's, or "
			    "damaged)", path, what);
	return -die(ret == -EINVAL ? EXIT_NOT_KEY : EXIT_KERNEL,
		    "%s: %s does not unwrap: %s", path, what, strerror(-ret));
}

/* Both key objects hold the same key (ID, type, algorithm, flags). */
static int same_key(int fd, int a, int b)
{
	struct ncrlib_key_info ia, ib;

	if (ncrlib_key_info(fd, a, &ia) || ncrlib_key_info(fd, b, &ib))
		return 0;
	return ia.type == ib.type && ia.flags == ib.flags &&
	       !strcmp(ia.algo, ib.algo) && ia.id_len == ib.id_len &&
	       !memcmp(ia.id, ib.id, ia.id_len);
}

/* 0 when the kernel's current master key is @key, else -errno (EBUSY). */
static int kernel_key_is(int fd, const uint8_t *key, size_t len)
{
	/* without the rotate attribute: a comparison, as a key is set */
	struct ncr_master_key_set mk = {
		.key = key, .key_size = (uint32_t)len };

	return ioctl(fd, NCRIO_MASTER_KEY_SET, &mk) ? -errno : 0;
}

static int kernel_error(const char *what, int err)
{
	if (err == EPERM)
		return die(EXIT_DENIED, "%s: rotating the master key needs EUID "
			   "0 and CAP_SYS_ADMIN (%s)", DEVICE, strerror(err));
	if (err == ENOKEY)
		return die(EXIT_NO_MASTER, "%s: no master key is set", DEVICE);
	return die(EXIT_KERNEL, "%s: %s: %s", DEVICE, what, strerror(err));
}

/* ---- one key file ---- */

/*
 * Writes @out to a temporary file beside @name (in @dirfd) with @st's
 * owner and mode, synced; reads it back into @back.  Returns EXIT_OK or an
 * exit code after one line; the temporary file is removed on failure.
 */
static int write_temp(int dirfd, const char *tmp, const char *path,
		      const struct stat *st, const struct buf *out,
		      struct keyfile *back)
{
	int fd, ret;

	if (unlinkat(dirfd, tmp, 0) && errno != ENOENT)
		return die(EXIT_FILE_IO, "%s: cannot remove the stale %s beside "
			   "it: %s", path, tmp, strerror(errno));
	fd = openat(dirfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0600);
	if (fd < 0)
		return die(EXIT_FILE_IO, "%s: cannot create %s beside it: %s",
			   path, tmp, strerror(errno));
	if (fchown(fd, st->st_uid, st->st_gid) ||
	    fchmod(fd, st->st_mode & 07777) ||
	    ncrctl_write_all(fd, out->p, out->len) || fsync(fd) ||
	    lseek(fd, 0, SEEK_SET)) {
		ret = die(EXIT_FILE_IO, "%s: cannot write %s beside it: %s",
			  path, tmp, strerror(errno));
		goto fail;
	}
	ret = read_all(fd, &back->data);
	if (ret) {
		ret = die(EXIT_FILE_IO, "%s: cannot read back %s: %s", path, tmp,
			  strerror(-ret));
		goto fail;
	}
	if (back->data.len != out->len ||
	    memcmp(back->data.p, out->p, out->len)) {
		ret = die(EXIT_FILE_IO, "%s: %s reads back other bytes than "
			  "were written", path, tmp);
		goto fail;
	}
	close(fd);
	return EXIT_OK;
fail:
	close(fd);
	unlinkat(dirfd, tmp, 0);
	return ret;
}

/* Whether @name in @dirfd is still the file @st describes. */
static int unchanged(int dirfd, const char *name, const struct stat *st)
{
	struct stat now;

	return !fstatat(dirfd, name, &now, AT_SYMLINK_NOFOLLOW) &&
	       now.st_dev == st->st_dev && now.st_ino == st->st_ino &&
	       now.st_size == st->st_size &&
	       now.st_mtim.tv_sec == st->st_mtim.tv_sec &&
	       now.st_mtim.tv_nsec == st->st_mtim.tv_nsec;
}

/*
 * The key file @kf (@name in @dirfd, read from @st) re-wrapped: key
 * object @a holds its key.  Returns EXIT_OK or an exit code after a line.
 */
static int rewrap(struct rotation *r, int dirfd, const char *name,
		  const char *path, const struct stat *st,
		  const struct keyfile *kf, int a)
{
	size_t cap = kf->blob_len + 64, der_len = 0, pem_len = 0;
	struct keyfile back = { 0 };
	struct buf out = { 0 };
	unsigned char *blob = malloc(cap), *der = NULL;
	char tmp[NAME_MAX + 1], *pem = NULL;
	int b = -1, ret;
	long n;

	if (!blob) {
		ret = die(EXIT_FILE_IO, "%s: out of memory", path);
		goto out;
	}
	n = ncrlib_key_storage_wrap(r->fd, a, blob, cap);
	if (n < 0) {
		ret = die(EXIT_KERNEL, "%s: cannot wrap it under the new master "
			  "key: %s", path, strerror((int)-n));
		goto out;
	}
	/* RFC 5649 is deterministic: the same blob is the same key */
	if ((size_t)n == kf->blob_len && !memcmp(blob, kf->blob, (size_t)n)) {
		printf("%s: already under the new master key\n", path);
		r->current++;
		ret = EXIT_OK;
		goto out;
	}
	if (!ncrp_keyfile_encode(kf->spki, kf->spki_len, blob, (size_t)n,
				 &der, &der_len) ||
	    !ncrctl_keyfile_pem(der, der_len, &pem, &pem_len)) {
		ret = die(EXIT_FILE_IO, "%s: out of memory", path);
		goto out;
	}
	/* the file around the block, byte for byte; its last line break */
	if (kf->data.p[kf->end - 1] != '\n' && pem_len &&
	    pem[pem_len - 1] == '\n')
		pem_len--;
	out.len = kf->start + pem_len + (kf->data.len - kf->end);
	out.p = malloc(out.len);
	if (!out.p) {
		ret = die(EXIT_FILE_IO, "%s: out of memory", path);
		goto out;
	}
	memcpy(out.p, kf->data.p, kf->start);
	memcpy(out.p + kf->start, pem, pem_len);
	memcpy(out.p + kf->start + pem_len, kf->data.p + kf->end,
	       kf->data.len - kf->end);

	if ((size_t)snprintf(tmp, sizeof(tmp), ".%s" TMP_SUFFIX, name) >=
	    sizeof(tmp)) {
		ret = die(EXIT_FILE_IO, "%s: name too long for a temporary file "
			  "beside it", path);
		goto out;
	}
	ret = write_temp(dirfd, tmp, path, st, &out, &back);
	if (ret)
		goto out;
	/* what is on disk now opens, to the same key */
	ret = parse_keyfile(path, &back);
	if (ret == 1) {
		b = unwrap(r, path, back.blob, back.blob_len, "the new blob");
		ret = b < 0 ? -b : EXIT_OK;
	} else if (ret == 0) {
		ret = die(EXIT_FILE_IO, "%s: the new file has no key block",
			  path);
	} else {
		ret = -ret;
	}
	if (!ret && !same_key(r->fd, a, b))
		ret = die(EXIT_KERNEL, "%s: the new blob holds another key",
			  path);
	if (!ret && !unchanged(dirfd, name, st))
		ret = die(EXIT_FILE_IO, "%s: changed while it was re-wrapped; "
			  "left as it is", path);
	if (!ret && renameat(dirfd, tmp, dirfd, name))
		ret = die(EXIT_FILE_IO, "%s: cannot rename %s over it: %s", path,
			  tmp, strerror(errno));
	if (ret) {
		unlinkat(dirfd, tmp, 0);
		goto out;
	}
	if (fsync(dirfd))
		ret = die(EXIT_FILE_IO, "%s: cannot sync its directory: %s",
			  path, strerror(errno));
	else
		printf("%s: re-wrapped under the new master key\n", path);
	r->rewrapped++;		/* renamed: the new blob is in place */
out:
	ncrlib_key_free(r->fd, b);
	keyfile_free(&back);
	buf_free(&out);
	OPENSSL_free(pem);
	free(der);
	free(blob);
	return ret;
}

/*
 * The key file @name in @dirfd (@path in messages).  Not a regular file,
 * or no NCR KEY BLOB block: skipped in a directory, an error when @named.
 */
static void rotate_at(struct rotation *r, int dirfd, const char *name,
		      const char *path, int named)
{
	struct keyfile kf = { 0 };
	struct stat st;
	int fd, a = -1, ret;

	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
		    O_NONBLOCK);
	if (fd < 0) {
		if (errno == ELOOP)
			ret = die(EXIT_FILE_IO, "%s: is a symbolic link; give "
				  "the key file itself", path);
		else
			ret = die(EXIT_FILE_IO, "%s: cannot open: %s", path,
				  strerror(errno));
		failed(r, ret);
		return;
	}
	ret = fstat(fd, &st) ? -errno : 0;
	if (!ret && !S_ISREG(st.st_mode)) {
		close(fd);
		if (named)
			failed(r, die(EXIT_NOT_KEY, "%s: not a regular file",
				      path));
		return;
	}
	if (!ret)
		ret = read_all(fd, &kf.data);
	close(fd);
	if (ret == -EFBIG && !named)
		return;
	if (ret) {
		failed(r, die(ret == -EFBIG ? EXIT_NOT_KEY : EXIT_FILE_IO,
			      "%s: cannot read: %s", path, strerror(-ret)));
		return;
	}
	ret = parse_keyfile(path, &kf);
	if (ret == 0 && named)
		ret = -die(EXIT_NOT_KEY, "%s: not an ncr key file (no %s PEM "
			   "block)", path, NCR_KEYFILE_PEM_LABEL);
	if (ret == 1) {
		a = unwrap(r, path, kf.blob, kf.blob_len, "its blob");
		ret = a < 0 ? a : -rewrap(r, dirfd, name, path, &st, &kf, a);
	}
	if (ret < 0)
		failed(r, -ret);
	ncrlib_key_free(r->fd, a);
	keyfile_free(&kf);
}

static int is_temp(const char *name)
{
	size_t n = strlen(name), s = strlen(TMP_SUFFIX);

	return name[0] == '.' && n > s + 1 && !strcmp(name + n - s, TMP_SUFFIX);
}

/* Every regular file of @path that is a key file; stale temporaries go. */
static void rotate_dir(struct rotation *r, const char *path)
{
	struct dirent **list;
	char child[PATH_MAX];
	int dirfd, n, i;

	dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	n = dirfd < 0 ? -1 : scandir(path, &list, NULL, alphasort);
	if (n < 0) {
		failed(r, die(EXIT_FILE_IO, "%s: cannot read the directory: %s",
			      path, strerror(errno)));
		if (dirfd >= 0)
			close(dirfd);
		return;
	}
	for (i = 0; i < n; i++) {
		const char *name = list[i]->d_name;
		struct stat st;

		if (!strcmp(name, ".") || !strcmp(name, ".."))
			;
		else if (is_temp(name))		/* a killed run's */
			unlinkat(dirfd, name, 0);
		else if ((size_t)snprintf(child, sizeof(child), "%s/%s", path,
					  name) >= sizeof(child))
			failed(r, die(EXIT_FILE_IO, "%s/%s: path too long", path,
				      name));
		else if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
			failed(r, die(EXIT_FILE_IO, "%s: %s", child,
				      strerror(errno)));
		else if (S_ISREG(st.st_mode))
			rotate_at(r, dirfd, name, child, 0);
		else if (S_ISLNK(st.st_mode) || S_ISDIR(st.st_mode))
			/* it may lead to a key file: END would orphan it */
			failed(r, die(EXIT_USAGE, "%s: a %s is not followed; "
				      "name the key files it leads to", child,
				      S_ISDIR(st.st_mode) ? "subdirectory" :
				      "symbolic link"));
		free(list[i]);
	}
	free(list);
	close(dirfd);
}

/* A FILE or a DIR argument. */
static void rotate_path(struct rotation *r, const char *path)
{
	char d[PATH_MAX], b[PATH_MAX];
	struct stat st;
	int dirfd;

	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		rotate_dir(r, path);
		return;
	}
	if ((size_t)snprintf(d, sizeof(d), "%s", path) >= sizeof(d)) {
		failed(r, die(EXIT_FILE_IO, "%s: path too long", path));
		return;
	}
	snprintf(b, sizeof(b), "%s", path);
	dirfd = open(dirname(d), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		failed(r, die(EXIT_FILE_IO, "%s: cannot open its directory: %s",
			      path, strerror(errno)));
		return;
	}
	rotate_at(r, dirfd, basename(b), path, 1);
	close(dirfd);
}

/* ---- the stores ---- */

/*
 * A new key in @next, beside @store: written, synced and read back (the
 * TPM must give it back) before anything depends on it.
 */
static int new_key(const char *store, const char *next, int sealed,
		   const char *pcrs, uint8_t key[KEY_BUF])
{
	uint8_t back[KEY_BUF];
	char tmp[PATH_MAX];
	int ret, n;

	ncrctl_protect(back, sizeof(back));
	ret = ncrctl_random_key(key, NCRCTL_MASTER_KEY_LEN);
	if (ret)
		return ret;
	if (sealed) {
		ret = ncrctl_seal(next, key, NCRCTL_MASTER_KEY_LEN, pcrs);
	} else {
		/* a partial file never takes the name STORE.new */
		if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", next) >=
		    sizeof(tmp))
			return die(EXIT_USAGE, "%s: path too long", next);
		if (unlink(tmp) && errno != ENOENT)
			return die(EXIT_FILE_IO, "%s: cannot remove: %s", tmp,
				   strerror(errno));
		ret = ncrctl_write_key_file(tmp, key, NCRCTL_MASTER_KEY_LEN);
		if (!ret && (rename(tmp, next) || ncrctl_fsync_dir_of(next))) {
			ret = die(EXIT_FILE_IO, "%s: cannot rename %s to it: %s",
				  next, tmp, strerror(errno));
			unlink(tmp);
		}
	}
	if (ret)
		return ret;
	n = ncrctl_store_read(next, sealed, back);
	if (n < 0)
		ret = -n;
	else if (n != NCRCTL_MASTER_KEY_LEN ||
		 memcmp(back, key, NCRCTL_MASTER_KEY_LEN))
		ret = die(sealed ? EXIT_TPM : EXIT_FILE_IO, "%s: reads back "
			  "another key than was written", next);
	explicit_bzero(back, sizeof(back));
	if (ret)
		unlink(next);	/* the kernel never saw it */
	else
		printf("%s: new %d-bit master key stored beside %s\n", next,
		       NCRCTL_MASTER_KEY_LEN * 8, store);
	return ret;
}

/* Only one rotation at a time: a lock on the store's directory. */
static int lock_store(const char *store, int *fd)
{
	char dir[PATH_MAX];

	if ((size_t)snprintf(dir, sizeof(dir), "%s", store) >= sizeof(dir))
		return die(EXIT_USAGE, "%s: path too long", store);
	*fd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*fd < 0)
		return die(EXIT_FILE_IO, "%s: cannot open its directory: %s",
			   store, strerror(errno));
	if (flock(*fd, LOCK_EX | LOCK_NB))
		return die(errno == EWOULDBLOCK ? EXIT_KEY_BUSY : EXIT_FILE_IO,
			   "%s: another master-key rotate is running (%s)",
			   store, strerror(errno));
	return EXIT_OK;
}

struct keys {
	uint8_t old[KEY_BUF], new[KEY_BUF];
	int old_len, new_len;
};

/*
 * The new key: STORE.new's when a rotation is unfinished (the kernel holds
 * the old or the new one), else a new one (the kernel holds the old one;
 * a rotation whose store was replaced already is ENDed first).
 */
static int prepare(struct rotation *r, const char *store, const char *next,
		   const char *pcrs, struct keys *k)
{
	int sealed = ncrctl_store_is_sealed(store), err;

	k->old_len = ncrctl_store_read(store, sealed, k->old);
	if (k->old_len < 0)
		return -k->old_len;
	if (access(next, F_OK) == 0) {
		k->new_len = ncrctl_store_read(next, sealed, k->new);
		/* (its one line is printed; key files may need that key) */
		if (k->new_len < 0)
			return -k->new_len;
		err = -kernel_key_is(r->fd, k->new, (size_t)k->new_len);
		if (err == EBUSY)
			err = -kernel_key_is(r->fd, k->old,
					     (size_t)k->old_len);
		if (err == EBUSY)
			return die(EXIT_KEY_BUSY, "%s: the kernel holds neither "
				   "the key of %s nor that of %s", DEVICE,
				   store, next);
		if (err)
			return kernel_error("comparing the master key", err);
		printf("%s: resuming the unfinished rotation (%s)\n", store,
		       next);
		return EXIT_OK;
	}
	if (errno != ENOENT)
		return die(EXIT_FILE_IO, "%s: %s", next, strerror(errno));
	err = -kernel_key_is(r->fd, k->old, (size_t)k->old_len);
	if (err == EBUSY)
		return die(EXIT_KEY_BUSY, "%s: the kernel's master key is not "
			   "the one in %s; rotate with the store it was loaded "
			   "from (--store)", DEVICE, store);
	if (!err)
		err = -ncrlib_master_key_rotate(r->fd, k->old,
						(size_t)k->old_len,
						NCR_MASTER_KEY_ROTATE_END);
	if (err)
		return kernel_error("ending the previous rotation", err);
	k->new_len = NCRCTL_MASTER_KEY_LEN;
	return new_key(store, next, sealed, pcrs, k->new);
}

/*
 * A plain copy of the new key at @backup (for offline storage), before the
 * kernel uses it; a resumed rotation accepts the copy it made before.
 */
static int backup_key(const char *backup, const struct keys *k)
{
	uint8_t cur[KEY_BUF];
	ssize_t n = 0;
	int ret;

	if (access(backup, F_OK) == 0) {
		ncrctl_protect(cur, sizeof(cur));
		ret = ncrctl_read_key_file(backup, cur, &n);
		if (!ret && (n != k->new_len ||
			     memcmp(cur, k->new, (size_t)n)))
			ret = die(EXIT_EXISTS, "%s: exists and holds another "
				  "key; refusing to overwrite it", backup);
		explicit_bzero(cur, sizeof(cur));
		return ret;
	}
	ret = ncrctl_write_key_file(backup, k->new, (size_t)k->new_len);
	if (!ret && ncrctl_fsync_dir_of(backup))
		ret = die(EXIT_FILE_IO, "%s: cannot sync its directory: %s",
			  backup, strerror(errno));
	if (!ret)
		printf("%s: backup copy of the new master key (mode 0600)\n",
		       backup);
	return ret;
}

static int begin(struct rotation *r, const char *next, const struct keys *k)
{
	int err = -ncrlib_master_key_rotate(r->fd, k->new, (size_t)k->new_len,
					    NCR_MASTER_KEY_ROTATE_BEGIN);

	if (err == EBUSY)
		return die(EXIT_KEY_BUSY, "%s: the kernel refuses to rotate to "
			   "the key of %s: it is rotating to another key, or "
			   "ncr.ko predates master key rotation", DEVICE, next);
	return err ? kernel_error("beginning the rotation", err) : EXIT_OK;
}

/* Every file done: the new key replaces the old in the store, then END. */
static int finish(struct rotation *r, const char *store, const char *next,
		  const struct keys *k)
{
	int err;

	if (r->failed)
		return die(r->first_error, "rotation not finished: %u key "
			   "file%s failed and %s left as %s; the old key stays "
			   "usable until they are fixed or moved away and "
			   "rotate runs again", r->failed,
			   r->failed == 1 ? "" : "s",
			   r->failed == 1 ? "was" : "were",
			   r->failed == 1 ? "it was" : "they were");
	if (rename(next, store) || ncrctl_fsync_dir_of(store))
		return die(EXIT_FILE_IO, "%s: cannot rename %s over it: %s",
			   store, next, strerror(errno));
	err = -ncrlib_master_key_rotate(r->fd, k->new, (size_t)k->new_len,
					NCR_MASTER_KEY_ROTATE_END);
	if (err)
		return kernel_error("ending the rotation", err);
	printf("%s: master key rotated: %u key file%s re-wrapped, %u already "
	       "under the new key\n", store, r->rewrapped,
	       r->rewrapped == 1 ? "" : "s", r->current);
	return EXIT_OK;
}

static int rotate(const char *store, const char *pcrs, const char *backup,
		  int n, char **paths)
{
	struct rotation r = { .fd = -1 };
	char next[PATH_MAX];
	struct keys k;
	int lock = -1, ret, i;

	ncrctl_protect(&k, sizeof(k));
	memset(&k, 0, sizeof(k));
	if ((size_t)snprintf(next, sizeof(next), "%s" NCRCTL_NEW_SUFFIX,
			     store) >= sizeof(next))
		return die(EXIT_USAGE, "%s: path too long", store);
	if (!ncrctl_pkey_init())
		return die(EXIT_KERNEL, "cannot initialise libcrypto");
	r.fd = ncrctl_open_device();
	if (r.fd < 0)
		return EXIT_NO_DEVICE;
	ret = ncrctl_master_key_probe(r.fd);
	if (ret == -ENOKEY) {
		ret = die(EXIT_NO_MASTER, "%s: no master key is set; load it "
			  "first (systemctl start ncr-master-key, or ncrctl "
			  "master-key load FILE)", DEVICE);
		goto out;
	}
	/* the probe wraps an empty key: EINVAL once a master key is set */
	if (ret < 0 && ret != -EINVAL) {
		ret = kernel_error("cannot tell whether a master key is set",
				   -ret);
		goto out;
	}
	ret = lock_store(store, &lock);
	if (!ret)
		ret = prepare(&r, store, next, pcrs, &k);
	if (!ret && backup)
		ret = backup_key(backup, &k);
	if (!ret)
		ret = begin(&r, next, &k);
	if (ret)
		goto out;
	for (i = 0; i < n; i++)
		rotate_path(&r, paths[i]);
	ret = finish(&r, store, next, &k);
out:
	explicit_bzero(&k, sizeof(k));
	if (lock >= 0)
		close(lock);
	close(r.fd);
	return ret;
}

int ncrctl_rotate_main(int argc, char **argv)
{
	const char *store = NULL, *pcrs = NULL, *backup = NULL;
	int i = 1;

	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (i + 1 >= argc)
			return rotate_usage();
		if (!strcmp(argv[i], "--store") && argv[i + 1][0])
			store = argv[i + 1];
		else if (!strcmp(argv[i], "--backup") && argv[i + 1][0])
			backup = argv[i + 1];
		else if (!strcmp(argv[i], "--tpm2-pcrs") &&
			 strlen(argv[i + 1]) < 40)
			pcrs = argv[i + 1];
		else
			return rotate_usage();
		i += 2;
	}
	if (i == argc)
		return rotate_usage();
	if (!store)
		store = access(NCRCTL_SEALED_PATH, F_OK) == 0 ?
			NCRCTL_SEALED_PATH : NCRCTL_PLAIN_PATH;
	return rotate(store, pcrs, backup, argc - i, argv + i);
}
