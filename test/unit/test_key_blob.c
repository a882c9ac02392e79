// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of driver/lib/key_blob.c: round trips, the exact byte
 * layout of docs/storage-format.md, and the strict parser: every
 * truncation, extension, malformed field, and every single-bit change
 * (which must either be rejected or decode to a blob that re-encodes to
 * the very same bytes: the encoding is canonical).
 */
#include "key_blob.h"
#include "unit.h"

#include <stdio.h>

static u8 material[KEY_BLOB_MATERIAL_MAX + 1];

static int blob_eq(const struct key_blob *a, const struct key_blob *b)
{
	return a->type == b->type && a->flags == b->flags &&
	       a->algo_len == b->algo_len &&
	       !memcmp(a->algo, b->algo, a->algo_len) &&
	       a->key_id_len == b->key_id_len &&
	       (!a->key_id_len || !memcmp(a->key_id, b->key_id, a->key_id_len)) &&
	       a->material_len == b->material_len &&
	       !memcmp(a->material, b->material, a->material_len);
}

static void round_trip(const struct key_blob *kb, const char *what)
{
	static u8 buf[KEY_BLOB_MAX_LEN + 16];
	struct key_blob out;
	size_t len = 0, want = key_blob_encoded_len(kb);

	CHECKF(want != 0, "%s: encoded_len 0", what);
	CHECKF(key_blob_encode(kb, buf, sizeof(buf), &len) == 0 && len == want,
	       "%s: encode", what);
	CHECKF(key_blob_decode(buf, len, &out) == 0 && blob_eq(kb, &out),
	       "%s: decode", what);
	CHECKF(key_blob_encode(kb, buf, want - 1, &len) == -ERANGE,
	       "%s: short buffer not ERANGE", what);
}

static void test_round_trips(void)
{
	static const u8 id[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
				   14, 15, 16, 17, 18, 19, 20 };
	struct key_blob kb = {
		.type = KEY_BLOB_TYPE_SECRET, .flags = 2, .algo = "cbc(aes)",
		.algo_len = 8, .key_id = id, .key_id_len = 0,
		.material = material, .material_len = 16,
	};
	char algo[KEY_BLOB_ALGO_MAX];

	round_trip(&kb, "aes-128 no id");
	kb.key_id_len = 20;
	kb.flags = KEY_BLOB_FLAGS_KNOWN;
	round_trip(&kb, "full id, all flags");
	kb.material_len = KEY_BLOB_SECRET_MAX;
	round_trip(&kb, "max secret");
	kb.type = KEY_BLOB_TYPE_PRIVATE;
	kb.algo = "rsa";
	kb.algo_len = 3;
	kb.material_len = KEY_BLOB_MATERIAL_MAX;
	round_trip(&kb, "max private");
	kb.type = KEY_BLOB_TYPE_PUBLIC;
	kb.material_len = 1;
	round_trip(&kb, "1-byte public");
	memset(algo, 'x', sizeof(algo));
	kb.algo = algo;
	kb.algo_len = KEY_BLOB_ALGO_MAX;
	round_trip(&kb, "max algo");
}

/* The documented layout, byte by byte. */
static void test_layout(void)
{
	static const u8 id[2] = { 0xaa, 0xbb };
	static const u8 key[3] = { 0x10, 0x20, 0x30 };
	static const u8 want[] = {
		'N', 'C', 'R', 'K', 1, 1, 3, 2, 0, 0, 0, 0x06, 0, 0, 0, 3,
		'a', 'e', 's', 0xaa, 0xbb, 0x10, 0x20, 0x30,
	};
	struct key_blob kb = {
		.type = 1, .flags = 6, .algo = "aes", .algo_len = 3,
		.key_id = id, .key_id_len = 2, .material = key,
		.material_len = 3,
	};
	u8 buf[64];
	size_t len = 0;

	CHECKF(key_blob_encode(&kb, buf, sizeof(buf), &len) == 0 &&
	       len == sizeof(want) && !memcmp(buf, want, len), "layout");
}

static int decodes(const u8 *buf, size_t len)
{
	struct key_blob kb;

	return key_blob_decode(buf, len, &kb) == 0;
}

/* Malformed inputs built from a good encoding. */
static void test_rejects(void)
{
	static const u8 id[4] = { 9, 9, 9, 9 };
	struct key_blob kb = {
		.type = 1, .flags = 3, .algo = "hmac(sha256)", .algo_len = 12,
		.key_id = id, .key_id_len = 4, .material = material,
		.material_len = 32,
	}, bad;
	static u8 good[KEY_BLOB_MAX_LEN + 16], buf[KEY_BLOB_MAX_LEN + 16];
	size_t len, i, l2;
	static const u8 bad_chars[] = { 0, ' ', 0x7f, 0x80, 0xff, '\n' };

	key_blob_encode(&kb, good, sizeof(good), &len);
	CHECKF(decodes(good, len), "good decodes");

	for (i = 0; i < len; i++)
		CHECKF(!decodes(good, i), "truncation to %zu accepted", i);
	memcpy(buf, good, len);
	buf[len] = 0;
	CHECKF(!decodes(buf, len + 1), "extension accepted");

#define MUT(stmt, what) do { memcpy(buf, good, len); stmt; \
	CHECKF(!decodes(buf, len), "accepted: %s", what); } while (0)
	MUT(buf[0] = 'X', "magic");
	MUT(buf[4] = 0, "version 0");
	MUT(buf[4] = 2, "version 2");
	MUT(buf[5] = 0, "type 0");
	MUT(buf[5] = 4, "type 4");
	MUT(buf[8] = 0x80, "flag bit 31");
	MUT(buf[11] = 0x23, "flag bit 5");
	MUT(buf[6] = 13, "algo_len + 1");
	MUT(buf[6] = 11, "algo_len - 1");
	MUT(buf[7] = 5, "key_id_len + 1");
	MUT(buf[15] = 33, "material_len + 1");
	MUT(buf[12] = 0x80, "material_len huge");
	for (i = 0; i < sizeof(bad_chars); i++)
		MUT(buf[16 + 4] = bad_chars[i], "algo character");
#undef MUT

	/* length-consistent but out-of-range fields */
	bad = kb;
	bad.algo_len = 0;
	CHECKF(key_blob_encoded_len(&bad) == 16 + kb.key_id_len + kb.material_len,
	       "a secret key without algorithm not encodable");
	bad.type = KEY_BLOB_TYPE_PRIVATE;
	CHECKF(key_blob_encoded_len(&bad) == 0, "private key without algo encodable");
	memcpy(buf, good, 16);
	buf[6] = 0;
	buf[7] = 0;
	buf[15] = 1;
	buf[16] = 0x42;
	CHECKF(decodes(buf, 17), "secret key without algo not decoded");
	buf[5] = KEY_BLOB_TYPE_PRIVATE;
	CHECKF(!decodes(buf, 17), "private key without algo decoded");
	memcpy(buf, good, 16);
	buf[6] = 1;
	buf[7] = 21;
	buf[12] = buf[13] = buf[14] = 0;
	buf[15] = 1;
	memset(buf + 16, 'a', 1 + 21 + 1);
	CHECKF(!decodes(buf, 16 + 23), "key_id 21 decoded");
	buf[7] = 20;
	CHECKF(decodes(buf, 16 + 22), "key_id 20 rejected");
	buf[15] = 0;
	CHECKF(!decodes(buf, 16 + 21), "empty material decoded");

	/* secrets are bounded by KEY_BLOB_SECRET_MAX, PK material is not */
	bad = kb;
	bad.material_len = KEY_BLOB_SECRET_MAX + 1;
	CHECKF(key_blob_encoded_len(&bad) == 0, "513-byte secret encodable");
	bad.type = KEY_BLOB_TYPE_PRIVATE;
	CHECKF(key_blob_encode(&bad, buf, sizeof(buf), &l2) == 0, "private 513");
	buf[5] = KEY_BLOB_TYPE_SECRET;
	CHECKF(!decodes(buf, l2), "513-byte secret decoded");
	bad.material_len = KEY_BLOB_MATERIAL_MAX + 1;
	CHECKF(key_blob_encode(&bad, buf, sizeof(buf), &l2) == -EINVAL,
	       "oversized material encodable");
	bad = kb;
	bad.key_id_len = KEY_BLOB_KEY_ID_MAX + 1;
	CHECKF(key_blob_encoded_len(&bad) == 0, "21-byte key id encodable");
	bad = kb;
	bad.flags = 0x20;
	CHECKF(key_blob_encoded_len(&bad) == 0, "unknown flag encodable");
	bad = kb;
	bad.type = 0;
	CHECKF(key_blob_encoded_len(&bad) == 0, "type 0 encodable");
}

/* Every single-bit change: rejected, or canonical re-encoding. */
static void test_bit_flips(void)
{
	static const u8 id[5] = { 1, 2, 3, 4, 5 };
	struct key_blob kb = {
		.type = 3, .flags = 0xa, .algo = "rsa", .algo_len = 3,
		.key_id = id, .key_id_len = 5, .material = material,
		.material_len = 40,
	}, out;
	u8 good[128], buf[128], re[128];
	size_t len, rl, bit;
	int accepted = 0, rejected = 0;

	key_blob_encode(&kb, good, sizeof(good), &len);
	for (bit = 0; bit < len * 8; bit++) {
		memcpy(buf, good, len);
		buf[bit / 8] ^= 1 << (bit % 8);
		if (key_blob_decode(buf, len, &out)) {
			rejected++;
			continue;
		}
		accepted++;
		CHECKF(!blob_eq(&kb, &out), "bit %zu: flip not visible", bit);
		CHECKF(key_blob_encode(&out, re, sizeof(re), &rl) == 0 &&
		       rl == len && !memcmp(re, buf, len),
		       "bit %zu: not canonical", bit);
	}
	printf("bit flips: %d rejected, %d decode to another valid blob "
	       "(caught by the RFC 5649 integrity check in the driver)\n",
	       rejected, accepted);
}

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(material); i++)
		material[i] = (u8)(i * 7 + 1);
	test_round_trips();
	test_layout();
	test_rejects();
	test_bit_flips();
	return unit_report("test_key_blob");
}
