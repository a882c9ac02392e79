// SPDX-License-Identifier: GPL-2.0
/* Minimal recursive-descent JSON reader, see json_min.h. */
#include "json_min.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	const char *p, *end;
	int err;
};

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && isspace((unsigned char)*ps->p))
		ps->p++;
}

static struct jv *new_jv(enum jv_type t)
{
	struct jv *v = calloc(1, sizeof(*v));

	if (!v) {
		perror("calloc");
		exit(2);
	}
	v->type = t;
	return v;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		perror("realloc");
		exit(2);
	}
	return p;
}

static char *parse_string(struct parser *ps)
{
	size_t cap = 16, len = 0;
	char *s = xrealloc(NULL, cap);

	ps->p++; /* opening quote */
	while (ps->p < ps->end && *ps->p != '"') {
		char c = *ps->p++;

		if (c == '\\' && ps->p < ps->end) {
			char e = *ps->p++;

			switch (e) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u':
				/* keep "\u" verbatim, the hex follows */
				if (len + 2 >= cap)
					s = xrealloc(s, cap *= 2);
				s[len++] = '\\';
				c = 'u';
				break;
			default: c = e; break;
			}
		}
		if (len + 1 >= cap)
			s = xrealloc(s, cap *= 2);
		s[len++] = c;
	}
	if (ps->p >= ps->end) {
		ps->err = 1;
		free(s);
		return NULL;
	}
	ps->p++; /* closing quote */
	s[len] = 0;
	return s;
}

static struct jv *parse_value(struct parser *ps, int depth);

static struct jv *parse_container(struct parser *ps, int depth, int is_obj)
{
	struct jv *v = new_jv(is_obj ? JV_OBJ : JV_ARR);
	char close = is_obj ? '}' : ']';

	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return v;
	}
	for (;;) {
		char *key = NULL;
		struct jv *item;

		skip_ws(ps);
		if (is_obj) {
			if (ps->p >= ps->end || *ps->p != '"')
				goto bad;
			key = parse_string(ps);
			if (!key)
				goto bad;
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				free(key);
				goto bad;
			}
			ps->p++;
		}
		item = parse_value(ps, depth + 1);
		if (!item) {
			free(key);
			goto bad;
		}
		v->items = xrealloc(v->items, (v->n + 1) * sizeof(*v->items));
		if (is_obj)
			v->keys = xrealloc(v->keys, (v->n + 1) * sizeof(*v->keys));
		v->items[v->n] = item;
		if (is_obj)
			v->keys[v->n] = key;
		v->n++;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return v;
		}
		goto bad;
	}
bad:
	ps->err = 1;
	jv_free(v);
	return NULL;
}

static struct jv *parse_value(struct parser *ps, int depth)
{
	struct jv *v;

	skip_ws(ps);
	if (ps->p >= ps->end || depth > 64) {
		ps->err = 1;
		return NULL;
	}
	switch (*ps->p) {
	case '{':
		return parse_container(ps, depth, 1);
	case '[':
		return parse_container(ps, depth, 0);
	case '"':
		v = new_jv(JV_STR);
		v->str = parse_string(ps);
		if (!v->str) {
			free(v);
			return NULL;
		}
		return v;
	}
	if (ps->end - ps->p >= 4 && !strncmp(ps->p, "true", 4)) {
		ps->p += 4;
		v = new_jv(JV_BOOL);
		v->num = 1;
		return v;
	}
	if (ps->end - ps->p >= 5 && !strncmp(ps->p, "false", 5)) {
		ps->p += 5;
		return new_jv(JV_BOOL);
	}
	if (ps->end - ps->p >= 4 && !strncmp(ps->p, "null", 4)) {
		ps->p += 4;
		return new_jv(JV_NULL);
	}
	if (*ps->p == '-' || isdigit((unsigned char)*ps->p)) {
		char *e;

		v = new_jv(JV_NUM);
		v->num = strtod(ps->p, &e);
		if (e > ps->end || e == ps->p) {
			free(v);
			ps->err = 1;
			return NULL;
		}
		ps->p = e;
		return v;
	}
	ps->err = 1;
	return NULL;
}

struct jv *jv_parse_file(const char *path)
{
	struct parser ps = { 0 };
	struct jv *v;
	char *buf;
	long len;
	FILE *f = fopen(path, "rb");

	if (!f) {
		perror(path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(len + 1);
	if (!buf || fread(buf, 1, len, f) != (size_t)len) {
		fprintf(stderr, "%s: read error\n", path);
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[len] = 0;
	ps.p = buf;
	ps.end = buf + len;
	v = parse_value(&ps, 0);
	skip_ws(&ps);
	if (v && (ps.err || ps.p != ps.end)) {
		jv_free(v);
		v = NULL;
	}
	if (!v)
		fprintf(stderr, "%s: JSON syntax error\n", path);
	free(buf);
	return v;
}

void jv_free(struct jv *v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < v->n; i++) {
		jv_free(v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	free(v);
}

const struct jv *jv_get(const struct jv *v, const char *key)
{
	size_t i;

	if (!v || v->type != JV_OBJ)
		return NULL;
	for (i = 0; i < v->n; i++)
		if (!strcmp(v->keys[i], key))
			return v->items[i];
	return NULL;
}

const char *jv_get_str(const struct jv *v, const char *key)
{
	const struct jv *m = jv_get(v, key);

	return m && m->type == JV_STR ? m->str : NULL;
}

double jv_get_num(const struct jv *v, const char *key, double dflt)
{
	const struct jv *m = jv_get(v, key);

	return m && m->type == JV_NUM ? m->num : dflt;
}

int jv_arr_has_str(const struct jv *v, const char *key, const char *s)
{
	const struct jv *a = jv_get(v, key);
	size_t i;

	if (!a || a->type != JV_ARR)
		return 0;
	for (i = 0; i < a->n; i++)
		if (a->items[i]->type == JV_STR && !strcmp(a->items[i]->str, s))
			return 1;
	return 0;
}
