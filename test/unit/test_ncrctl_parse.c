// SPDX-License-Identifier: GPL-2.0
/* Unit tests of tools/ncrctl_parse.c. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <linux/ncr.h>
#include "ncrctl_parse.h"
#include "unit.h"

static unsigned int usage_ok(const char *s)
{
	unsigned int u = 0xdead;
	char bad[64];

	return ncrctl_parse_usage(s, &u, bad, sizeof(bad)) ? 0xffff : u;
}

static const char *usage_bad(const char *s)
{
	static char bad[64];
	unsigned int u = 0;

	bad[0] = 0;
	return ncrctl_parse_usage(s, &u, bad, sizeof(bad)) ? bad : NULL;
}

static void test_usage(void)
{
	const char *b;

	CHECK(usage_ok("sign") == NCRCTL_USE_SIGN);
	CHECK(usage_ok("decrypt,sign") ==
	      (NCRCTL_USE_SIGN | NCRCTL_USE_DECRYPT));
	CHECK(usage_ok("sign,decrypt,derive") ==
	      (NCRCTL_USE_SIGN | NCRCTL_USE_DECRYPT | NCRCTL_USE_DERIVE));
	CHECK(usage_ok("derive") == NCRCTL_USE_DERIVE);
	/* empty words, unknown words, case, spaces, repeats */
	CHECK(usage_ok("") == 0xffff);
	CHECK(usage_ok(",") == 0xffff);
	CHECK(usage_ok("sign,") == 0xffff);
	CHECK(usage_ok(",sign") == 0xffff);
	CHECK(usage_ok("Sign") == 0xffff);
	CHECK(usage_ok("sign, decrypt") == 0xffff);
	CHECK(usage_ok("signx") == 0xffff);
	CHECK(usage_ok("sig") == 0xffff);
	CHECK(usage_ok("encrypt") == 0xffff);
	b = usage_bad("sign,bogus,decrypt");
	CHECK(b && !strcmp(b, "'bogus'"));
	b = usage_bad("sign,sign");
	CHECK(b && !strcmp(b, "repeated 'sign'"));
	/* a long word is cut in the message, never overflows */
	b = usage_bad("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	CHECK(b && strlen(b) == 34);
}

static void test_alg_uses(void)
{
	char s[32];

	CHECK(ncrctl_alg_uses(NCRCTL_ALG_RSA) ==
	      (NCRCTL_USE_SIGN | NCRCTL_USE_DECRYPT));
	CHECK(ncrctl_alg_uses(NCRCTL_ALG_DSA) == NCRCTL_USE_SIGN);
	CHECK(ncrctl_alg_uses(NCRCTL_ALG_DH) == NCRCTL_USE_DERIVE);
	CHECK(ncrctl_alg_uses(0) == 0);
	ncrctl_uses_str(NCRCTL_USE_DECRYPT | NCRCTL_USE_SIGN, s, sizeof(s));
	CHECK(!strcmp(s, "sign,decrypt"));
	ncrctl_uses_str(0, s, sizeof(s));
	CHECK(!strcmp(s, ""));
	ncrctl_uses_str(NCRCTL_USE_SIGN | NCRCTL_USE_DERIVE, s, 6);
	CHECK(!strcmp(s, "sign,"));	/* truncated, terminated */
}

#define SIGN NCRCTL_USE_SIGN
#define DECRYPT NCRCTL_USE_DECRYPT
#define DERIVE NCRCTL_USE_DERIVE
#define F_W NCR_KEY_FLAG_WRAPPABLE
#define F_S NCR_KEY_FLAG_SIGN
#define F_D NCR_KEY_FLAG_DECRYPT

/* uses -> kernel flags of an imported key: always wrappable, never
 * exportable; ECDH and DH have no flag. */
static const struct { int alg; unsigned int uses; uint32_t flags; }
to_flags[] = {
	{ NCRCTL_ALG_RSA, SIGN, F_W | F_S },
	{ NCRCTL_ALG_RSA, SIGN | DECRYPT, F_W | F_S | F_D },
	{ NCRCTL_ALG_DH, DERIVE, F_W },
	/* what the provider's genpkey gives an EC key */
	{ NCRCTL_ALG_EC, SIGN | DERIVE, F_W | F_S },
	/* derive only: DECRYPT, which EC cannot do, keeps it from signing */
	{ NCRCTL_ALG_EC, DERIVE, F_W | F_D },
	{ NCRCTL_ALG_X25519, DERIVE, F_W },
};

/* kernel flags -> uses; neither flag means both (CRYPTO(4)) */
static const struct { int alg; uint32_t flags; unsigned int uses; }
to_uses[] = {
	{ NCRCTL_ALG_RSA, F_W, SIGN | DECRYPT },
	{ NCRCTL_ALG_RSA, F_D, DECRYPT },
	{ NCRCTL_ALG_RSA, F_S, SIGN },
	{ NCRCTL_ALG_DSA, F_S, SIGN },
	{ NCRCTL_ALG_DSA, F_D, 0 },
	{ NCRCTL_ALG_DH, 0, DERIVE },
	{ NCRCTL_ALG_EC, F_S, SIGN | DERIVE },
	{ NCRCTL_ALG_EC, F_W, SIGN | DERIVE },
	{ NCRCTL_ALG_EC, F_D, DERIVE },
	{ NCRCTL_ALG_X25519, F_W, DERIVE },
	{ NCRCTL_ALG_X25519, F_S, DERIVE },
};

static void test_uses_and_flags(void)
{
	size_t i;

	for (i = 0; i < sizeof(to_flags) / sizeof(to_flags[0]); i++)
		CHECK(ncrctl_uses_flags(to_flags[i].alg, to_flags[i].uses) ==
		      to_flags[i].flags);
	for (i = 0; i < sizeof(to_uses) / sizeof(to_uses[0]); i++)
		CHECK(ncrctl_flags_uses(to_uses[i].alg, to_uses[i].flags) ==
		      to_uses[i].uses);
}

/* EC (P-256, P-384) signs and derives, X25519 derives; ECDH has no flag. */
static void test_ec_algs(void)
{
	CHECK(ncrctl_alg_uses(NCRCTL_ALG_EC) == (SIGN | DERIVE));
	CHECK(ncrctl_alg_uses(NCRCTL_ALG_X25519) == DERIVE);
	CHECK(ncrctl_alg_fixed_uses(NCRCTL_ALG_EC) == DERIVE);
	CHECK(ncrctl_alg_fixed_uses(NCRCTL_ALG_X25519) == DERIVE);
	CHECK(ncrctl_alg_fixed_uses(NCRCTL_ALG_DH) == DERIVE);
	CHECK(ncrctl_alg_fixed_uses(NCRCTL_ALG_RSA) == 0);
	CHECK(ncrctl_alg_fixed_uses(0) == 0);
	/* one kernel algorithm for both, the driver's "ecdsa" */
	CHECK(!strcmp(ncrctl_alg_kernel(NCRCTL_ALG_EC), "ecdsa"));
	CHECK(!strcmp(ncrctl_alg_kernel(NCRCTL_ALG_X25519), "ecdsa"));
	CHECK(!strcmp(ncrctl_alg_kernel(NCRCTL_ALG_RSA), "rsa"));
	CHECK(!strcmp(ncrctl_alg_kernel(NCRCTL_ALG_DH), "dh"));
	CHECK(!strcmp(ncrctl_alg_kernel(0), ""));
}

static int passin(const char *s, struct ncrctl_passin *p)
{
	return ncrctl_parse_passin(s, p);
}

static void test_passin(void)
{
	struct ncrctl_passin p;

	CHECK(passin("pass:secret", &p) == 0 && p.kind == NCRCTL_PASS_LITERAL &&
	      !strcmp(p.arg, "secret"));
	CHECK(passin("pass:", &p) == 0 && !strcmp(p.arg, ""));
	CHECK(passin("pass:a:b", &p) == 0 && !strcmp(p.arg, "a:b"));
	CHECK(passin("env:KEYPASS", &p) == 0 && p.kind == NCRCTL_PASS_ENV &&
	      !strcmp(p.arg, "KEYPASS"));
	CHECK(passin("env:", &p) == -1);
	CHECK(passin("file:/run/pw", &p) == 0 && p.kind == NCRCTL_PASS_FILE &&
	      !strcmp(p.arg, "/run/pw"));
	CHECK(passin("file:", &p) == -1);
	CHECK(passin("fd:3", &p) == 0 && p.kind == NCRCTL_PASS_FD && p.fd == 3);
	CHECK(passin("fd:0", &p) == 0 && p.fd == 0);
	CHECK(passin("fd:2147483647", &p) == 0 && p.fd == 2147483647);
	CHECK(passin("fd:2147483648", &p) == -1);
	CHECK(passin("fd:", &p) == -1);
	CHECK(passin("fd:-1", &p) == -1);
	CHECK(passin("fd:3x", &p) == -1);
	CHECK(passin("stdin", &p) == 0 && p.kind == NCRCTL_PASS_STDIN &&
	      p.fd == 0);
	CHECK(passin("stdin:", &p) == -1);
	CHECK(passin("secret", &p) == -1);
	CHECK(passin("", &p) == -1);
	CHECK(passin("PASS:x", &p) == -1);
	CHECK(ncrctl_first_line("abc\ndef", 7) == 3);
	CHECK(ncrctl_first_line("abc", 3) == 3);
	CHECK(ncrctl_first_line("\n", 1) == 0);
	CHECK(ncrctl_first_line("ab\r\n", 4) == 3);	/* as openssl: \r kept */
	CHECK(ncrctl_first_line("a\0b\n", 4) == 3);
	CHECK(ncrctl_first_line("", 0) == 0);
}

static void test_credential_names(void)
{
	char n256[257];

	CHECK(ncrctl_credential_name_valid("ncr-master-key"));
	CHECK(ncrctl_credential_name_valid("a.b_c"));
	CHECK(ncrctl_credential_name_valid("..."));
	CHECK(!ncrctl_credential_name_valid(""));
	CHECK(!ncrctl_credential_name_valid("."));
	CHECK(!ncrctl_credential_name_valid(".."));
	CHECK(!ncrctl_credential_name_valid("../master.key"));
	CHECK(!ncrctl_credential_name_valid("a/b"));
	CHECK(!ncrctl_credential_name_valid("a:b"));
	CHECK(!ncrctl_credential_name_valid("a\nb"));
	CHECK(!ncrctl_credential_name_valid("caf\xc3\xa9"));
	memset(n256, 'k', 256);
	n256[255] = 0;
	CHECK(ncrctl_credential_name_valid(n256));
	n256[255] = 'k';
	n256[256] = 0;
	CHECK(!ncrctl_credential_name_valid(n256));
}

static void test_permissions(void)
{
	/* master key file: exactly 0600, root, regular */
	CHECK(ncrctl_check_key_perm(S_IFREG | 0600, 0, 0) == NCRCTL_PERM_OK);
	CHECK(ncrctl_check_key_perm(S_IFREG | 0400, 0, 0) == NCRCTL_PERM_MODE);
	CHECK(ncrctl_check_key_perm(S_IFREG | 0640, 0, 0) == NCRCTL_PERM_MODE);
	CHECK(ncrctl_check_key_perm(S_IFREG | 04600, 0, 0) == NCRCTL_PERM_MODE);
	CHECK(ncrctl_check_key_perm(S_IFREG | 0600, 1000, 0) ==
	      NCRCTL_PERM_OWNER);
	CHECK(ncrctl_check_key_perm(S_IFDIR | 0600, 0, 0) ==
	      NCRCTL_PERM_NOT_REGULAR);
	CHECK(ncrctl_check_key_perm(S_IFIFO | 0600, 0, 0) ==
	      NCRCTL_PERM_NOT_REGULAR);
	/* credential: systemd's 0400, or 0600; still nothing for others */
	CHECK(ncrctl_check_key_perm(S_IFREG | 0400, 0, 1) == NCRCTL_PERM_OK);
	CHECK(ncrctl_check_key_perm(S_IFREG | 0600, 0, 1) == NCRCTL_PERM_OK);
	CHECK(ncrctl_check_key_perm(S_IFREG | 0440, 0, 1) == NCRCTL_PERM_MODE);
	CHECK(ncrctl_check_key_perm(S_IFREG | 0404, 0, 1) == NCRCTL_PERM_MODE);
	CHECK(ncrctl_check_key_perm(S_IFREG | 0700, 0, 1) == NCRCTL_PERM_MODE);
	CHECK(ncrctl_check_key_perm(S_IFREG | 0400, 65534, 1) ==
	      NCRCTL_PERM_OWNER);
	CHECK(ncrctl_check_key_perm(S_IFLNK | 0777, 0, 1) ==
	      NCRCTL_PERM_NOT_REGULAR);
	/* the credentials directory: root's, writable by root only */
	CHECK(ncrctl_check_cred_dir(S_IFDIR | 0500, 0) == NCRCTL_PERM_OK);
	CHECK(ncrctl_check_cred_dir(S_IFDIR | 0755, 0) == NCRCTL_PERM_OK);
	CHECK(ncrctl_check_cred_dir(S_IFDIR | 0770, 0) == NCRCTL_PERM_MODE);
	CHECK(ncrctl_check_cred_dir(S_IFDIR | 01777, 0) == NCRCTL_PERM_MODE);
	CHECK(ncrctl_check_cred_dir(S_IFDIR | 0700, 1000) == NCRCTL_PERM_OWNER);
	CHECK(ncrctl_check_cred_dir(S_IFREG | 0700, 0) ==
	      NCRCTL_PERM_NOT_REGULAR);
}

int main(void)
{
	test_usage();
	test_alg_uses();
	test_uses_and_flags();
	test_ec_algs();
	test_passin();
	test_credential_names();
	test_permissions();
	return unit_report("test_ncrctl_parse");
}
