// SPDX-License-Identifier: GPL-2.0
/* DER encoding and strict parsing of the ncr key file body (keyfile.h). */
#include <stdlib.h>
#include <string.h>
#include "keyfile.h"

static size_t len_size(size_t n)
{
	size_t s = 1;

	if (n < 0x80)
		return 1;
	while (n) {
		s++;
		n >>= 8;
	}
	return s;
}

static unsigned char *put_hdr(unsigned char *p, unsigned char tag, size_t n)
{
	size_t ls = len_size(n), i;

	*p++ = tag;
	if (ls == 1) {
		*p++ = (unsigned char)n;
		return p;
	}
	*p++ = (unsigned char)(0x80 | (ls - 1));
	for (i = ls - 1; i > 0; i--)
		*p++ = (unsigned char)(n >> (8 * (i - 1)));
	return p;
}

int ncrp_keyfile_encode(const unsigned char *spki, size_t spki_len,
			const unsigned char *blob, size_t blob_len,
			unsigned char **der, size_t *der_len)
{
	size_t body = 3 + spki_len + 1 + len_size(blob_len) + blob_len;
	size_t total = 1 + len_size(body) + body;
	unsigned char *out = malloc(total), *p;

	if (out == NULL)
		return 0;
	p = put_hdr(out, 0x30, body);
	*p++ = 0x02;			/* INTEGER 1 */
	*p++ = 0x01;
	*p++ = NCR_KEYFILE_VERSION;
	memcpy(p, spki, spki_len);
	p += spki_len;
	p = put_hdr(p, 0x04, blob_len);
	memcpy(p, blob, blob_len);
	*der = out;
	*der_len = total;
	return 1;
}

/* One TLV at *p (< end): tag must match; minimal definite length. */
static int get_tlv(const unsigned char **p, const unsigned char *end,
		   unsigned char tag, const unsigned char **val, size_t *len,
		   const unsigned char **tlv_start)
{
	const unsigned char *q = *p;
	size_t n = 0, ls, i;

	if (end - q < 2 || q[0] != tag)
		return 0;
	if (tlv_start)
		*tlv_start = q;
	q++;
	if (*q < 0x80) {
		n = *q++;
	} else {
		ls = *q++ & 0x7f;
		if (ls == 0 || ls > 3 || (size_t)(end - q) < ls || *q == 0)
			return 0;
		for (i = 0; i < ls; i++)
			n = (n << 8) | *q++;
		if (n < 0x80)
			return 0;
	}
	if ((size_t)(end - q) < n)
		return 0;
	*val = q;
	*len = n;
	*p = q + n;
	return 1;
}

int ncrp_keyfile_decode(const unsigned char *der, size_t der_len,
			const unsigned char **spki, size_t *spki_len,
			const unsigned char **blob, size_t *blob_len)
{
	const unsigned char *p = der, *end = der + der_len, *v, *start;
	size_t n;

	if (!get_tlv(&p, end, 0x30, &v, &n, NULL) || p != end)
		return 0;
	p = v;
	end = v + n;
	if (!get_tlv(&p, end, 0x02, &v, &n, NULL) || n != 1 ||
	    v[0] != NCR_KEYFILE_VERSION)
		return 0;
	if (!get_tlv(&p, end, 0x30, &v, &n, &start))
		return 0;
	*spki = start;
	*spki_len = (size_t)(p - start);
	if (!get_tlv(&p, end, 0x04, blob, blob_len, NULL) || p != end ||
	    *blob_len == 0)
		return 0;
	return 1;
}
