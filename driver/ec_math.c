// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's half of lib/ec_math.h: X25519 on lib/crypto curve25519,
 * and the set-up of lib/ec_nist.c (P-256 and P-384, which is shared with
 * user space and needs nothing of the kernel's crypto/ecc.c).
 */
#include <crypto/curve25519.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include "lib/ec.h"
#include "lib/ec_math.h"
#include "lib/ec_nist.h"

module_param_named(ec_verify_signatures, ncr_ec_verify_signatures, bool,
		   0644);
MODULE_PARM_DESC(ec_verify_signatures,
		 "Verify every ECDSA signature before it leaves the kernel (about four times the cost of signing; the cheaper checks always run)");

int ncr_ec_math_x25519(u8 out[NCR_X25519_BYTES],
		       const u8 k[NCR_X25519_BYTES],
		       const u8 u[NCR_X25519_BYTES])
{
	if (curve25519(out, k, u))
		return 0;
	memzero_explicit(out, NCR_X25519_BYTES);
	return -EINVAL;
}

int ncr_ec_math_x25519_base(u8 out[NCR_X25519_BYTES],
			    const u8 k[NCR_X25519_BYTES])
{
	if (curve25519_generate_public(out, k))
		return 0;
	memzero_explicit(out, NCR_X25519_BYTES);
	return -EINVAL;
}

int __init ncr_ec_math_init(void)
{
	return ncr_ec_nist_init();
}
