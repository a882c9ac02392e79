/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal JSON reader for test vectors (Wycheproof): parses a whole file
 * into a tree.  Strings keep their escapes decoded only for \" \\ \/ and
 * the control escapes; \u sequences are kept verbatim (vectors use hex).
 */
#ifndef JSON_MIN_H
#define JSON_MIN_H

#include <stddef.h>

enum jv_type { JV_NULL, JV_BOOL, JV_NUM, JV_STR, JV_ARR, JV_OBJ };

struct jv {
	enum jv_type type;
	double num;		/* JV_NUM, JV_BOOL (0/1) */
	char *str;		/* JV_STR */
	size_t n;		/* JV_ARR / JV_OBJ element count */
	char **keys;		/* JV_OBJ */
	struct jv **items;	/* JV_ARR / JV_OBJ values */
};

/* NULL on I/O or syntax error (message on stderr). */
struct jv *jv_parse_file(const char *path);
void jv_free(struct jv *v);

/* Member of an object, or NULL (also if v is not an object). */
const struct jv *jv_get(const struct jv *v, const char *key);
/* String member or NULL. */
const char *jv_get_str(const struct jv *v, const char *key);
/* Numeric member, or dflt. */
double jv_get_num(const struct jv *v, const char *key, double dflt);
/* 1 if array member `key` contains string s. */
int jv_arr_has_str(const struct jv *v, const char *key, const char *s);

#endif /* JSON_MIN_H */
