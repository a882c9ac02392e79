/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interface between wrap.c (KEY_WRAP/UNWRAP and the AES glue for
 * lib/aes_kw.c), storage.c (storage blobs) and master_key.c.
 */
#ifndef NCR_WRAP_H
#define NCR_WRAP_H

#include <crypto/internal/cipher.h>
#include "ncr_int.h"
#include "lib/aes_kw.h"

/* Room for the DER of a public/private key (as KEY_EXPORT's limit). */
#define NCR_PK_MATERIAL_MAX	(16 * 1024)

/* ---- wrap.c ---- */

/*
 * A single-block AES transform keyed with @key (16, 24 or 32 bytes).  The
 * crypto API picks the implementation (AES-NI when loaded, else the
 * constant-time-hardened generic one).  Free with crypto_free_cipher().
 */
struct crypto_cipher *ncr_kw_tfm_alloc(const u8 *key, size_t len);

/* Binds lib/aes_kw.c's block callbacks to @tfm. */
void ncr_kw_cipher_bind(struct aes_kw_cipher *c, struct crypto_cipher *tfm);

/*
 * SP 800-57 security strength in bits of a public/private key (pk.c), for
 * the rule "never wrap a key under a weaker key-encryption key" (wrap.c).
 */
unsigned int ncr_pk_strength_bits(struct ncr_key *key);

/* ---- master_key.c ---- */

/*
 * The storage master key's AES transform, or NULL when no master key is
 * set.  Once set it stays unchanged until module unload, so the pointer
 * may be used without further locking while /dev/crypto is open.
 */
struct crypto_cipher *ncr_master_tfm(void);

#endif /* NCR_WRAP_H */
