/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure parsing and policy of ncrctl (no I/O, no libcrypto), unit-tested in
 * test/unit/test_ncrctl_parse.c: key usage lists, openssl-style -passin
 * arguments, systemd credential names, and the ownership/mode rules for
 * master key files and credentials.
 */
#ifndef NCRCTL_PARSE_H
#define NCRCTL_PARSE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Public-key algorithms the kernel driver holds.  EC is P-256 or P-384;
 * EC and X25519 keys are both the driver's "ecdsa" (the key has its curve).
 */
enum ncrctl_alg {
	NCRCTL_ALG_RSA = 1, NCRCTL_ALG_DSA, NCRCTL_ALG_DH, NCRCTL_ALG_EC,
	NCRCTL_ALG_X25519,
};

/* Key uses, as named on the command line. */
#define NCRCTL_USE_SIGN		1u
#define NCRCTL_USE_DECRYPT	2u
#define NCRCTL_USE_DERIVE	4u

/*
 * "sign,decrypt,derive": comma-separated use names, each at most once.
 * Returns 0 and sets *uses, or -1 and copies the offending word (or a
 * description) into @bad.
 */
int ncrctl_parse_usage(const char *s, unsigned int *uses, char *bad,
		       size_t badlen);
/* The uses an algorithm supports (also the default of key import). */
unsigned int ncrctl_alg_uses(int alg);
/* The uses no kernel flag can take away from its keys: derivation. */
unsigned int ncrctl_alg_fixed_uses(int alg);
/* The driver's algorithm name for NCRIO_KEY_IMPORT ("rsa", "ecdsa"...). */
const char *ncrctl_alg_kernel(int alg);
/* "sign,decrypt" for a set of uses ("" for none). */
void ncrctl_uses_str(unsigned int uses, char *buf, size_t len);
/*
 * NCR_KEY_FLAG_* of an imported private key: WRAPPABLE plus the uses.  With
 * neither SIGN nor DECRYPT the driver lets a key do both, so a key that
 * only derives but could sign gets the flag of the use it cannot have.
 */
uint32_t ncrctl_uses_flags(int alg, unsigned int uses);
/* The uses a kernel key with NCR_KEY_FLAG_* @flags serves. */
unsigned int ncrctl_flags_uses(int alg, uint32_t flags);

/* openssl's -passin conventions. */
enum ncrctl_pass_kind {
	NCRCTL_PASS_LITERAL = 1,	/* pass:PASSWORD */
	NCRCTL_PASS_ENV,		/* env:VAR */
	NCRCTL_PASS_FILE,		/* file:PATH (first line) */
	NCRCTL_PASS_FD,			/* fd:N (first line) */
	NCRCTL_PASS_STDIN,		/* stdin (first line) */
};

struct ncrctl_passin {
	int kind;		/* enum ncrctl_pass_kind */
	const char *arg;	/* points into the argument; "" for stdin */
	int fd;			/* NCRCTL_PASS_FD */
};

/* 0 on success, -1 if @s follows none of the conventions. */
int ncrctl_parse_passin(const char *s, struct ncrctl_passin *p);
/* Length of the first line of @buf (up to, not including, '\n'). */
size_t ncrctl_first_line(const char *buf, size_t len);

/* systemd's rule: 1..255 printable ASCII, no '/' or ':', not "." or "..". */
int ncrctl_credential_name_valid(const char *name);

/* Why a master key source is refused (0: acceptable). */
enum ncrctl_perm {
	NCRCTL_PERM_OK = 0,
	NCRCTL_PERM_NOT_REGULAR,	/* not a regular file */
	NCRCTL_PERM_OWNER,		/* not owned by root */
	NCRCTL_PERM_MODE,		/* group/other bits, or wrong mode */
};

/*
 * A master key file must be a regular file owned by root with mode exactly
 * 0600.  A systemd credential (@credential nonzero) is written by systemd
 * itself as 0400; 0400 and 0600 are accepted, nothing else.
 */
int ncrctl_check_key_perm(mode_t mode, uid_t uid, int credential);
/*
 * $CREDENTIALS_DIRECTORY must be a directory owned by root that neither
 * group nor others may write.
 */
int ncrctl_check_cred_dir(mode_t mode, uid_t uid);

#endif /* NCRCTL_PARSE_H */
