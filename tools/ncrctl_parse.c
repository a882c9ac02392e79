// SPDX-License-Identifier: GPL-2.0
/* Pure parsing and policy of ncrctl (ncrctl_parse.h). */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <linux/ncr.h>
#include "ncrctl_parse.h"

static const struct {
	const char *name;
	unsigned int use;
	uint32_t flag;		/* the kernel's; 0: no flag restricts it */
} use_names[] = {
	{ "sign", NCRCTL_USE_SIGN, NCR_KEY_FLAG_SIGN },
	{ "decrypt", NCRCTL_USE_DECRYPT, NCR_KEY_FLAG_DECRYPT },
	{ "derive", NCRCTL_USE_DERIVE, 0 },
};

#define N_USES (sizeof(use_names) / sizeof(use_names[0]))

static unsigned int use_of(const char *w, size_t n)
{
	size_t i;

	for (i = 0; i < N_USES; i++)
		if (strlen(use_names[i].name) == n &&
		    !memcmp(use_names[i].name, w, n))
			return use_names[i].use;
	return 0;
}

int ncrctl_parse_usage(const char *s, unsigned int *uses, char *bad,
		       size_t badlen)
{
	unsigned int all = 0, u;
	const char *w = s, *end;
	size_t n;

	for (;;) {
		end = strchr(w, ',');
		n = end ? (size_t)(end - w) : strlen(w);
		u = use_of(w, n);
		if (!u || (all & u)) {
			snprintf(bad, badlen, "%s'%.*s'", u ? "repeated " : "",
				 n > 32 ? 32 : (int)n, w);
			return -1;
		}
		all |= u;
		if (!end)
			break;
		w = end + 1;
	}
	*uses = all;
	return 0;
}

#define USE_FLAGGED	(NCRCTL_USE_SIGN | NCRCTL_USE_DECRYPT)

/* What the driver does with each algorithm's keys. */
struct alg_info {
	int alg;
	const char *kernel;	/* NCRIO_KEY_IMPORT's algorithm */
	unsigned int uses;	/* what its keys can do */
	unsigned int fixed;	/* what no flag takes away (CRYPTO(4)) */
};

static const struct alg_info algs[] = {
	{ NCRCTL_ALG_RSA, "rsa", NCRCTL_USE_SIGN | NCRCTL_USE_DECRYPT, 0 },
	{ NCRCTL_ALG_DSA, "dsa", NCRCTL_USE_SIGN, 0 },
	{ NCRCTL_ALG_DH, "dh", NCRCTL_USE_DERIVE, NCRCTL_USE_DERIVE },
	/* ECDSA and ECDH; ECDH, like DH, has no flag */
	{ NCRCTL_ALG_EC, "ecdsa", NCRCTL_USE_SIGN | NCRCTL_USE_DERIVE,
	  NCRCTL_USE_DERIVE },
	{ NCRCTL_ALG_X25519, "ecdsa", NCRCTL_USE_DERIVE, NCRCTL_USE_DERIVE },
};

/* The entry of @alg; for an unknown one, an entry that can do nothing. */
static const struct alg_info *alg_info(int alg)
{
	static const struct alg_info none = { 0, "", 0, 0 };
	size_t i;

	for (i = 0; i < sizeof(algs) / sizeof(algs[0]); i++)
		if (algs[i].alg == alg)
			return &algs[i];
	return &none;
}

unsigned int ncrctl_alg_uses(int alg)
{
	return alg_info(alg)->uses;
}

unsigned int ncrctl_alg_fixed_uses(int alg)
{
	return alg_info(alg)->fixed;
}

const char *ncrctl_alg_kernel(int alg)
{
	return alg_info(alg)->kernel;
}

/* The kernel flags of @uses (those with one). */
static uint32_t use_flags(unsigned int uses)
{
	uint32_t f = 0;
	size_t i;

	for (i = 0; i < N_USES; i++)
		if (uses & use_names[i].use)
			f |= use_names[i].flag;
	return f;
}

void ncrctl_uses_str(unsigned int uses, char *buf, size_t len)
{
	size_t i, off = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < N_USES; i++) {
		int w;

		if (!(uses & use_names[i].use) || off >= len)
			continue;
		w = snprintf(buf + off, len - off, "%s%s", off ? "," : "",
			     use_names[i].name);
		off += w > 0 ? (size_t)w : 0;
	}
}

uint32_t ncrctl_uses_flags(int alg, unsigned int uses)
{
	unsigned int can = ncrctl_alg_uses(alg) & USE_FLAGGED;
	uint32_t f = use_flags(uses & USE_FLAGGED);

	/* neither flag: both uses; an EC key that only derives can't sign */
	if (!f && can)
		f = use_flags(USE_FLAGGED & ~can);
	return f | NCR_KEY_FLAG_WRAPPABLE;	/* storage wrap needs it */
}

unsigned int ncrctl_flags_uses(int alg, uint32_t flags)
{
	unsigned int u = 0;
	size_t i;

	for (i = 0; i < N_USES; i++)
		if (flags & use_names[i].flag)
			u |= use_names[i].use;
	/* Neither flag set: the driver lets the key serve both. */
	if (!u)
		u = USE_FLAGGED;
	return (u | ncrctl_alg_fixed_uses(alg)) & ncrctl_alg_uses(alg);
}

static int parse_fd(const char *s, int *fd)
{
	long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
		if (v > INT_MAX)
			return -1;
	}
	*fd = (int)v;
	return 0;
}

int ncrctl_parse_passin(const char *s, struct ncrctl_passin *p)
{
	static const struct {
		const char *prefix;
		int kind;
	} kinds[] = {
		{ "pass:", NCRCTL_PASS_LITERAL }, { "env:", NCRCTL_PASS_ENV },
		{ "file:", NCRCTL_PASS_FILE }, { "fd:", NCRCTL_PASS_FD },
	};
	size_t i, n;

	memset(p, 0, sizeof(*p));
	p->fd = -1;
	if (!strcmp(s, "stdin")) {
		p->kind = NCRCTL_PASS_STDIN;
		p->arg = s + strlen(s);
		p->fd = 0;
		return 0;
	}
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		n = strlen(kinds[i].prefix);
		if (strncmp(s, kinds[i].prefix, n))
			continue;
		p->kind = kinds[i].kind;
		p->arg = s + n;
		if (p->kind == NCRCTL_PASS_FD)
			return parse_fd(p->arg, &p->fd);
		if (p->kind != NCRCTL_PASS_LITERAL && !*p->arg)
			return -1;	/* env: and file: need a name */
		return 0;
	}
	return -1;
}

size_t ncrctl_first_line(const char *buf, size_t len)
{
	const char *nl = memchr(buf, '\n', len);

	return nl ? (size_t)(nl - buf) : len;
}

int ncrctl_credential_name_valid(const char *name)
{
	size_t n = strlen(name), i;

	if (n == 0 || n > 255 || !strcmp(name, ".") || !strcmp(name, ".."))
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];

		if (c < 0x20 || c > 0x7e || c == '/' || c == ':')
			return 0;
	}
	return 1;
}

int ncrctl_check_key_perm(mode_t mode, uid_t uid, int credential)
{
	mode_t perm = mode & 07777;

	if (!S_ISREG(mode))
		return NCRCTL_PERM_NOT_REGULAR;
	if (uid != 0)
		return NCRCTL_PERM_OWNER;
	if (perm == 0600 || (credential && perm == 0400))
		return NCRCTL_PERM_OK;
	return NCRCTL_PERM_MODE;
}

int ncrctl_check_cred_dir(mode_t mode, uid_t uid)
{
	if (!S_ISDIR(mode))
		return NCRCTL_PERM_NOT_REGULAR;
	if (uid != 0)
		return NCRCTL_PERM_OWNER;
	return mode & 022 ? NCRCTL_PERM_MODE : NCRCTL_PERM_OK;
}
