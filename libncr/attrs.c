// SPDX-License-Identifier: GPL-2.0
/*
 * The argument block writer: a fixed struct followed by attributes, in a
 * buffer that grows as they are appended (inline first, then the heap).
 * Each attribute is written by driver/lib/nlattr.c's bounds-checked
 * ncr_nla_put(), the encoding the kernel parses.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "ncrlib.h"
#include "nlattr.h"

void ncrlib_attrs_reserve(struct ncrlib_attrs *a, size_t more)
{
	size_t cap = a->cap;
	unsigned char *p;

	if (a->err)
		return;
	if (more > SIZE_MAX / 2 - a->len) {
		a->err = -ENOMEM;
		return;
	}
	if (a->len + more <= a->cap)
		return;
	while (cap < a->len + more)
		cap *= 2;
	p = calloc(1, cap);
	if (p == NULL) {
		a->err = -ENOMEM;
		return;
	}
	memcpy(p, a->buf, a->len);
	memzero_explicit(a->buf, a->cap);
	if (a->buf != a->inline_buf)
		free(a->buf);
	a->buf = p;
	a->cap = cap;
}

int ncrlib_attrs_begin(struct ncrlib_attrs *a, const void *fixed,
		       size_t fixed_len)
{
	memset(a, 0, sizeof(*a));
	a->buf = a->inline_buf;
	a->cap = sizeof(a->inline_buf);
	ncrlib_attrs_reserve(a, NLA_ALIGN(fixed_len));
	if (a->err)
		return a->err;
	memcpy(a->buf, fixed, fixed_len);
	a->len = NLA_ALIGN(fixed_len);
	return 0;
}

void ncrlib_attrs_put(struct ncrlib_attrs *a, uint16_t type, const void *p,
		      size_t n)
{
	struct ncr_nla_out out;
	int r;

	/* Longer than an attribute can be: ENOMEM, as for no memory. */
	if (!a->err && n > 0xffff - NLA_HDRLEN - NLA_ALIGNTO)
		a->err = -ENOMEM;
	ncrlib_attrs_reserve(a, NLA_ALIGN(NLA_HDRLEN + n));
	if (a->err)
		return;
	ncr_nla_out_init(&out, a->buf, a->cap);
	out.used = a->len;
	r = ncr_nla_put(&out, type, p, n);
	if (r)
		a->err = r == -ERANGE ? -ENOMEM : r;
	else
		a->len = out.used;
}

void ncrlib_attrs_u32(struct ncrlib_attrs *a, uint16_t type, uint32_t v)
{
	ncrlib_attrs_put(a, type, &v, sizeof(v));
}

void ncrlib_attrs_str(struct ncrlib_attrs *a, uint16_t type, const char *s)
{
	ncrlib_attrs_put(a, type, s, strlen(s) + 1);
}

int ncrlib_attrs_end(struct ncrlib_attrs *a)
{
	uint32_t size;

	if (a->err)
		return a->err;
	if (a->len > UINT32_MAX)
		return -EINVAL;
	size = (uint32_t)a->len;
	memcpy(a->buf, &size, sizeof(size));
	return 0;
}

void ncrlib_attrs_free(struct ncrlib_attrs *a)
{
	if (a->buf != NULL) {
		memzero_explicit(a->buf, a->cap);
		if (a->buf != a->inline_buf)
			free(a->buf);
	}
	a->buf = NULL;
	a->len = a->cap = 0;
	a->err = -EINVAL;	/* no more puts until the next begin */
}
