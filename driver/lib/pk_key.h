/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct ncr_pk: the material of an RSA, DSA or DH key object (public or
 * private), owned by the PK code and hung off struct ncr_key.
 */
#ifndef NCR_PK_KEY_H
#define NCR_PK_KEY_H

#include "rsa.h"
#include "dsa.h"
#include "dh.h"

enum ncr_pk_algo {
	NCR_PK_NONE = 0,
	NCR_PK_RSA,
	NCR_PK_DSA,
	NCR_PK_DH,
};

struct ncr_pk {
	enum ncr_pk_algo algo;
	bool is_private;	/* mirrors <algo>.has_private */
	union {
		struct ncr_rsa_key rsa;
		struct ncr_dsa_key dsa;
		struct ncr_dh_key dh;
	};
};

/* Initialises pk for algo (numbers zero); 0, -EINVAL, -ENOMEM. */
int ncr_pk_key_init(struct ncr_pk *pk, enum ncr_pk_algo algo);
/* Zeroes and frees the numbers; pk->algo becomes NCR_PK_NONE. */
void ncr_pk_key_clear(struct ncr_pk *pk);
/* "rsa"/"dsa"/"dh" -> algo, NCR_PK_NONE otherwise. */
enum ncr_pk_algo ncr_pk_algo_from_name(const char *name);

#endif /* NCR_PK_KEY_H */
