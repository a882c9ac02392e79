// SPDX-License-Identifier: GPL-2.0
/* lib/crypto's curve25519() and curve25519_generate_public(), since 5.6 */
#include <crypto/curve25519.h>
#include <linux/init.h>
#include <linux/module.h>

static int __init probe_init(void)
{
	u8 k[CURVE25519_KEY_SIZE] = {}, out[CURVE25519_KEY_SIZE];

	if (!curve25519_generate_public(out, k))
		return -EINVAL;
	return curve25519(out, k, out) ? 0 : -EINVAL;
}
module_init(probe_init);
MODULE_LICENSE("GPL");
