/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RSA arithmetic on LibTomMath: key generation and the two raw primitives.
 * Padding lives in pkcs1.c; the ops at the end of rsa.c combine them.
 */
#ifndef NCR_RSA_H
#define NCR_RSA_H

#include "tommath_port.h"

#define NCR_RSA_MIN_GEN_BITS 1024	/* generation */
#define NCR_RSA_MIN_BITS 512		/* import (old test keys) */

/*
 * A blinding pair a = r^e, ai = r^-1 (mod n), kept with the key and renewed
 * as OpenSSL's BN_BLINDING does: squared before each further use (r becomes
 * r^2) and drawn afresh every NCR_RSA_BLINDING_USES uses.  Drawing costs an
 * inversion and an exponentiation; squaring two multiplications.  Both are
 * held in Montgomery form (times R mod n, lib/mont.c), where squaring them
 * and multiplying a value by them take no division.
 */
#define NCR_RSA_BLINDING_USES 32

struct ncr_rsa_blinding {
	mp_int a, ai;
	unsigned int uses;	/* 0: draw a new pair before the next use */
};

struct ncr_rsa_key {
	mp_int n, e;
	/* Valid only when has_private; qinv = q^-1 mod p. */
	mp_int d, p, q, dp, dq, qinv;
	bool has_private;
	/* Private operations' cache; whoever passes it must own it alone. */
	struct ncr_rsa_blinding blind;
};

/* Initialises all numbers to zero; 0 or -ENOMEM. */
int ncr_rsa_key_init(struct ncr_rsa_key *k);
/* Zeroes and frees all numbers (safe on an initialised key only). */
void ncr_rsa_key_clear(struct ncr_rsa_key *k);

/*
 * Generates a key with a modulus of exactly bits bits (>= 1024, even or odd,
 * <= NCR_PK_MAX_BITS).  e (big-endian, odd, >= 3, <= 256 bits) may be NULL
 * for 65537.  k must be initialised.  0, -EINVAL, -ENOMEM.
 */
int ncr_rsa_generate(struct ncr_rsa_key *k, unsigned int bits,
		     const u8 *e, size_t e_len);

/* Checks an imported key: sizes, parity, and CRT consistency if private. */
int ncr_rsa_check_key(const struct ncr_rsa_key *k);

unsigned int ncr_rsa_modulus_bits(const struct ncr_rsa_key *k);
size_t ncr_rsa_modulus_bytes(const struct ncr_rsa_key *k);

/*
 * out = in^e mod n.  in is a big-endian number of in_len bytes (any length,
 * leading zeros allowed) and must be < n, else -EINVAL (a verifier treats it
 * as a bad signature).  out_len must equal ncr_rsa_modulus_bytes(); the
 * result is left-padded with zeros.  0, -EINVAL, -ENOMEM.
 */
int ncr_rsa_public(const struct ncr_rsa_key *k, const u8 *in, size_t in_len,
		   u8 *out, size_t out_len);

/*
 * out = in^d mod n using CRT, with base and exponent blinding, and the
 * result checked with the public exponent before it is released (-EIO and
 * out zeroed on a mismatch, i.e. a fault).  Same length rules as above;
 * -EINVAL without private material.  blind is k's cached pair (&k->blind)
 * when the caller holds it exclusively, or NULL to draw a pair for this call
 * only (always correct, but slower).
 */
int ncr_rsa_private(const struct ncr_rsa_key *k, struct ncr_rsa_blinding *blind,
		    const u8 *in, size_t in_len, u8 *out, size_t out_len);

/* dst (initialised) receives the public half (n, e) of src. */
int ncr_rsa_copy_public(struct ncr_rsa_key *dst, const struct ncr_rsa_key *src);

#endif /* NCR_RSA_H */
