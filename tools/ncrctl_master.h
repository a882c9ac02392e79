/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ncrctl master-key (ncrctl_master.c): its command, and the pieces the
 * status and rotate commands share with it.
 */
#ifndef NCRCTL_MASTER_H
#define NCRCTL_MASTER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "ncrctl_seal.h"

/* "ncrctl master-key ..."; argv[0] is "master-key". */
int ncrctl_master_main(int argc, char **argv);
/* Its synopsis lines, without the program name. */
extern const char ncrctl_master_usage[];

/* status: where the key is kept, the TPM, an unfinished rotation. */
void ncrctl_master_print_store(void);

/* /dev/crypto opened read-write, or -1 after one line on stderr. */
int ncrctl_open_device(void);
/* 0 if the kernel holds a master key, -ENOKEY if not, else -errno. */
int ncrctl_master_key_probe(int fd);
/* Sets the master key; prints "@what: master key set" or one error line. */
int ncrctl_master_set(const char *what, const uint8_t *key, size_t len);

/* A plain key file: root-owned, mode 0600, 16, 24 or 32 bytes. */
int ncrctl_read_key_file(const char *path,
			 uint8_t key[NCRCTL_MASTER_KEY_LEN + 1], ssize_t *len);
/* Creates @path (never overwriting), mode 0600, synced. */
int ncrctl_write_key_file(const char *path, const uint8_t *key, size_t len);
/* Nonzero for a store in the sealed store's directory (else: plain). */
int ncrctl_store_is_sealed(const char *store);
/* The key kept at @path: its length, or minus an exit code after a line. */
int ncrctl_store_read(const char *path, int sealed,
		      uint8_t key[NCRCTL_MASTER_KEY_LEN + 1]);
/* @len bytes from getrandom(). */
int ncrctl_random_key(uint8_t *key, size_t len);

#endif /* NCRCTL_MASTER_H */
