// SPDX-License-Identifier: GPL-2.0
/*
 * The storage master key taken from the kernel keyring, as dm-crypt takes
 * volume keys: NCR_ATTR_MASTER_KEY_DESCRIPTION at NCRIO_MASTER_KEY_SET
 * names "logon:DESC" (a logon key, which user space can add but never read
 * back) or "encrypted:DESC" (an encrypted key, decrypted by the kernel).
 * A "user" key, whose payload any holder can read, is refused.  The
 * caller's thread, process and session keyrings are searched
 * (request_key() without an upcall) and the payload is copied under the
 * key's semaphore.
 */
#include <keys/encrypted-type.h>
#include <keys/user-type.h>
#include <linux/err.h>
#include <linux/key.h>
#include <linux/kconfig.h>
#include <linux/string.h>
#include "master_keyring.h"

static int ncr_keyring_copy(const void *data, size_t len, u8 *out, u32 *size)
{
	if (len != 16 && len != 24 && len != 32)
		return -EINVAL;
	memcpy(out, data, len);
	*size = len;
	return 0;
}

/* Called with key->sem held for reading. */
static int ncr_keyring_payload(struct key *key, u8 *out, u32 *size)
{
	const struct user_key_payload *up;
	const struct encrypted_key_payload *ep;

	if (key->type == &key_type_logon) {
		up = user_key_payload_locked(key);
		if (!up)
			return -EKEYREVOKED;
		return ncr_keyring_copy(up->data, up->datalen, out, size);
	}
	ep = key->payload.data[0];
	if (!ep)
		return -EKEYREVOKED;
	return ncr_keyring_copy(ep->decrypted_data, ep->decrypted_datalen,
				out, size);
}

int ncr_master_key_from_keyring(const char *spec, u8 *out, u32 *size)
{
	struct key_type *type;
	struct key *key;
	const char *desc;
	int ret;

	if (str_has_prefix(spec, "logon:")) {
		type = &key_type_logon;
		desc = spec + strlen("logon:");
	} else if (str_has_prefix(spec, "encrypted:")) {
		if (!IS_REACHABLE(CONFIG_ENCRYPTED_KEYS))
			return -EOPNOTSUPP;
		type = &key_type_encrypted;
		desc = spec + strlen("encrypted:");
	} else {
		return -EINVAL;
	}
	if (!*desc)
		return -EINVAL;
	key = request_key(type, desc, NULL);
	if (IS_ERR(key))
		return PTR_ERR(key);
	down_read(&key->sem);
	/* revoked or expired since the lookup: an encrypted key keeps its
	 * payload when revoked */
	ret = key_validate(key);
	if (!ret)
		ret = ncr_keyring_payload(key, out, size);
	up_read(&key->sem);
	key_put(key);
	return ret;
}
