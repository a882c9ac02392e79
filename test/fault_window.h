/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault injection confined to a test program's ioctls.  With
 * NCR_FAULT_IOCTLS set in the environment (test/fuzz/debug-run), every
 * ioctl() of the including file runs with the calling thread's
 * /proc/thread-self/make-it-fail set, so that failslab and fail_page_alloc
 * (task-filter Y) hit the module's allocations and not the dynamic loader's,
 * the libc's or a page fault of the program's own code.  Without the
 * variable ioctl() is the plain call.  Include after <sys/ioctl.h>.
 */
#ifndef NCR_FAULT_WINDOW_H
#define NCR_FAULT_WINDOW_H

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Set by a test to repeat a call without injection (single-threaded use). */
static int fw_suspended;

/* -1, or the open make-it-fail of this thread with injection switched on. */
static inline int fw_begin(void)
{
	static int enabled = -1;
	int fd, e = errno;

	if (enabled < 0) {
		enabled = getenv("NCR_FAULT_IOCTLS") != NULL;
		/* no page of the program's own faults in inside the window */
		if (enabled)
			(void)mlockall(MCL_CURRENT | MCL_FUTURE);
	}
	if (!enabled || fw_suspended)
		return -1;
	/* opened per call: a forked child must not switch its parent's */
	fd = open("/proc/thread-self/make-it-fail", O_WRONLY | O_CLOEXEC);
	if (fd >= 0 && pwrite(fd, "1", 1, 0) != 1) {
		close(fd);
		fd = -1;
	}
	errno = e;
	return fd;
}

static inline void fw_end(int fd)
{
	int e = errno, tries;

	if (fd < 0)
		return;
	for (tries = 0; pwrite(fd, "0", 1, 0) != 1; tries++)
		if (tries > 10000)
			abort();	/* the rest of the test would run faulty */
	close(fd);
	errno = e;
}

#define ioctl(fd, req, ...) ({						\
	int fw_fd_ = fw_begin();					\
	int fw_r_ = (ioctl)((fd), (req), ##__VA_ARGS__);		\
	fw_end(fw_fd_);							\
	fw_r_;								\
})

#endif /* NCR_FAULT_WINDOW_H */
