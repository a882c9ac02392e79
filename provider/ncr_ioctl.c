// SPDX-License-Identifier: GPL-2.0
/*
 * Packing of the ioctl argument blocks: a fixed ncr_* struct followed by
 * netlink-style attributes (CRYPTO(4) "OPERATION ATTRIBUTES"), and typed
 * wrappers for each ioctl the provider uses.  Nothing here raises OpenSSL
 * errors: callers know what a failure means and report it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ncr_prov.h"
#include "nlattr.h"	/* driver/lib: the same parser the kernel uses */


static void attrs_reserve(struct ncr_attrs *a, size_t more)
{
	size_t need = a->len + more, cap;
	unsigned char *p;

	if (a->oom || need <= a->cap)
		return;
	cap = a->cap ? a->cap : 256;
	while (cap < need)
		cap *= 2;
	p = realloc(a->buf, cap);
	if (p == NULL) {
		a->oom = 1;
		return;
	}
	memset(p + a->cap, 0, cap - a->cap);
	a->buf = p;
	a->cap = cap;
}

int ncr_attrs_begin(struct ncr_attrs *a, const void *fixed, size_t fixed_len)
{
	memset(a, 0, sizeof(*a));
	attrs_reserve(a, NLA_ALIGN(fixed_len) + 256);
	if (a->oom)
		return -ENOMEM;
	memcpy(a->buf, fixed, fixed_len);
	a->len = NLA_ALIGN(fixed_len);
	return 0;
}

void ncr_attrs_bin(struct ncr_attrs *a, uint16_t type, const void *p, size_t n)
{
	struct nlattr h;

	if (n > 0xffff - NLA_HDRLEN) {
		a->oom = 1;
		return;
	}
	attrs_reserve(a, NLA_ALIGN(NLA_HDRLEN + n));
	if (a->oom)
		return;
	h.nla_len = (uint16_t)(NLA_HDRLEN + n);
	h.nla_type = type;
	memcpy(a->buf + a->len, &h, sizeof(h));
	if (n)
		memcpy(a->buf + a->len + NLA_HDRLEN, p, n);
	a->len += NLA_ALIGN(NLA_HDRLEN + n);
}

void ncr_attrs_u32(struct ncr_attrs *a, uint16_t type, uint32_t v)
{
	ncr_attrs_bin(a, type, &v, sizeof(v));
}

void ncr_attrs_str(struct ncr_attrs *a, uint16_t type, const char *s)
{
	ncr_attrs_bin(a, type, s, strlen(s) + 1);
}

int ncr_attrs_end(struct ncr_attrs *a)
{
	uint32_t size;

	if (a->oom)
		return -ENOMEM;
	size = (uint32_t)a->len;
	/* input_size is the first member of every attribute-taking struct */
	memcpy(a->buf, &size, sizeof(size));
	return 0;
}

void ncr_attrs_free(struct ncr_attrs *a)
{
	if (a->buf != NULL) {
		/* may carry key material or digests */
		memset(a->buf, 0, a->cap);
		free(a->buf);
	}
	memset(a, 0, sizeof(*a));
}

/* Run an attribute-carrying ioctl; output_size is left 0 (no outputs). */
static long attrs_ioctl(struct ncr_attrs *a, unsigned long req)
{
	long r = ncr_attrs_end(a);

	if (r == 0)
		r = ncr_dev_ioctl(req, a->buf);
	return r;
}

int ncr_key_new(void)
{
	return (int)ncr_dev_ioctl(NCRIO_KEY_INIT, NULL);
}

void ncr_key_free(int key)
{
	ncr_key_t k = key;

	if (key >= 0)
		ncr_dev_ioctl(NCRIO_KEY_DEINIT, &k);
}

int ncr_key_import(int key, const char *algo, uint32_t type, uint32_t flags,
		   const void *data, size_t len)
{
	struct ncr_key_import s;
	struct ncr_attrs a;
	long r;

	memset(&s, 0, sizeof(s));
	s.key = key;
	s.data = data;
	s.data_size = (uint32_t)len;
	if (ncr_attrs_begin(&a, &s, sizeof(s)))
		return -ENOMEM;
	ncr_attrs_str(&a, NCR_ATTR_ALGORITHM, algo);
	ncr_attrs_u32(&a, NCR_ATTR_KEY_TYPE, type);
	ncr_attrs_u32(&a, NCR_ATTR_KEY_FLAGS, flags);
	r = attrs_ioctl(&a, NCRIO_KEY_IMPORT);
	ncr_attrs_free(&a);
	return (int)r;
}

long ncr_key_export(int key, void *buf, size_t len)
{
	struct ncr_key_export s;

	memset(&s, 0, sizeof(s));
	s.input_size = sizeof(s);
	s.key = key;
	s.buffer = buf;
	s.buffer_size = (int)len;
	return ncr_dev_ioctl(NCRIO_KEY_EXPORT, &s);
}

int ncr_key_info(int key, struct ncr_key_info *info)
{
	struct ncr_key_get_info s;
	struct ncr_attrs a;
	uint16_t wanted[4] = { NCR_ATTR_KEY_FLAGS, NCR_ATTR_KEY_TYPE,
			       NCR_ATTR_ALGORITHM, NCR_ATTR_KEY_ID };
	const struct nlattr *tb[NCR_ATTR_MAX + 1];
	size_t fixed;
	uint32_t out_size;
	long r;

	memset(info, 0, sizeof(*info));
	memset(&s, 0, sizeof(s));
	s.key = key;
	if (ncr_attrs_begin(&a, &s, sizeof(s)))
		return -ENOMEM;
	ncr_attrs_bin(&a, NCR_ATTR_WANTED_ATTRS, wanted, sizeof(wanted));
	attrs_reserve(&a, 512);
	if (a.oom) {
		ncr_attrs_free(&a);
		return -ENOMEM;
	}
	out_size = (uint32_t)a.cap;
	memcpy(a.buf + sizeof(uint32_t), &out_size, sizeof(out_size));
	r = attrs_ioctl(&a, NCRIO_KEY_GET_INFO);
	if (r < 0)
		goto out;
	memcpy(&out_size, a.buf + sizeof(uint32_t), sizeof(out_size));
	fixed = NLA_ALIGN(sizeof(s));
	if (out_size > a.cap || out_size < fixed ||
	    ncr_nla_parse(tb, NCR_ATTR_MAX, a.buf + fixed, out_size - fixed,
			  ncr_attr_policy) || !tb[NCR_ATTR_KEY_FLAGS]) {
		r = -EBADMSG;
		goto out;
	}
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
	r = 0;
out:
	ncr_attrs_free(&a);
	return (int)r;
}

long ncr_key_storage_wrap(int key, void *buf, size_t len)
{
	struct ncr_key_storage_wrap s;

	memset(&s, 0, sizeof(s));
	s.input_size = sizeof(s);
	s.key = key;
	s.buffer = buf;
	s.buffer_size = (int)len;
	return ncr_dev_ioctl(NCRIO_KEY_STORAGE_WRAP, &s);
}

int ncr_key_storage_unwrap(int key, const void *blob, size_t len)
{
	struct ncr_key_storage_unwrap s;

	memset(&s, 0, sizeof(s));
	s.input_size = sizeof(s);
	s.key = key;
	s.data = blob;
	s.data_size = (uint32_t)len;
	return (int)ncr_dev_ioctl(NCRIO_KEY_STORAGE_UNWRAP, &s);
}

static void put_session_params(struct ncr_attrs *a,
			       const struct ncr_sess_params *p)
{
	ncr_attrs_str(a, NCR_ATTR_ALGORITHM, p->algo);
	if (p->key >= 0)
		ncr_attrs_u32(a, NCR_ATTR_KEY, (uint32_t)p->key);
	if (p->iv != NULL)
		ncr_attrs_bin(a, NCR_ATTR_IV, p->iv, p->iv_len);
	if (p->rsa_method >= 0)
		ncr_attrs_u32(a, NCR_ATTR_RSA_ENCODING_METHOD,
			      (uint32_t)p->rsa_method);
	if (p->oaep_hash != NULL)
		ncr_attrs_str(a, NCR_ATTR_RSA_OAEP_HASH_ALGORITHM,
			      p->oaep_hash);
	if (p->sig_hash != NULL)
		ncr_attrs_str(a, NCR_ATTR_SIGNATURE_HASH_ALGORITHM,
			      p->sig_hash);
	if (p->pss_salt >= 0)
		ncr_attrs_u32(a, NCR_ATTR_RSA_PSS_SALT_LENGTH,
			      (uint32_t)p->pss_salt);
	if (p->input_is_digest)
		ncr_attrs_u32(a, NCR_ATTR_SIGNATURE_INPUT_IS_DIGEST, 1);
}

int ncr_session_new(const struct ncr_sess_params *p)
{
	struct ncr_session_init s;
	struct ncr_attrs a;
	long r;

	memset(&s, 0, sizeof(s));
	s.op = p->op;
	if (ncr_attrs_begin(&a, &s, sizeof(s)))
		return -ENOMEM;
	put_session_params(&a, p);
	r = attrs_ioctl(&a, NCRIO_SESSION_INIT);
	ncr_attrs_free(&a);
	return (int)r;
}

/*
 * The kernel writes result sizes through result_size_ptr, a pointer to
 * __kernel_size_t; io->out_len and io->fin_out_len are size_t, same type.
 */
static void put_io(struct ncr_attrs *a, struct ncr_io *io)
{
	if (io->in != NULL || io->has_in) {
		struct ncr_session_input_data d = {
			.data = io->in, .data_size = io->in_len };

		ncr_attrs_bin(a, NCR_ATTR_UPDATE_INPUT_DATA, &d, sizeof(d));
	}
	if (io->out != NULL) {
		struct ncr_session_output_buffer o = {
			.buffer = io->out, .buffer_size = io->out_cap,
			.result_size_ptr = &io->out_len };

		io->out_len = 0;
		ncr_attrs_bin(a, NCR_ATTR_UPDATE_OUTPUT_BUFFER, &o, sizeof(o));
	}
	if (io->fin_in != NULL) {
		struct ncr_session_input_data d = {
			.data = io->fin_in, .data_size = io->fin_in_len };

		ncr_attrs_bin(a, NCR_ATTR_FINAL_INPUT_DATA, &d, sizeof(d));
	}
	if (io->fin_out != NULL) {
		struct ncr_session_output_buffer o = {
			.buffer = io->fin_out, .buffer_size = io->fin_out_cap,
			.result_size_ptr = &io->fin_out_len };

		io->fin_out_len = 0;
		ncr_attrs_bin(a, NCR_ATTR_FINAL_OUTPUT_BUFFER, &o, sizeof(o));
	}
}

static long session_io(int ses, struct ncr_io *io, unsigned long req)
{
	struct ncr_session_update s;	/* same layout as ncr_session_final */
	struct ncr_attrs a;
	long r;

	memset(&s, 0, sizeof(s));
	s.ses = ses;
	if (ncr_attrs_begin(&a, &s, sizeof(s)))
		return -ENOMEM;
	if (io != NULL)
		put_io(&a, io);
	r = attrs_ioctl(&a, req);
	ncr_attrs_free(&a);
	return r;
}

long ncr_session_update(int ses, struct ncr_io *io)
{
	return session_io(ses, io, NCRIO_SESSION_UPDATE);
}

long ncr_session_final(int ses, struct ncr_io *io)
{
	return session_io(ses, io, NCRIO_SESSION_FINAL);
}

void ncr_session_abort(int ses)
{
	if (ses >= 0)
		session_io(ses, NULL, NCRIO_SESSION_FINAL);
}

long ncr_session_once(const struct ncr_sess_params *p, struct ncr_io *io)
{
	struct ncr_session_once s;
	struct ncr_attrs a;
	long r;

	memset(&s, 0, sizeof(s));
	s.op = p->op;
	if (ncr_attrs_begin(&a, &s, sizeof(s)))
		return -ENOMEM;
	put_session_params(&a, p);
	put_io(&a, io);
	r = attrs_ioctl(&a, NCRIO_SESSION_ONCE);
	ncr_attrs_free(&a);
	return r;
}

int ncr_key_generate_pair(int priv, int pub, const char *algo,
			  uint32_t flags, uint32_t bits,
			  const void *e, size_t e_len,
			  uint32_t dsa_p_bits, uint32_t dsa_q_bits,
			  const void *dh_p, size_t dh_p_len,
			  const void *dh_g, size_t dh_g_len)
{
	struct ncr_key_generate_pair s;
	struct ncr_attrs a;
	long r;

	memset(&s, 0, sizeof(s));
	s.private_key = priv;
	s.public_key = pub;
	if (ncr_attrs_begin(&a, &s, sizeof(s)))
		return -ENOMEM;
	ncr_attrs_str(&a, NCR_ATTR_ALGORITHM, algo);
	ncr_attrs_u32(&a, NCR_ATTR_KEY_FLAGS, flags);
	if (bits)
		ncr_attrs_u32(&a, NCR_ATTR_RSA_MODULUS_BITS, bits);
	if (e != NULL)
		ncr_attrs_bin(&a, NCR_ATTR_RSA_E, e, e_len);
	if (dsa_p_bits)
		ncr_attrs_u32(&a, NCR_ATTR_DSA_P_BITS, dsa_p_bits);
	if (dsa_q_bits)
		ncr_attrs_u32(&a, NCR_ATTR_DSA_Q_BITS, dsa_q_bits);
	if (dh_p != NULL)
		ncr_attrs_bin(&a, NCR_ATTR_DH_PRIME, dh_p, dh_p_len);
	if (dh_g != NULL)
		ncr_attrs_bin(&a, NCR_ATTR_DH_BASE, dh_g, dh_g_len);
	r = attrs_ioctl(&a, NCRIO_KEY_GENERATE_PAIR);
	ncr_attrs_free(&a);
	return (int)r;
}

int ncr_key_derive_dh(int priv, int newkey, uint32_t flags,
		      const void *peer, size_t peer_len)
{
	struct ncr_key_derive s;
	struct ncr_attrs a;
	long r;

	memset(&s, 0, sizeof(s));
	s.input_key = priv;
	s.new_key = newkey;
	if (ncr_attrs_begin(&a, &s, sizeof(s)))
		return -ENOMEM;
	ncr_attrs_str(&a, NCR_ATTR_DERIVATION_ALGORITHM, NCR_DERIVE_DH);
	ncr_attrs_u32(&a, NCR_ATTR_KEY_FLAGS, flags);
	ncr_attrs_bin(&a, NCR_ATTR_DH_PUBLIC, peer, peer_len);
	r = attrs_ioctl(&a, NCRIO_KEY_DERIVE);
	ncr_attrs_free(&a);
	return (int)r;
}

struct ncr_khandle *ncr_khandle_new(int key)
{
	struct ncr_khandle *h = malloc(sizeof(*h));

	if (h == NULL)
		return NULL;
	h->key = key;
	h->refs = 1;
	return h;
}

struct ncr_khandle *ncr_khandle_ref(struct ncr_khandle *h)
{
	if (h != NULL)
		__atomic_add_fetch(&h->refs, 1, __ATOMIC_RELAXED);
	return h;
}

void ncr_khandle_unref(struct ncr_khandle *h)
{
	if (h == NULL || __atomic_sub_fetch(&h->refs, 1, __ATOMIC_ACQ_REL))
		return;
	ncr_key_free(h->key);
	free(h);
}
