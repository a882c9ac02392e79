/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whole reads and writes, and syncing a file's directory (ncrctl_io.c):
 * what every part of ncrctl that writes key files or master keys needs.
 */
#ifndef NCRCTL_IO_H
#define NCRCTL_IO_H

#include <stddef.h>
#include <sys/types.h>

/* Writes all @n bytes (retrying EINTR and short writes); 0 or -1 (errno). */
int ncrctl_write_all(int fd, const void *p, size_t n);
/* Reads until EOF or @cap bytes; the count, or -1 (errno). */
ssize_t ncrctl_read_full(int fd, void *buf, size_t cap);
/* fsync() of @path's directory, so that a rename there lasts; 0 or -1. */
int ncrctl_fsync_dir_of(const char *path);

#endif /* NCRCTL_IO_H */
