// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of driver/lib/nlattr.c (the ioctl attribute parser/writer)
 * and of libncr's growing writer built on it (libncr/attrs.c).
 */
#include <stdio.h>
#include "nlattr.h"
#include "ncrlib.h"
#include "unit.h"
#include <linux/ncr.h>

#define MAXT 8
static const struct ncr_nla_policy pol[MAXT + 1] = {
	[1] = { NCR_NLA_U32, 0 },
	[2] = { NCR_NLA_NUL_STRING, 5 },
	[3] = { NCR_NLA_BINARY, 4 },
	[4] = { NCR_NLA_BINARY, 0 },
};

/* 4-aligned scratch area, as the kernel's copy of the attributes. */
static u32 area[256];

static size_t put_raw(size_t off, u16 len, u16 type, const void *data,
		      size_t dlen)
{
	u8 *p = (u8 *)area + off;

	memcpy(p, &len, 2);
	memcpy(p + 2, &type, 2);
	memcpy(p + 4, data, dlen);
	return off + NLA_ALIGN(4 + dlen);
}

static int parse(const struct nlattr **tb, size_t len)
{
	return ncr_nla_parse(tb, MAXT, area, len, pol);
}

static void test_basic(void)
{
	const struct nlattr *tb[MAXT + 1];
	u32 v = 0x12345678;
	size_t off;

	CHECK(ncr_nla_parse(tb, MAXT, NULL, 0, pol) == 0);
	CHECK(tb[1] == NULL && tb[MAXT] == NULL);

	memset(area, 0xaa, sizeof(area));
	off = put_raw(0, 8, 1, &v, 4);
	off = put_raw(off, 4 + 3, 2, "ab", 3);
	off = put_raw(off, 4 + 1, 4, "x", 1);	/* padding not zero: fine */
	CHECK(parse(tb, off) == 0);
	CHECK(tb[1] && ncr_nla_get_u32(tb[1]) == 0x12345678);
	CHECK(tb[2] && !strcmp(ncr_nla_get_str(tb[2]), "ab"));
	CHECK(tb[4] && ncr_nla_len(tb[4]) == 1);
	CHECK(tb[3] == NULL);
	/* The last attribute may omit its padding. */
	CHECK(parse(tb, off - 3) == 0 && tb[4] != NULL);
	/* ...but not cut into its payload. */
	CHECK(parse(tb, off - 4) == -EINVAL);
}

static void test_malformed(void)
{
	const struct nlattr *tb[MAXT + 1];
	u32 v = 1;
	size_t off;

	off = put_raw(0, 3, 4, "", 0);		/* nla_len below header */
	CHECK(parse(tb, off) == -EINVAL);
	off = put_raw(0, 100, 4, "abcd", 4);	/* nla_len beyond the end */
	CHECK(parse(tb, off) == -EINVAL);
	off = put_raw(0, 8, 1, &v, 4);		/* trailing bytes */
	CHECK(parse(tb, off + 2) == -EINVAL);
	CHECK(parse(tb, 3) == -EINVAL);		/* not even a header */
	off = put_raw(0, 0, 1, "", 0);		/* nla_len 0 (no progress) */
	CHECK(parse(tb, 8) == -EINVAL);
}

static void test_policy(void)
{
	const struct nlattr *tb[MAXT + 1];
	size_t off;

	off = put_raw(0, 4 + 3, 1, "abc", 3);	/* u32 too short */
	CHECK(parse(tb, off) == -EINVAL);
	off = put_raw(0, 4 + 5, 1, "abcde", 5);	/* u32 too long */
	CHECK(parse(tb, off) == -EINVAL);
	off = put_raw(0, 4 + 3, 2, "abc", 3);	/* string without NUL */
	CHECK(parse(tb, off) == -EINVAL);
	off = put_raw(0, 4, 2, "", 0);		/* empty string payload */
	CHECK(parse(tb, off) == -EINVAL);
	off = put_raw(0, 4 + 1, 2, "", 1);	/* "" */
	CHECK(parse(tb, off) == 0 && tb[2] && !*ncr_nla_get_str(tb[2]));
	off = put_raw(0, 4 + 6, 2, "abcde", 6);	/* at max_len */
	CHECK(parse(tb, off) == 0);
	off = put_raw(0, 4 + 7, 2, "abcdef", 7);	/* above max_len */
	CHECK(parse(tb, off) == -EINVAL);
	off = put_raw(0, 4 + 6, 2, "ab\0xyz", 6);	/* bytes after NUL ok */
	CHECK(parse(tb, off) == 0 && !strcmp(ncr_nla_get_str(tb[2]), "ab"));
	off = put_raw(0, 4 + 5, 3, "abcde", 5);	/* binary above max */
	CHECK(parse(tb, off) == -EINVAL);
	off = put_raw(0, 4 + 4, 3, "abcd", 4);
	CHECK(parse(tb, off) == 0 && ncr_nla_len(tb[3]) == 4);
	/* No policy: anything goes. */
	off = put_raw(0, 4 + 3, 1, "abc", 3);
	CHECK(ncr_nla_parse(tb, MAXT, area, off, NULL) == 0 && tb[1]);
}

static void test_ignore_and_duplicates(void)
{
	const struct nlattr *tb[MAXT + 1];
	u32 a = 1, b = 2;
	size_t off;

	off = put_raw(0, 4 + 3, 0, "abc", 3);		/* type 0 */
	off = put_raw(off, 4 + 3, MAXT + 1, "abc", 3);	/* unknown type */
	off = put_raw(off, 4 + 3, 0x7fff, "abc", 3);	/* unknown type */
	off = put_raw(off, 8, 1, &a, 4);
	off = put_raw(off, 8, 1, &b, 4);		/* last one wins */
	off = put_raw(off, 8, 1 | NLA_F_NESTED, &b, 4);	/* flags masked */
	CHECK(parse(tb, off) == 0);
	CHECK(tb[0] == NULL);
	CHECK(tb[1] && ncr_nla_get_u32(tb[1]) == 2);
	/* Unknown attributes are not validated against anything. */
	off = put_raw(0, 4 + 1, MAXT + 3, "", 1);
	CHECK(parse(tb, off) == 0);
}

static void test_writer(void)
{
	const struct nlattr *tb[MAXT + 1];
	struct ncr_nla_out out;
	u8 buf[64];
	u32 v = 7;

	memset(buf, 0xee, sizeof(buf));
	ncr_nla_out_init(&out, buf, 24);
	CHECK(ncr_nla_put_u32(&out, 1, v) == 0 && out.used == 8);
	CHECK(ncr_nla_put_str(&out, 2, "hi") == 0 && out.used == 16);
	CHECK(buf[15] == 0 && buf[14] == 0);	/* padding zeroed */
	/* Exactly fills the rest (header + 4). */
	CHECK(ncr_nla_put(&out, 3, "wxyz", 4) == 0 && out.used == 24);
	CHECK(ncr_nla_put(&out, 4, NULL, 0) == -ERANGE && out.used == 24);
	memcpy(area, buf, out.used);
	CHECK(parse(tb, out.used) == 0);
	CHECK(tb[1] && ncr_nla_get_u32(tb[1]) == 7);
	CHECK(tb[2] && !strcmp(ncr_nla_get_str(tb[2]), "hi"));
	CHECK(tb[3] && !memcmp(ncr_nla_data(tb[3]), "wxyz", 4));

	ncr_nla_out_init(&out, buf, 7);
	CHECK(ncr_nla_put_u32(&out, 1, v) == -ERANGE && out.used == 0);
	ncr_nla_out_init(&out, NULL, 0);
	CHECK(ncr_nla_put(&out, 1, NULL, 0) == -ERANGE);
	ncr_nla_out_init(&out, buf, sizeof(buf));
	CHECK(ncr_nla_put(&out, 1, NULL, 0) == 0 && out.used == 4);
	CHECK(ncr_nla_put(&out, 1, buf, 0x10000) == -EINVAL);
}

static void test_ncr_policy(void)
{
	const struct nlattr *tb[NCR_ATTR_MAX + 1];
	u32 v = 5;
	size_t off;

	off = put_raw(0, 4 + 9, NCR_ATTR_ALGORITHM, "cbc(aes)", 9);
	off = put_raw(off, 8, NCR_ATTR_KEY, &v, 4);
	CHECK(ncr_nla_parse(tb, NCR_ATTR_MAX, area, off, ncr_attr_policy) == 0);
	CHECK(!strcmp(ncr_nla_get_str(tb[NCR_ATTR_ALGORITHM]), "cbc(aes)"));
	CHECK(ncr_nla_get_u32(tb[NCR_ATTR_KEY]) == 5);
	off = put_raw(0, 4 + 2, NCR_ATTR_KEY_FLAGS, "ab", 2);
	CHECK(ncr_nla_parse(tb, NCR_ATTR_MAX, area, off, ncr_attr_policy) ==
	      -EINVAL);
	off = put_raw(0, 4 + 2, NCR_ATTR_END__, "ab", 2);	/* future attr */
	CHECK(ncr_nla_parse(tb, NCR_ATTR_MAX, area, off, ncr_attr_policy) == 0);
}

/* libncr: a block grows past the inline buffer and parses back. */
static void test_attrs_grow(void)
{
	const struct nlattr *tb[NCR_ATTR_MAX + 1];
	struct ncr_key_import fixed = { .key = 3 };
	static u8 big[1000];
	struct ncrlib_attrs a;
	size_t off = NLA_ALIGN(sizeof(fixed));
	u32 size;

	memset(big, 0x5a, sizeof(big));
	CHECK(ncrlib_attrs_begin(&a, &fixed, sizeof(fixed)) == 0);
	CHECK(a.len == off && a.buf == a.inline_buf);
	ncrlib_attrs_str(&a, NCR_ATTR_ALGORITHM, "rsa");
	ncrlib_attrs_u32(&a, NCR_ATTR_KEY_TYPE, 2);
	CHECK(a.buf == a.inline_buf);
	ncrlib_attrs_put(&a, NCR_ATTR_RSA_E, big, sizeof(big));
	CHECK(a.err == 0 && a.buf != a.inline_buf && a.cap >= a.len);
	ncrlib_attrs_u32(&a, NCR_ATTR_KEY_FLAGS, 9);
	CHECK(ncrlib_attrs_end(&a) == 0);
	memcpy(&size, a.buf, sizeof(size));
	CHECK(size == a.len);
	CHECK(((struct ncr_key_import *)a.buf)->key == 3);
	CHECK(ncr_nla_parse(tb, NCR_ATTR_MAX, a.buf + off, a.len - off,
			    ncr_attr_policy) == 0);
	CHECK(tb[NCR_ATTR_ALGORITHM] &&
	      !strcmp(ncr_nla_get_str(tb[NCR_ATTR_ALGORITHM]), "rsa"));
	CHECK(tb[NCR_ATTR_KEY_TYPE] &&
	      ncr_nla_get_u32(tb[NCR_ATTR_KEY_TYPE]) == 2);
	CHECK(tb[NCR_ATTR_RSA_E] &&
	      ncr_nla_len(tb[NCR_ATTR_RSA_E]) == sizeof(big) &&
	      !memcmp(ncr_nla_data(tb[NCR_ATTR_RSA_E]), big, sizeof(big)));
	CHECK(tb[NCR_ATTR_KEY_FLAGS] &&
	      ncr_nla_get_u32(tb[NCR_ATTR_KEY_FLAGS]) == 9);
	ncrlib_attrs_free(&a);
	CHECK(a.buf == NULL && a.len == 0);
}

/* libncr: an attribute too long for nla_len fails the block, once. */
static void test_attrs_too_long(void)
{
	static u8 huge[0x10000];
	struct ncrlib_attrs a;
	u32 fixed = 0;
	size_t len;

	CHECK(ncrlib_attrs_begin(&a, &fixed, sizeof(fixed)) == 0);
	ncrlib_attrs_u32(&a, NCR_ATTR_KEY, 1);
	len = a.len;
	ncrlib_attrs_put(&a, NCR_ATTR_RSA_E, huge, sizeof(huge));
	/* refused before the buffer grows for it */
	CHECK(a.err == -ENOMEM && a.len == len && a.cap < sizeof(huge));
	ncrlib_attrs_u32(&a, NCR_ATTR_KEY, 2);	/* ignored after an error */
	CHECK(a.len == len);
	CHECK(ncrlib_attrs_end(&a) == -ENOMEM);
	ncrlib_attrs_free(&a);
	/* a freed block takes no more attributes (and does not grow) */
	ncrlib_attrs_u32(&a, NCR_ATTR_KEY, 3);
	CHECK(a.err == -EINVAL && a.buf == NULL && a.cap == 0);
	ncrlib_attrs_free(&a);
	/* room for kernel output is zeroed */
	CHECK(ncrlib_attrs_begin(&a, &fixed, sizeof(fixed)) == 0);
	ncrlib_attrs_reserve(&a, 4096);
	CHECK(a.err == 0 && a.cap >= a.len + 4096);
	CHECK(a.buf[a.cap - 1] == 0 && a.buf[a.len] == 0);
	ncrlib_attrs_free(&a);
}

int main(void)
{
	test_basic();
	test_malformed();
	test_policy();
	test_ignore_and_duplicates();
	test_writer();
	test_ncr_policy();
	test_attrs_grow();
	test_attrs_too_long();
	return unit_report("test_nlattr");
}
