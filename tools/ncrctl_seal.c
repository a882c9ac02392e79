// SPDX-License-Identifier: GPL-2.0
/*
 * Sealing the storage master key to this machine's TPM2 with systemd-creds
 * (--with-key=tpm2: the TPM's storage root key wraps it, so the blob opens
 * on this TPM only).  The key reaches systemd-creds on a pipe and comes
 * back on a pipe into memory that is locked and wiped; systemd-creds'
 * own messages are read from a third pipe so that a failure is reported as
 * one line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "ncrctl.h"
#include "ncrctl_io.h"
#include "ncrctl_seal.h"

#define die ncrctl_die
#define CREDS		"systemd-creds"
#define MSG_MAX		512

static char *const creds_env[] = {
	"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
	"LANG=C", "SYSTEMD_LOG_LEVEL=err", NULL,
};

void ncrctl_protect(void *key, size_t len)
{
	/* systemd-creds, started after this, inherits the limit: exec makes
	 * it dumpable again, and it holds the key too */
	static const struct rlimit no_core = { 0, 0 };

	/* best effort: a failure leaves the key swappable, not exposed */
	(void)mlock(key, len);
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	(void)setrlimit(RLIMIT_CORE, &no_core);
}

int ncrctl_tpm_present(int wait_ms)
{
	struct timespec ts = { 0, 100 * 1000 * 1000 };

	for (;;) {
		if (access(NCRCTL_TPM_DEVICE, F_OK) == 0)
			return 1;
		if (wait_ms <= 0)
			return 0;
		nanosleep(&ts, NULL);
		wait_ms -= 100;
	}
}

struct child {
	pid_t pid;
	int in, out, err;	/* our ends: its stdin, stdout, stderr */
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Starts systemd-creds with @argv, its three standard streams on pipes. */
static int spawn_creds(char *const argv[], struct child *c)
{
	int p[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } };
	posix_spawn_file_actions_t fa;
	int i, err;

	for (i = 0; i < 3; i++)
		if (pipe2(p[i], O_CLOEXEC))
			goto fail;
	if (posix_spawn_file_actions_init(&fa))
		goto fail;
	posix_spawn_file_actions_adddup2(&fa, p[0][0], 0);
	posix_spawn_file_actions_adddup2(&fa, p[1][1], 1);
	posix_spawn_file_actions_adddup2(&fa, p[2][1], 2);
	err = posix_spawnp(&c->pid, CREDS, &fa, NULL, argv, creds_env);
	posix_spawn_file_actions_destroy(&fa);
	close(p[0][0]);
	close(p[1][1]);
	close(p[2][1]);
	c->in = p[0][1];
	c->out = p[1][0];
	c->err = p[2][0];
	if (!err)
		return EXIT_OK;
	close_fd(&c->in);
	close_fd(&c->out);
	close_fd(&c->err);
	if (err == ENOENT)
		return die(EXIT_TPM, CREDS " not found (it comes with systemd "
			   "252 or later)");
	return die(EXIT_TPM, "cannot run " CREDS ": %s", strerror(err));
fail:
	err = errno;
	for (i = 0; i < 3; i++) {
		close_fd(&p[i][0]);
		close_fd(&p[i][1]);
	}
	return die(EXIT_TPM, "cannot run " CREDS ": %s", strerror(err));
}

/*
 * Collects systemd-creds' messages into @msg (its last non-empty line) and
 * its exit status; nonzero if it failed.
 */
static int finish_creds(struct child *c, char msg[MSG_MAX])
{
	char buf[4096], *line, *end;
	size_t have = 0;
	ssize_t n;
	int status;

	/* the last 4 KiB of its messages; the last non-empty line of them */
	for (;;) {
		if (have == sizeof(buf) - 1) {
			memmove(buf, buf + have / 2, have - have / 2);
			have -= have / 2;
		}
		n = read(c->err, buf + have, sizeof(buf) - 1 - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
	}
	buf[have] = 0;
	msg[0] = 0;
	for (line = strtok_r(buf, "\n", &end); line;
	     line = strtok_r(NULL, "\n", &end))
		snprintf(msg, MSG_MAX, "%s", line);
	close_fd(&c->err);
	close_fd(&c->in);
	close_fd(&c->out);
	while (waitpid(c->pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (!msg[0])
		snprintf(msg, MSG_MAX, CREDS " exited with status %d",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return !WIFEXITED(status) || WEXITSTATUS(status);
}

static int fsync_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = fsync(fd);
	close(fd);
	return ret;
}

int ncrctl_seal(const char *path, const uint8_t *key, size_t len,
		const char *pcrs)
{
	char tmp[PATH_MAX], pcr_arg[64], msg[MSG_MAX], dir[PATH_MAX];
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	char *argv[8];
	struct child c;
	int a = 0, ret;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp))
		return die(EXIT_USAGE, "%s: path too long", path);
	argv[a++] = CREDS;
	argv[a++] = "encrypt";
	argv[a++] = "--with-key=tpm2";
	argv[a++] = "--name=" NCRCTL_CRED_NAME;
	/* without it, systemd-creds' default: PCR 7 (systemd 252 cannot
	 * unseal what it sealed to an empty PCR list) */
	if (pcrs) {
		snprintf(pcr_arg, sizeof(pcr_arg), "--tpm2-pcrs=%s", pcrs);
		argv[a++] = pcr_arg;
	}
	argv[a++] = "-";
	argv[a++] = tmp;
	argv[a] = NULL;
	if (!ncrctl_tpm_present(0))
		return die(EXIT_TPM, "%s: cannot seal: this machine has no TPM2 "
			   "(no %s)", path, NCRCTL_TPM_DEVICE);
	snprintf(dir, sizeof(dir), "%s", path);
	if (mkdir(dirname(dir), 0700) && errno != EEXIST)
		return die(EXIT_FILE_IO, "%s: cannot create its directory: %s",
			   path, strerror(errno));
	unlink(tmp);		/* a leftover of an interrupted seal */
	ret = spawn_creds(argv, &c);
	if (ret)
		return ret;
	/* systemd-creds may exit before reading: EPIPE, not a silent death */
	sigaction(SIGPIPE, &ign, &old);
	if (ncrctl_write_all(c.in, key, len))
		kill(c.pid, SIGTERM);
	close_fd(&c.in);
	sigaction(SIGPIPE, &old, NULL);
	if (finish_creds(&c, msg)) {
		unlink(tmp);
		return die(EXIT_TPM, "%s: the TPM did not seal the key: %s",
			   path, msg);
	}
	if (chmod(tmp, 0600) || fsync_path(tmp) || rename(tmp, path) ||
	    ncrctl_fsync_dir_of(path)) {
		ret = errno;
		unlink(tmp);
		return die(EXIT_FILE_IO, "%s: cannot write: %s", path,
			   strerror(ret));
	}
	return EXIT_OK;
}

int ncrctl_unseal(const char *path, uint8_t *key, size_t cap)
{
	char *argv[] = { CREDS, "decrypt", "--name=" NCRCTL_CRED_NAME,
			 (char *)path, "-", NULL };
	char msg[MSG_MAX];
	struct child c;
	ssize_t n;
	int ret;

	if (access(path, R_OK))
		return -die(EXIT_FILE_IO, "%s: cannot read: %s", path,
			    strerror(errno));
	if (!ncrctl_tpm_present(15000))
		return -die(EXIT_TPM, "%s: sealed to a TPM2, but this machine "
			    "has none (no %s); key files are untouched", path,
			    NCRCTL_TPM_DEVICE);
	ret = spawn_creds(argv, &c);
	if (ret)
		return -ret;
	close_fd(&c.in);
	n = ncrctl_read_full(c.out, key, cap);
	if (finish_creds(&c, msg) || n < 0) {
		explicit_bzero(key, cap);
		return -die(EXIT_TPM, "%s: this machine's TPM cannot unseal it "
			    "(a cleared TPM, a key sealed on another machine, "
			    "or changed PCRs): %s; key files are untouched",
			    path, msg);
	}
	if (n != 16 && n != 24 && n != 32) {
		explicit_bzero(key, cap);
		return -die(EXIT_BAD_SIZE, "%s: unsealed %zd bytes; a master "
			    "key is 16, 24 or 32 bytes", path, n);
	}
	return (int)n;
}
