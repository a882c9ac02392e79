// SPDX-License-Identifier: GPL-2.0
/*
 * libcrypto side of "ncrctl key" (ncrctl_pkey.h).  Everything runs in a
 * private library context holding only OpenSSL's default provider, so
 * neither OPENSSL_CONF nor the ncr provider take part in parsing a key.
 */
#define _GNU_SOURCE	/* memmem */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <openssl/bio.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/provider.h>
#include <openssl/ui.h>
#include <openssl/x509.h>
#include "keyfile.h"
#include "ncrctl.h"
#include "ncrctl_parse.h"
#include "ncrctl_pkey.h"

static OSSL_LIB_CTX *ctx;

int ncrctl_pkey_init(void)
{
	if (ctx != NULL)
		return 1;
	/* No OPENSSL_CONF: it might activate the ncr provider. */
	if (!OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, NULL))
		return 0;
	ctx = OSSL_LIB_CTX_new();
	if (ctx != NULL && OSSL_PROVIDER_load(ctx, "default") == NULL) {
		OSSL_LIB_CTX_free(ctx);
		ctx = NULL;
	}
	return ctx != NULL;
}

static OSSL_LIB_CTX *libctx(void)
{
	return ctx;
}

/* ---- decoding the private key ---- */

#define TYPED_MAX 1024		/* openssl's APP_PASS_LEN */

struct pw_state {
	const struct ncrctl_pass *pw;	/* --passin */
	const char *path;
	int asked;		/* the input turned out to be encrypted */
	int prompted;		/* the terminal was asked (once per run) */
	char typed[TYPED_MAX + 1];
	size_t typed_len;
};

static int have_tty(void)
{
	int fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/*
 * Without --passin, as `openssl pkey` does: "Enter pass phrase for IN:" on
 * the controlling terminal, echo off.  0: no terminal, or nothing typed.
 */
static int prompt(struct pw_state *st)
{
	char q[512];

	if (!st->prompted) {
		st->prompted = 1;
		snprintf(q, sizeof(q), "Enter pass phrase for %s:", st->path);
		if (have_tty() && EVP_read_pw_string(st->typed,
						     sizeof(st->typed), q,
						     0) == 0)
			st->typed_len = strlen(st->typed);
	}
	return st->typed_len > 0;
}

static int pw_cb(char *buf, size_t size, size_t *len,
		 const OSSL_PARAM params[], void *arg)
{
	struct pw_state *st = arg;
	const char *p;
	size_t n;

	(void)params;
	st->asked = 1;
	if (st->pw != NULL && st->pw->pass != NULL) {
		p = st->pw->pass;
		n = st->pw->len;
	} else if (prompt(st)) {
		p = st->typed;
		n = st->typed_len;
	} else {
		return 0;
	}
	if (n > size)
		return 0;
	memcpy(buf, p, n);
	*len = n;
	return 1;
}

static EVP_PKEY *decode_at(const unsigned char *data, size_t len,
			   struct pw_state *st)
{
	OSSL_DECODER_CTX *dctx;
	EVP_PKEY *pk = NULL;
	const unsigned char *p = data;
	size_t left = len;

	dctx = OSSL_DECODER_CTX_new_for_pkey(&pk, NULL, NULL, NULL,
					     EVP_PKEY_KEYPAIR, libctx(), NULL);
	if (dctx == NULL)
		return NULL;
	if (!OSSL_DECODER_CTX_set_passphrase_cb(dctx, pw_cb, st) ||
	    !OSSL_DECODER_from_data(dctx, &p, &left)) {
		EVP_PKEY_free(pk);
		pk = NULL;
	}
	OSSL_DECODER_CTX_free(dctx);
	return pk;
}

/*
 * The decoders read the first PEM block only; like `openssl pkey` (which
 * goes through OSSL_STORE), also try the blocks after it, so that e.g.
 * "EC PARAMETERS" + "EC PRIVATE KEY" or a certificate + key file work.
 */
static EVP_PKEY *decode(const unsigned char *data, size_t len,
			struct pw_state *st)
{
	static const char begin[] = "-----BEGIN ";
	const unsigned char *p = data, *end = data + len;
	EVP_PKEY *pk = NULL;
	int blocks = 0;

	while (p != NULL && pk == NULL && blocks++ < 64) {
		pk = decode_at(p, (size_t)(end - p), st);
		p = end - p > 1 ? memmem(p + 1, (size_t)(end - p - 1), begin,
					 sizeof(begin) - 1) : NULL;
	}
	return pk;
}

/* The keys the kernel driver holds, as OpenSSL names them. */
static const struct held {
	const char *type;	/* OpenSSL's key type, exactly */
	int group;		/* EC: the named curve's NID; 0: none */
	int alg;
	const char *curve;	/* as printed; "" for none */
} held[] = {
	/* RSA-PSS and X9.42 DH (DHX) are other types */
	{ "RSA", 0, NCRCTL_ALG_RSA, "" },
	{ "DSA", 0, NCRCTL_ALG_DSA, "" },
	{ "DH", 0, NCRCTL_ALG_DH, "" },
	{ "EC", NID_X9_62_prime256v1, NCRCTL_ALG_EC, "P-256" },
	{ "EC", NID_secp384r1, NCRCTL_ALG_EC, "P-384" },
	{ "X25519", 0, NCRCTL_ALG_X25519, "X25519" },
};

#define N_HELD (sizeof(held) / sizeof(held[0]))

/* An EC key's curve, by name. */
struct curve {
	int nid;		/* NID_undef: not EC, or explicit parameters */
	int explicit;		/* explicit parameters instead of a name */
	char name[64];		/* OpenSSL's, "" if none */
};

static void curve_of(const EVP_PKEY *pk, struct curve *c)
{
	char enc[32];

	memset(c, 0, sizeof(*c));
	if (!EVP_PKEY_is_a(pk, "EC"))
		return;
	/* explicit parameters may still match a named curve: refused too */
	if (EVP_PKEY_get_utf8_string_param(pk, OSSL_PKEY_PARAM_EC_ENCODING,
					   enc, sizeof(enc), NULL) &&
	    !strcmp(enc, OSSL_PKEY_EC_ENCODING_EXPLICIT))
		c->explicit = 1;
	else if (!EVP_PKEY_get_utf8_string_param(pk,
			OSSL_PKEY_PARAM_GROUP_NAME, c->name, sizeof(c->name),
			NULL))
		c->explicit = 1;
	else
		c->nid = OBJ_sn2nid(c->name);
	if (c->explicit)
		c->name[0] = '\0';
}

static const struct held *held_of(const EVP_PKEY *pk)
{
	struct curve c;
	size_t i;

	curve_of(pk, &c);
	for (i = 0; i < N_HELD; i++)
		if (EVP_PKEY_is_a(pk, held[i].type) &&
		    (held[i].group == 0 || held[i].group == c.nid))
			return &held[i];
	return NULL;
}

/* One line naming @path and the algorithm or curve; EXIT_UNSUPPORTED. */
static int unsupported(const char *path, const EVP_PKEY *pk)
{
	const char *why = "curve not supported";
	char what[96];
	struct curve c;

	curve_of(pk, &c);
	if (c.explicit) {
		snprintf(what, sizeof(what), "EC key with explicit curve "
			 "parameters");
		why = "only named curves are supported";
	} else if (c.name[0]) {
		snprintf(what, sizeof(what), "EC key on curve %s", c.name);
	} else {
		snprintf(what, sizeof(what), "%s key",
			 EVP_PKEY_get0_type_name(pk));
		why = "algorithm not supported";
	}
	return ncrctl_die(EXIT_UNSUPPORTED, "%s: %s: %s by the kernel driver "
			  "(it holds " NCRCTL_ALGS_HELD ")", path, what, why);
}

/*
 * The driver takes named curves and uncompressed points only; a SEC1 key
 * may come with a compressed public key, which sets the key's form.
 */
static int uncompressed(EVP_PKEY *pk)
{
	return !EVP_PKEY_is_a(pk, "EC") ||
	       EVP_PKEY_set_utf8_string_param(pk,
			OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT,
			OSSL_PKEY_EC_POINT_CONVERSION_FORMAT_UNCOMPRESSED);
}

/*
 * PrivateKeyInfo DER, which NCRIO_KEY_IMPORT takes for every algorithm;
 * EC points uncompressed from here on (also in the SubjectPublicKeyInfo).
 */
static int encode_pkcs8(EVP_PKEY *pk, unsigned char **der, size_t *len)
{
	OSSL_ENCODER_CTX *ectx;
	int ok;

	*der = NULL;
	if (!uncompressed(pk))
		return 0;
	ectx = OSSL_ENCODER_CTX_new_for_pkey(pk, EVP_PKEY_KEYPAIR, "DER",
					     "PrivateKeyInfo", NULL);
	ok = ectx != NULL && OSSL_ENCODER_CTX_get_num_encoders(ectx) > 0 &&
	     OSSL_ENCODER_to_data(ectx, der, len);
	OSSL_ENCODER_CTX_free(ectx);
	return ok;
}

static int encode_spki(EVP_PKEY *pk, unsigned char **der, size_t *len)
{
	int n;

	*der = NULL;
	n = i2d_PUBKEY(pk, der);
	if (n <= 0)
		return 0;
	*len = (size_t)n;
	return 1;
}

static int decode_failed(const char *path, const struct pw_state *st)
{
	if (st->asked && (st->pw == NULL || st->pw->pass == NULL) &&
	    st->typed_len == 0)
		return ncrctl_die(EXIT_PASSPHRASE, "%s: the key is encrypted; "
				  "give its passphrase with --passin (or type "
				  "it on a terminal)", path);
	if (st->asked)
		return ncrctl_die(EXIT_PASSPHRASE, "%s: wrong passphrase (or "
				  "the encrypted key is damaged)", path);
	return ncrctl_die(EXIT_NOT_KEY, "%s: not a private key in a form "
			  "openssl reads (PEM or DER; PKCS#1, SEC1, PKCS#8 or "
			  "encrypted PKCS#8)", path);
}

int ncrctl_pkey_parse(const char *path, const unsigned char *data,
		      size_t len, const struct ncrctl_pass *pw,
		      struct ncrctl_plainkey *out)
{
	struct pw_state st = { .pw = pw, .path = path };
	EVP_PKEY *pk;
	int ret = EXIT_OK;

	memset(out, 0, sizeof(*out));
	pk = decode(data, len, &st);
	OPENSSL_cleanse(st.typed, sizeof(st.typed));
	ERR_clear_error();
	if (pk == NULL)
		return decode_failed(path, &st);
	if (held_of(pk) == NULL) {
		ret = unsupported(path, pk);
	} else if (!encode_pkcs8(pk, &out->pkcs8, &out->pkcs8_len)) {
		ret = ncrctl_die(EXIT_NOT_KEY, "%s: holds no private key (a "
				 "public key or parameters only)", path);
	} else if (!encode_spki(pk, &out->spki, &out->spki_len) ||
		   !ncrctl_spki_info(out->spki, out->spki_len, &out->pub)) {
		ret = ncrctl_die(EXIT_NOT_KEY, "%s: cannot encode the public "
				 "key", path);
	}
	/* The private numbers are BN_clear_free'd with the key. */
	EVP_PKEY_free(pk);
	ERR_clear_error();
	if (ret)
		ncrctl_plainkey_clear(out);
	return ret;
}

void ncrctl_plainkey_clear(struct ncrctl_plainkey *k)
{
	OPENSSL_clear_free(k->pkcs8, k->pkcs8_len);
	OPENSSL_free(k->spki);
	memset(k, 0, sizeof(*k));
}

/* ---- public facts ---- */

static int sha(const char *md, const unsigned char *p, size_t n,
	       unsigned char *out)
{
	EVP_MD *m = EVP_MD_fetch(libctx(), md, NULL);
	int ok = m != NULL && EVP_Digest(p, n, out, NULL, m, NULL);

	EVP_MD_free(m);
	return ok;
}

/* The kernel's key ID: SHA-1 of the SPKI, or of the bare y for DH. */
static int key_id(EVP_PKEY *pk, int alg, const unsigned char *spki,
		  size_t len, unsigned char id[NCRCTL_KEY_ID_LEN])
{
	unsigned char *y;
	BIGNUM *bn = NULL;
	size_t ylen;
	int ok;

	if (alg != NCRCTL_ALG_DH)
		return sha("SHA1", spki, len, id);
	if (!EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_PUB_KEY, &bn))
		return 0;
	ylen = (size_t)BN_num_bytes(bn);
	y = OPENSSL_malloc(ylen ? ylen : 1);
	ok = y != NULL && BN_bn2bin(bn, y) >= 0 && sha("SHA1", y, ylen, id);
	OPENSSL_free(y);
	BN_free(bn);
	return ok;
}

/* Algorithm, curve, size and "RSA-2048" / "EC P-256" / "X25519". */
static void describe(const EVP_PKEY *pk, const struct held *h,
		     struct ncrctl_pubinfo *info)
{
	info->alg = h ? h->alg : 0;
	snprintf(info->name, sizeof(info->name), "%s",
		 EVP_PKEY_get0_type_name(pk));
	snprintf(info->curve, sizeof(info->curve), "%s", h ? h->curve : "");
	info->bits = EVP_PKEY_get_bits(pk);
	if (!info->curve[0])
		snprintf(info->desc, sizeof(info->desc), "%s-%d", info->name,
			 info->bits);
	else if (strcmp(info->name, info->curve))
		snprintf(info->desc, sizeof(info->desc), "%s %s", info->name,
			 info->curve);
	else
		snprintf(info->desc, sizeof(info->desc), "%s", info->curve);
}

int ncrctl_spki_info(const unsigned char *spki, size_t len,
		     struct ncrctl_pubinfo *info)
{
	const unsigned char *p = spki;
	EVP_PKEY *pk;
	int ok;

	memset(info, 0, sizeof(*info));
	pk = d2i_PUBKEY_ex(NULL, &p, (long)len, libctx(), NULL);
	if (pk == NULL || p != spki + len) {
		EVP_PKEY_free(pk);
		ERR_clear_error();
		return 0;
	}
	describe(pk, held_of(pk), info);
	ok = sha("SHA256", spki, len, info->sha256) &&
	     (info->alg == 0 || key_id(pk, info->alg, spki, len, info->key_id));
	EVP_PKEY_free(pk);
	ERR_clear_error();
	return ok;
}

/* ---- PEM armour of the key file ---- */

int ncrctl_keyfile_pem(const unsigned char *der, size_t der_len,
		       char **pem, size_t *pem_len)
{
	BIO *b = BIO_new(BIO_s_mem());
	char *p;
	long n;
	int ok = 0;

	*pem = NULL;
	/* Exactly what the provider's encoder writes (encode_key.c). */
	if (b != NULL && PEM_write_bio(b, NCR_KEYFILE_PEM_LABEL, "", der,
				       (long)der_len) > 0) {
		n = BIO_get_mem_data(b, &p);
		*pem = n > 0 ? OPENSSL_memdup(p, (size_t)n) : NULL;
		*pem_len = (size_t)n;
		ok = *pem != NULL;
	}
	BIO_free(b);
	return ok;
}

int ncrctl_keyfile_unpem(const unsigned char *data, size_t len,
			 unsigned char **der, size_t *der_len)
{
	BIO *b = BIO_new_mem_buf(data, (int)len);
	char *name = NULL, *header = NULL;
	unsigned char *d = NULL;
	long n = 0;
	int ok = 0;

	*der = NULL;
	while (b != NULL && !ok && PEM_read_bio(b, &name, &header, &d, &n)) {
		ok = !strcmp(name, NCR_KEYFILE_PEM_LABEL);
		OPENSSL_free(name);
		OPENSSL_free(header);
		if (ok) {
			*der = d;
			*der_len = (size_t)n;
		} else {
			OPENSSL_free(d);
		}
	}
	BIO_free(b);
	ERR_clear_error();
	return ok;
}
