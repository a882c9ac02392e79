// SPDX-License-Identifier: GPL-2.0
/* crypto/ecc.c's curves and vli_* helpers, as ec_math.c uses them */
#include <linux/math.h>	/* 7.3's ecc.h uses DIV_ROUND_UP() without it */
#include <crypto/ecdh.h>
#include <crypto/internal/ecc.h>
#include <linux/init.h>
#include <linux/module.h>

static int __init probe_init(void)
{
	const struct ecc_curve *c = ecc_get_curve(ECC_CURVE_NIST_P384);
	u64 x[ECC_MAX_DIGITS] = {}, y[ECC_MAX_DIGITS] = {};
	struct ecc_point p = ECC_POINT_INIT(x, y, ECC_CURVE_NIST_P384_DIGITS);
	unsigned int nd = ECC_CURVE_NIST_P384_DIGITS;
	int err;

	if (!c)
		return -ENOENT;
	ecc_swap_digits(c->g.x, x, nd);
	vli_from_be64(y, x, nd);
	vli_sub(x, c->n, y, nd);
	vli_mod_mult_slow(x, x, y, c->p, nd);
	vli_mod_inv(x, x, c->p, nd);
	ecc_point_mult_shamir(&p, x, &c->g, y, &p, c);
	err = ecc_is_pubkey_valid_full(c, &p);
	if (!err)
		err = ecc_make_pub_key(ECC_CURVE_NIST_P384, nd, x, y);
	if (!err)
		err = crypto_ecdh_shared_secret(ECC_CURVE_NIST_P384, nd, x, y, x);
	return err ?: vli_cmp(x, y, nd) + vli_is_zero(x, nd);
}
module_init(probe_init);
MODULE_LICENSE("GPL");
