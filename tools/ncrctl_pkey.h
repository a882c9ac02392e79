/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libcrypto side of "ncrctl key": reading a private key in any form
 * `openssl pkey` reads, re-encoding it for NCRIO_KEY_IMPORT, and the
 * public facts of a key (algorithm, size, kernel key ID, fingerprint).
 */
#ifndef NCRCTL_PKEY_H
#define NCRCTL_PKEY_H

#include <stddef.h>

#define NCRCTL_KEY_ID_LEN	20	/* SHA-1, as the kernel makes it */
#define NCRCTL_SHA256_LEN	32
/* What the kernel driver holds, for messages. */
#define NCRCTL_ALGS_HELD "RSA, DSA and DH keys, EC keys on P-256 and " \
			 "P-384, and X25519 keys"

/* Public facts from a SubjectPublicKeyInfo. */
struct ncrctl_pubinfo {
	int alg;			/* NCRCTL_ALG_*, 0 if the driver lacks it */
	char name[32];			/* OpenSSL's name: "RSA", "EC", ... */
	char curve[16];			/* "P-256", "P-384", "X25519" or "" */
	char desc[48];			/* "RSA-2048", "EC P-256", "X25519" */
	int bits;
	/* SHA-1 of the kernel's public export format: the key ID. */
	unsigned char key_id[NCRCTL_KEY_ID_LEN];
	/* SHA-256 of the SubjectPublicKeyInfo DER. */
	unsigned char sha256[NCRCTL_SHA256_LEN];
};

/* A parsed private key, re-encoded; the private DER is wiped on clear. */
struct ncrctl_plainkey {
	unsigned char *pkcs8;		/* PrivateKeyInfo DER */
	size_t pkcs8_len;
	unsigned char *spki;		/* SubjectPublicKeyInfo DER */
	size_t spki_len;
	struct ncrctl_pubinfo pub;
};

/* Passphrase for encrypted input; NULL pass: none was given. */
struct ncrctl_pass {
	const char *pass;
	size_t len;
};

/* Sets up the private library context; 0 on failure. */
int ncrctl_pkey_init(void);

/*
 * Parses @data (the contents of @path) as a private key: PEM or DER;
 * PKCS#1, SEC1, PKCS#8 or encrypted PKCS#8 (or legacy encrypted PEM).
 * Returns EXIT_OK, or prints one line naming @path and returns
 * EXIT_NOT_KEY, EXIT_PASSPHRASE or EXIT_UNSUPPORTED (an algorithm or
 * curve the kernel driver does not hold).
 */
int ncrctl_pkey_parse(const char *path, const unsigned char *data,
		      size_t len, const struct ncrctl_pass *pw,
		      struct ncrctl_plainkey *out);
void ncrctl_plainkey_clear(struct ncrctl_plainkey *k);

/* Facts of a SubjectPublicKeyInfo DER; 0 if it is not one. */
int ncrctl_spki_info(const unsigned char *spki, size_t len,
		     struct ncrctl_pubinfo *info);

/* PEM armour of the key file (label NCR KEY BLOB); malloc'ed, 0 on error. */
int ncrctl_keyfile_pem(const unsigned char *der, size_t der_len,
		       char **pem, size_t *pem_len);
/* The DER body of the key file's NCR KEY BLOB block; 0 if there is none. */
int ncrctl_keyfile_unpem(const unsigned char *data, size_t len,
			 unsigned char **der, size_t *der_len);

#endif /* NCRCTL_PKEY_H */
