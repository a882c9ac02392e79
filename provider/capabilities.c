// SPDX-License-Identifier: GPL-2.0
/*
 * The "TLS-GROUP" capability: libssl uses a group only if the provider
 * announcing it is the one whose KEYMGMT its fetch of the group's
 * algorithm returns.  With ncr loaded before the default provider that is
 * ncr for "EC" and "X25519", so ncr announces these groups (as the default
 * provider does: same names, IDs and versions); their ephemeral keys are
 * then generated and derived in the kernel.
 */
#include <string.h>
#include <strings.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/prov_ssl.h>
#include "names.h"
#include "ncr_prov.h"

struct tls_group {
	const char *name, *internal, *alg;
	unsigned int id, secbits;
};

/* RFC 8446 4.2.7 code points; the default provider's preference order. */
static const struct tls_group groups[] = {
	{ "x25519", "x25519", NCRP_SN_X25519, 29, 128 },
	{ "secp256r1", "prime256v1", "EC", 23, 128 },
	{ "secp384r1", "secp384r1", "EC", 24, 192 },
};

static int tls_group(const struct tls_group *g, OSSL_CALLBACK *cb, void *arg)
{
	unsigned int is_kem = 0;
	int min_tls = TLS1_VERSION, max_tls = 0;
	int min_dtls = DTLS1_VERSION, max_dtls = 0;
	OSSL_PARAM p[] = {
		OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME,
				       (char *)g->name, strlen(g->name)),
		OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_GROUP_NAME_INTERNAL,
				       (char *)g->internal,
				       strlen(g->internal)),
		OSSL_PARAM_utf8_string(OSSL_CAPABILITY_TLS_GROUP_ALG,
				       (char *)g->alg, strlen(g->alg)),
		OSSL_PARAM_uint(OSSL_CAPABILITY_TLS_GROUP_ID,
				(unsigned int *)&g->id),
		OSSL_PARAM_uint(OSSL_CAPABILITY_TLS_GROUP_SECURITY_BITS,
				(unsigned int *)&g->secbits),
		OSSL_PARAM_uint(OSSL_CAPABILITY_TLS_GROUP_IS_KEM, &is_kem),
		OSSL_PARAM_int(OSSL_CAPABILITY_TLS_GROUP_MIN_TLS, &min_tls),
		OSSL_PARAM_int(OSSL_CAPABILITY_TLS_GROUP_MAX_TLS, &max_tls),
		OSSL_PARAM_int(OSSL_CAPABILITY_TLS_GROUP_MIN_DTLS, &min_dtls),
		OSSL_PARAM_int(OSSL_CAPABILITY_TLS_GROUP_MAX_DTLS, &max_dtls),
		OSSL_PARAM_END
	};

	return cb(p, arg);
}

int ncrp_get_capabilities(void *provctx, const char *capability,
			  OSSL_CALLBACK *cb, void *arg)
{
	size_t i;

	(void)provctx;
	if (strcasecmp(capability, "TLS-GROUP") != 0)
		return 0;
	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
		if (!tls_group(&groups[i], cb, arg))
			return 0;
	return 1;
}
