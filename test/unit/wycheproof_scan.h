/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal scanner for Wycheproof test-vector JSON files: walks the file
 * and hands every test object (the objects carrying a "tcId") to a
 * callback as a list of its string and number members.  Enough for the
 * flat "tests" arrays; not a general JSON parser.
 */
#ifndef WYCHEPROOF_SCAN_H
#define WYCHEPROOF_SCAN_H

#include <stddef.h>

#define WP_MAX_FIELDS 16

struct wp_field {
	char name[32];
	char *value;		/* malloc'ed, NUL-terminated, unescaped */
};

struct wp_test {
	int tc_id;
	int n_fields;
	struct wp_field f[WP_MAX_FIELDS];
	int group_key_size;	/* "keySize" of the enclosing group, or 0 */
};

/* Value of member @name, or NULL. */
const char *wp_get(const struct wp_test *t, const char *name);

/*
 * Calls @cb for every test in @path.  Returns the number of tests, or -1
 * if the file cannot be read (errno set) or is not in the expected shape.
 */
int wp_scan_file(const char *path,
		 int (*cb)(const struct wp_test *t, void *arg), void *arg);

/* Decodes hex @s into a malloc'ed buffer; *len gets its size. NULL on bad hex. */
unsigned char *wp_unhex(const char *s, size_t *len);

#endif
