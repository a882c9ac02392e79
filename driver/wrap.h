/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KEY_WRAP/UNWRAP and the AES glue for lib/aes_kw.c (wrap.c), shared with
 * storage.c and master_key.c.
 */
#ifndef NCR_WRAP_H
#define NCR_WRAP_H

#include <crypto/internal/cipher.h>
#include <linux/ncr.h>
#include "lib/aes_kw.h"
#include "lib/nlattr.h"

struct ncr_ns;

/* Room for the DER of a public/private key (as KEY_EXPORT's limit). */
#define NCR_PK_MATERIAL_MAX	(16 * 1024)

/* NCRIO_KEY_WRAP / NCRIO_KEY_UNWRAP (RFC 3394 / 5649). */
long ncr_key_wrap(struct ncr_ns *ns, const struct ncr_key_wrap *wrap,
		  struct nlattr *tb[]);
long ncr_key_unwrap(struct ncr_ns *ns, const struct ncr_key_unwrap *unwrap,
		    struct nlattr *tb[]);

/*
 * A single-block AES transform keyed with @key (16, 24 or 32 bytes).  The
 * crypto API picks the implementation (AES-NI when loaded, else the
 * constant-time-hardened generic one).  Free with crypto_free_cipher().
 */
struct crypto_cipher *ncr_kw_tfm_alloc(const u8 *key, size_t len);

/* Binds lib/aes_kw.c's block callbacks to @tfm. */
void ncr_kw_cipher_bind(struct aes_kw_cipher *c, struct crypto_cipher *tfm);

#endif /* NCR_WRAP_H */
