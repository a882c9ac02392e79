// SPDX-License-Identifier: GPL-2.0
/* Strict DER reading and writing of TLVs and non-negative INTEGERs. */
#include "asn1.h"

/* Definite, minimal lengths below 2^24. */
int ncr_der_get(struct ncr_der *d, u8 tag, struct ncr_der *content)
{
	size_t l, n, pos = 2, i;

	if (d->len < 2 || d->p[0] != tag)
		return -EINVAL;
	l = d->p[1];
	if (l & 0x80) {
		n = l & 0x7f;
		/* 0: indefinite (BER only); > 3: absurd for a key */
		if (n == 0 || n > 3 || d->len - 2 < n || d->p[2] == 0)
			return -EINVAL;
		for (l = 0, i = 0; i < n; i++)
			l = (l << 8) | d->p[2 + i];
		if (l < 0x80)
			return -EINVAL;
		pos += n;
	}
	if (l > d->len - pos)
		return -EINVAL;
	content->p = d->p + pos;
	content->len = l;
	d->p += pos + l;
	d->len -= pos + l;
	return 0;
}

u8 ncr_der_peek(const struct ncr_der *d)
{
	return d->len ? d->p[0] : 0;
}

int ncr_der_get_uint(struct ncr_der *d, mp_int *v)
{
	struct ncr_der c;
	int err = ncr_der_get(d, NCR_DER_INT, &c);

	if (err)
		return err;
	if (!v)
		return c.len == 1 && c.p[0] == 0 ? 0 : -EINVAL;
	if (c.len == 0 || (c.p[0] & 0x80) || c.len > NCR_PK_MAX_BYTES + 1)
		return -EINVAL;
	if (c.len > 1 && c.p[0] == 0 && !(c.p[1] & 0x80))
		return -EINVAL;
	return ncr_mp_from_be(v, c.p, c.len);
}

int ncr_der_get_uints(struct ncr_der d, mp_int *const *v, int n)
{
	int i, err = 0;

	for (i = 0; i < n && !err; i++)
		err = ncr_der_get_uint(&d, v[i]);
	return err ? err : ncr_der_end(&d);
}

int ncr_der_get_only_seq(const u8 *p, size_t len, struct ncr_der *inner)
{
	struct ncr_der d = { p, len };
	int err = ncr_der_get(&d, NCR_DER_SEQ, inner);

	return err ? err : ncr_der_end(&d);
}

int ncr_der_get_seq_uints(struct ncr_der d, mp_int *const *v, int n)
{
	struct ncr_der seq;
	int err = ncr_der_get_only_seq(d.p, d.len, &seq);

	return err ? err : ncr_der_get_uints(seq, v, n);
}

int ncr_der_get_only_uint(struct ncr_der d, mp_int *v)
{
	int err = ncr_der_get_uint(&d, v);

	return err ? err : ncr_der_end(&d);
}

int ncr_der_end(const struct ncr_der *d)
{
	return d->len ? -EINVAL : 0;
}

static size_t hdr_len(size_t len)
{
	return len < 0x80 ? 2 : len < 0x100 ? 3 : len < 0x10000 ? 4 : 5;
}

/* Content length of INTEGER v (NULL means 0). */
static size_t int_len(const mp_int *v)
{
	int bits = v ? mp_count_bits(v) : 0;

	/* a leading 0x00 when the top bit of the first byte is set */
	return bits == 0 ? 1 : (size_t)bits / 8 + 1;
}

void ncr_der_put_bytes(struct ncr_der_wr *w, const void *p, size_t n)
{
	if (w->out && w->pos + n <= w->cap)
		memcpy(w->out + w->pos, p, n);
	w->pos += n;
}

void ncr_der_put_hdr(struct ncr_der_wr *w, u8 tag, size_t len)
{
	u8 h[5];
	size_t n = hdr_len(len), i;

	h[0] = tag;
	if (n == 2) {
		h[1] = (u8)len;
	} else {
		h[1] = (u8)(0x80 | (n - 2));
		for (i = 0; i < n - 2; i++)
			h[n - 1 - i] = (u8)(len >> (8 * i));
	}
	ncr_der_put_bytes(w, h, n);
}

int ncr_der_put_int(struct ncr_der_wr *w, const mp_int *v)
{
	size_t n = int_len(v);

	ncr_der_put_hdr(w, NCR_DER_INT, n);
	if (w->out && w->pos + n <= w->cap) {
		int err = v ? ncr_mp_to_fixed(v, w->out + w->pos, n) : 0;

		if (!v)
			w->out[w->pos] = 0;
		if (err)
			return err;
	}
	w->pos += n;
	return 0;
}

int ncr_der_put_int_seq(struct ncr_der_wr *w, const mp_int *const *v, int n)
{
	size_t l = 0;
	int i, err = 0;

	for (i = 0; i < n; i++)
		l += hdr_len(int_len(v[i])) + int_len(v[i]);
	ncr_der_put_hdr(w, NCR_DER_SEQ, l);
	for (i = 0; i < n && !err; i++)
		err = ncr_der_put_int(w, v[i]);
	return err;
}

int ncr_der_put_tlv(struct ncr_der_wr *w, u8 tag,
		    int (*fn)(struct ncr_der_wr *w, const void *arg),
		    const void *arg)
{
	struct ncr_der_wr m = { NULL, 0, 0 };
	int err = fn(&m, arg);

	if (err)
		return err;
	ncr_der_put_hdr(w, tag, m.pos);
	return fn(w, arg);
}

int ncr_der_finish(const struct ncr_der_wr *w, u8 *out, size_t *len, int err)
{
	if (err)
		return err;
	*len = w->pos;
	if (out && w->pos > w->cap) {
		memzero_explicit(out, w->cap);
		return -ENOSPC;
	}
	return 0;
}
