// SPDX-License-Identifier: GPL-2.0
/*
 * The provider's key object: a kernel handle for the private half (never
 * its material) plus the public half as an EVP_PKEY of the private software
 * library context, so public operations and encodings need no kernel round
 * trip.  Shared by reference between EVP_PKEYs, contexts and threads.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/param_build.h>
#include "ncr_prov.h"

struct ncrp_pkey *ncrp_pkey_new(struct ncrp_provctx *prov, int type)
{
	struct ncrp_pkey *k = calloc(1, sizeof(*k));

	if (k == NULL) {
		ncrp_raise(NCR_R_MALLOC_FAILURE, "key object");
		return NULL;
	}
	k->prov = prov;
	k->type = type;
	k->refs = 1;
	return k;
}

struct ncrp_pkey *ncrp_pkey_ref(struct ncrp_pkey *k)
{
	if (k != NULL)
		__atomic_add_fetch(&k->refs, 1, __ATOMIC_RELAXED);
	return k;
}

void ncrp_pkey_free(struct ncrp_pkey *k)
{
	if (k == NULL || __atomic_sub_fetch(&k->refs, 1, __ATOMIC_ACQ_REL))
		return;
	ncrp_khandle_unref(k->priv);
	EVP_PKEY_CTX_free(k->sig_template);
	EVP_PKEY_free(k->pub);
	free(k);
}

/* OpenSSL's and the kernel's name of each key type. */
static const struct {
	const char *ossl, *kernel;
} pk_names[] = {
	[NCR_PKT_RSA] = { "RSA", "rsa" },
	[NCR_PKT_DSA] = { "DSA", "dsa" },
	[NCR_PKT_DH] = { "DH", "dh" },
	/* One kernel algorithm for every EC key: the key carries its curve. */
	[NCR_PKT_EC] = { "EC", "ecdsa" },
	[NCR_PKT_X25519] = { "X25519", "ecdsa" },
};

/* Out of range (no key object has such a type): DH's names. */
static int pk_index(int type)
{
	return type > 0 && type < NCR_PKT_END__ ? type : NCR_PKT_DH;
}

int ncrp_pk_has_domain(int type)
{
	return type != NCR_PKT_RSA && type != NCR_PKT_X25519;
}

const char *ncrp_pk_ossl_name(int type)
{
	return pk_names[pk_index(type)].ossl;
}

const char *ncrp_pk_kernel_name(int type)
{
	return pk_names[pk_index(type)].kernel;
}

int ncrp_pkey_set_pub_spki(struct ncrp_pkey *k, const unsigned char *der,
			   size_t len)
{
	const unsigned char *p = der;
	EVP_PKEY *pub;

	pub = d2i_PUBKEY_ex(NULL, &p, (long)len, k->prov->swctx, NULL);
	if (pub == NULL || p != der + len) {
		EVP_PKEY_free(pub);
		ncrp_raise(NCR_R_BAD_KEY_FILE, "public key is not a valid "
			   "SubjectPublicKeyInfo");
		return 0;
	}
	if (!EVP_PKEY_is_a(pub, ncrp_pk_ossl_name(k->type))) {
		EVP_PKEY_free(pub);
		ncrp_raise(NCR_R_BAD_KEY_FILE, "public key is not %s",
			   ncrp_pk_ossl_name(k->type));
		return 0;
	}
	EVP_PKEY_free(k->pub);
	k->pub = pub;
	return 1;
}

int ncrp_pkey_spki(const struct ncrp_pkey *k, unsigned char **der, size_t *len)
{
	int n;

	*der = NULL;
	if (k->pub == NULL) {
		ncrp_raise(NCR_R_NO_KEY, "no public key");
		return 0;
	}
	n = i2d_PUBKEY(k->pub, der);
	if (n <= 0) {
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "cannot encode public key");
		return 0;
	}
	*len = (size_t)n;
	return 1;
}

/* DH: public value y (raw, big-endian) on the domain of @params. */
static int set_dh_pub(struct ncrp_pkey *k, const unsigned char *y, size_t ylen,
		      const EVP_PKEY *params)
{
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM *dp = NULL, *pp = NULL, *all = NULL;
	EVP_PKEY_CTX *pc = NULL;
	EVP_PKEY *pub = NULL;
	BIGNUM *bn = BN_bin2bn(y, (int)ylen, NULL);
	int ok = 0;

	if (bld == NULL || bn == NULL || params == NULL ||
	    !EVP_PKEY_todata(params, EVP_PKEY_KEY_PARAMETERS, &dp) ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PUB_KEY, bn) ||
	    (pp = OSSL_PARAM_BLD_to_param(bld)) == NULL ||
	    (all = OSSL_PARAM_merge(dp, pp)) == NULL)
		goto out;
	pc = EVP_PKEY_CTX_new_from_name(k->prov->swctx, "DH", NULL);
	if (pc == NULL || EVP_PKEY_fromdata_init(pc) <= 0 ||
	    EVP_PKEY_fromdata(pc, &pub, EVP_PKEY_PUBLIC_KEY, all) <= 0)
		goto out;
	EVP_PKEY_free(k->pub);
	k->pub = pub;
	ok = 1;
out:
	if (!ok)
		ncrp_raise(NCR_R_KERNEL_OP_FAILED,
			   "cannot build the DH public key");
	EVP_PKEY_CTX_free(pc);
	OSSL_PARAM_free(all);
	OSSL_PARAM_free(pp);
	OSSL_PARAM_free(dp);
	OSSL_PARAM_BLD_free(bld);
	BN_free(bn);
	return ok;
}

int ncrp_pkey_set_pub_from_kernel(struct ncrp_pkey *k, int pubh,
				  const EVP_PKEY *dh_params)
{
	unsigned char *buf;
	size_t cap = 4096;
	long n;
	int ok;

	for (;;) {
		buf = malloc(cap);
		if (buf == NULL) {
			ncrp_raise(NCR_R_MALLOC_FAILURE, "public key buffer");
			return 0;
		}
		n = ncrlib_key_export(ncrlib_dev_fd(), pubh, buf, cap);
		if (n != -ERANGE || cap >= 65536)
			break;
		free(buf);
		cap *= 4;
	}
	if (n < 0) {
		free(buf);
		ncrp_raise_errno("exporting the public key", (int)-n);
		return 0;
	}
	if (k->type == NCR_PKT_DH)
		ok = set_dh_pub(k, buf, (size_t)n, dh_params);
	else
		ok = ncrp_pkey_set_pub_spki(k, buf, (size_t)n);
	free(buf);
	return ok;
}

int ncrp_pkey_wrap(const struct ncrp_pkey *k, unsigned char **blob,
		   size_t *len)
{
	unsigned char *buf;
	size_t cap = 8192;
	long n;

	*blob = NULL;
	if (k->priv == NULL) {
		ncrp_raise(NCR_R_NO_KEY, "no kernel private key to store");
		return 0;
	}
	for (;;) {
		buf = malloc(cap);
		if (buf == NULL) {
			ncrp_raise(NCR_R_MALLOC_FAILURE, "blob buffer");
			return 0;
		}
		n = ncrlib_key_storage_wrap(ncrlib_dev_fd(), k->priv->key,
					    buf, cap);
		if (n != -ERANGE || cap >= 65536)
			break;
		free(buf);
		cap *= 2;
	}
	if (n < 0) {
		free(buf);
		if (n == -EPERM || n == -EACCES)
			ncrp_raise(NCR_R_KEY_NOT_EXPORTABLE,
				   "the kernel key is not wrappable: %s",
				   strerror((int)-n));
		else
			ncrp_raise_errno("storage-wrapping the key", (int)-n);
		return 0;
	}
	*blob = buf;
	*len = (size_t)n;
	return 1;
}

/*
 * The kernel sets a generated key's ID to SHA-1 of its public half in the
 * export format (SPKI DER; DH: the bare public number), and the blob keeps
 * it: compare with the public key in clear, so that a key file whose
 * public part was swapped is refused instead of lying about its key.
 */
static int pub_matches_id(const struct ncrp_pkey *k, const unsigned char *id,
			  size_t id_len)
{
	unsigned char md[20], *der = NULL;
	BIGNUM *y = NULL;
	size_t len = 0;
	int ok = 0;

	if (id_len != sizeof(md))
		return 1;	/* not a kernel-derived ID: nothing to check */
	if (k->type == NCR_PKT_DH) {
		if (!EVP_PKEY_get_bn_param(k->pub, OSSL_PKEY_PARAM_PUB_KEY, &y))
			return 0;
		len = (size_t)BN_num_bytes(y);
		der = OPENSSL_malloc(len ? len : 1);
		if (der != NULL)
			BN_bn2bin(y, der);
		BN_free(y);
	} else {
		int n = i2d_PUBKEY(k->pub, &der);

		len = n > 0 ? (size_t)n : 0;
	}
	if (der != NULL &&
	    EVP_Digest(der, len, md, NULL, EVP_sha1(), NULL) &&
	    memcmp(md, id, sizeof(md)) == 0)
		ok = 1;
	OPENSSL_free(der);
	return ok;
}

int ncrp_pkey_unwrap(struct ncrp_pkey *k, const unsigned char *blob,
		     size_t len)
{
	struct ncrlib_key_info info;
	struct ncrp_khandle *h;
	int key, r;

	key = ncrlib_key_new(ncrlib_dev_fd());
	if (key < 0) {
		ncrp_raise_errno("allocating a kernel key", -key);
		return 0;
	}
	r = ncrlib_key_storage_unwrap(ncrlib_dev_fd(), key, blob, len);
	if (r < 0) {
		ncrlib_key_free(ncrlib_dev_fd(), key);
		if (r == -EBADMSG || r == -EINVAL)
			ncrp_raise(NCR_R_BLOB_REJECTED, "storage unwrap: %s",
				   strerror(-r));
		else
			ncrp_raise_errno("storage-unwrapping the key", -r);
		return 0;
	}
	r = ncrlib_key_info(ncrlib_dev_fd(), key, &info);
	if (r < 0 || info.type != NCR_KEY_TYPE_PRIVATE ||
	    strcmp(info.algo, ncrp_pk_kernel_name(k->type)) != 0) {
		ncrlib_key_free(ncrlib_dev_fd(), key);
		ncrp_raise(NCR_R_BAD_KEY_FILE, "the blob does not hold a %s "
			   "private key", ncrp_pk_ossl_name(k->type));
		return 0;
	}
	if (k->pub != NULL && !pub_matches_id(k, info.id, info.id_len)) {
		ncrlib_key_free(ncrlib_dev_fd(), key);
		ncrp_raise(NCR_R_BAD_KEY_FILE, "the public key in the file does "
			   "not belong to the kernel key in the blob");
		return 0;
	}
	h = ncrp_khandle_new(key);
	if (h == NULL) {
		ncrlib_key_free(ncrlib_dev_fd(), key);
		ncrp_raise(NCR_R_MALLOC_FAILURE, "key handle");
		return 0;
	}
	ncrp_khandle_unref(k->priv);
	k->priv = h;
	k->kflags = info.flags;
	return 1;
}

/* DH: the public number y, big-endian. */
static unsigned char *dh_peer_value(const EVP_PKEY *pub, size_t *len)
{
	unsigned char *y;
	BIGNUM *bn = NULL;

	if (!EVP_PKEY_get_bn_param(pub, OSSL_PKEY_PARAM_PUB_KEY, &bn))
		return NULL;
	*len = (size_t)BN_num_bytes(bn);
	y = malloc(*len ? *len : 1);
	if (y != NULL)
		BN_bn2bin(bn, y);
	BN_free(bn);
	return y;
}

/*
 * NIST curves: 0x04 || X || Y at the field length, from the affine
 * coordinates, so that a peer key kept in compressed form still gives the
 * uncompressed point the kernel accepts.
 */
static unsigned char *ec_peer_value(const EVP_PKEY *pub, size_t *len)
{
	BIGNUM *x = NULL, *y = NULL;
	unsigned char *pt = NULL;
	int fl = (EVP_PKEY_get_bits(pub) + 7) / 8;

	if (fl <= 0 ||
	    !EVP_PKEY_get_bn_param(pub, OSSL_PKEY_PARAM_EC_PUB_X, &x) ||
	    !EVP_PKEY_get_bn_param(pub, OSSL_PKEY_PARAM_EC_PUB_Y, &y))
		goto out;
	*len = 1 + 2 * (size_t)fl;
	pt = malloc(*len);
	if (pt == NULL)
		goto out;
	pt[0] = 0x04;
	if (BN_bn2binpad(x, pt + 1, fl) != fl ||
	    BN_bn2binpad(y, pt + 1 + fl, fl) != fl) {
		free(pt);
		pt = NULL;
	}
out:
	BN_free(x);
	BN_free(y);
	return pt;
}

/* X25519: the 32-byte u. */
static unsigned char *x25519_peer_value(const EVP_PKEY *pub, size_t *len)
{
	unsigned char *u = malloc(32);

	*len = 32;
	if (u != NULL && (!EVP_PKEY_get_raw_public_key(pub, u, len) ||
			  *len != 32)) {
		free(u);
		u = NULL;
	}
	return u;
}

unsigned char *ncrp_pkey_peer_value(const struct ncrp_pkey *peer, size_t *len)
{
	unsigned char *v = NULL;

	if (peer->pub != NULL) {
		switch (peer->type) {
		case NCR_PKT_DH:
			v = dh_peer_value(peer->pub, len);
			break;
		case NCR_PKT_EC:
			v = ec_peer_value(peer->pub, len);
			break;
		case NCR_PKT_X25519:
			v = x25519_peer_value(peer->pub, len);
			break;
		}
	}
	if (v == NULL)
		ncrp_raise(NCR_R_INVALID_ARGUMENT, "the peer %s key has no "
			   "public value", ncrp_pk_ossl_name(peer->type));
	return v;
}

/*
 * The digests the kernel has, by the names OpenSSL gives them; the
 * canonical name (EVP_MD_get0_name) is the first of each row.
 */
static const struct {
	const char *ossl[3], *kernel;
	size_t size;
} md_map[] = {
	{ { "SHA1", "SHA-1", "SSL3-SHA1" }, "sha1", 20 },
	{ { "SHA2-224", "SHA-224", "SHA224" }, "sha224", 28 },
	{ { "SHA2-256", "SHA-256", "SHA256" }, "sha256", 32 },
	{ { "SHA2-384", "SHA-384", "SHA384" }, "sha384", 48 },
	{ { "SHA2-512", "SHA-512", "SHA512" }, "sha512", 64 },
	{ { "SHA3-224" }, "sha3-224", 28 },
	{ { "SHA3-256" }, "sha3-256", 32 },
	{ { "SHA3-384" }, "sha3-384", 48 },
	{ { "SHA3-512" }, "sha3-512", 64 },
	{ { "MD5", "SSL3-MD5" }, "md5", 16 },
};

/* A row by one of its names, without a fetch (one per signature counts). */
static int md_by_name(const char *mdname)
{
	size_t i, j;

	for (i = 0; i < sizeof(md_map) / sizeof(md_map[0]); i++)
		for (j = 0; j < 3 && md_map[i].ossl[j] != NULL; j++)
			if (strcasecmp(mdname, md_map[i].ossl[j]) == 0)
				return (int)i;
	return -1;
}

const char *ncrp_md_kernel_name(struct ncrp_provctx *prov, const char *mdname,
				size_t *mdsize)
{
	const char *res = NULL;
	EVP_MD *md;
	size_t i;
	int row;

	if (mdname == NULL)
		return NULL;
	row = md_by_name(mdname);
	if (row >= 0) {
		if (mdsize != NULL)
			*mdsize = md_map[row].size;
		return md_map[row].kernel;
	}
	/* any other alias or an OID: what libcrypto says it is */
	md = EVP_MD_fetch(prov->swctx, mdname, NULL);
	if (md == NULL)
		return NULL;
	for (i = 0; i < sizeof(md_map) / sizeof(md_map[0]); i++) {
		if (EVP_MD_is_a(md, md_map[i].ossl[0])) {
			res = md_map[i].kernel;
			break;
		}
	}
	if (mdsize != NULL)
		*mdsize = (size_t)EVP_MD_get_size(md);
	EVP_MD_free(md);
	return res;
}
