// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel half of every KEYEXCH (kex_dh.c, kex_ecdh.c), and their table:
 * NCRIO_KEY_DERIVE into a new secret key flagged exportable, exported at
 * once and freed.
 * The shared secret is the application's by definition (it is what
 * EVP_PKEY_derive returns); the private key stays in the kernel.
 */
#include <errno.h>
#include "names.h"
#include "ncr_prov.h"

long ncrp_kernel_derive(const struct ncrp_pkey *priv, const char *kdf,
			const unsigned char *peer, size_t peer_len,
			unsigned char *buf, size_t cap)
{
	int fd = ncrlib_dev_fd();
	int nk = ncrlib_key_new(fd), r;
	long n = -1;

	if (nk < 0) {
		ncrp_raise_errno("allocating a kernel key", -nk);
		return -1;
	}
	r = ncrlib_key_derive(fd, kdf, priv->priv->key, nk,
			      NCR_KEY_FLAG_EXPORTABLE, peer, peer_len);
	if (r == -EINVAL)
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "the kernel refused the "
			   "peer's %s public value", ncrp_pk_ossl_name(priv->type));
	else if (r < 0)
		ncrp_raise_errno("kernel key derivation", -r);
	if (r >= 0) {
		n = ncrlib_key_export(fd, nk, buf, cap);
		if (n < 0)
			ncrp_raise_errno("exporting the shared secret",
					 (int)-n);
	}
	ncrlib_key_free(fd, nk);
	return n < 0 ? -1 : n;
}

const OSSL_ALGORITHM ncrp_keyexchs[] = {
	{ NCRP_NAMES_DH, NCRP_PROPS,
	  ncrp_dh_kex_functions, "DH derived in the kernel" },
	{ NCRP_NAMES_ECDH, NCRP_PROPS,
	  ncrp_ecdh_kex_functions, "ECDH (P-256, P-384) derived in the kernel" },
	{ NCRP_SN_X25519, NCRP_PROPS,
	  ncrp_x25519_kex_functions, "X25519 derived in the kernel" },
	{ NULL, NULL, NULL, NULL }
};
