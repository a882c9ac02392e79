/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ncr key file: PEM with label "NCR KEY BLOB" around the DER of
 *
 *   NcrKeyFile ::= SEQUENCE {
 *       version    INTEGER (1),
 *       publicKey  SubjectPublicKeyInfo,   -- in clear
 *       blob       OCTET STRING            -- NCRIO_KEY_STORAGE_WRAP output
 *   }
 */
#ifndef NCR_KEYFILE_H
#define NCR_KEYFILE_H

#include <stddef.h>

#define NCR_KEYFILE_PEM_LABEL "NCR KEY BLOB"
#define NCR_KEYFILE_VERSION 1
/* Decoder data structure name of the DER body. */
#define NCR_KEYFILE_STRUCTURE "ncr-key-blob"

/* malloc'ed DER; 0 on failure (no error raised). */
int ncrp_keyfile_encode(const unsigned char *spki, size_t spki_len,
			const unsigned char *blob, size_t blob_len,
			unsigned char **der, size_t *der_len);
/* Pointers into der; 0 if malformed (no error raised). */
int ncrp_keyfile_decode(const unsigned char *der, size_t der_len,
			const unsigned char **spki, size_t *spki_len,
			const unsigned char **blob, size_t *blob_len);

#endif /* NCR_KEYFILE_H */
