// SPDX-License-Identifier: GPL-2.0
/*
 * The process-wide /dev/crypto descriptor, and the ioctl every call uses.
 *
 * Kernel key and session handles live in the namespace of one open file
 * description, so the provider and ncrctl's key commands use one
 * descriptor.  After fork() the child keeps it on purpose: it shares the
 * open file description and thus the namespace, so keys loaded before the
 * fork (nginx master -> workers) stay valid in the child.  Reopening would
 * lose them.  O_CLOEXEC keeps the namespace out of exec'ed programs.
 *
 * The open is lazy and retried while it fails, so the provider loads
 * without the device and starts working once the module is loaded.
 */
#define _GNU_SOURCE	/* secure_getenv */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "ncrlib.h"

static pthread_mutex_t dev_lock = PTHREAD_MUTEX_INITIALIZER;
static int dev_fd = -1;
static int dev_errno = ENOENT;	/* why dev_fd is -1 */

static const char *dev_path(void)
{
	/* For tests: another node (ignored in setuid/setgid programs). */
	const char *p = secure_getenv("NCR_DEVICE");

	return p != NULL && *p != '\0' ? p : "/dev/crypto";
}

static int dev_get(void)
{
	int fd;

	fd = __atomic_load_n(&dev_fd, __ATOMIC_ACQUIRE);
	if (fd >= 0)
		return fd;
	pthread_mutex_lock(&dev_lock);
	if (dev_fd < 0) {
		fd = open(dev_path(), O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			dev_errno = errno;
		} else {
			dev_errno = 0;
			__atomic_store_n(&dev_fd, fd, __ATOMIC_RELEASE);
		}
	}
	fd = dev_fd;
	pthread_mutex_unlock(&dev_lock);
	return fd;
}

int ncrlib_dev_status(void)
{
	int err;

	if (dev_get() >= 0)
		return 0;
	pthread_mutex_lock(&dev_lock);
	err = dev_errno;
	pthread_mutex_unlock(&dev_lock);
	return err != 0 ? err : ENOENT;
}

int ncrlib_dev_fd(void)
{
	int fd = dev_get(), err;

	if (fd >= 0)
		return fd;
	err = ncrlib_dev_status();	/* it may open the device now */
	return err ? -err : dev_get();
}

long ncrlib_ioctl(int fd, unsigned long req, void *arg)
{
	long r;

	if (fd < 0)
		return fd;
	do {
		r = ioctl(fd, req, arg);
	} while (r < 0 && errno == EINTR);
	return r < 0 ? -errno : r;
}

long ncrlib_attrs_ioctl(int fd, unsigned long req, struct ncrlib_attrs *a)
{
	long r = ncrlib_attrs_end(a);

	return r ? r : ncrlib_ioctl(fd, req, a->buf);
}

long ncrlib_attrs_call(int fd, unsigned long req, struct ncrlib_attrs *a)
{
	long r = ncrlib_attrs_ioctl(fd, req, a);

	ncrlib_attrs_free(a);
	return r;
}
