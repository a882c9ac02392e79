// SPDX-License-Identifier: GPL-2.0
/*
 * ncrctl: administration of the ncr /dev/crypto driver.
 *
 *   ncrctl master-key ...             see ncrctl_master.c
 *   ncrctl master-key rotate ...      see ncrctl_rotate.c
 *   ncrctl key import|info ...        see ncrctl_key.c
 *   ncrctl status                     module, device, master key, limits,
 *                                     algorithms
 *
 * Every failure prints one line naming the file or device and the problem,
 * and exits with a code of its own class (ncrctl.h, ncrctl(8)).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/ncr.h>
#include "algo_list.h"
#include "ncrctl.h"
#include "ncrctl_master.h"
#include "ncrctl_rotate.h"
#include "ncrlib.h"
#include "ncrctl_parse.h"

#define DEVICE		NCRCTL_DEVICE
#define SYSFS_MODULE	"/sys/module/ncr"


#define die ncrctl_die

static const char other_usage[] =
	NCRCTL_ROTATE_USAGE
	"key import [--usage sign,decrypt,derive] [--passin ARG] [--force] "
	"IN OUT\n"
	"key info FILE\n"
	"status\n";

static int usage(FILE *f, int code)
{
	ncrctl_print_usage(f, "usage:", ncrctl_master_usage);
	ncrctl_print_usage(f, "", other_usage);
	return code;
}

/* ---- status ---- */

/* Secret-key algorithms: generate a key of @bits. */
static int probe_secret(int fd, const char *algo, uint32_t bits,
			uint32_t flags, int *keep)
{
	int k = ncrlib_key_new(fd);
	int ret;

	if (k < 0)
		return k;
	ret = ncrlib_key_generate(fd, k, algo, bits, flags);
	if (ret < 0 || !keep)
		ncrlib_key_free(fd, k);
	else
		*keep = k;
	return ret < 0 ? ret : 0;
}

/* Public-key algorithms: import junk; EOPNOTSUPP means "not supported". */
static int probe_pk(int fd, const char *algo)
{
	static const uint8_t junk[2] = { 0x30, 0x00 };
	int k = ncrlib_key_new(fd);
	int ret;

	if (k < 0)
		return k;
	ret = ncrlib_key_import(fd, k, algo, NCR_KEY_TYPE_PUBLIC, 0, junk,
				sizeof(junk));
	ncrlib_key_free(fd, k);
	return ret == -EOPNOTSUPP ? ret : 0;
}

/* Hashes: digest the empty message in one SESSION_ONCE. */
static int probe_hash(int fd, const char *algo)
{
	uint8_t digest[NCR_HASH_MAX_OUTPUT_SIZE];
	struct ncrlib_sess_params p;
	struct ncrlib_io io = {
		.fin_out = digest, .fin_out_cap = sizeof(digest) };
	long ret;

	ncrlib_sess_params_init(&p, NCR_OP_SIGN, algo);
	ret = ncrlib_session_once(fd, &p, &io);
	return ret < 0 ? (int)ret : 0;
}

/* Wrap algorithms: wrap an AES-128 key under a KEK. */
static int probe_walg(int fd, int kek, int k, const char *walg)
{
	uint8_t out[64];

	return ncrlib_key_wrap(fd, kek, k, walg, out, sizeof(out)) < 0;
}

/* A KEK needs CAP_SYS_ADMIN: without it, say so instead of probing. */
static void print_walgs(int fd, int aes)
{
	int kek = -1;

	printf("\nkey wrapping:");
	if (aes < 0)
		return;
	if (probe_secret(fd, "ecb(aes)", 128, NCR_KEY_FLAG_WRAPPING, &kek)) {
		printf(" (a KEK needs CAP_SYS_ADMIN to probe)");
		return;
	}
	if (!probe_walg(fd, kek, aes, NCR_WALG_AES_RFC3394))
		printf(" " NCR_WALG_AES_RFC3394);
	if (!probe_walg(fd, kek, aes, NCR_WALG_AES_RFC5649))
		printf(" " NCR_WALG_AES_RFC5649);
	ncrlib_key_free(fd, kek);
}

/* The driver's algorithms, from the list its own table is built from. */
struct algo_entry {
	const char *name;
	enum ncr_algo_class cls;
	uint32_t min_key;		/* bytes */
	bool aes_key;
};

#define ALGO_ENTRY(n, c, min, max, step, aes, one) { n, c, min, aes },
static const struct algo_entry algos[] = { NCR_ALGO_LIST(ALGO_ENTRY) };
#define N_ALGOS (sizeof(algos) / sizeof(algos[0]))

/* The key size a probe generates: the smallest, 256 bits for an HMAC. */
static uint32_t probe_bits(const struct algo_entry *a)
{
	return a->cls == NCR_ALG_MAC ? 256 : a->min_key * 8;
}

static void print_algos(int fd)
{
	int aes = -1;
	size_t i;

	printf("algorithms:");
	for (i = 0; i < N_ALGOS; i++) {
		int *keep = algos[i].aes_key && aes < 0 ? &aes : NULL;

		if ((algos[i].cls == NCR_ALG_CIPHER ||
		     algos[i].cls == NCR_ALG_MAC) &&
		    !probe_secret(fd, algos[i].name, probe_bits(&algos[i]),
				  NCR_KEY_FLAG_WRAPPABLE, keep))
			printf(" %s", algos[i].name);
	}
	for (i = 0; i < N_ALGOS; i++)
		if ((algos[i].cls == NCR_ALG_PK || algos[i].cls == NCR_ALG_DH) &&
		    !probe_pk(fd, algos[i].name))
			printf(" %s", algos[i].name);
	printf("\nhashes:");
	for (i = 0; i < N_ALGOS; i++)
		if (algos[i].cls == NCR_ALG_HASH &&
		    !probe_hash(fd, algos[i].name))
			printf(" %s", algos[i].name);
	print_walgs(fd, aes);
	ncrlib_key_free(fd, aes);
	printf("\n");
}

static void print_limits(void)
{
	char path[512], val[64];
	struct dirent *de;
	DIR *d = opendir(SYSFS_MODULE "/parameters");

	if (!d) {
		printf("limits: (no %s/parameters)\n", SYSFS_MODULE);
		return;
	}
	printf("limits:\n");
	while ((de = readdir(d))) {
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/parameters/%s", SYSFS_MODULE,
			 de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(val, sizeof(val), f)) {
			val[strcspn(val, "\n")] = 0;
			printf("  %s = %s\n", de->d_name, val);
		}
		fclose(f);
	}
	closedir(d);
}

static int status(void)
{
	struct stat st;
	int fd, mk, ret = EXIT_OK;

	if (stat(SYSFS_MODULE, &st)) {
		printf("module: not loaded\n");
		return die(EXIT_NO_DEVICE, "module ncr is not loaded "
			   "(modprobe ncr)");
	}
	printf("module: loaded\n");
	if (stat(DEVICE, &st) || !S_ISCHR(st.st_mode)) {
		printf("device: %s missing\n", DEVICE);
		return die(EXIT_NO_DEVICE, "%s: missing or not a character "
			   "device", DEVICE);
	}
	fd = ncrctl_open_device();
	if (fd < 0)
		return EXIT_NO_DEVICE;
	printf("device: %s (%u:%u)\n", DEVICE, major(st.st_rdev),
	       minor(st.st_rdev));
	mk = ncrctl_master_key_probe(fd);
	if (mk == -ENOKEY) {
		printf("master key: not set\n");
		ret = EXIT_NO_MASTER;
	} else if (mk == -EOPNOTSUPP) {
		printf("master key: not supported by this driver\n");
		ret = EXIT_NO_MASTER;
	} else {
		printf("master key: set\n");
	}
	ncrctl_master_print_store();
	print_limits();
	print_algos(fd);
	close(fd);
	return ret;
}

#ifndef NCRCTL_WITH_KEYS
/* A build without libcrypto (the static 32-bit one) has no key commands. */
int ncrctl_key_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return die(EXIT_USAGE, "key commands are not built into this ncrctl");
}
#endif

int main(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
			  !strcmp(argv[1], "help")))
		return usage(stdout, EXIT_OK);
	if (argc == 2 && !strcmp(argv[1], "status"))
		return status();
#ifdef NCRCTL_WITH_KEYS
	if (argc >= 3 && !strcmp(argv[1], "master-key") &&
	    !strcmp(argv[2], "rotate"))
		return ncrctl_rotate_main(argc - 2, argv + 2);
#endif
	if (argc >= 2 && !strcmp(argv[1], "master-key"))
		return ncrctl_master_main(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "key"))
		return ncrctl_key_main(argc - 1, argv + 1);
	return usage(stderr, EXIT_USAGE);
}
