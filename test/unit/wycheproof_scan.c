// SPDX-License-Identifier: GPL-2.0
/* Minimal Wycheproof JSON scanner; see wycheproof_scan.h. */
#include "wycheproof_scan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 16

struct frame {
	int is_obj;
	int key_size;
	struct wp_test t;
};

struct scanner {
	const char *p, *end;
	struct frame st[MAX_DEPTH];
	int depth;
};

const char *wp_get(const struct wp_test *t, const char *name)
{
	int i;

	for (i = 0; i < t->n_fields; i++)
		if (!strcmp(t->f[i].name, name))
			return t->f[i].value;
	return NULL;
}

static void skip_ws(struct scanner *s)
{
	while (s->p < s->end && strchr(" \t\r\n", *s->p))
		s->p++;
}

/* Reads a JSON string at s->p (at the opening quote); malloc'ed result. */
static char *read_string(struct scanner *s)
{
	size_t cap = 64, n = 0;
	char *out = malloc(cap);

	if (!out)
		return NULL;
	s->p++;
	while (s->p < s->end && *s->p != '"') {
		char c = *s->p++;

		if (c == '\\' && s->p < s->end) {
			c = *s->p++;
			if (c == 'u') {		/* keep \uXXXX undecoded: '?' */
				s->p += 4;
				c = '?';
			} else if (c == 'n') {
				c = '\n';
			} else if (c == 't') {
				c = '\t';
			}
		}
		if (n + 2 > cap) {
			char *o = realloc(out, cap *= 2);

			if (!o) {
				free(out);
				return NULL;
			}
			out = o;
		}
		out[n++] = c;
	}
	if (s->p >= s->end) {
		free(out);
		return NULL;
	}
	s->p++;
	out[n] = 0;
	return out;
}

static char *read_literal(struct scanner *s)
{
	const char *b = s->p;
	char *out;

	while (s->p < s->end && !strchr(",}] \t\r\n", *s->p))
		s->p++;
	out = malloc(s->p - b + 1);
	if (out) {
		memcpy(out, b, s->p - b);
		out[s->p - b] = 0;
	}
	return out;
}

static void free_test(struct wp_test *t)
{
	int i;

	for (i = 0; i < t->n_fields; i++)
		free(t->f[i].value);
	t->n_fields = 0;
}

/* Stores member @name = @value (owned) in the current object frame. */
static void store(struct scanner *s, const char *name, char *value)
{
	struct frame *f = &s->st[s->depth - 1];

	if (!f->is_obj || !name || f->t.n_fields == WP_MAX_FIELDS) {
		free(value);
		return;
	}
	if (!strcmp(name, "keySize"))
		f->key_size = atoi(value);
	if (!strcmp(name, "tcId"))
		f->t.tc_id = atoi(value);
	snprintf(f->t.f[f->t.n_fields].name, sizeof(f->t.f[0].name), "%s",
		 name);
	f->t.f[f->t.n_fields++].value = value;
}

static int close_frame(struct scanner *s,
		       int (*cb)(const struct wp_test *, void *), void *arg,
		       int *count)
{
	struct frame *f = &s->st[--s->depth];
	int ret = 0, i;

	if (f->is_obj && wp_get(&f->t, "tcId")) {
		for (i = s->depth - 1; i >= 0; i--)
			if (s->st[i].key_size) {
				f->t.group_key_size = s->st[i].key_size;
				break;
			}
		ret = cb(&f->t, arg);
		(*count)++;
	}
	free_test(&f->t);
	return ret;
}

int wp_scan_file(const char *path,
		 int (*cb)(const struct wp_test *t, void *arg), void *arg)
{
	struct scanner s = { 0 };
	char *buf, *name = NULL;
	FILE *fp = fopen(path, "rb");
	long size;
	int count = 0, bad = 0;

	if (!fp)
		return -1;
	fseek(fp, 0, SEEK_END);
	size = ftell(fp);
	rewind(fp);
	buf = malloc(size > 0 ? size : 1);
	if (!buf || fread(buf, 1, size, fp) != (size_t)size) {
		fclose(fp);
		free(buf);
		return -1;
	}
	fclose(fp);
	s.p = buf;
	s.end = buf + size;

	for (skip_ws(&s); s.p < s.end && !bad; skip_ws(&s)) {
		char c = *s.p;

		if (c == '{' || c == '[') {
			if (s.depth == MAX_DEPTH) {
				bad = 1;
				break;
			}
			memset(&s.st[s.depth], 0, sizeof(s.st[0]));
			s.st[s.depth++].is_obj = c == '{';
			s.p++;
			free(name);
			name = NULL;
		} else if (c == '}' || c == ']') {
			if (!s.depth) {
				bad = 1;
				break;
			}
			s.p++;
			if (close_frame(&s, cb, arg, &count))
				bad = 1;
		} else if (c == ',' || c == ':') {
			s.p++;
		} else {
			char *v = c == '"' ? read_string(&s) : read_literal(&s);

			if (!v || !s.depth) {
				free(v);
				bad = 1;
				break;
			}
			skip_ws(&s);
			if (s.st[s.depth - 1].is_obj && !name && s.p < s.end &&
			    *s.p == ':') {
				name = v;		/* a member name */
				continue;
			}
			store(&s, name, v);
			free(name);
			name = NULL;
		}
	}
	free(name);
	while (s.depth)
		free_test(&s.st[--s.depth].t);
	free(buf);
	if (bad) {
		errno = EINVAL;
		return -1;
	}
	return count;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

unsigned char *wp_unhex(const char *s, size_t *len)
{
	size_t n = strlen(s), i;
	unsigned char *out;

	if (n % 2)
		return NULL;
	out = malloc(n / 2 + 1);	/* never malloc(0) */
	if (!out)
		return NULL;
	for (i = 0; i < n / 2; i++) {
		int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			free(out);
			return NULL;
		}
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	*len = n / 2;
	return out;
}
