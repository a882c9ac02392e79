// SPDX-License-Identifier: GPL-2.0
/* The session ioctls: init, update, final (or abort) and once. */
#include <errno.h>
#include <string.h>
#include "ncrlib.h"

void ncrlib_sess_params_init(struct ncrlib_sess_params *p, uint32_t op,
			     const char *algo)
{
	memset(p, 0, sizeof(*p));
	p->op = op;
	p->algo = algo;
	p->key = -1;
	p->rsa_method = -1;
	p->pss_salt = -1;
}

static void put_session_params(struct ncrlib_attrs *a,
			       const struct ncrlib_sess_params *p)
{
	ncrlib_attrs_str(a, NCR_ATTR_ALGORITHM, p->algo);
	if (p->key >= 0)
		ncrlib_attrs_u32(a, NCR_ATTR_KEY, (uint32_t)p->key);
	if (p->iv != NULL)
		ncrlib_attrs_put(a, NCR_ATTR_IV, p->iv, p->iv_len);
	if (p->rsa_method >= 0)
		ncrlib_attrs_u32(a, NCR_ATTR_RSA_ENCODING_METHOD,
				 (uint32_t)p->rsa_method);
	if (p->oaep_hash != NULL)
		ncrlib_attrs_str(a, NCR_ATTR_RSA_OAEP_HASH_ALGORITHM,
				 p->oaep_hash);
	if (p->sig_hash != NULL)
		ncrlib_attrs_str(a, NCR_ATTR_SIGNATURE_HASH_ALGORITHM,
				 p->sig_hash);
	if (p->pss_salt >= 0)
		ncrlib_attrs_u32(a, NCR_ATTR_RSA_PSS_SALT_LENGTH,
				 (uint32_t)p->pss_salt);
	if (p->input_is_digest)
		ncrlib_attrs_u32(a, NCR_ATTR_SIGNATURE_INPUT_IS_DIGEST, 1);
}

int ncrlib_session_new(int fd, const struct ncrlib_sess_params *p)
{
	struct ncr_session_init s = { .op = p->op };
	struct ncrlib_attrs a;

	if (ncrlib_attrs_begin(&a, &s, sizeof(s)))
		return -ENOMEM;
	put_session_params(&a, p);
	return (int)ncrlib_attrs_call(fd, NCRIO_SESSION_INIT, &a);
}

static void put_input(struct ncrlib_attrs *a, uint16_t type, const void *p,
		      size_t n)
{
	struct ncr_session_input_data d = { .data = p, .data_size = n };

	ncrlib_attrs_put(a, type, &d, sizeof(d));
}

/* The kernel writes the result size through a __kernel_size_t pointer. */
static void put_output(struct ncrlib_attrs *a, uint16_t type, void *p,
		       size_t cap, size_t *result)
{
	struct ncr_session_output_buffer o = {
		.buffer = p, .buffer_size = cap, .result_size_ptr = result };

	*result = 0;
	ncrlib_attrs_put(a, type, &o, sizeof(o));
}

static void put_io(struct ncrlib_attrs *a, struct ncrlib_io *io)
{
	if (io->in != NULL || io->has_in)
		put_input(a, NCR_ATTR_UPDATE_INPUT_DATA, io->in, io->in_len);
	if (io->out != NULL)
		put_output(a, NCR_ATTR_UPDATE_OUTPUT_BUFFER, io->out,
			   io->out_cap, &io->out_len);
	if (io->fin_in != NULL)
		put_input(a, NCR_ATTR_FINAL_INPUT_DATA, io->fin_in,
			  io->fin_in_len);
	if (io->fin_out != NULL)
		put_output(a, NCR_ATTR_FINAL_OUTPUT_BUFFER, io->fin_out,
			   io->fin_out_cap, &io->fin_out_len);
}

static long session_io(int fd, int ses, struct ncrlib_io *io,
		       unsigned long req)
{
	struct ncr_session_update s = { .ses = ses }; /* = ncr_session_final */
	struct ncrlib_attrs a;

	if (ncrlib_attrs_begin(&a, &s, sizeof(s)))
		return -ENOMEM;
	if (io != NULL)
		put_io(&a, io);
	return ncrlib_attrs_call(fd, req, &a);
}

long ncrlib_session_update(int fd, int ses, struct ncrlib_io *io)
{
	return session_io(fd, ses, io, NCRIO_SESSION_UPDATE);
}

long ncrlib_session_final(int fd, int ses, struct ncrlib_io *io)
{
	return session_io(fd, ses, io, NCRIO_SESSION_FINAL);
}

void ncrlib_session_abort(int fd, int ses)
{
	if (ses >= 0)
		session_io(fd, ses, NULL, NCRIO_SESSION_FINAL);
}

long ncrlib_session_once(int fd, const struct ncrlib_sess_params *p,
			 struct ncrlib_io *io)
{
	struct ncr_session_once s = { .op = p->op };
	struct ncrlib_attrs a;

	if (ncrlib_attrs_begin(&a, &s, sizeof(s)))
		return -ENOMEM;
	put_session_params(&a, p);
	put_io(&a, io);
	return ncrlib_attrs_call(fd, NCRIO_SESSION_ONCE, &a);
}
