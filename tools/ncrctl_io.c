// SPDX-License-Identifier: GPL-2.0
/* Whole reads and writes, and a directory's fsync (ncrctl_io.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>
#include "ncrctl_io.h"

int ncrctl_write_all(int fd, const void *buf, size_t n)
{
	const unsigned char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

ssize_t ncrctl_read_full(int fd, void *buf, size_t cap)
{
	unsigned char *p = buf;
	size_t got = 0;

	while (got < cap) {
		ssize_t r = read(fd, p + got, cap - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

int ncrctl_fsync_dir_of(const char *path)
{
	char dir[PATH_MAX];
	int fd, ret;

	if ((size_t)snprintf(dir, sizeof(dir), "%s", path) >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ret = fsync(fd);
	close(fd);
	return ret;
}
