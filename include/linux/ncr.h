/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * /dev/crypto "NCR" user-space interface.
 *
 * This is the ABI of the 2010 RFC (CRYPTO(4)): every ioctl number, struct
 * layout, attribute ID (and their order) and constant below must keep its
 * value.  Extensions only append: new attributes go right before
 * NCR_ATTR_END__, new constants after the existing ones.
 */
#ifndef _LINUX_NCR_H
#define _LINUX_NCR_H

#include <linux/types.h>
#include <linux/ioctl.h>

#ifndef __KERNEL__
#ifndef __user
#define __user
#endif
#endif

/*
 * Makes a struct end suitably aligned for a following struct nlattr.  4 is
 * NLA_ALIGNTO from <linux/netlink.h>, fixed by the ABI; the header is not
 * included so that users need not pull in socket headers.
 */
#define __NL_ATTRIBUTES char __align[] __attribute__((aligned(4)))

/*
 * In every ioctl taking attributes, input_size is the size of the ncr_*
 * struct plus the attributes that follow it; output_size is the space
 * available for the struct plus output attributes and is updated with the
 * space used.  input_size 0 means "no attributes"; output_size 0 means "no
 * room for output attributes" and is then left unchanged.
 */
enum {
	NCR_ATTR_UNSPEC,		/* 0 is special in lib/nlattr.c. */
	NCR_ATTR_ALGORITHM,		/* NLA_NUL_STRING */
	NCR_ATTR_DERIVATION_ALGORITHM,	/* NLA_NUL_STRING - NCR_DERIVE_* */
	NCR_ATTR_SIGNATURE_HASH_ALGORITHM, /* NLA_NUL_STRING */
	NCR_ATTR_WRAPPING_ALGORITHM,	/* NLA_NUL_STRING - NCR_WALG_* */
	NCR_ATTR_UPDATE_INPUT_DATA,	/* NLA_BINARY - ncr_session_input_data */
	NCR_ATTR_UPDATE_OUTPUT_BUFFER,	/* NLA_BINARY - ncr_session_output_buffer */
	NCR_ATTR_UPDATE_INPUT_KEY_AS_DATA, /* NLA_U32 - ncr_key_t */
	NCR_ATTR_FINAL_INPUT_DATA,	/* NLA_BINARY - ncr_session_input_data */
	NCR_ATTR_FINAL_OUTPUT_BUFFER,	/* NLA_BINARY - ncr_session_output_buffer */
	NCR_ATTR_KEY,			/* NLA_U32 - ncr_key_t */
	NCR_ATTR_KEY_FLAGS,		/* NLA_U32 - NCR_KEY_FLAG_* */
	NCR_ATTR_KEY_ID,		/* NLA_BINARY */
	NCR_ATTR_KEY_TYPE,		/* NLA_U32 - ncr_key_type_t */
	NCR_ATTR_IV,			/* NLA_BINARY */
	NCR_ATTR_SECRET_KEY_BITS,	/* NLA_U32 */
	NCR_ATTR_RSA_MODULUS_BITS,	/* NLA_U32 */
	NCR_ATTR_RSA_E,			/* NLA_BINARY */
	NCR_ATTR_RSA_ENCODING_METHOD,	/* NLA_U32 - ncr_rsa_type_t */
	NCR_ATTR_RSA_OAEP_HASH_ALGORITHM, /* NLA_NUL_STRING */
	NCR_ATTR_RSA_PSS_SALT_LENGTH,	/* NLA_U32 */
	NCR_ATTR_DSA_P_BITS,		/* NLA_U32 */
	NCR_ATTR_DSA_Q_BITS,		/* NLA_U32 */
	NCR_ATTR_DH_PRIME,		/* NLA_BINARY */
	NCR_ATTR_DH_BASE,		/* NLA_BINARY */
	NCR_ATTR_DH_PUBLIC,		/* NLA_BINARY */
	NCR_ATTR_WANTED_ATTRS,		/* NLA_BINARY - array of u16 IDs */

	/* Extensions of this implementation (appended; see CRYPTO(4)). */

	/*
	 * NLA_U32, SESSION_INIT of NCR_OP_SIGN/NCR_OP_VERIFY with a public-key
	 * algorithm: nonzero means the session input is a precomputed digest
	 * of NCR_ATTR_SIGNATURE_HASH_ALGORITHM (exactly its output length,
	 * supplied once) instead of the message to hash.
	 */
	NCR_ATTR_SIGNATURE_INPUT_IS_DIGEST,

	/*
	 * NLA_NUL_STRING, KEY_GENERATE_PAIR of "ecdsa": the curve, one of
	 * NCR_ECC_CURVE_* or an alias ("prime256v1", "secp256r1", "P-384",
	 * "secp384r1", "X25519").  KEY_GET_INFO reports the canonical name.
	 */
	NCR_ATTR_ECC_CURVE,

	/*
	 * NLA_NUL_STRING, MASTER_KEY_SET: take the master key from the
	 * caller's kernel keyrings instead of key/key_size (which must then
	 * be NULL and 0): "logon:DESC" or "encrypted:DESC", a key of that
	 * type and description holding 16, 24 or 32 bytes.
	 */
	NCR_ATTR_MASTER_KEY_DESCRIPTION,

	/*
	 * NLA_U32, MASTER_KEY_SET: rotate the master key, one of
	 * NCR_MASTER_KEY_ROTATE_*.  BEGIN makes the given key current and
	 * keeps the old one for STORAGE_UNWRAP only; END (given the current
	 * key) forgets the old one.
	 */
	NCR_ATTR_MASTER_KEY_ROTATE,

	/* Add new attributes here */

	NCR_ATTR_END__,
	NCR_ATTR_MAX = NCR_ATTR_END__ - 1
};

/* Extension: NCR_ATTR_MASTER_KEY_ROTATE values. */
#define NCR_MASTER_KEY_ROTATE_BEGIN 1
#define NCR_MASTER_KEY_ROTATE_END 2

#define NCR_CIPHER_MAX_BLOCK_LEN 32
#define NCR_HASH_MAX_OUTPUT_SIZE 64

#define NCR_WALG_AES_RFC3394 "walg-aes-rfc3394" /* for secret keys only */
#define NCR_WALG_AES_RFC5649 "walg-aes-rfc5649" /* can wrap arbitrary key */

typedef enum {
	NCR_KEY_TYPE_INVALID,
	NCR_KEY_TYPE_SECRET = 1,
	NCR_KEY_TYPE_PUBLIC = 2,
	NCR_KEY_TYPE_PRIVATE = 3,
} ncr_key_type_t;

/* Key handling */

typedef __s32 ncr_key_t;

#define NCR_KEY_INVALID ((ncr_key_t)-1)

#define NCR_KEY_FLAG_EXPORTABLE 1
#define NCR_KEY_FLAG_WRAPPABLE (1 << 1)
/*
 * When generating a pair the flags describe the private key; the public
 * key's use is implied (a private key that can decrypt has a public key
 * that can encrypt, one that can sign has one that can verify).
 */
#define NCR_KEY_FLAG_DECRYPT (1 << 2)
#define NCR_KEY_FLAG_SIGN (1 << 3)
/*
 * Extension (the value of the RFC authors' later tree): the key is a
 * key-encryption key.  NCRIO_KEY_WRAP and NCRIO_KEY_UNWRAP accept only such
 * a wrapping key, only a caller with CAP_SYS_ADMIN may give a key this flag
 * (EPERM otherwise), and such a key cannot be used by sessions: otherwise
 * any process could wrap a non-exportable key under a key of its own and
 * decrypt the result.
 */
#define NCR_KEY_FLAG_WRAPPING (1 << 4)

struct ncr_key_generate {
	__u32 input_size, output_size;
	ncr_key_t key;
	__NL_ATTRIBUTES;
};

struct ncr_key_generate_pair {
	__u32 input_size, output_size;
	ncr_key_t private_key;
	ncr_key_t public_key;
	__NL_ATTRIBUTES;
};

typedef enum {
	RSA_PKCS1_V1_5,	/* both signatures and encryption */
	RSA_PKCS1_OAEP,	/* for encryption only */
	RSA_PKCS1_PSS,	/* for signatures only */
} ncr_rsa_type_t;

/*
 * Extension: NCR_ATTR_RSA_PSS_SALT_LENGTH value accepted by NCR_OP_VERIFY
 * only, meaning "recover the salt length from the signature".
 */
#define NCR_RSA_PSS_SALT_LENGTH_AUTO 0xffffffffU

#define NCR_DERIVE_DH "dh"
/*
 * Extension: ECDH (SEC 1 3.3.1, the x-coordinate of d*Q) of an "ecdsa" key
 * on a NIST curve, X25519 (RFC 7748) of one on "x25519".  The peer's value
 * is NCR_ATTR_DH_PUBLIC: an uncompressed point (0x04 || X || Y) or a
 * SubjectPublicKeyInfo of the same curve; for X25519 the 32-byte u.
 */
#define NCR_DERIVE_ECDH "ecdh"

/* Extension: NCR_ATTR_ECC_CURVE names (canonical). */
#define NCR_ECC_CURVE_P256 "P-256"
#define NCR_ECC_CURVE_P384 "P-384"
#define NCR_ECC_CURVE_X25519 "x25519"

struct ncr_key_derive {
	__u32 input_size, output_size;
	ncr_key_t input_key;
	ncr_key_t new_key;
	__NL_ATTRIBUTES;
};

#define MAX_KEY_ID_SIZE 20

struct ncr_key_get_info {
	__u32 input_size, output_size;
	ncr_key_t key;
	__NL_ATTRIBUTES;
};

struct ncr_key_import {
	__u32 input_size, output_size;
	ncr_key_t key;
	const void __user *data;
	__u32 data_size;
	__NL_ATTRIBUTES;
};

struct ncr_key_export {
	__u32 input_size, output_size;
	ncr_key_t key;
	void __user *buffer;
	int buffer_size;
	__NL_ATTRIBUTES;
};

#define NCRIO_KEY_INIT		_IO('c', 204)
/* generate a secret key */
#define NCRIO_KEY_GENERATE	_IOWR('c', 205, struct ncr_key_generate)
/* generate a public key pair */
#define NCRIO_KEY_GENERATE_PAIR	_IOWR('c', 206, struct ncr_key_generate_pair)
/* derive a new key from an old one */
#define NCRIO_KEY_DERIVE	_IOWR('c', 207, struct ncr_key_derive)
/* return information on a key */
#define NCRIO_KEY_GET_INFO	_IOWR('c', 208, struct ncr_key_get_info)
/* export a secret key */
#define NCRIO_KEY_EXPORT	_IOWR('c', 209, struct ncr_key_export)
/* import a secret key */
#define NCRIO_KEY_IMPORT	_IOWR('c', 210, struct ncr_key_import)

#define NCRIO_KEY_DEINIT	_IOR('c', 215, ncr_key_t)

/* Key wrap ioctls */
struct ncr_key_wrap {
	__u32 input_size, output_size;
	ncr_key_t wrapping_key;
	ncr_key_t source_key;
	void __user *buffer;
	int buffer_size;
	__NL_ATTRIBUTES;
};

struct ncr_key_unwrap {
	__u32 input_size, output_size;
	ncr_key_t wrapping_key;
	ncr_key_t dest_key;
	const void __user *data;
	__u32 data_size;
	__NL_ATTRIBUTES;
};

#define NCRIO_KEY_WRAP		_IOWR('c', 250, struct ncr_key_wrap)
#define NCRIO_KEY_UNWRAP	_IOWR('c', 251, struct ncr_key_unwrap)

/* Internal ops */
struct ncr_master_key_set {
	__u32 input_size, output_size;
	const void __user *key;
	__u32 key_size;
	__NL_ATTRIBUTES;
};

/*
 * The numbers 260..303 below do not fit the 8-bit nr field of _IOC(): their
 * 0x100 bit is ORed into the type field, where 'c' (0x63) already has it,
 * so the type stays 'c' and nr is the number modulo 256 (260 -> 4,
 * 300 -> 44).  They are kept as the seed defined them so that programs
 * built against the seed header keep working; ncr_ioctl_numbers_distinct__()
 * below proves they still collide with nothing.
 */
#define NCRIO_MASTER_KEY_SET	_IOWR('c', 260, struct ncr_master_key_set)

/*
 * Like key_wrap and key_unwrap, but under the storage master key and with
 * the metadata needed to restore the key object.
 */
struct ncr_key_storage_wrap {
	__u32 input_size, output_size;
	ncr_key_t key;
	void __user *buffer;
	int buffer_size;
	__NL_ATTRIBUTES;
};

struct ncr_key_storage_unwrap {
	__u32 input_size, output_size;
	ncr_key_t key;
	const void __user *data;
	__u32 data_size;
	__NL_ATTRIBUTES;
};

#define NCRIO_KEY_STORAGE_WRAP	 _IOWR('c', 261, struct ncr_key_storage_wrap)
/* The seed encodes the size of ncr_key_storage_wrap here; same layout. */
#define NCRIO_KEY_STORAGE_UNWRAP _IOWR('c', 262, struct ncr_key_storage_wrap)

/* Crypto Operations ioctls */

typedef enum {
	NCR_OP_ENCRYPT = 1,
	NCR_OP_DECRYPT,
	NCR_OP_SIGN,
	NCR_OP_VERIFY,
} ncr_crypto_op_t;

typedef __s32 ncr_session_t;
#define NCR_SESSION_INVALID ((ncr_session_t)-1)

struct ncr_session_input_data {
	const void __user *data;
	__kernel_size_t data_size;
};

struct ncr_session_output_buffer {
	void __user *buffer;
	__kernel_size_t buffer_size;
	__kernel_size_t __user *result_size_ptr;
};

struct ncr_session_init {
	__u32 input_size, output_size;
	__u32 op; /* ncr_crypto_op_t */
	__NL_ATTRIBUTES;
};

struct ncr_session_update {
	__u32 input_size, output_size;
	ncr_session_t ses;
	__NL_ATTRIBUTES;
};

struct ncr_session_final {
	__u32 input_size, output_size;
	ncr_session_t ses;
	__NL_ATTRIBUTES;
};

struct ncr_session_once {
	__u32 input_size, output_size;
	ncr_crypto_op_t op;
	__NL_ATTRIBUTES;
};

#define NCRIO_SESSION_INIT	_IOWR('c', 300, struct ncr_session_init)
#define NCRIO_SESSION_UPDATE	_IOWR('c', 301, struct ncr_session_update)
#define NCRIO_SESSION_FINAL	_IOWR('c', 302, struct ncr_session_final)

/* everything in one call */
#define NCRIO_SESSION_ONCE	_IOWR('c', 303, struct ncr_session_once)

/*
 * Compile-time proof that no two NCRIO_* numbers collide (a duplicate case
 * label is an error).  Never called.
 */
static inline int ncr_ioctl_numbers_distinct__(unsigned int cmd)
{
	switch (cmd) {
	case NCRIO_KEY_INIT:
	case NCRIO_KEY_GENERATE:
	case NCRIO_KEY_GENERATE_PAIR:
	case NCRIO_KEY_DERIVE:
	case NCRIO_KEY_GET_INFO:
	case NCRIO_KEY_EXPORT:
	case NCRIO_KEY_IMPORT:
	case NCRIO_KEY_DEINIT:
	case NCRIO_KEY_WRAP:
	case NCRIO_KEY_UNWRAP:
	case NCRIO_MASTER_KEY_SET:
	case NCRIO_KEY_STORAGE_WRAP:
	case NCRIO_KEY_STORAGE_UNWRAP:
	case NCRIO_SESSION_INIT:
	case NCRIO_SESSION_UPDATE:
	case NCRIO_SESSION_FINAL:
	case NCRIO_SESSION_ONCE:
		return 1;
	}
	return 0;
}

#endif /* _LINUX_NCR_H */
