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
} use_names[] = {
	{ "sign", NCRCTL_USE_SIGN },
	{ "decrypt", NCRCTL_USE_DECRYPT },
	{ "derive", NCRCTL_USE_DERIVE },
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

unsigned int ncrctl_alg_uses(int alg)
{
	switch (alg) {
	case NCRCTL_ALG_RSA:
		return NCRCTL_USE_SIGN | NCRCTL_USE_DECRYPT;
	case NCRCTL_ALG_DSA:
		return NCRCTL_USE_SIGN;
	case NCRCTL_ALG_DH:
		return NCRCTL_USE_DERIVE;
	}
	return 0;
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
	uint32_t f = NCR_KEY_FLAG_WRAPPABLE;	/* storage wrap needs it */

	(void)alg;
	if (uses & NCRCTL_USE_SIGN)
		f |= NCR_KEY_FLAG_SIGN;
	if (uses & NCRCTL_USE_DECRYPT)
		f |= NCR_KEY_FLAG_DECRYPT;
	/* No flag restricts DH derivation (CRYPTO(4)). */
	return f;
}

unsigned int ncrctl_flags_uses(int alg, uint32_t flags)
{
	uint32_t f = flags & (NCR_KEY_FLAG_SIGN | NCR_KEY_FLAG_DECRYPT);
	unsigned int u = 0;

	if (alg == NCRCTL_ALG_DH)
		return NCRCTL_USE_DERIVE;
	/* Neither flag set: the driver lets the key serve both. */
	if (!f || (f & NCR_KEY_FLAG_SIGN))
		u |= NCRCTL_USE_SIGN;
	if (!f || (f & NCR_KEY_FLAG_DECRYPT))
		u |= NCRCTL_USE_DECRYPT;
	return u & ncrctl_alg_uses(alg);
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
