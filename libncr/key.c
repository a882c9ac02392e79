// SPDX-License-Identifier: GPL-2.0
/* The key ioctls: create, import, generate, derive, export, wrap, info. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "ncrlib.h"
#include "nlattr.h"	/* the parser the kernel uses, for GET_INFO output */

int ncrlib_key_new(int fd)
{
	return (int)ncrlib_ioctl(fd, NCRIO_KEY_INIT, NULL);
}

void ncrlib_key_free(int fd, int key)
{
	ncr_key_t k = key;

	if (key >= 0)
		ncrlib_ioctl(fd, NCRIO_KEY_DEINIT, &k);
}

int ncrlib_key_import(int fd, int key, const char *algo, uint32_t type,
		      uint32_t flags, const void *data, size_t len)
{
	struct ncr_key_import s = {
		.key = key, .data = data, .data_size = (uint32_t)len };
	struct ncrlib_attrs a;

	if (ncrlib_attrs_begin(&a, &s, sizeof(s)))
		return -ENOMEM;
	ncrlib_attrs_str(&a, NCR_ATTR_ALGORITHM, algo);
	ncrlib_attrs_u32(&a, NCR_ATTR_KEY_TYPE, type);
	ncrlib_attrs_u32(&a, NCR_ATTR_KEY_FLAGS, flags);
	return (int)ncrlib_attrs_call(fd, NCRIO_KEY_IMPORT, &a);
}

int ncrlib_key_generate(int fd, int key, const char *algo, uint32_t bits,
			uint32_t flags)
{
	struct ncr_key_generate s = { .key = key };
	struct ncrlib_attrs a;

	if (ncrlib_attrs_begin(&a, &s, sizeof(s)))
		return -ENOMEM;
	ncrlib_attrs_str(&a, NCR_ATTR_ALGORITHM, algo);
	ncrlib_attrs_u32(&a, NCR_ATTR_SECRET_KEY_BITS, bits);
	ncrlib_attrs_u32(&a, NCR_ATTR_KEY_FLAGS, flags);
	return (int)ncrlib_attrs_call(fd, NCRIO_KEY_GENERATE, &a);
}

static void put_pair_params(struct ncrlib_attrs *a,
			    const struct ncrlib_pair_params *p)
{
	ncrlib_attrs_str(a, NCR_ATTR_ALGORITHM, p->algo);
	ncrlib_attrs_u32(a, NCR_ATTR_KEY_FLAGS, p->flags);
	if (p->rsa_bits)
		ncrlib_attrs_u32(a, NCR_ATTR_RSA_MODULUS_BITS, p->rsa_bits);
	if (p->rsa_e != NULL)
		ncrlib_attrs_put(a, NCR_ATTR_RSA_E, p->rsa_e, p->rsa_e_len);
	if (p->dsa_p_bits)
		ncrlib_attrs_u32(a, NCR_ATTR_DSA_P_BITS, p->dsa_p_bits);
	if (p->dsa_q_bits)
		ncrlib_attrs_u32(a, NCR_ATTR_DSA_Q_BITS, p->dsa_q_bits);
	if (p->dh_p != NULL)
		ncrlib_attrs_put(a, NCR_ATTR_DH_PRIME, p->dh_p, p->dh_p_len);
	if (p->dh_g != NULL)
		ncrlib_attrs_put(a, NCR_ATTR_DH_BASE, p->dh_g, p->dh_g_len);
	if (p->ecc_curve != NULL)
		ncrlib_attrs_str(a, NCR_ATTR_ECC_CURVE, p->ecc_curve);
}

int ncrlib_key_generate_pair(int fd, const struct ncrlib_pair_params *p)
{
	struct ncr_key_generate_pair s = {
		.private_key = p->priv, .public_key = p->pub };
	struct ncrlib_attrs a;

	if (ncrlib_attrs_begin(&a, &s, sizeof(s)))
		return -ENOMEM;
	put_pair_params(&a, p);
	return (int)ncrlib_attrs_call(fd, NCRIO_KEY_GENERATE_PAIR, &a);
}

int ncrlib_key_derive_dh(int fd, int priv, int newkey, uint32_t flags,
			 const void *peer, size_t peer_len)
{
	return ncrlib_key_derive(fd, NCR_DERIVE_DH, priv, newkey, flags, peer,
				 peer_len);
}

int ncrlib_key_derive(int fd, const char *kdf, int priv, int newkey,
		      uint32_t flags, const void *peer, size_t peer_len)
{
	struct ncr_key_derive s = { .input_key = priv, .new_key = newkey };
	struct ncrlib_attrs a;

	if (ncrlib_attrs_begin(&a, &s, sizeof(s)))
		return -ENOMEM;
	ncrlib_attrs_str(&a, NCR_ATTR_DERIVATION_ALGORITHM, kdf);
	ncrlib_attrs_u32(&a, NCR_ATTR_KEY_FLAGS, flags);
	ncrlib_attrs_put(&a, NCR_ATTR_DH_PUBLIC, peer, peer_len);
	return (int)ncrlib_attrs_call(fd, NCRIO_KEY_DERIVE, &a);
}

long ncrlib_key_export(int fd, int key, void *buf, size_t len)
{
	struct ncr_key_export s = {
		.input_size = sizeof(s), .key = key, .buffer = buf,
		.buffer_size = (int)len };

	return ncrlib_ioctl(fd, NCRIO_KEY_EXPORT, &s);
}

long ncrlib_key_storage_wrap(int fd, int key, void *buf, size_t len)
{
	struct ncr_key_storage_wrap s = {
		.input_size = sizeof(s), .key = key, .buffer = buf,
		.buffer_size = (int)len };

	return ncrlib_ioctl(fd, NCRIO_KEY_STORAGE_WRAP, &s);
}

int ncrlib_key_storage_unwrap(int fd, int key, const void *blob, size_t len)
{
	struct ncr_key_storage_unwrap s = {
		.input_size = sizeof(s), .key = key, .data = blob,
		.data_size = (uint32_t)len };

	return (int)ncrlib_ioctl(fd, NCRIO_KEY_STORAGE_UNWRAP, &s);
}

int ncrlib_master_key_from_keyring(int fd, const char *spec)
{
	struct ncr_master_key_set s = { .key = NULL, .key_size = 0 };
	struct ncrlib_attrs a;

	if (ncrlib_attrs_begin(&a, &s, sizeof(s)))
		return -ENOMEM;
	ncrlib_attrs_str(&a, NCR_ATTR_MASTER_KEY_DESCRIPTION, spec);
	return (int)ncrlib_attrs_call(fd, NCRIO_MASTER_KEY_SET, &a);
}

int ncrlib_master_key_rotate(int fd, const uint8_t *key, size_t len,
			     uint32_t how)
{
	struct ncr_master_key_set s = {
		.key = key, .key_size = (uint32_t)len };
	struct ncrlib_attrs a;

	if (len != (uint32_t)len)	/* not truncated into a valid size */
		return -EINVAL;
	if (ncrlib_attrs_begin(&a, &s, sizeof(s)))
		return -ENOMEM;
	ncrlib_attrs_u32(&a, NCR_ATTR_MASTER_KEY_ROTATE, how);
	return (int)ncrlib_attrs_call(fd, NCRIO_MASTER_KEY_SET, &a);
}

long ncrlib_key_wrap(int fd, int kek, int key, const char *walg, void *buf,
		     size_t len)
{
	struct ncr_key_wrap s = {
		.wrapping_key = kek, .source_key = key, .buffer = buf,
		.buffer_size = (int)len };
	struct ncrlib_attrs a;

	if (ncrlib_attrs_begin(&a, &s, sizeof(s)))
		return -ENOMEM;
	ncrlib_attrs_str(&a, NCR_ATTR_WRAPPING_ALGORITHM, walg);
	return ncrlib_attrs_call(fd, NCRIO_KEY_WRAP, &a);
}

/* Fills @info from the attributes the kernel wrote after the struct. */
static int parse_info(const struct ncrlib_attrs *a, size_t fixed,
		      struct ncrlib_key_info *info)
{
	const struct nlattr *tb[NCR_ATTR_MAX + 1];
	uint32_t out_size;

	memcpy(&out_size, a->buf + sizeof(uint32_t), sizeof(out_size));
	if (out_size > a->cap || out_size < fixed ||
	    ncr_nla_parse(tb, NCR_ATTR_MAX, a->buf + fixed, out_size - fixed,
			  ncr_attr_policy) || !tb[NCR_ATTR_KEY_FLAGS])
		return -EBADMSG;
	info->flags = ncr_nla_get_u32(tb[NCR_ATTR_KEY_FLAGS]);
	if (tb[NCR_ATTR_KEY_TYPE])
		info->type = ncr_nla_get_u32(tb[NCR_ATTR_KEY_TYPE]);
	if (tb[NCR_ATTR_ALGORITHM])
		snprintf(info->algo, sizeof(info->algo), "%s",
			 ncr_nla_get_str(tb[NCR_ATTR_ALGORITHM]));
	if (tb[NCR_ATTR_KEY_ID] &&
	    ncr_nla_len(tb[NCR_ATTR_KEY_ID]) <= sizeof(info->id)) {
		info->id_len = ncr_nla_len(tb[NCR_ATTR_KEY_ID]);
		memcpy(info->id, ncr_nla_data(tb[NCR_ATTR_KEY_ID]),
		       info->id_len);
	}
	return 0;
}

int ncrlib_key_info(int fd, int key, struct ncrlib_key_info *info)
{
	static const uint16_t wanted[] = {
		NCR_ATTR_KEY_FLAGS, NCR_ATTR_KEY_TYPE, NCR_ATTR_ALGORITHM,
		NCR_ATTR_KEY_ID };
	struct ncr_key_get_info s = { .key = key };
	struct ncrlib_attrs a;
	uint32_t out_size;
	long r;

	memset(info, 0, sizeof(*info));
	if (ncrlib_attrs_begin(&a, &s, sizeof(s)))
		return -ENOMEM;
	ncrlib_attrs_put(&a, NCR_ATTR_WANTED_ATTRS, wanted, sizeof(wanted));
	ncrlib_attrs_reserve(&a, 512);	/* room for the output attributes */
	if (a.err) {
		ncrlib_attrs_free(&a);
		return -ENOMEM;
	}
	out_size = (uint32_t)a.cap;
	memcpy(a.buf + sizeof(uint32_t), &out_size, sizeof(out_size));
	r = ncrlib_attrs_ioctl(fd, NCRIO_KEY_GET_INFO, &a);
	if (r >= 0)
		r = parse_info(&a, NLA_ALIGN(sizeof(s)), info);
	ncrlib_attrs_free(&a);
	return (int)r;
}
