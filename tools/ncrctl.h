/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of ncrctl share: the exit codes (one per failure class,
 * documented in ncrctl.8) and the one-line error report.
 */
#ifndef NCRCTL_H
#define NCRCTL_H

#include <stdio.h>

#define NCRCTL_NAME	"ncrctl"
#define NCRCTL_DEVICE	"/dev/crypto"

enum {
	EXIT_OK = 0,
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_EXISTS = 3,	/* the output file already exists */
	EXIT_FILE_IO = 4,	/* cannot create, read or write a file */
	EXIT_INSECURE = 5,	/* load: not a root-owned 0600 regular file */
	EXIT_BAD_SIZE = 6,	/* load: not 16, 24 or 32 bytes */
	EXIT_NO_DEVICE = 7,	/* module not loaded / /dev/crypto unusable */
	EXIT_DENIED = 8,	/* kernel: EPERM (needs EUID 0 + CAP_SYS_ADMIN) */
	EXIT_KEY_BUSY = 9,	/* kernel: a different master key is set */
	EXIT_KERNEL = 10,	/* kernel refused for another reason */
	EXIT_RANDOM = 11,	/* getrandom() failed */
	EXIT_NO_MASTER = 12,	/* no storage master key is set */
	EXIT_NOT_KEY = 13,	/* key: input is not a (ncr) private key */
	EXIT_PASSPHRASE = 14,	/* key import: passphrase missing or wrong */
	EXIT_UNSUPPORTED = 15,	/* key import: algorithm the driver lacks */
	EXIT_REJECTED = 16,	/* key info: the master key set now refuses */
	EXIT_TPM = 17,		/* the TPM cannot seal or unseal the master key */
};

/* Prints "ncrctl: <message>" on stderr; returns @code (ncrctl_die.c). */
int ncrctl_die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Prints @lines (synopses without the program name, one per line), the
 * first after @first ("usage:"), the others aligned under it.
 */
void ncrctl_print_usage(FILE *f, const char *first, const char *lines);

/* "ncrctl key ..." (ncrctl_key.c); argv[0] is "key". */
int ncrctl_key_main(int argc, char **argv);

#endif /* NCRCTL_H */
