// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz harness for driver/lib/aes_kw.c unwrapping.  Input: 1 selector
 * byte, a 16-byte AES key, then the wrapped data.  Properties: no crash or
 * out-of-bounds access (ASan); a failed unwrap leaves the output buffer
 * untouched; a successful one re-wraps to exactly the input (unwrapping is
 * the inverse of wrapping, nothing else is accepted).
 */
#include "aes_kw.h"
#include "fuzz.h"

#include <openssl/evp.h>
#include <stdlib.h>

static int block(void *ctx, u8 *b)
{
	int outl = 0;

	return EVP_CipherUpdate(ctx, b, &outl, b, AES_KW_BLOCK) &&
	       outl == AES_KW_BLOCK ? 0 : -EIO;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static u8 out[4096], re[4096 + 16];
	static EVP_CIPHER_CTX *enc, *dec;
	struct aes_kw_cipher c = { block, block, NULL };
	size_t out_len = sizeof(out), re_len = sizeof(re), i;
	const u8 *iv = NULL;
	bool kwp;
	int ret;

	if (size < 17 || size > 17 + sizeof(out))
		return 0;
	if (!enc) {
		enc = EVP_CIPHER_CTX_new();
		dec = EVP_CIPHER_CTX_new();
	}
	EVP_CipherInit_ex(enc, EVP_aes_128_ecb(), NULL, data + 1, NULL, 1);
	EVP_CipherInit_ex(dec, EVP_aes_128_ecb(), NULL, data + 1, NULL, 0);
	EVP_CIPHER_CTX_set_padding(enc, 0);
	EVP_CIPHER_CTX_set_padding(dec, 0);
	kwp = data[0] & 1;
	if (data[0] & 2)
		iv = (const u8 *)"\x01\x02\x03\x04\x05\x06\x07\x08";
	data += 17;
	size -= 17;

	memset(out, 0x5a, sizeof(out));
	c.ctx = dec;
	ret = kwp ? aes_kwp_unwrap(&c, iv, data, size, out, &out_len) :
		    aes_kw_unwrap(&c, iv, data, size, out, &out_len);
	if (ret) {
		for (i = 0; i < sizeof(out); i++)
			if (out[i] != 0x5a)
				abort();
		if (out_len != sizeof(out))
			abort();
		return 0;
	}
	c.ctx = enc;
	ret = kwp ? aes_kwp_wrap(&c, iv, out, out_len, re, &re_len) :
		    aes_kw_wrap(&c, iv, out, out_len, re, &re_len);
	if (ret || re_len != size || memcmp(re, data, size))
		abort();
	return 0;
}
