/* SPDX-License-Identifier: GPL-2.0 */
/*
 * AES key wrap (RFC 3394, "KW") and AES key wrap with padding (RFC 5649,
 * "KWP"), independent of any particular AES implementation: the caller
 * supplies a one-block cipher through struct aes_kw_cipher.
 *
 * Unwrapping never writes to the destination unless the integrity check
 * passed; all checks on secret-derived values run in constant time and the
 * outcome is a single accept/reject.
 */
#ifndef NCR_AES_KW_H
#define NCR_AES_KW_H

#include "ncr_port.h"

#define AES_KW_BLOCK		16	/* AES block */
#define AES_KW_SEMIBLOCK	8	/* RFC 3394 "64-bit block" */
#define AES_KW_IV_LEN		8	/* RFC 3394 integrity check value */
#define AES_KWP_AIV_LEN		4	/* RFC 5649 alternative IV constant part */

/*
 * Largest plaintext accepted; bounds temporary allocations.  RFC 5649
 * allows up to 2^32 - 1 bytes, far more than any key.
 */
#define AES_KW_MAX_INPUT	(1u << 20)

/*
 * One-block cipher: transforms the AES_KW_BLOCK bytes at @block in place.
 * Returns 0 or a negative errno (propagated to the caller).
 */
struct aes_kw_cipher {
	int (*encrypt)(void *ctx, u8 *block);
	int (*decrypt)(void *ctx, u8 *block);
	void *ctx;
};

/* Size of the wrapping of @len plaintext bytes. */
static inline size_t aes_kw_wrapped_len(size_t len)
{
	return len + AES_KW_SEMIBLOCK;
}

static inline size_t aes_kwp_wrapped_len(size_t len)
{
	return ((len + AES_KW_SEMIBLOCK - 1) / AES_KW_SEMIBLOCK + 1) *
		AES_KW_SEMIBLOCK;
}

/*
 * RFC 3394.  @iv: the 8-byte initial value, or NULL for the default
 * A6A6A6A6A6A6A6A6.  Plaintext: a multiple of 8 bytes, at least 16.
 *
 * Wrap: *@out_len is the space at @out on entry, the bytes written on
 * return.  @out may equal @in.  Errors: -EINVAL (plaintext length),
 * -ERANGE (@out too small; nothing written).
 *
 * Unwrap: errors -EINVAL (wrapped length not a multiple of 8 or under 24),
 * -EBADMSG (integrity check failed), -ERANGE (@out smaller than the
 * plaintext), -ENOMEM.  On any error nothing is written to @out.
 */
int aes_kw_wrap(const struct aes_kw_cipher *c, const u8 *iv,
		const u8 *in, size_t in_len, u8 *out, size_t *out_len);
int aes_kw_unwrap(const struct aes_kw_cipher *c, const u8 *iv,
		  const u8 *in, size_t in_len, u8 *out, size_t *out_len);

/*
 * RFC 5649.  @aiv: the 4-byte constant part of the alternative initial
 * value, or NULL for the default A65959A6 (RFC 5649 section 3); the other
 * 4 bytes are always the message length indicator.  Plaintext: 1 to
 * AES_KW_MAX_INPUT bytes; 1..8 bytes use the single-block case
 * (section 4.1, one AES encryption).
 *
 * Same conventions and errors as above; unwrap -EINVAL means a wrapped
 * length that is not a multiple of 8 or under 16.
 */
int aes_kwp_wrap(const struct aes_kw_cipher *c, const u8 *aiv,
		 const u8 *in, size_t in_len, u8 *out, size_t *out_len);
int aes_kwp_unwrap(const struct aes_kw_cipher *c, const u8 *aiv,
		   const u8 *in, size_t in_len, u8 *out, size_t *out_len);

#endif /* NCR_AES_KW_H */
