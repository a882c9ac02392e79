// SPDX-License-Identifier: GPL-2.0
/*
 * AES-128/192/256 in ECB, CBC and CTR through kernel sessions.
 *
 * The key is imported into the kernel once per context (non-exportable);
 * a session is created lazily with the current IV on the first block.
 * Partial blocks are buffered here so the kernel only ever sees whole
 * blocks: the last block for PKCS#7 padding, and for CTR the unused
 * keystream of a partial block (obtained by encrypting a zero block), so
 * that a stream cut at any byte continues correctly.  The chaining value is
 * tracked here too, which makes duplication a fresh session at that state.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>
#include <openssl/evp.h>
#include "names.h"
#include "ncr_prov.h"

static OSSL_FUNC_cipher_freectx_fn aes_freectx;
static OSSL_FUNC_cipher_dupctx_fn aes_dupctx;
static OSSL_FUNC_cipher_encrypt_init_fn aes_einit;
static OSSL_FUNC_cipher_decrypt_init_fn aes_dinit;
static OSSL_FUNC_cipher_update_fn aes_update;
static OSSL_FUNC_cipher_final_fn aes_final;
static OSSL_FUNC_cipher_cipher_fn aes_cipher;
static OSSL_FUNC_cipher_gettable_params_fn aes_gettable_params;
static OSSL_FUNC_cipher_get_ctx_params_fn aes_get_ctx_params;
static OSSL_FUNC_cipher_gettable_ctx_params_fn aes_gettable_ctx_params;
static OSSL_FUNC_cipher_set_ctx_params_fn aes_set_ctx_params;
static OSSL_FUNC_cipher_settable_ctx_params_fn aes_settable_ctx_params;

#define AES_BLOCK 16
/*
 * Bytes per ioctl.  The kernel streams any length in pieces of its own
 * (and stops on a fatal signal); this only bounds how long one call holds
 * off the caller's signal handlers, while 1 MiB per call keeps the fixed
 * cost of an ioctl out of large updates.
 */
#define CHUNK (1024 * 1024)

struct aes_ctx {
	int mode;			/* EVP_CIPH_*_MODE */
	size_t keylen;
	int enc;
	int pad;
	struct ncrp_khandle *key;
	int ses;			/* -1: none yet */
	pid_t ses_pid;			/* process that created ses */
	unsigned char iv[AES_BLOCK], oiv[AES_BLOCK];
	int iv_set;
	unsigned char buf[AES_BLOCK];	/* ECB/CBC partial block */
	size_t buflen;
	unsigned char ks[AES_BLOCK];	/* CTR keystream of a cut block */
	size_t ks_used;			/* 0: none, else bytes already used */
	int inited;
};

static const char *kernel_algo(int mode)
{
	switch (mode) {
	case EVP_CIPH_ECB_MODE:
		return "ecb(aes)";
	case EVP_CIPH_CBC_MODE:
		return "cbc(aes)";
	default:
		return "ctr(aes)";
	}
}

static size_t ivlen_of(int mode)
{
	return mode == EVP_CIPH_ECB_MODE ? 0 : AES_BLOCK;
}

static void *aes_newctx(int mode, size_t keylen)
{
	struct aes_ctx *c = calloc(1, sizeof(*c));

	if (c == NULL) {
		ncrp_raise(NCR_R_MALLOC_FAILURE, "cipher context");
		return NULL;
	}
	c->mode = mode;
	c->keylen = keylen;
	c->pad = 1;
	c->ses = -1;
	return c;
}

/*
 * After fork() parent and child share the namespace, so a session made
 * before the fork is the parent's: the child leaves it alone and starts
 * its own at the tracked chaining value.
 */
static void drop_session(struct aes_ctx *c)
{
	if (c->ses >= 0 && c->ses_pid == getpid())
		ncrlib_session_abort(ncrlib_dev_fd(), c->ses);
	c->ses = -1;
}

static void aes_freectx(void *vctx)
{
	struct aes_ctx *c = vctx;

	if (c == NULL)
		return;
	drop_session(c);
	ncrp_khandle_unref(c->key);
	OPENSSL_cleanse(c, sizeof(*c));
	free(c);
}

static void *aes_dupctx(void *vctx)
{
	struct aes_ctx *src = vctx, *c;

	c = malloc(sizeof(*c));
	if (c == NULL) {
		ncrp_raise(NCR_R_MALLOC_FAILURE, "cipher context");
		return NULL;
	}
	*c = *src;
	/* Same kernel key; the copy gets its own session at the same IV. */
	ncrp_khandle_ref(c->key);
	c->ses = -1;
	return c;
}

static int aes_init(void *vctx, const unsigned char *key, size_t keylen,
		    const unsigned char *iv, size_t ivlen,
		    const OSSL_PARAM params[], int enc);

static int aes_einit(void *vctx, const unsigned char *key, size_t keylen,
		     const unsigned char *iv, size_t ivlen,
		     const OSSL_PARAM params[])
{
	return aes_init(vctx, key, keylen, iv, ivlen, params, 1);
}

static int aes_dinit(void *vctx, const unsigned char *key, size_t keylen,
		     const unsigned char *iv, size_t ivlen,
		     const OSSL_PARAM params[])
{
	return aes_init(vctx, key, keylen, iv, ivlen, params, 0);
}

static int aes_set_ctx_params(void *vctx, const OSSL_PARAM params[]);

static int import_key(struct aes_ctx *c, const unsigned char *key,
		      size_t keylen)
{
	struct ncrp_khandle *h;
	int k, r;

	if (keylen != c->keylen) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT,
			   "AES key length %zu, expected %zu", keylen,
			   c->keylen);
		return 0;
	}
	k = ncrlib_key_new(ncrlib_dev_fd());
	if (k < 0) {
		ncrp_raise_errno("allocating a kernel key", -k);
		return 0;
	}
	/* Not exportable: the kernel never hands it back. */
	r = ncrlib_key_import(ncrlib_dev_fd(), k, kernel_algo(c->mode),
			      NCR_KEY_TYPE_SECRET, 0, key, keylen);
	if (r < 0) {
		ncrlib_key_free(ncrlib_dev_fd(), k);
		ncrp_raise_errno("importing the AES key", -r);
		return 0;
	}
	h = ncrp_khandle_new(k);
	if (h == NULL) {
		ncrlib_key_free(ncrlib_dev_fd(), k);
		ncrp_raise(NCR_R_MALLOC_FAILURE, "key handle");
		return 0;
	}
	ncrp_khandle_unref(c->key);
	c->key = h;
	return 1;
}

static int aes_init(void *vctx, const unsigned char *key, size_t keylen,
		    const unsigned char *iv, size_t ivlen,
		    const OSSL_PARAM params[], int enc)
{
	struct aes_ctx *c = vctx;
	size_t need = ivlen_of(c->mode);

	drop_session(c);
	c->enc = enc;
	c->buflen = 0;
	c->ks_used = 0;
	c->inited = 1;
	if (iv != NULL && need > 0) {
		if (ivlen != need) {
			ncrp_raise(NCR_R_INVALID_ARGUMENT,
				   "IV length %zu, expected %zu", ivlen, need);
			return 0;
		}
		memcpy(c->iv, iv, need);
		memcpy(c->oiv, iv, need);
		c->iv_set = 1;
	} else if (c->iv_set) {
		memcpy(c->iv, c->oiv, need);	/* restart, as OpenSSL does */
	}
	if (key != NULL && !import_key(c, key, keylen))
		return 0;
	return aes_set_ctx_params(c, params);
}

static void ctr_add(unsigned char ctr[AES_BLOCK], size_t blocks)
{
	int i;

	for (i = AES_BLOCK - 1; i >= 0 && blocks != 0; i--) {
		blocks += ctr[i];
		ctr[i] = (unsigned char)blocks;
		blocks >>= 8;
	}
}

static int ensure_session(struct aes_ctx *c)
{
	struct ncrlib_sess_params p;
	int s;

	if (c->ses >= 0 && c->ses_pid == getpid())
		return 1;
	c->ses = -1;
	if (c->key == NULL) {
		ncrp_raise(NCR_R_NO_KEY, "AES key not set");
		return 0;
	}
	if (ivlen_of(c->mode) && !c->iv_set) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "IV not set");
		return 0;
	}
	memset(&p, 0, sizeof(p));
	p.op = c->enc || c->mode == EVP_CIPH_CTR_MODE ?
		NCR_OP_ENCRYPT : NCR_OP_DECRYPT;
	p.algo = kernel_algo(c->mode);
	p.key = c->key->key;
	if (ivlen_of(c->mode)) {
		p.iv = c->iv;
		p.iv_len = AES_BLOCK;
	}
	p.rsa_method = -1;
	p.pss_salt = -1;
	s = ncrlib_session_new(ncrlib_dev_fd(), &p);
	if (s < 0) {
		ncrp_raise_errno("starting a kernel AES session", -s);
		return 0;
	}
	c->ses = s;
	c->ses_pid = getpid();
	return 1;
}

/* Whole blocks in -> out through the session; tracks the chaining value. */
static int run_blocks(struct aes_ctx *c, const unsigned char *in,
		      unsigned char *out, size_t len)
{
	unsigned char last_in[AES_BLOCK];

	if (!ensure_session(c))
		return 0;
	while (len > 0) {
		size_t n = len < CHUNK ? len : CHUNK;
		struct ncrlib_io io;
		long r;

		memcpy(last_in, in + n - AES_BLOCK, AES_BLOCK);
		memset(&io, 0, sizeof(io));
		io.in = in;
		io.in_len = n;
		io.out = out;
		io.out_cap = n;
		r = ncrlib_session_update(ncrlib_dev_fd(), c->ses, &io);
		if (r < 0 || io.out_len != n) {
			drop_session(c);
			if (r < 0)
				ncrp_raise_errno("kernel AES update", (int)-r);
			else
				ncrp_raise(NCR_R_KERNEL_OP_FAILED,
					   "kernel AES returned %zu of %zu bytes",
					   io.out_len, n);
			return 0;
		}
		if (c->mode == EVP_CIPH_CBC_MODE)
			memcpy(c->iv, c->enc ? out + n - AES_BLOCK : last_in,
			       AES_BLOCK);
		else if (c->mode == EVP_CIPH_CTR_MODE)
			ctr_add(c->iv, n / AES_BLOCK);
		in += n;
		out += n;
		len -= n;
	}
	return 1;
}

static int ctr_update(struct aes_ctx *c, unsigned char *out,
		      const unsigned char *in, size_t inl)
{
	static const unsigned char zero[AES_BLOCK];
	size_t n = 0, bulk, tail, i;

	while (c->ks_used != 0 && n < inl) {
		out[n] = in[n] ^ c->ks[c->ks_used++];
		n++;
		if (c->ks_used == AES_BLOCK)
			c->ks_used = 0;
	}
	bulk = (inl - n) & ~(size_t)(AES_BLOCK - 1);
	if (bulk && !run_blocks(c, in + n, out + n, bulk))
		return 0;
	n += bulk;
	tail = inl - n;
	if (tail) {
		if (!run_blocks(c, zero, c->ks, AES_BLOCK))
			return 0;
		for (i = 0; i < tail; i++)
			out[n + i] = in[n + i] ^ c->ks[i];
		c->ks_used = tail;
	}
	return 1;
}

/* The held partial block and the start of in, through one copy. */
static int run_buffered(struct aes_ctx *c, const unsigned char *in,
			unsigned char *out, size_t process)
{
	unsigned char *tmp = malloc(process);
	int ok;

	if (tmp == NULL) {
		ncrp_raise(NCR_R_MALLOC_FAILURE, "cipher buffer");
		return 0;
	}
	memcpy(tmp, c->buf, c->buflen);
	memcpy(tmp + c->buflen, in, process - c->buflen);
	ok = run_blocks(c, tmp, out, process);
	OPENSSL_clear_free(tmp, process);
	return ok;
}

static int block_update(struct aes_ctx *c, unsigned char *out, size_t *outl,
			size_t outsize, const unsigned char *in, size_t inl)
{
	size_t total = c->buflen + inl, keep, process;
	unsigned char newbuf[AES_BLOCK];
	int ok;

	keep = total % AES_BLOCK;
	if (!c->enc && c->pad && keep == 0 && total > 0)
		keep = AES_BLOCK;	/* hold the block that carries padding */
	process = total - keep;
	if (process == 0) {
		memcpy(c->buf + c->buflen, in, inl);
		c->buflen += inl;
		*outl = 0;
		return 1;
	}
	if (outsize < process) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "output buffer too small");
		return 0;
	}
	memcpy(newbuf, in + (inl - keep), keep);	/* in may be out */
	if (c->buflen == 0)
		ok = run_blocks(c, in, out, process);
	else
		ok = run_buffered(c, in, out, process);
	if (!ok)
		return 0;
	memcpy(c->buf, newbuf, keep);
	c->buflen = keep;
	*outl = process;
	return 1;
}

static int aes_update(void *vctx, unsigned char *out, size_t *outl,
		      size_t outsize, const unsigned char *in, size_t inl)
{
	struct aes_ctx *c = vctx;

	*outl = 0;
	if (!c->inited) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "cipher not initialised");
		return 0;
	}
	if (inl == 0)
		return 1;
	if (c->mode == EVP_CIPH_CTR_MODE) {
		if (outsize < inl) {
			ncrp_raise(NCR_R_INVALID_ARGUMENT,
				   "output buffer too small");
			return 0;
		}
		if (!ctr_update(c, out, in, inl))
			return 0;
		*outl = inl;
		return 1;
	}
	return block_update(c, out, outl, outsize, in, inl);
}

/* Encryption with padding: the padded last block. */
static int final_pad(struct aes_ctx *c, unsigned char *out, size_t *outl,
		     size_t outsize)
{
	unsigned int padv = AES_BLOCK - (unsigned int)c->buflen;

	memset(c->buf + c->buflen, (int)padv, padv);
	if (outsize < AES_BLOCK) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "output buffer too small");
		return 0;
	}
	if (!run_blocks(c, c->buf, out, AES_BLOCK))
		return 0;
	c->buflen = 0;
	*outl = AES_BLOCK;
	return 1;
}

/* Decryption with padding: the last block, its padding checked. */
static int final_unpad(struct aes_ctx *c, unsigned char *out, size_t *outl,
		       size_t outsize)
{
	unsigned char blk[AES_BLOCK];
	unsigned int padv, bad, i;

	if (c->buflen != AES_BLOCK) {
		ncrp_raise(NCR_R_BAD_DECRYPT, "wrong final block length");
		return 0;
	}
	if (!run_blocks(c, c->buf, blk, AES_BLOCK))
		return 0;
	c->buflen = 0;
	padv = blk[AES_BLOCK - 1];
	bad = (padv == 0) | (padv > AES_BLOCK);
	for (i = 0; i < AES_BLOCK; i++) {
		unsigned int in_pad = i >= AES_BLOCK - padv;

		bad |= in_pad & (blk[i] != padv);
	}
	if (bad) {
		OPENSSL_cleanse(blk, sizeof(blk));
		ncrp_raise(NCR_R_BAD_DECRYPT, "bad padding");
		return 0;
	}
	if (outsize < AES_BLOCK - padv) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "output buffer too small");
		return 0;
	}
	memcpy(out, blk, AES_BLOCK - padv);
	OPENSSL_cleanse(blk, sizeof(blk));
	*outl = AES_BLOCK - padv;
	return 1;
}

static int aes_final(void *vctx, unsigned char *out, size_t *outl,
		     size_t outsize)
{
	struct aes_ctx *c = vctx;

	*outl = 0;
	if (!c->inited) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "cipher not initialised");
		return 0;
	}
	if (c->mode == EVP_CIPH_CTR_MODE)
		return 1;
	if (!c->pad) {
		if (c->buflen != 0) {
			ncrp_raise(NCR_R_INVALID_ARGUMENT,
				   "data not a multiple of the block length");
			return 0;
		}
		return 1;
	}
	return c->enc ? final_pad(c, out, outl, outsize)
		      : final_unpad(c, out, outl, outsize);
}

/* EVP_Cipher(): no padding, no buffering of block modes. */
static int aes_cipher(void *vctx, unsigned char *out, size_t *outl,
		      size_t outsize, const unsigned char *in, size_t inl)
{
	struct aes_ctx *c = vctx;

	if (c->mode != EVP_CIPH_CTR_MODE &&
	    (inl % AES_BLOCK != 0 || c->buflen != 0)) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT,
			   "data not a multiple of the block length");
		return 0;
	}
	if (outsize < inl) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "output buffer too small");
		return 0;
	}
	if (c->mode == EVP_CIPH_CTR_MODE) {
		if (!ctr_update(c, out, in, inl))
			return 0;
	} else if (inl && !run_blocks(c, in, out, inl)) {
		return 0;
	}
	*outl = inl;
	return 1;
}

static int aes_get_params(OSSL_PARAM params[], int mode, size_t keylen)
{
	OSSL_PARAM *p;

	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_MODE);
	if (p != NULL && !OSSL_PARAM_set_uint(p, (unsigned int)mode))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN);
	if (p != NULL && !OSSL_PARAM_set_size_t(p, keylen))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN);
	if (p != NULL && !OSSL_PARAM_set_size_t(p, ivlen_of(mode)))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE);
	if (p != NULL && !OSSL_PARAM_set_size_t(p, mode == EVP_CIPH_CTR_MODE ?
						1 : AES_BLOCK))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_AEAD);
	if (p != NULL && !OSSL_PARAM_set_int(p, 0))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CUSTOM_IV);
	if (p != NULL && !OSSL_PARAM_set_int(p, 0))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_CTS);
	if (p != NULL && !OSSL_PARAM_set_int(p, 0))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK);
	if (p != NULL && !OSSL_PARAM_set_int(p, 0))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_HAS_RAND_KEY);
	if (p != NULL && !OSSL_PARAM_set_int(p, 0))
		return 0;
	return 1;
}

static const OSSL_PARAM *aes_gettable_params(void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),
		OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
		OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
		OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
		OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),
		OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
		OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, NULL),
		OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, NULL),
		OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, NULL),
		OSSL_PARAM_END
	};

	(void)provctx;
	return t;
}

static int aes_get_ctx_params(void *vctx, OSSL_PARAM params[])
{
	struct aes_ctx *c = vctx;
	size_t ivl = ivlen_of(c->mode);
	OSSL_PARAM *p;

	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_KEYLEN);
	if (p != NULL && !OSSL_PARAM_set_size_t(p, c->keylen))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IVLEN);
	if (p != NULL && !OSSL_PARAM_set_size_t(p, ivl))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_PADDING);
	if (p != NULL && !OSSL_PARAM_set_uint(p, (unsigned int)c->pad))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_NUM);
	if (p != NULL && !OSSL_PARAM_set_uint(p, (unsigned int)c->ks_used))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_IV);
	if (p != NULL && ivl &&
	    !OSSL_PARAM_set_octet_string(p, c->oiv, ivl))
		return 0;
	p = OSSL_PARAM_locate(params, OSSL_CIPHER_PARAM_UPDATED_IV);
	if (p != NULL && ivl &&
	    !OSSL_PARAM_set_octet_string(p, c->iv, ivl))
		return 0;
	return 1;
}

static const OSSL_PARAM *aes_gettable_ctx_params(void *cctx, void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
		OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
		OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
		OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, NULL),
		OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_IV, NULL, 0),
		OSSL_PARAM_octet_string(OSSL_CIPHER_PARAM_UPDATED_IV, NULL, 0),
		OSSL_PARAM_END
	};

	(void)cctx;
	(void)provctx;
	return t;
}

static int aes_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	struct aes_ctx *c = vctx;
	const OSSL_PARAM *p;
	unsigned int u;
	size_t sz;

	if (params == NULL)
		return 1;
	p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_PADDING);
	if (p != NULL) {
		if (!OSSL_PARAM_get_uint(p, &u))
			return 0;
		c->pad = u ? 1 : 0;
	}
	p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN);
	if (p != NULL) {
		if (!OSSL_PARAM_get_size_t(p, &sz))
			return 0;
		if (sz != c->keylen) {
			ncrp_raise(NCR_R_NOT_SUPPORTED,
				   "key length is fixed at %zu", c->keylen);
			return 0;
		}
	}
	p = OSSL_PARAM_locate_const(params, OSSL_CIPHER_PARAM_NUM);
	if (p != NULL) {
		if (!OSSL_PARAM_get_uint(p, &u))
			return 0;
		if (u != c->ks_used) {
			ncrp_raise(NCR_R_NOT_SUPPORTED,
				   "cannot move the CTR keystream position");
			return 0;
		}
	}
	return 1;
}

static const OSSL_PARAM *aes_settable_ctx_params(void *cctx, void *provctx)
{
	static const OSSL_PARAM t[] = {
		OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
		OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
		OSSL_PARAM_uint(OSSL_CIPHER_PARAM_NUM, NULL),
		OSSL_PARAM_END
	};

	(void)cctx;
	(void)provctx;
	return t;
}

#define AES_IMPL(bits, lmode, UMODE)					\
static void *aes##bits##lmode##_newctx(void *provctx)			\
{									\
	(void)provctx;							\
	return aes_newctx(EVP_CIPH_##UMODE##_MODE, (bits) / 8);		\
}									\
static int aes##bits##lmode##_get_params(OSSL_PARAM params[])		\
{									\
	return aes_get_params(params, EVP_CIPH_##UMODE##_MODE, (bits) / 8);\
}									\
static const OSSL_DISPATCH aes##bits##lmode##_functions[] = {		\
	{ OSSL_FUNC_CIPHER_NEWCTX,					\
	  (void (*)(void))aes##bits##lmode##_newctx },			\
	{ OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))aes_freectx },	\
	{ OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))aes_dupctx },	\
	{ OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))aes_einit },	\
	{ OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))aes_dinit },	\
	{ OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))aes_update },	\
	{ OSSL_FUNC_CIPHER_FINAL, (void (*)(void))aes_final },		\
	{ OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))aes_cipher },	\
	{ OSSL_FUNC_CIPHER_GET_PARAMS,					\
	  (void (*)(void))aes##bits##lmode##_get_params },		\
	{ OSSL_FUNC_CIPHER_GETTABLE_PARAMS,				\
	  (void (*)(void))aes_gettable_params },			\
	{ OSSL_FUNC_CIPHER_GET_CTX_PARAMS,				\
	  (void (*)(void))aes_get_ctx_params },				\
	{ OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS,				\
	  (void (*)(void))aes_gettable_ctx_params },			\
	{ OSSL_FUNC_CIPHER_SET_CTX_PARAMS,				\
	  (void (*)(void))aes_set_ctx_params },				\
	{ OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS,				\
	  (void (*)(void))aes_settable_ctx_params },			\
	{ 0, NULL }							\
};

AES_IMPL(128, ecb, ECB)
AES_IMPL(192, ecb, ECB)
AES_IMPL(256, ecb, ECB)
AES_IMPL(128, cbc, CBC)
AES_IMPL(192, cbc, CBC)
AES_IMPL(256, cbc, CBC)
AES_IMPL(128, ctr, CTR)
AES_IMPL(192, ctr, CTR)
AES_IMPL(256, ctr, CTR)

const OSSL_ALGORITHM ncrp_ciphers[] = {
	{ NCRP_NAMES_AES_256_ECB, NCRP_PROPS, aes256ecb_functions,
	  NULL },
	{ NCRP_NAMES_AES_192_ECB, NCRP_PROPS, aes192ecb_functions,
	  NULL },
	{ NCRP_NAMES_AES_128_ECB, NCRP_PROPS, aes128ecb_functions,
	  NULL },
	{ NCRP_NAMES_AES_256_CBC, NCRP_PROPS,
	  aes256cbc_functions, NULL },
	{ NCRP_NAMES_AES_192_CBC, NCRP_PROPS,
	  aes192cbc_functions, NULL },
	{ NCRP_NAMES_AES_128_CBC, NCRP_PROPS,
	  aes128cbc_functions, NULL },
	{ NCRP_NAMES_AES_256_CTR, NCRP_PROPS, aes256ctr_functions, NULL },
	{ NCRP_NAMES_AES_192_CTR, NCRP_PROPS, aes192ctr_functions, NULL },
	{ NCRP_NAMES_AES_128_CTR, NCRP_PROPS, aes128ctr_functions, NULL },
	{ NULL, NULL, NULL, NULL }
};
