/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the storage master key is kept at rest, and sealing it to this
 * machine's TPM2 (ncrctl_seal.c).  The sealing is systemd-creds'
 * (--with-key=tpm2): the key goes to it and comes back from it through
 * pipes into locked memory, never through a file, the environment or the
 * journal.
 */
#ifndef NCRCTL_SEAL_H
#define NCRCTL_SEAL_H

#include <stddef.h>
#include <stdint.h>

/* The stores ncr-master-key.service looks at, in this order. */
#define NCRCTL_SEALED_PATH	"/etc/credstore.encrypted/ncr-master-key"
#define NCRCTL_PLAIN_PATH	"/etc/ncr/master.key"
/* An unfinished rotation's new key sits beside its store, with this. */
#define NCRCTL_NEW_SUFFIX	".new"
/* The credential name sealed into the blob; systemd checks it. */
#define NCRCTL_CRED_NAME	"ncr-master-key"
/* The TPM resource manager device systemd-creds uses. */
#define NCRCTL_TPM_DEVICE	"/dev/tpmrm0"

#define NCRCTL_MASTER_KEY_LEN	32

/*
 * Seals @len bytes of @key to the TPM into @path: written beside it, synced,
 * then renamed over it (and the directory synced).  @pcrs is systemd-creds'
 * --tpm2-pcrs= value, or NULL for its default (PCR 7, the Secure Boot
 * state).  Returns EXIT_OK, or an exit
 * code after one line on stderr.
 */
int ncrctl_seal(const char *path, const uint8_t *key, size_t len,
		const char *pcrs);

/*
 * Unseals @path into @key (@cap bytes, at least NCRCTL_MASTER_KEY_LEN + 1)
 * and checks that it is 16, 24 or 32 bytes long.  Returns the length, or
 * minus an exit code after one line on stderr.
 */
int ncrctl_unseal(const char *path, uint8_t *key, size_t cap);

/*
 * Nonzero if this machine has a TPM2 that systemd-creds can use, waiting up
 * to @wait_ms for its device to appear (udev may not have made it yet).
 */
int ncrctl_tpm_present(int wait_ms);

/* Locks @key's pages in memory and keeps the process out of core dumps. */
void ncrctl_protect(void *key, size_t len);

#endif /* NCRCTL_SEAL_H */
